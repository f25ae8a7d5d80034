"""Start the real web server (``python -m kabale play``) as a subprocess for tests and benches."""

from __future__ import annotations

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

URL = re.compile(r"http://127\.0\.0\.1:\d+")


def _pump(stream: IO[str], lines: queue.Queue[str]) -> None:
    """Copy the server's output lines into a queue ("" at the end), so reads can time out."""
    for line in stream:
        lines.put(line)
    lines.put("")


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class LiveServer:
    """``kabale play --no-browser`` on a given database and port; ``url`` once started."""

    def __init__(self, db: Path, port: int | None = None, *play_args: str) -> None:
        self.db = db
        self.port = port or free_port()
        self.play_args = play_args
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.announced = ""
        self.output = ""  # what it printed up to and with the URL line

    def start(self, timeout: float = 20.0) -> LiveServer:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        src = str(Path(__file__).resolve().parents[2] / "src")
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kabale", "play", *self.play_args, "--no-browser",
             "--port", str(self.port), "--db", str(self.db)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        assert self.proc.stdout is not None
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=_pump, args=(self.proc.stdout, lines), daemon=True).start()
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                break
            if not line:
                break
            seen.append(line)
            found = URL.search(line)
            if found:
                self.url, self.announced, self.output = found.group(0), line, "".join(seen)
                return self
        self.stop()
        raise RuntimeError("server did not start: " + "".join(seen))

    def stop(self) -> int | None:
        """Interrupt the server (as Ctrl+C does) and wait for it to exit."""
        if self.proc is None or self.proc.poll() is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()

    def kill9(self) -> None:
        """SIGKILL: no shutdown code runs, as after a crash or kill -9."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait()
