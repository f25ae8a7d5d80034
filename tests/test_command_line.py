"""The real ``kabale`` command (``python -m kabale``) in a subprocess: variants, deal, play --text.

DESIGN.md §4: exit 0 when all is well, 2 on bad usage or input with a one-line message on
stderr and never a traceback.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import textwrap
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from kabale import Game
from kabale.cli import play_text
from kabale.core.notation import format_game_log
from kabale.core.persist import state_to_dict
from kabale.core.variants import ALIASES, OPTIONS

CARD = re.compile(r"^(?:[A2-9TJQK][SHDC])$", re.IGNORECASE)


def kabale(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``python -m kabale ARGS`` with ``stdin`` piped in; never raises on exit status."""
    return subprocess.run([sys.executable, "-m", "kabale", *args], input=stdin,
                          capture_output=True, text=True, timeout=60, check=False)


def headers(stdout: str) -> list[str]:
    """The header line of every table printed (deal id, score, moves, outcome)."""
    return [line for line in stdout.splitlines() if re.search(r"\bmoves \d+\b", line)]


# --------------------------------------------------------------------------- variants, deal
def test_variants_lists_every_id_option_and_alias() -> None:
    result = kabale("variants")
    assert result.returncode == 0 and result.stderr == ""
    for name in [*OPTIONS, *ALIASES]:
        assert re.search(rf"^\s*{re.escape(name)}\b", result.stdout, re.MULTILINE), name
    for family, spec in OPTIONS.items():
        for option in spec:
            assert f"{option}=" in result.stdout, (family, option)
    assert "vegas" in result.stdout and "klondike:draw=3,passes=3,scoring=vegas" in result.stdout


def test_deal_prints_every_card_once_face_down_ones_in_lower_case() -> None:
    result = kabale("deal", "klondike", "--seed", "1")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.splitlines()[0].startswith("klondike#1")
    tokens = [t for t in result.stdout.replace(":", " ").split() if CARD.match(t)]
    assert Counter(t.upper() for t in tokens) == Counter(
        str(c) for c in Game.new("klondike", 1).state.all_cards())
    assert sum(t != t.upper() for t in tokens) == 21  # the face-down cards of columns 2..7
    assert "10" not in result.stdout  # tens print as T


def test_deal_json_is_the_library_deal_and_reproducible() -> None:
    first = kabale("deal", "spider-2", "--seed", "42", "--json")
    second = kabale("deal", "spider:suits=2", "--seed", "42", "--json")
    assert first.returncode == 0 and first.stderr == "" and first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert data["deal_id"] == "spider:suits=2#42" and data["seed"] == 42
    assert data["variant"] == "spider:suits=2"
    assert data["position"] == state_to_dict(Game.new("spider:suits=2", 42).state)


def test_deal_without_seed_names_the_seed_it_picked() -> None:
    data = json.loads(kabale("deal", "vegas", "--json").stdout)
    assert data["variant"] == "klondike:draw=3,passes=3,scoring=vegas"
    assert data["deal_id"] == f"{data['variant']}#{data['seed']}"
    assert data["position"] == state_to_dict(Game.from_deal_id(data["deal_id"]).state)


# --------------------------------------------------------------------------- play --text
def test_play_text_moves_undo_redo_legal_list_and_quit() -> None:
    result = kabale("play", "--text", "klondike", "--seed", "1",
                    stdin="?\n7>f\nu\nr\n3>6\nq\n4>6\n")
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert "7>f 3>6 4>6 7>2 d" in lines  # '?' lists the legal moves
    assert "undo 7>f" in lines and "redo 7>f" in lines
    moves = [int(re.search(r"moves (\d+)", h).group(1)) for h in headers(result.stdout)]
    assert moves == [0, 1, 0, 1, 2]  # start, 7>f, u, r, 3>6; nothing after q
    game = Game.new("klondike", 1)
    game.play("7>f")
    game.play("3>6")
    assert result.stdout.rstrip().endswith(str(game))


def test_play_text_replays_a_game_log_whose_first_line_is_a_deal_id() -> None:
    game = Game.new("spiderette", 7)
    for move in ("1>4", "3>2", "5>6"):
        game.play(move)
    log = format_game_log(game.deal_id, [str(m) for m in game.history])
    result = kabale("play", "--text", stdin=log)
    assert result.returncode == 0 and result.stderr == ""
    assert headers(result.stdout)[0].startswith("spiderette#7")
    assert result.stdout.rstrip().endswith(str(game))


def test_play_text_game_log_may_hold_comment_lines() -> None:
    # notation.parse_game_log: blank lines and lines starting with '#' or ';' after the deal
    # id are ignored; a log read by the CLI should follow the same grammar.
    result = kabale("play", "--text", stdin="klondike#1\n# opening\n7>f\n; then\n\n3>6\n")
    assert result.returncode == 0, result.stdout[-300:] + result.stderr
    assert "moves 2" in headers(result.stdout)[-1]


