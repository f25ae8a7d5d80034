"""``kabale play`` without --port asks for one fixed port, 8765, so its address stays the
same between runs, and falls back to a free one, saying so, when that one is taken (issue
46 item 9: it used to take a random port every run)."""

from __future__ import annotations

import errno
import socket
import subprocess
import sys
from pathlib import Path

from kabale.server.launch import DEFAULT_PORT, bind


def hold(port: int) -> socket.socket | None:
    """A socket listening on ``port``, or None where another program already has it (the
    port is taken either way)."""
    sock = socket.socket()
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as error:
        sock.close()
        assert error.errno == errno.EADDRINUSE
        return None
    sock.listen(1)
    return sock


def test_the_default_port_is_8765_and_a_taken_one_falls_back(tmp_path: Path) -> None:
    assert DEFAULT_PORT == 8765
    busy = hold(DEFAULT_PORT)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "kabale", "play", "--no-browser",
                                 "--db", str(tmp_path / "games.db")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None and proc.stderr is not None
            announced = proc.stdout.readline()
            said = proc.stderr.readline()
        finally:
            proc.terminate()
            proc.communicate(timeout=30)
    finally:
        if busy is not None:
            busy.close()
    assert said == "port 8765 is taken; using a free one\n"
    assert "kabale is being served at http://127.0.0.1:" in announced
    assert ":8765/" not in announced


def test_bind_without_a_port_asks_for_the_default_one() -> None:
    busy = hold(DEFAULT_PORT)
    try:
        sock = bind(None)  # taken: a free one instead
        try:
            assert sock.getsockname()[1] != DEFAULT_PORT
        finally:
            sock.close()
    finally:
        if busy is not None:
            busy.close()
