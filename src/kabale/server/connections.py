"""The server's HTTP connections: a request must arrive whole within a deadline.

uvicorn closes a connection left idle after an answer (``timeout_keep_alive``), but not one
that opens and sends nothing, or half a request line, headers or body: a thousand of those
held open cost a thousand sockets for as long as their sender likes. So every request, from
the connection's opening or its first byte, has ``REQUEST_SECONDS`` to arrive in full
(the page sends small bodies at once); a connection that misses the deadline is closed.
The time the server takes to answer is not counted: that is the advisor's to bound.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol

#: the most seconds a request may take to arrive (head and body)
REQUEST_SECONDS = 10.0
#: the most seconds an idle connection stays open after an answer (uvicorn's keep-alive).
#: Longer than a player's pause between moves and than a proxy's keep-alive to its upstream
#: (nginx: 60 s): a server that closes an idle connection just as the client sends on it
#: makes that request fail (at 5 s, 3 of 10,889 moves of bench/site_load.py's players, who
#: move every 2-5 s, were reset). An idle connection costs one socket for at most this long.
KEEP_ALIVE_SECONDS = 65
#: the biggest request head h11 buffers (bytes); a bigger one is answered 400
MAX_HEAD = 16 * 1024


class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request to arrive in full."""

    request_seconds = REQUEST_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self._between_requests():
            self._arm()  # the first byte of the next request on a kept-alive connection
        super().data_received(data)

    def on_response_complete(self) -> None:
        self._disarm()  # uvicorn's keep-alive timeout watches the idle connection now
        super().on_response_complete()

    def _between_requests(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        """Close the connection unless its request arrived whole (then the app has it)."""
        self._deadline = None
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete and not cycle.more_body:
            return
        if not self.transport.is_closing():
            # No 408: h11 allows no answer before the request head is whole, and with a
            # body on its way the app's own cycle answers (it reads a disconnect).
            self.transport.close()


def server_config(app: Any, request_seconds: float = REQUEST_SECONDS) -> Config:
    """uvicorn's settings for the game: warnings only, no access log, no lifespan, and the
    connection limits above."""
    protocol = type("DeadlineH11", (DeadlineH11Protocol,), {"request_seconds": request_seconds})
    return Config(app, log_level="warning", access_log=False, lifespan="off", http=protocol,
                  timeout_keep_alive=KEEP_ALIVE_SECONDS, h11_max_incomplete_event_size=MAX_HEAD)