def test_play_text_illegal_move_exits_2_with_one_line_on_stderr() -> None:
    result = kabale("play", "--text", "klondike", "--seed", "1", stdin="7>f\n1>2\n3>6\n")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    assert len(result.stderr.splitlines()) == 1, (result.stderr, result.stdout[-200:])
    assert "1>2" in result.stderr
    assert "moves 2" not in result.stdout  # the move after the bad one was not played


def test_play_text_malformed_move_exits_2_with_one_line_on_stderr() -> None:
    result = kabale("play", "--text", "spider", "--seed", "3", stdin="banana\n")
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and "banana" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


# --------------------------------------------------------------------------- bad usage
BAD_USAGE = [
    (),
    ("frobnicate",),
    ("deal",),
    ("deal", "nonsense", "--seed", "1"),
    ("deal", "klondike:draw=2", "--seed", "1"),
    ("deal", "spider:colour=red"),
    ("deal", "klondike", "--seed", "x"),
    ("deal", "klondike", "--seed", "-1"),
    ("deal", "klondike", "--seed", str(2**64)),
    ("deal", "klondike", "--json", "--format", "text"),
    ("play", "--text", "nonsense"),
    ("play", "--text", "klondike", "--seed", "-5"),
    ("variants", "extra"),
    ("play", "--port", "99999"),
    ("play", "--port", "x"),
]


def test_bad_usage_exits_2_with_exactly_one_line_on_stderr() -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda args: kabale(*args), BAD_USAGE))
    for args, result in zip(BAD_USAGE, results, strict=True):
        assert result.returncode == 2, (args, result.returncode, result.stderr)
        assert len(result.stderr.splitlines()) == 1, (args, result.stderr)
        assert "Traceback" not in result.stderr, args
        assert result.stdout == "", args


@pytest.mark.parametrize(("args", "named"), [
    (("deal", "nonsense"), ["nonsense", "klondike", "spider"]),
    (("deal", "klondike:draw=2"), ["draw", "1|3"]),
    (("deal", "klondike", "--seed", "-1"), ["-1"]),
])
def test_bad_input_message_names_the_input_and_the_valid_choices(args: tuple[str, ...],
                                                                  named: list[str]) -> None:
    result = kabale(*args)
    assert result.returncode == 2
    for word in named:
        assert word in result.stderr, result.stderr


def test_version_prints_the_package_version() -> None:
    import kabale as package

    result = kabale("--version")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.strip() == f"kabale {package.__version__}"


@pytest.mark.parametrize("deal_id", ["klondike#³", "klondike#①", "klondike#" + "9" * 5000])
def test_play_text_refuses_a_bad_deal_id_in_one_line(deal_id: str) -> None:
    result = kabale("play", "--text", stdin=f"{deal_id}\nd\n")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1 and "bad deal id" in result.stderr


def test_play_text_keeps_a_random_deal_secret_even_in_a_lost_position(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # The random number drawn is 12: deal 12 with one pass is lost after 24 draws. A lost
    # position can be undone ("u"), so its deal id, which gives every hidden card, stays
    # secret (issue 43: only a won game shows it by itself).
    monkeypatch.setattr("kabale.core.game.random_seed", lambda: 12)
    assert play_text("klondike:passes=1", None, io.StringIO("d\n" * 24), sys.stdout) == 0
    lines = capsys.readouterr().out.splitlines()
    headers = [line for line in lines if re.search(r"\bmoves \d+\b", line)]
    assert all(h.startswith("klondike:passes=1#? (secret deal)") for h in headers)
    assert headers[-1].endswith("lost") and not any("#12" in line for line in lines)


def test_ctrl_c_while_kabale_is_still_being_imported_is_one_line_and_130() -> None:
    """The command's entry point (kabale._entry, the console script's and ``python -m
    kabale``'s) takes Ctrl-C from the moment it runs: an interrupt while kabale.cli and the
    rules are still being imported (the first ~50 ms, where it used to print Python's
    traceback) is one line and status 130. Here the interrupt arrives exactly then."""
    code = textwrap.dedent("""
        import importlib.abc, os, signal, sys

        class InterruptTheImport(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name == "kabale.cli":
                    os.kill(os.getpid(), signal.SIGINT)
                return None

        sys.meta_path.insert(0, InterruptTheImport())
        sys.argv = ["kabale", "solve", "klondike"]
        from kabale._entry import main
        sys.exit(main())
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 130, result.stderr
    assert result.stderr == "kabale solve: stopped by Ctrl-C while starting; nothing was done\n"
    assert result.stdout == ""
