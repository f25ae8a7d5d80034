"""Help control shared by real `kabale serve` web processes on one database, SQLite and
PostgreSQL (test_help_shared.py does the same with two apps in one process): a review
started through one is polled to done through the other, a cancel, a move or deleting the
player sent to one stops the jobs the other runs, and a player's bound counts both."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import gatedhelp
import pytest
from local import gone
from test_help_shared import MANY, TOKEN


def start_gated(db: str, gates: Path, workers: int = 2, advice_workers: int = 2
                ) -> tuple[subprocess.Popen[str], int]:
    """One web worker of `kabale serve` (serve.worker_app, as test_serve.start_worker
    starts it) with gated help, sharing the help's control (as with --workers 2), with
    ``advice_workers`` worker processes in its play lane."""
    from dataclasses import asdict

    from liveserver import free_port

    from kabale.server.serve import _HANDOVER, Settings

    config = Settings(db=db, advice_workers=advice_workers, workers=workers,
                      operator_token=TOKEN,
                      limits={"games": MANY, "moves": MANY, "help": MANY,
                              "transfer": MANY, "per_address": 5},
                      allowed_hosts=["127.0.0.1", "localhost"])
    port = free_port()
    here = str(Path(__file__).parent)
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "gatedhelp:app",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
         "--lifespan", "off"],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, text=True, cwd=here,
        env={**os.environ, _HANDOVER: json.dumps(asdict(config)),
             "KABALE_TEST_GATES": str(gates),
             "PYTHONPATH": os.pathsep.join([here, os.environ.get("PYTHONPATH", "")])},
        start_new_session=True)
    return proc, port


def call(port: int, method: str, path: str, body: Any = None, cookie: str | None = None,
         operator: bool = False) -> tuple[int, dict[str, Any], str | None]:
    """One request on a new connection, retried while the server is still starting."""
    for _ in range(600):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            headers = {"Content-Type": "application/json",
                       **({"Cookie": cookie} if cookie else {}),
                       **({"Authorization": f"Bearer {TOKEN}"} if operator else {})}
            conn.request(method, path, json.dumps(body) if body is not None else None,
                         headers)
            res = conn.getresponse()
            return res.status, json.loads(res.read()), res.getheader("set-cookie")
        except ConnectionRefusedError:
            time.sleep(0.1)
        finally:
            conn.close()
    raise AssertionError("the server did not answer")


def until(done: Callable[[], bool], what: str,
          state: Callable[[], object] | None = None) -> None:
    """Wait for ``done()`` (a wait, not a timed assertion: it gives up after two minutes)."""
    for _ in range(1200):
        if done():
            return
        time.sleep(0.1)
    raise AssertionError(f"never happened: {what}" + (f" ({state()})" if state else ""))


def engine_in_flight(port: int) -> int:
    """The jobs in flight in a server process, as its operator reads them."""
    status, body, _ = call(port, "GET", "/api/help", operator=True)
    assert status == 200 and body["engine"] is not None, body
    return sum(body["engine"]["in_flight"].values())


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_two_server_processes_share_the_help(kind: str, tmp_path: Path,
                                             request: pytest.FixtureRequest) -> None:
    """Two real server processes on one database: a review started through A is polled to
    done through B; a review and a hint started through A are stopped by DELETE help, a
    move and deleting the player sent to B, A's worker freed within a few seconds (A's
    operator counters back to 0), while another player's hint carries on in A; a player
    with three jobs in A is refused a fourth through B (429), and B takes one once one of
    them has ended."""
    gates = tmp_path / "gates"
    gates.mkdir()
    db = (str(tmp_path / "site.db") if kind == "sqlite"
          else request.getfixturevalue("postgres_url"))
    # A runs four hints at once (another player's and three of mine)
    (proc_a, a), (proc_b, b) = start_gated(db, gates, advice_workers=4), start_gated(db, gates)
    pool = ThreadPoolExecutor(4)
    try:
        def new(port: int, seed: int, cookie: str | None = None) -> tuple[dict[str, Any], str]:
            status, body, set_cookie = call(port, "POST", "/api/games",
                                            {"variant": "klondike", "seed": seed}, cookie)
            assert status == 201, body
            return body, cookie or (set_cookie or "").split(";")[0]

        hers, her_cookie = new(a, 21)
        # my finished game, its review started through A and polled through B
        game, me = new(a, 7)
        for _ in range(3):
            status, game, _ = call(b, "POST", f"/api/games/{game['id']}/moves",
                                   {"move": game["observation"]["legal"][0]}, me)
            assert status == 200, game
        assert call(a, "POST", f"/api/games/{game['id']}/resign", None, me)[0] == 200
        gid = game["id"]
        poll = f"/api/games/{gid}/analysis"
        assert call(a, "POST", poll, None, me)[0] == 202
        until(lambda: call(b, "GET", poll, None, me)[1]["done"] == 1, "progress read in B")
        # DELETE help sent to B stops it in A
        review_pid = gatedhelp.started(gates, "review")[0][0]
        assert call(b, "DELETE", f"/api/games/{gid}/help", None, me)[0] == 200
        until(lambda: gone(review_pid) and engine_in_flight(a) == 0, "review stopped in A")
        assert call(b, "GET", poll, None, me)[1]["code"] == "cancelled"
        # asked again through A, done, polled to done through B
        assert call(a, "POST", poll, None, me)[1]["state"] == "running"
        until(lambda: len(gatedhelp.started(gates, "review")) == 2, "review again")
        (gates / "review").touch()
        until(lambda: call(b, "GET", poll, None, me)[1]["state"] == "done", "done in B")
        done = call(b, "GET", poll, None, me)[1]
        assert done["done"] == done["total"] == 4 and len(done["review"]["decisions"]) == 3
        # her hint held in flight in A (within its deadline)
        her_hint: Future[Any] = pool.submit(call, a, "POST", f"/api/games/{hers['id']}/hint",
                                            None, her_cookie)
        until(lambda: len(gatedhelp.started(gates, "hint")) == 1, "her hint running")
        her_pid = gatedhelp.started(gates, "hint")[0][0]
        # my hint in A, my move sent to B: the hint is cancelled, A's worker freed
        game, _ = new(b, 9, me)
        mine = pool.submit(call, a, "POST", f"/api/games/{game['id']}/hint", None, me)
        until(lambda: len(gatedhelp.started(gates, "hint")) == 2, "my hint running")
        pid = gatedhelp.started(gates, "hint")[1][0]
        status, _, _ = call(b, "POST", f"/api/games/{game['id']}/moves",
                            {"move": game["observation"]["legal"][0]}, me)
        assert status == 200
        assert mine.result(timeout=120)[1]["code"] == "cancelled"
        until(lambda: gone(pid) and engine_in_flight(a) == 1, "my hint stopped in A")
        # my bound counts in both: three hints of mine in A, a fourth job through B refused
        mine_ids = [game["id"], new(b, 10, me)[0]["id"], new(b, 11, me)[0]["id"]]
        mine_all = [pool.submit(call, a, "POST", f"/api/games/{gid}/hint", None, me)
                    for gid in mine_ids]
        until(lambda: len(gatedhelp.started(gates, "hint")) == 5, "my three hints in A")
        pids = {deal: pid for pid, deal in gatedhelp.started(gates, "hint")[2:]}
        status, refused, _ = call(b, "GET", f"/api/games/{mine_ids[1]}/chance", None, me)
        assert status == 429 and refused["code"] == "too_many", refused
        assert refused["retry_after"] == 1 and engine_in_flight(b) == 0
        # one of them ends (cancelled in A): B takes one
        assert call(a, "DELETE", f"/api/games/{mine_ids[2]}/help", None, me)[0] == 200
        assert mine_all[2].result(timeout=120)[1]["code"] == "cancelled"
        until(lambda: gone(pids["klondike#11"]) and engine_in_flight(a) == 3, "one ended")
        status, taken, _ = call(b, "GET", f"/api/games/{mine_ids[1]}/chance", None, me)
        assert status == 200 and "chance" in taken, taken
        # my data deleted through B: my hints in A are cancelled too
        assert call(b, "POST", "/api/player/delete", {"confirm": True}, me)[0] == 200
        for mine in mine_all[:2]:
            assert mine.result(timeout=120)[1]["code"] == "cancelled"
        until(lambda: gone(pids["klondike#9"]) and gone(pids["klondike#10"])
              and engine_in_flight(a) == 1, "stopped by the delete")
        # her hint carried on, and is answered
        assert not gone(her_pid)
        (gates / "hint").touch()
        status, answered, _ = her_hint.result(timeout=120)
        assert status == 200 and answered["hint"]["move"], answered
        until(lambda: engine_in_flight(a) == 0, "nothing in flight in A")
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in (proc_a, proc_b):
            os.killpg(proc.pid, 15)
            proc.wait(timeout=30)
