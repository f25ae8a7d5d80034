"""`kabale serve` (issue 44 item 2): settings from flags and KABALE_* variables, what it
prints, and a live server of two web workers on one SQLite file whose moves, spread over
both workers, are all kept once; a second server on the file is refused."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import kabale
from kabale.core.errors import KabaleError
from kabale.server.serve import configure, describe, settings


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    configure(parser)
    return parser.parse_args(argv)


def test_flags_win_over_the_environment_and_defaults_fill_the_rest(tmp_path: Path) -> None:
    env = {"KABALE_DB": str(tmp_path / "e.db"), "KABALE_WORKERS": "3",
           "KABALE_ALLOWED_HOSTS": "cards.example, www.cards.example",
           "KABALE_LIMITS": "games=5,help=2", "KABALE_PUBLIC_ORIGIN": "https://Cards.example"}
    got = settings(parse("--workers", "2", "--host", "0.0.0.0"), env)
    assert (got.db, got.workers, got.host, got.port) == (str(tmp_path / "e.db"), 2, "0.0.0.0",
                                                         8000)
    assert got.allowed_hosts == ["cards.example", "www.cards.example"]
    assert got.limits == {"games": 5, "help": 2}
    assert got.public_origin == "https://cards.example"
    assert settings(parse("--db", "sqlite:///tmp/x.db"), {}).db == "/tmp/x.db"
    assert settings(parse("--port", "0", "--db", "a.db"), {}).port == 0


@pytest.mark.parametrize("argv,words", [
    (["--host", "0.0.0.0"], "give --allowed-host NAME"),
    (["--workers", "0"], "bad --workers 0: a whole number 1..64"),
    (["--limits", "games=x"], "bad --limits games 'x': a whole number"),
    (["--limits", "speed=3"], "NAME one of games, moves, help"),
    (["--public-origin", "cards.example"], "an origin like https://cards.example"),
    (["--db", "mysql://x"], "bad --db mysql://...: a SQLite file path, sqlite:///PATH or "
                            "postgresql://"),
])
def test_bad_settings_are_one_clear_line(argv: list[str], words: str, tmp_path: Path) -> None:
    with pytest.raises(KabaleError, match=re.escape(words)):
        settings(parse(*argv), {"KABALE_DB": str(tmp_path / "k.db")})


def test_an_open_address_without_https_says_how_to_put_it_behind_tls(tmp_path: Path) -> None:
    env = {"KABALE_DB": str(tmp_path / "k.db")}
    plain = describe(settings(parse("--host", "0.0.0.0", "--allowed-host", "cards.example"),
                              env), 8000)
    assert len(plain) == 2 and "reverse proxy with https" in plain[1]
    assert "for cards.example" in plain[0]
    tls = describe(settings(parse("--host", "0.0.0.0", "--public-origin",
                                  "https://cards.example"), env), 8000)
    assert len(tls) == 1
    assert len(describe(settings(parse(), env), 8000)) == 1  # loopback
    secret = describe(settings(parse("--db", "postgresql://kabale:hunter2@db.internal/site"),
                               env), 8000)
    assert "database postgresql://db.internal/site;" in secret[0]
    assert "hunter2" not in " ".join(secret)


def start_serve(db: str, *extra: str) -> tuple[subprocess.Popen[str], int]:
    """A `kabale serve` process on ``db`` (a free port), and its port once it says it."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "kabale", "serve", "--db", db, "--port", "0",
         "--advice-workers", "1", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "KABALE_LIMITS": "moves=100000,games=1000"}, start_new_session=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert found, line + proc.stdout.read()
    return proc, int(found.group(1))


def stop(proc: subprocess.Popen[str], how: int = signal.SIGTERM) -> None:
    os.killpg(proc.pid, how)
    proc.wait(timeout=30)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    db = tmp_path / "site.db"
    proc, port = start_serve(str(db), "--workers", "2")
    try:
        yield port, db
    finally:
        stop(proc)


def call(port: int, method: str, path: str, body: Any = None, cookie: str | None = None,
         tries: int = 100) -> tuple[int, dict[str, Any], str | None]:
    """One request on a new connection (so that the workers share the requests)."""
    for _ in range(tries):  # the workers may still be starting
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            headers = {"Content-Type": "application/json", **({"Cookie": cookie} if cookie
                                                              else {})}
            conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            res = conn.getresponse()
            data = json.loads(res.read())
            return res.status, data, res.getheader("set-cookie")
        except ConnectionRefusedError:
            if tries == 1:
                raise
            time.sleep(0.1)
        finally:
            conn.close()
    raise AssertionError("the server did not answer")


