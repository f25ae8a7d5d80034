"""Every option of every command says what it does in --help, and ``kabale variants`` says
what passes=0 means (issue 46 item 9: deal --seed, play --seed, --no-browser, --engine had
no help, or a help that said nothing)."""

from __future__ import annotations

import argparse

from kabale.cli import build_parser, variant_lines


def test_every_argument_of_every_command_has_a_help_text() -> None:
    parser = build_parser("all")
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [f"{name} {action.dest}" for name, sub in commands.choices.items()
               for action in sub._actions
               if action.dest != "help" and not (action.help or "").strip()]
    assert missing == []
    engine = next(a for a in commands.choices["analyze"]._actions if a.dest == "engine")
    assert engine.help is not None and "dask" in engine.help and len(engine.help) > 20


def test_variants_says_that_passes_0_is_unlimited() -> None:
    assert "    passes=0|1|3  (0: unlimited passes through the stock)" in variant_lines()
