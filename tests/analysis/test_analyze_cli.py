"""``kabale analyze`` and ``kabale report`` as a user runs them (``python -m kabale``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kabale.analysis import analyze, job_for
from kabale.analysis.players import play_bot, play_random, play_solver
from kabale.storage.results import ResultStore


def kabale(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kabale", *args], capture_output=True,
                          text=True, timeout=300)


def test_analyze_prints_every_deal_then_the_summary(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    first = kabale("analyze", "spiderette:foundations=cards", "--seeds", "1-3", "--player",
                   "solver", "--nodes", "300000", "--db", db, "--jobs", "1")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("spiderette:foundations=cards  solver nodes=300000  3 deals: ")
    assert "(3 played now, 0 already in " in first.stdout
    second = kabale("analyze", "spiderette:foundations=cards", "--seeds", "2-4", "--player",
                    "solver", "--nodes", "300000", "--db", db, "--jobs", "1", "--json")
    lines = [json.loads(line) for line in second.stdout.splitlines()]
    assert [row["seed"] for row in lines[:-1]] == [2, 3, 4]
    assert set(lines[0]) == {"variant", "seed", "player", "budget", "result", "moves", "nodes",
                             "seconds", "version"}
    assert lines[-1]["played"] == 1 and lines[-1]["summary"]["seeds"] == "2-4"
    report = kabale("report", "--db", db, "--out", str(tmp_path / "out"))
    assert report.returncode == 0 and Path(report.stdout.strip()).read_text().startswith("# Win")


@pytest.mark.parametrize(("args", "words"), [
    (["nosuch", "--seeds", "1", "--player", "solver"], "unknown variant 'nosuch'"),
    (["klondike", "--seeds", "1", "--player", "bot", "--nodes", "5"],
     "--nodes is the solver's budget; the bot player takes --effort"),
    (["klondike", "--seeds", "1", "--player", "solver", "--effort", "quick"],
     "--effort is the bot's budget; the solver player takes --nodes"),
    (["klondike", "--seeds", "1", "--player", "random", "--nodes", "5"],
     "the random player takes no budget"),
    (["klondike", "--seeds", "1", "--player", "solver", "--nodes", "0"], "bad --nodes 0"),
    (["klondike", "--seeds", "5-2", "--player", "solver"], "bad --seeds range '5-2'"),
    (["klondike", "--seeds", f"{2**63}", "--player", "solver"], "deal numbers up to"),
    (["klondike", "--seeds", "1", "--player", "solver", "--scheduler", "tcp://x:1"],
     "--scheduler is for the dask and ray engines"),
    (["klondike", "--seeds", "1", "--player", "solver", "--jobs", "0"], "bad --jobs 0"),
    (["klondike", "--seeds", "1", "--player", "genius"], "invalid choice: 'genius'"),
    (["klondike", "--seeds", "1", "--player", "solver", "--engine", "spark"],
     "invalid choice: 'spark'"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], words: str) -> None:
    db = tmp_path / "a.db"
    result = kabale("analyze", *args, "--db", str(db))
    assert result.returncode == 2 and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""
    assert not db.exists() or ResultStore(db).rows() == []


def test_a_database_that_cannot_be_made_is_named(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = kabale("analyze", "klondike", "--seeds", "1", "--player", "random", "--db",
                    str(blocker / "a.db"))
    assert result.returncode == 2 and "cannot open the analysis database" in result.stderr


def test_report_on_a_missing_database_is_an_error_that_creates_nothing(tmp_path: Path) -> None:
    """It used to create the folder and an empty database, and exit 0 (issue 43 item 10)."""
    db = tmp_path / "missing" / "a.db"
    result = kabale("report", "--db", str(db), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert result.stderr == (f"kabale: report: no analysis database at {str(db)!r} (run "
                             "kabale analyze first, or name one with --db FILE)\n")
    assert list(tmp_path.iterdir()) == []


def test_an_engine_that_fails_to_start_leaves_no_database(tmp_path: Path) -> None:
    """A failed --engine (here ray, not installed, or a dask scheduler nobody runs) left
    an empty database file behind (issue 46 item 9)."""
    db = tmp_path / "new" / "a.db"
    result = kabale("analyze", "klondike", "--seeds", "1-3", "--player", "random", "--engine",
                    "ray", "--db", str(db))
    assert result.returncode == 2 and "ray" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_each_player_gives_the_same_row_twice() -> None:
    solver = job_for("klondike:draw=3,open=true", "solver", nodes=200_000)
    bot = job_for("spiderette:foundations=cards", "bot", effort="quick")
    rand = job_for("klondike", "random")
    for job, play in ((solver, play_solver), (bot, play_bot), (rand, play_random)):
        first, again = play(job, 4), play(job, 4)
        assert (first.result, first.moves, first.nodes) == (again.result, again.moves,
                                                            again.nodes)
        assert first.seconds > 0 and first.version
    assert play_solver(solver, 4).result == "solved" and play_solver(solver, 4).moves > 50
    assert play_random(rand, 4).moves == 1000  # random Klondike play cycles: capped
    assert play_bot(bot, 4).result in ("won", "lost", "gave up")


def test_a_solver_win_is_a_line_core_plays_to_the_end(tmp_path: Path) -> None:
    from kabale import Game
    from kabale.solver.batch import solve_states

    store = ResultStore(tmp_path / "a.db")
    job = job_for("klondike:open=true", "solver", nodes=100_000)
    row = analyze(job, [1], store, progress=None).rows[0]
    game = Game.new("klondike:open=true", 1)
    line = solve_states(game.variant, [game.state], 100_000, lines=True)[0].line
    for move in line:
        game.play(move)
    assert row.result == "solved" and game.outcome == "won"
    assert 0 < row.moves <= len(line)  # the line with its loops cut out
