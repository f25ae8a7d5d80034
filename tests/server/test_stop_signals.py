"""``kabale play`` stopped by a real signal (issue 46 item 4): it used to die in silence on
SIGTERM with status 0; now it says where the games are saved and exits 143 (130 on Ctrl-C)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize(("signum", "status", "name"),
                         [(signal.SIGTERM, 143, "SIGTERM"), (signal.SIGINT, 130, "Ctrl-C")])
def test_play_says_it_stopped_and_where_the_games_are(tmp_path: Path, signum: int,
                                                      status: int, name: str) -> None:
    db = tmp_path / "games.db"
    proc = subprocess.Popen([sys.executable, "-m", "kabale", "play", "--no-browser", "--port",
                             "0", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        announced = proc.stdout.readline()  # printed once the socket listens
        assert "kabale is being served at http://127.0.0.1:" in announced, announced
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == status, err
    assert err.splitlines()[-2:] == [f"kabale play: the games are saved in {db}",
                                     f"kabale play: stopped by {name}"], err
    assert "Traceback" not in err
