"""The transposition table: it grows with the search, keeps freed memory for the next table
(spares) and moves to a new generation for each search: a table grown into another
search's memory, or after its generations wrapped around, searches exactly as a fresh
one."""

from __future__ import annotations

from kabale import Game
from kabale.solver import _klondike, klondike, release_memory, solve

LOST = ("klondike:draw=3,open=true", 21)   # lost, proved in about 7,640 positions
LARGER = ("klondike:draw=3,open=true", 41)  # lost, about 160,000 positions: a 2 MiB table
START = 32 * 1024  # a kernel's first table (START_BYTES)


def exhaustive(kernel: _klondike.KlondikeKernel, fresh: bool = True) -> tuple[int, int]:
    """(status, positions) of a full search from the kernel's position (on the table as
    it stands unless ``fresh``)."""
    before = kernel.nodes
    status, _ = kernel.run(0, 0.0, 0, fresh)
    return status, kernel.nodes - before


def test_the_table_grows_with_the_search_and_its_limit_changes_nothing() -> None:
    """A kernel starts with a small table whatever its limit; a search grows it in
    proportion to the positions it searched, never past the limit, and searches the same
    positions under any limit that leaves room."""
    game = Game.new(*LARGER)
    results = []
    for limit_mb in (2, 8, 64):
        kernel = klondike.kernel_for(game, limit_mb)
        assert kernel.table_bytes == START
        results.append(exhaustive(kernel))
        assert kernel.table_bytes == 2 * 1024 * 1024
    assert results[0][0] == 0 and results[0][1] > 100_000
    assert results == [results[0]] * 3
    small = klondike.kernel_for(Game.new(*LOST), 64)
    assert exhaustive(small)[0] == 0
    assert small.table_bytes <= 4 * START


def test_a_spare_holds_no_stale_entries() -> None:
    """A freed kernel leaves its grown table as a spare; the next kernel that grows to that
    size takes it, full of the same deal's keys from another generation, clears it, and
    searches as many positions as the first did (a stale entry taken as seen would prune
    the search)."""
    release_memory()
    game = Game.new(*LARGER)
    first = klondike.kernel_for(game, 64)
    status, nodes = exhaustive(first)
    assert status == 0
    del first
    # the slab it outgrew and its last one; smaller slabs go back at once
    assert sorted(_klondike.spare_sizes()) == [1024 * 1024, 2 * 1024 * 1024]
    second = klondike.kernel_for(game, 64)
    assert exhaustive(second) == (status, nodes)
    assert 2 * 1024 * 1024 not in _klondike.spare_sizes()  # the second table took it


def test_generations_wrap_around_to_a_cleared_table() -> None:
    """After 127 fresh starts a table is back at its first generation; it must have been
    cleared on the way, or the first search's entries would match again."""
    kernel = klondike.kernel_for(Game.new(*LOST), 16)
    status, nodes = exhaustive(kernel)
    for _ in range(300):
        kernel.forget_table()
        assert exhaustive(kernel, fresh=False) == (status, nodes)


def test_release_memory_hands_the_spares_back() -> None:
    """release_memory empties both kernels' spares; solving afterwards works as before."""
    game = Game.new(*LARGER)
    assert solve(game, max_seconds=None).status == "unsolvable"
    assert _klondike.spare_sizes()
    release_memory()
    assert _klondike.spare_sizes() == []
    assert solve(game, max_seconds=None).status == "unsolvable"
