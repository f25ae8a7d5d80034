"""An in-process client that talks as the page does: to the server's loopback address and
port (the Host rule of DESIGN.md §3c), declaring JSON on every request (the POST rule)."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.testclient import TestClient

#: The port the in-process client says it talks to (no socket is opened).
PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"


def local_client(app: Starlette, raise_server_exceptions: bool = False) -> TestClient:
    """A TestClient for ``app`` (use it in a ``with`` block)."""
    return TestClient(app, base_url=BASE, raise_server_exceptions=raise_server_exceptions,
                      headers={"Content-Type": "application/json"})
