"""One game held by two web processes on one database (``kabale serve --workers N``): each
keeps a live copy, and the stored revision says whose copy is current."""

from __future__ import annotations

from pathlib import Path

import pytest

from kabale.server.games import GameService
from kabale.storage.db import GameStore, StaleGameError


def _two(path: Path) -> tuple[GameService, GameService]:
    return GameService(GameStore(path)), GameService(GameStore(path))


def test_help_marked_through_both_processes_at_once_is_not_refused(tmp_path: Path) -> None:
    a, b = _two(tmp_path / "k.db")
    game_id = a.create("klondike", seed=3).id
    b.get(game_id)  # both copies at one revision, as when one hint is asked through both
    a.assist(game_id)
    marked = b.assist(game_id)  # its copy is stale: read again, not a 409
    stored = GameStore(tmp_path / "k.db").load(game_id)
    assert marked.assisted and stored.assisted and marked.rev == stored.rev


def test_the_mark_through_a_stale_copy_keeps_the_other_process_move(tmp_path: Path) -> None:
    a, b = _two(tmp_path / "k.db")
    game_id = a.create("klondike", seed=3).id
    b.get(game_id)
    played, move = a.play(game_id, a.get(game_id).game.legal_moves()[0].text)
    marked = b.assist(game_id)
    assert [m.text for m in marked.game.history] == [move]
    assert GameStore(tmp_path / "k.db").load(game_id).game.history == played.game.history
    with pytest.raises(StaleGameError):  # moves still refuse a stale copy: that is a 409
        stale = GameService(GameStore(tmp_path / "k.db"))
        stale.get(game_id)
        a.play(game_id, a.get(game_id).game.legal_moves()[0].text)
        stale.play(game_id, stale.get(game_id).game.legal_moves()[0].text)
