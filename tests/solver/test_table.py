"""The transposition table's memory kept between searches (spares) and its generations:
a table made from another search's memory, or after its generations wrapped around,
searches exactly as a fresh one."""

from __future__ import annotations

from kabale import Game
from kabale.solver import _klondike, klondike, release_memory, solve

LOST = ("klondike:draw=3,open=true", 21)  # lost, proved in about 7650 positions


def exhaustive(kernel: _klondike.KlondikeKernel, fresh: bool = True) -> tuple[int, int]:
    """(status, positions) of a full search from the kernel's position (on the table as
    it stands unless ``fresh``)."""
    before = kernel.nodes
    status, _ = kernel.run(0, 0.0, 0, fresh)
    return status, kernel.nodes - before


def test_a_spare_holds_no_stale_entries() -> None:
    """A kernel freed leaves its table as a spare (one moved to huge pages hands its old
    memory back); the next kernel of that table size takes it, full of the same deal's
    keys from another generation, and searches as many positions as the first did (a stale
    entry taken as seen would prune the search)."""
    release_memory()
    game = Game.new(*LOST)
    first = klondike.kernel_for(game, 16)
    first.huge_table()
    assert _klondike.spare_sizes() == []
    status, nodes = exhaustive(first)
    assert status == 0 and nodes > 5000
    del first
    assert _klondike.spare_sizes() == [16 * 1024 * 1024]
    second = klondike.kernel_for(game, 16)
    assert _klondike.spare_sizes() == []
    assert exhaustive(second, fresh=False) == (status, nodes)  # a new table is empty


def test_generations_wrap_around_to_a_cleared_table() -> None:
    """After 65535 fresh starts a table is back at its first generation; it must have been
    cleared on the way, or the first search's entries would match again."""
    kernel = klondike.kernel_for(Game.new(*LOST), 16)
    status, nodes = exhaustive(kernel)
    for _ in range(65534):
        kernel.forget_table()
    assert exhaustive(kernel) == (status, nodes)  # run starts the 65535th generation


def test_release_memory_hands_the_spares_back() -> None:
    """release_memory empties both kernels' spares; solving afterwards works as before."""
    game = Game.new(*LOST)
    assert solve(game, max_seconds=None).status == "unsolvable"
    assert _klondike.spare_sizes()
    release_memory()
    assert _klondike.spare_sizes() == []
    assert solve(game, max_seconds=None).status == "unsolvable"
