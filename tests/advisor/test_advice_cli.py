"""kabale hint and kabale autoplay, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def kabale(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kabale", *args], input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_hint_reads_a_game_log_from_stdin() -> None:
    done = kabale("hint", "--effort", "quick", "--json",
                  stdin="; a comment\nklondike:draw=3#5\nd\n")
    assert done.returncode == 0, done.stderr
    advice = json.loads(done.stdout)
    assert advice["move"] in [m for m, _ in advice["moves"]]
    assert 0 <= advice["chance"] <= 1


def test_hint_reads_a_file_and_prints_words(tmp_path) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "game.txt"
    log.write_text("spiderette#3\n")
    done = kabale("hint", str(log), "--effort", "quick")
    assert done.returncode == 0, done.stderr
    assert "worlds tried" in done.stdout.splitlines()[0]


@pytest.mark.parametrize(("log", "message"), [
    ("klondike#7\n9>9\n", "line 2: "),
    ("", "holds no game log"),
    ("klondike#x\n", "line 1: bad deal id"),
])
def test_a_bad_log_is_one_line_and_exit_2(log: str, message: str) -> None:
    done = kabale("hint", stdin=log)
    assert done.returncode == 2 and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_autoplay_prints_each_deal_and_the_rate() -> None:
    done = kabale("autoplay", "klondike:open=true", "--seeds", "1-2", "--effort", "quick",
                  "--json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["deal_id"] for line in lines[:2]] == ["klondike:open=true#1",
                                                      "klondike:open=true#2"]
    assert lines[2]["played"] == 2
    assert lines[2]["won"] == sum(line["result"] == "won" for line in lines[:2])


@pytest.mark.parametrize("args", [["autoplay", "klondike", "--seeds", "5-2"],
                                  ["autoplay", "klondike", "--seeds", "x"],
                                  ["autoplay", "nothing"],
                                  ["hint", "--effort", "heroic"]])
def test_bad_arguments_exit_2(args: list[str]) -> None:
    done = kabale(*args)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
