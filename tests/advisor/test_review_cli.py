"""kabale review LOG, run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from advice_games import played


def kabale(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kabale", *args], input=stdin,
                          capture_output=True, text=True, timeout=300)


def log_of(variant: str, seed: int, moves: int) -> str:
    game = played(variant, seed, moves)
    return "\n".join([f"{variant}#{seed}", *(str(m) for m in game.history)]) + "\n"


def test_review_prints_each_move_and_the_accuracy(tmp_path: Path) -> None:
    log = tmp_path / "game.txt"
    log.write_text(log_of("klondike", 3, 20))
    done = kabale("review", str(log), "--effort", "quick")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("   1. ")
    assert sum(line[4:6] == ". " for line in lines) == 20
    assert any(line.startswith("accuracy ") for line in lines)


def test_review_json_from_stdin_is_the_library_review() -> None:
    log = log_of("spiderette", 2, 20)
    done = kabale("review", "--json", "--seed", "4", stdin=log)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["effort"] == "quick" and data["seed"] == 4
    assert [d["move"] for d in data["decisions"]] == log.split()[1:]
    assert data["postmortem"] is not None  # the log names the deal: nothing is hidden
    assert data["deal_id"] == "spiderette#2"


def test_a_bad_log_is_one_line_and_exit_2() -> None:
    done = kabale("review", stdin="klondike#7\n9>9\n")
    assert done.returncode == 2 and "line 2: " in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