def test_two_workers_keep_every_move_once_and_a_second_server_is_refused(
        served: tuple[int, Path]) -> None:
    port, db = served
    status, body, set_cookie = call(port, "POST", "/api/games", {"variant": "klondike",
                                                                 "seed": 11})
    assert status == 201 and set_cookie
    cookie = set_cookie.split(";")[0]
    reference = kabale.Game.new("klondike", seed=11)
    for turn in range(30):
        move = reference.legal_moves()[turn % len(reference.legal_moves())]
        status, body, _ = call(port, "POST", f"/api/games/{body['id']}/moves",
                               {"move": move.explicit()}, cookie)
        assert status == 200, body
        reference.play(move)
        assert body["observation"] == reference.observe()
    status, again, _ = call(port, "GET", f"/api/games/{body['id']}", cookie=cookie)
    assert again["observation"] == reference.observe()
    assert call(port, "GET", f"/api/games/{body['id']}")[0] == 404  # no cookie: nobody's
    second = subprocess.run([sys.executable, "-m", "kabale", "serve", "--db", str(db),
                             "--port", "0"], capture_output=True, text=True, timeout=60)
    assert second.returncode != 0 and "is in use by the kabale server" in second.stderr


def play_through(ports: list[int], turns: int, seed: int = 11) -> tuple[str, str, kabale.Game]:
    """A game of one player, its moves sent in turn through each server of ``ports``;
    returns (game id, cookie, the game as it should be)."""
    status, body, set_cookie = call(ports[0], "POST", "/api/games",
                                    {"variant": "klondike", "seed": seed})
    assert status == 201 and set_cookie
    cookie = set_cookie.split(";")[0]
    reference = kabale.Game.new("klondike", seed=seed)
    for turn in range(turns):
        move = reference.legal_moves()[turn % len(reference.legal_moves())]
        status, answer, _ = call(ports[turn % len(ports)], "POST",
                                 f"/api/games/{body['id']}/moves", {"move": move.explicit()},
                                 cookie)
        assert status == 200, answer
        reference.play(move)
        assert answer["observation"] == reference.observe()
    return body["id"], cookie, reference


def test_two_servers_on_one_postgresql_database_lose_and_double_nothing(
        postgres_url: str) -> None:
    first, one = start_serve(postgres_url)
    second, two = start_serve(postgres_url, "--workers", "2")
    try:
        game_id, cookie, reference = play_through([one, two], 30)
        for port in (one, two):
            status, body, _ = call(port, "GET", f"/api/games/{game_id}", cookie=cookie)
            assert status == 200 and body["observation"] == reference.observe()
            assert body["observation"]["moves_made"] == 30
            assert call(port, "GET", f"/api/games/{game_id}")[0] == 404
    finally:
        stop(first)
        stop(second)


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def test_kill_9_mid_burst_keeps_every_acknowledged_move(kind: str, tmp_path: Path,
                                                        request: pytest.FixtureRequest) -> None:
    """Moves are sent one after another while every process of the server is killed at
    once: after a restart the game holds every move that was answered (and perhaps the one
    in flight, written but not answered), in order."""
    db = (str(tmp_path / "k.db") if kind == "sqlite"
          else request.getfixturevalue("postgres_url"))
    proc, port = start_serve(db, "--workers", "2")
    status, body, set_cookie = call(port, "POST", "/api/games", {"variant": "klondike",
                                                                 "seed": 4})
    assert set_cookie
    cookie = set_cookie.split(";")[0]
    game = kabale.Game.new("klondike", seed=4)
    seen = [game.observe()]
    acknowledged = threading.Event()

    def burst() -> None:
        for turn in range(10_000):
            move = game.legal_moves()[turn % len(game.legal_moves())]
            try:
                status, _, _ = call(port, "POST", f"/api/games/{body['id']}/moves",
                                    {"move": move.explicit()}, cookie, tries=1)
            except (OSError, ValueError):
                return  # the server is gone (perhaps in the middle of its answer)
            if status != 200:
                return
            game.play(move)
            seen.append(game.observe())
            if len(seen) > 15:
                acknowledged.set()

    sender = threading.Thread(target=burst)
    sender.start()
    assert acknowledged.wait(timeout=60)
    stop(proc, signal.SIGKILL)  # mid-burst: a move may be on its way
    sender.join(timeout=60)
    answered = len(seen) - 1
    again, port = start_serve(db)
    try:
        status, stored, _ = call(port, "GET", f"/api/games/{body['id']}", cookie=cookie)
        assert status == 200
        made = stored["observation"]["moves_made"]
        assert made in (answered, answered + 1)
        if made == answered:
            assert stored["observation"] == seen[-1]
    finally:
        stop(again)


