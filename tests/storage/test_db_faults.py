"""The game database against damage and other users (issue 43, round two): an index that
disagrees with its table is named on opening, and new files are private to their owner."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kabale import Game
from kabale.storage.db import GameStore


def _store_with_games(path: Path, count: int = 30) -> None:
    store = GameStore(path)
    for number in range(count):
        game = Game.new("klondike", number)
        store.add(f"g{number}", game)
        store.save(f"g{number}", game, "lost", 1.0)
    store.close()


def test_an_index_that_disagrees_with_its_table_is_named(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    _store_with_games(path)
    con = sqlite3.connect(path, isolation_level=None)
    # The index keeps its entries while its definition says another column: every entry
    # now disagrees with its row, as after damage that hits only the index's pages.
    con.execute("PRAGMA writable_schema=ON")
    con.execute("UPDATE sqlite_schema SET sql='CREATE INDEX games_variant_finished ON games"
                " (variant, started)' WHERE name='games_variant_finished'")
    con.close()
    store = GameStore(path)
    assert len(store.problems) == 1, store.problems
    assert "is damaged" in store.problems[0] and "index" in store.problems[0]
    assert "\n" not in store.problems[0]
    store.close()


def test_a_sound_database_has_no_problems(tmp_path: Path) -> None:
    _store_with_games(tmp_path / "k.db")
    assert GameStore(tmp_path / "k.db").problems == []
