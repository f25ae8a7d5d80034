"""A run killed mid-way resumes where it was: every deal once, none played twice."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kabale.analysis import analyze, job_for
from kabale.storage.results import ResultStore

VARIANT = "klondike:draw=3,open=true"
ARGS = [VARIANT, "--seeds", "1-400", "--player", "solver", "--nodes", "200000", "--jobs", "1"]


def count(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path) as db:
            return int(db.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # the table is not made yet
        return 0


@pytest.mark.slow
def test_a_killed_run_resumes_with_the_deals_it_lacks(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    run = subprocess.Popen([sys.executable, "-m", "kabale", "analyze", *ARGS, "--db", str(db)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while count(db) == 0 and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        os.killpg(run.pid, signal.SIGKILL)  # as a crash or `kill -9` would
        run.wait()
    kept = {row.seed: row for row in ResultStore(db).rows()}
    assert 0 < len(kept) < 400, "the first run was not stopped mid-way"
    resumed = subprocess.run([sys.executable, "-m", "kabale", "analyze", *ARGS, "--db", str(db),
                              "--json"], capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    lines = [json.loads(line) for line in resumed.stdout.splitlines()]
    rows, last = lines[:-1], lines[-1]
    assert [row["seed"] for row in rows] == list(range(1, 401))  # every deal once, in order
    assert last["played"] == 400 - len(kept) and last["summary"]["deals"] == 400
    for row in rows:  # the rows from before the kill are the ones kept, not played again
        if row["seed"] in kept:
            assert row == kept[row["seed"]].to_dict()
    assert count(db) == 400


def test_a_finished_run_plays_nothing_again(tmp_path: Path) -> None:
    store = ResultStore(tmp_path / "runs.db")
    job = job_for("spiderette:foundations=cards", "random")
    first = analyze(job, [3, 1, 2], store, progress=None)
    again = analyze(job, [1, 2, 3, 4], store, progress=None)
    assert first.played == 3 and again.played == 1
    assert [row.seed for row in first.rows] == [3, 1, 2]  # the order asked for
    assert again.rows[:3] == sorted(first.rows, key=lambda row: row.seed)
