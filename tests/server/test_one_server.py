"""The real ``kabale play`` process: one server per database, what it says about a bad
database or port, and the Host rule on a real socket (where the port is the socket's own)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from liveserver import LiveServer, free_port


def play(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """``kabale play --no-browser ARGS``, expected to stop by itself."""
    return subprocess.run([sys.executable, "-m", "kabale", "play", "--no-browser", *args],
                          capture_output=True, text=True, timeout=timeout, check=False)


def test_a_second_server_on_a_database_names_the_first_and_stops(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    first = LiveServer(db).start()
    try:
        second = play("--db", str(db), "--port", str(free_port()))
        assert second.returncode == 2
        assert len(second.stderr.splitlines()) == 1 and "Traceback" not in second.stderr
        assert f"{first.url}/" in second.stderr and "in use" in second.stderr
        assert second.stdout == ""
        assert httpx.get(first.url + "/api/variants", timeout=10).status_code == 200
    finally:
        first.kill9()  # no clean-up code runs: the system drops the lock all the same
    again = LiveServer(db).start()
    try:
        assert httpx.get(again.url + "/api/variants", timeout=10).status_code == 200
    finally:
        again.stop()
    other = LiveServer(tmp_path / "other.db").start()  # another database: no conflict
    other.stop()


def test_an_empty_database_file_is_named_on_start(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    db.write_bytes(b"")
    server = LiveServer(db).start()
    try:
        assert "warning" in server.output and "0 bytes" in server.output
    finally:
        server.stop()


def test_bad_ports_and_database_paths_exit_2_with_one_line(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    db = str(tmp_path / "games.db")
    for args, named in ((("--db", db, "--port", "99999"), "99999"),
                        (("--db", db, "--port", "-1"), "-1"),
                        (("--db", str(a_file / "games.db")), str(a_file))):
        result = play(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
        assert named in result.stderr, result.stderr
    assert not Path(db).exists()  # refused before anything was opened


def test_the_real_server_refuses_a_rebound_host(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "games.db").start()
    port = server.url.rpartition(":")[2]
    try:
        with httpx.Client(timeout=10) as client:
            assert client.get(server.url + "/").status_code == 200
            assert client.get(f"http://localhost:{port}/").status_code == 200
            evil = client.get(server.url + "/", headers={"Host": f"evil.example:{port}"})
            assert evil.status_code == 403 and "Host" in evil.json()["error"]
    finally:
        server.stop()


@pytest.mark.skipif(sys.platform == "win32", reason="the lock on the file itself is flock")
def test_a_second_server_through_a_link_to_the_database_stops(tmp_path: Path) -> None:
    # Keyed by file name, the lock let a server through a symbolic link lose 2 of 3 moves
    # and one through a hard link (a WAL of its own) lose half the games (issue 43).
    db = tmp_path / "games.db"
    first = LiveServer(db).start()
    try:
        (tmp_path / "soft.db").symlink_to(db)
        os.link(db, tmp_path / "hard.db")
        for name in ("soft.db", "hard.db"):
            second = play("--db", str(tmp_path / name), "--port", str(free_port()))
            assert second.returncode == 2, second.stdout + second.stderr
            assert "in use" in second.stderr and "Traceback" not in second.stderr
        assert httpx.get(first.url + "/api/variants", timeout=10).status_code == 200
    finally:
        first.stop()
