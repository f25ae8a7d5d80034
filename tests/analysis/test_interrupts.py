"""Stopping ``kabale analyze`` with real signals (issue 46 item 4): Ctrl-C or SIGTERM says
how many deals were saved and where and exits 130 or 143, and no worker outlives it; after
``kill -9`` of the parent the pool's workers end too, instead of waiting for minutes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ARGS = ["klondike:draw=3", "--seeds", "1-100000", "--player", "solver", "--nodes", "200000",
        "--jobs", "2"]


def count(path: Path) -> int:
    """Rows stored in the analysis database (0 before it has its table)."""
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path) as db:
            return int(db.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def wait_until(condition: object, seconds: float) -> bool:
    """Poll ``condition`` (a callable) until true or ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


def start(db: Path) -> tuple[subprocess.Popen[str], list[int]]:
    """``kabale analyze`` under way with its workers: the process and the workers' ids
    once a chunk is stored."""
    run = subprocess.Popen([sys.executable, "-m", "kabale", "analyze", *ARGS, "--db", str(db)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    assert wait_until(lambda: count(db) > 0 or run.poll() is not None, 120)
    assert run.poll() is None, run.communicate()
    workers = [pid for pid in children(run.pid) if "spawn_main" in
               Path(f"/proc/{pid}/cmdline").read_text(errors="replace")]
    assert len(workers) == 2
    return run, workers


@pytest.mark.parametrize(("signum", "status", "name"),
                         [(signal.SIGINT, 130, "Ctrl-C"), (signal.SIGTERM, 143, "SIGTERM")])
def test_a_stopped_analysis_says_what_it_saved_and_exits_128_plus_the_signal(
        tmp_path: Path, signum: int, status: int, name: str) -> None:
    db = tmp_path / "runs.db"
    run, workers = start(db)
    # Ctrl-C reaches the whole foreground process group, the workers too
    os.killpg(run.pid, signum) if signum == signal.SIGINT else run.send_signal(signum)
    try:
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == status, err
    lines = err.splitlines()
    saved = count(db)
    assert 0 < saved < 100000
    assert f"kabale analyze: {saved} deals played now are saved in {db}" in lines[0], err
    assert lines[-1] == f"kabale analyze: stopped by {name}", err
    assert "Traceback" not in err
    assert out == ""
    assert not any(alive(pid) for pid in workers)


def test_the_workers_end_with_a_parent_killed_by_sigkill(tmp_path: Path) -> None:
    run, workers = start(tmp_path / "runs.db")
    run.kill()  # kill -9: no clean-up runs in the parent
    run.wait()
    # each worker looks for its parent twice a second; before, idle ones lived for minutes
    left = wait_until(lambda: not any(alive(pid) for pid in workers), 30)
    for pid in workers:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
    assert left, "pool workers outlived their parent"