def start_worker(db: str, limits: str) -> tuple[subprocess.Popen[str], int]:
    """One web worker of `kabale serve` (the app each of its --workers N runs,
    serve.worker_app) on a port of its own: two of them are the two server processes of
    `kabale serve --workers 2` on one SQLite file, each reachable by itself."""
    from dataclasses import asdict

    from liveserver import free_port

    from kabale.server.serve import _HANDOVER, Settings, parse_limits

    config = Settings(db=db, advice_workers=1, limits=parse_limits(limits),
                      allowed_hosts=["127.0.0.1", "localhost"])
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "kabale.server.serve:worker_app",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
         "--lifespan", "off"],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, _HANDOVER: json.dumps(asdict(config))}, start_new_session=True)
    return proc, port


def alternate(ports: list[int], times: int, method: str, path: str,
              body: Any = None, cookie: str | None = None
              ) -> tuple[list[int], list[str | None], float]:
    """``times`` requests sent in turn to each server of ``ports``, each on a new
    connection: their statuses, the cookies they set, and the seconds they took."""
    codes, cookies = [], []
    start = time.monotonic()
    for turn in range(times):
        status, _, set_cookie = call(ports[turn % len(ports)], method, path, body, cookie,
                                     tries=600)
        codes.append(status)
        cookies.append(set_cookie.split(";")[0] if set_cookie else None)
    return codes, cookies, time.monotonic() - start


def granted_within(codes: list[int], limit: int, per_minute: int, seconds: float) -> bool:
    """Were ``limit`` requests of ``codes`` let through (not 429), the rest refused? One
    more for each refill the requests' time allowed (60 / per_minute s apart), should the
    machine have been that slow."""
    passed = sum(code != 429 for code in codes)
    return 429 not in codes[:limit] and limit <= passed <= limit + int(seconds * per_minute / 60)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_rate_limits_hold_across_two_server_processes(
        kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """New games (the address's limit), moves and help (a player's limit) sent in turn to
    two server processes on one database are counted together: each limit lets through
    what it allows once, not once per process (which would let every request below
    through), and the rest are refused with 429 and Retry-After, by either process."""
    limits = "games=1,moves=3,help=2,per_address=3"
    if kind == "sqlite":
        db = str(tmp_path / "site.db")
        servers = [start_worker(db, limits) for _ in range(2)]
    else:
        url = request.getfixturevalue("postgres_url")
        servers = [start_serve(url, "--limits", limits) for _ in range(2)]
    ports = [port for _, port in servers]
    try:
        # games: 1 a minute per player, 3 per address; these come without a cookie
        codes, cookies, seconds = alternate(ports, 6, "POST", "/api/games",
                                            {"variant": "klondike", "seed": 5})
        assert granted_within(codes, 3, 3, seconds), codes
        assert set(codes) == {201, 429}
        cookie = cookies[0]
        assert cookie
        # moves: 3 a minute for the player (an undo, of a game that is not there: 404)
        assert call(ports[1], "GET", "/api/games/none", cookie=cookie)[0] == 404
        codes, _, seconds = alternate(ports, 6, "POST", "/api/games/none/undo", cookie=cookie)
        assert granted_within(codes, 3, 3, seconds), codes
        # help: 2 a minute (asked of a game that is not there: 404, yet help asked)
        codes, _, seconds = alternate(ports, 5, "GET", "/api/games/none/chance",
                                      cookie=cookie)
        assert granted_within(codes, 2, 2, seconds), codes
        for port in ports:  # each process refuses, and says when to come back
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("POST", "/api/games/none/undo", "{}",
                         {"Content-Type": "application/json", "Cookie": cookie})
            res = conn.getresponse()
            refusal = json.loads(res.read())
            conn.close()
            assert res.status == 429 and "too many requests" in refusal["error"]
            assert 1 <= int(res.getheader("retry-after") or 0) <= 20
    finally:
        for proc, _ in servers:
            stop(proc)
