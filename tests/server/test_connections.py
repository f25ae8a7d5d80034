"""Half-open connections (issue 43, round two): a real uvicorn on 127.0.0.1 with the game's
connection settings closes a connection whose request does not arrive in full in time (it
held a thousand such connections open for ever), and still serves one that does."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from kabale.server.app import create_app
from kabale.server.connections import server_config
from kabale.server.launch import bind

#: the deadline the test server gives a request (the game's is REQUEST_SECONDS)
DEADLINE = 0.5
#: how long a test waits for the close before it calls the connection held for ever
PATIENCE = 20.0


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    app = create_app(str(tmp_path / "games.db"))
    sock = bind(0)
    server = uvicorn.Server(server_config(app, request_seconds=DEADLINE))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    yield sock.getsockname()[1]
    server.should_exit = True
    thread.join(10)
    sock.close()
    app.state.games.store.close()


def _closed_by_server(conn: socket.socket) -> bytes:
    """What the server sent before closing the connection; fails if it never closes."""
    conn.settimeout(PATIENCE)
    received = b""
    while True:
        try:
            chunk = conn.recv(4096)
        except TimeoutError:
            pytest.fail(f"the server held the connection open for {PATIENCE} s")
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk


@pytest.mark.parametrize("sent", [
    b"",                                                     # opens and says nothing
    b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1",        # half a request head
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json"
    b"\r\nContent-Length: 100\r\n\r\n{\"variant\"",          # half a body
])
def test_a_request_that_does_not_arrive_in_time_is_closed(port: int, sent: bytes) -> None:
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(sent.replace(b"{port}", str(port).encode()))
        assert b"201" not in _closed_by_server(conn)


def test_a_kept_alive_connection_that_starts_a_second_request_is_closed(port: int) -> None:
    head = f"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(head)
        conn.settimeout(PATIENCE)
        first = conn.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        conn.sendall(head[:20])  # then half of another
        _closed_by_server(conn)


def test_a_whole_request_is_answered(port: int) -> None:
    body = b'{"variant": "klondike", "seed": 3}'
    head = (f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: "
            f"application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(head.encode() + body)
        assert _closed_by_server(conn).startswith(b"HTTP/1.1 201")
