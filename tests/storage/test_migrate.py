"""Versioned schema migrations (issue 44): a file of today's schema (2) upgraded with its
games kept as the local player's, a newer file refused, and two processes' copies of one
game never writing over each other (the revision)."""

from __future__ import annotations

import asyncio
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import kabale
from kabale.server.games import GameService
from kabale.storage.db import (
    SCHEMA_VERSION,
    GameStore,
    NewerSchemaError,
    StaleGameError,
)
from kabale.storage.secret import daily_was_shown

#: the schema of version 2, as kabale before issue 44 wrote it
V2 = """
CREATE TABLE games (id TEXT PRIMARY KEY, deal_id TEXT NOT NULL, variant TEXT NOT NULL,
    save TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('playing', 'won', 'lost')),
    started REAL NOT NULL, finished REAL, updated REAL NOT NULL,
    score INTEGER NOT NULL DEFAULT 0, moves INTEGER NOT NULL DEFAULT 0,
    elapsed REAL NOT NULL DEFAULT 0, assisted INTEGER NOT NULL DEFAULT 0, daily TEXT,
    info TEXT NOT NULL DEFAULT '{}');
CREATE INDEX games_variant_finished ON games (variant, finished);
CREATE TABLE secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL, created REAL NOT NULL);
CREATE TABLE daily_shown (variant TEXT NOT NULL, day TEXT NOT NULL, shown REAL NOT NULL,
    PRIMARY KEY (variant, day));
PRAGMA user_version=2;
"""


def version_2_file(path: Path) -> kabale.Game:
    game = kabale.Game.new("klondike", seed=5)
    with sqlite3.connect(path) as conn:
        conn.executescript(V2)
        conn.execute("INSERT INTO games (id, deal_id, variant, save, status, started, finished,"
                     " updated, moves) VALUES ('old', ?, 'klondike', ?, 'lost', 1, 2, 2, 0)",
                     (game.deal_id, game.to_json()))
        conn.execute("INSERT INTO secrets VALUES ('daily', x'00ff', 1)")
        conn.execute("INSERT INTO daily_shown VALUES ('klondike', '2026-01-02', 3)")
    return game


def test_a_version_2_file_is_upgraded_and_keeps_everything(tmp_path: Path) -> None:
    path = tmp_path / "v2.db"
    game = version_2_file(path)
    store = GameStore(path)
    assert store.load("old").game.to_json() == game.to_json()
    assert store.load("old", player="local").player == "local"
    assert store.stats("klondike")["played"] == 1
    assert daily_was_shown(store, "klondike", "2026-01-02")
    assert not daily_was_shown(store, "klondike", "2026-01-02", player="p-someone")
    store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
        assert conn.execute("SELECT value FROM secrets").fetchone()[0] == b"\x00\xff"
    GameStore(path).close()  # opening again changes nothing


def test_a_newer_file_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE future (x)")
        conn.execute("PRAGMA user_version=99")
    before = path.read_bytes()
    with pytest.raises(NewerSchemaError, match=r"schema version 99, newer than this kabale "
                                               r"understands \(6\).*upgrade kabale"):
        GameStore(path)
    assert path.read_bytes() == before


def test_a_write_over_a_revision_another_process_replaced_is_refused(tmp_path: Path) -> None:
    one, two = GameStore(tmp_path / "k.db"), GameStore(tmp_path / "k.db")
    game = kabale.Game.new("klondike", seed=1)
    one.add("g", game)
    copy = two.load("g")
    assert one.save("g", game, "playing", 1.0, rev=0) == 1
    with pytest.raises(StaleGameError, match="changed elsewhere"):
        two.save("g", copy.game, "playing", 2.0, rev=copy.rev)
    assert two.load("g").elapsed == 1.0


def test_two_workers_on_one_file_lose_and_double_no_move(tmp_path: Path) -> None:
    """Two web workers (each its own cache of live games) take turns with one game's
    moves: each sees the other's, none is lost or played twice. (Run on a thread of its own:
    the browser tests' Playwright keeps an event loop running on the main thread.)"""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, _take_turns(tmp_path)).result()


async def _take_turns(tmp_path: Path) -> None:
    workers = [GameService(GameStore(tmp_path / "k.db")) for _ in range(2)]
    entry = workers[0].start(kabale.Game.new("klondike", seed=2), player="p-a")
    reference = kabale.Game.new("klondike", seed=2)
    for turn in range(40):
        worker = workers[turn % 2]
        live = await worker.fetch(entry.id, "p-a")
        assert live.game.to_json() == reference.to_json()
        move = reference.legal_moves()[turn % len(reference.legal_moves())]
        worker.play(entry.id, move.explicit())
        reference.play(move)
    stored = GameStore(tmp_path / "k.db").load(entry.id)
    assert stored.game.to_json() == reference.to_json()
    assert stored.game.moves_made == reference.moves_made == 40
