"""The first ask for a winnable four-suit Spider deal on a fresh `kabale play` (nothing found
ahead yet): its answer and how long it took, N fresh servers in turn.

    python bench/first_deal_ask.py 8
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
from liveserver import LiveServer  # noqa: E402

n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
for i in range(n):
    srv = LiveServer(Path(tempfile.mkdtemp())/"k.db").start()
    try:
        c = httpx.Client(base_url=srv.url, timeout=120,
                         headers={"Content-Type": "application/json"})
        t0 = time.monotonic()
        r = c.post("/api/games", json={"variant": "spider", "winnable": True})
        print(i, "first ask", r.status_code, round(time.monotonic() - t0, 2),
              r.json().get("code"))
    finally:
        srv.stop()
