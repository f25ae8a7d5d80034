"""The real server process: games survive a clean stop and a kill -9, and the port rules."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
from liveserver import LiveServer


def play(client: httpx.Client, url: str, gid: str, move: str) -> dict:
    res = client.post(f"{url}/api/games/{gid}/moves", json={"move": move})
    assert res.status_code == 200, res.text
    return res.json()


def test_game_survives_restart_and_kill9(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    server = LiveServer(db).start()
    with httpx.Client(timeout=10, headers={"Content-Type": "application/json"}) as client:
        body = client.post(f"{server.url}/api/games",
                           json={"variant": "klondike", "seed": 7}).json()
        gid = body["id"]
        for _ in range(6):
            legal = body["observation"]["legal"]
            body = play(client, server.url, gid, legal[0] if legal[0] != "d" else legal[-1])
        client.post(f"{server.url}/api/games/{gid}/undo")
        before = client.get(f"{server.url}/api/games/{gid}").json()
        assert server.stop() == 130  # Ctrl-C: 128 + SIGINT, after saying where the games are

        server = LiveServer(db).start()
        after = client.get(f"{server.url}/api/games/{gid}").json()
        assert after["observation"] == before["observation"]
        assert after["can_redo"] and after["observation"]["moves_made"] == 5
        redone = client.post(f"{server.url}/api/games/{gid}/redo")
        assert redone.status_code == 200

        # kill -9 right after an answered move: the move is on disk already.
        body = play(client, server.url, gid, "d")
        server.kill9()
        server = LiveServer(db).start()
        again = client.get(f"{server.url}/api/games/{gid}").json()
        assert again["observation"] == body["observation"]
        assert client.post(f"{server.url}/api/games/{gid}/undo").json()["move"] == "d"
    server.stop()


def test_a_taken_port_falls_back_to_a_free_one(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        taken = busy.getsockname()[1]
        server = LiveServer(tmp_path / "k.db", taken, "spider", "--seed", "5").start()
        try:
            assert not server.url.endswith(f":{taken}")
            assert "deal=spider%234" not in server.announced
            assert "?deal=spider%235" in server.announced
            page = httpx.get(server.url + "/", timeout=10)
            assert page.status_code == 200
        finally:
            server.stop()


def test_listening_socket_is_tcp_so_answers_are_not_nagled() -> None:
    from kabale.server.launch import bind

    sock = bind(None)
    try:
        assert sock.proto == socket.IPPROTO_TCP
        assert sock.getsockname()[0] == "127.0.0.1"
    finally:
        sock.close()
