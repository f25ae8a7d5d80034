"""Spider family: pack a core State for the Cython kernel and read its line back.

Time is spent in two searches (see _spider.pyx). First a beam search over the phases (the
play between two deals): each phase is searched best first (SpiderPhases.search) from the
best positions the previous phase found, and the best of all the positions found there are
dealt on. It finds wins fast but can only say "solved"; rounds widen the beam and the
budget per phase. Then, with what is left, the exhaustive depth-first search (SpiderKernel
through ``drive``), the only one that may answer "unsolvable".
"""

from __future__ import annotations

import time
from typing import Any

from ..core import Game
from ._spider import SpiderKernel, SpiderPhases
from .driver import drive
from .klondike import code

# share of the time (and of a node limit) for the phase search; the exhaustive search can
# decide a Spiderette deal but hardly ever one of Spider's 104 cards
PHASE_SHARE = {"spiderette": 0.6, "spider": 0.9}
# rounds of the phase search: (positions searched per phase, positions dealt on per phase);
# narrow deep rounds (what 4-suit deals need) alternate with wide shallow ones (Spiderette)
BEAM_ROUNDS = ((5_000, 4), (100_000, 1), (20_000, 8), (400_000, 2), (50_000, 16),
               (200_000, 4), (1_000_000, 2), (100_000, 32), (400_000, 4), (200_000, 64),
               (2_000_000, 2), (1_000_000, 4), (400_000, 16), (2_000_000, 8))
SOLVED, FAILED, STOPPED = 1, 0, -1


def run_spider(game: Game, max_seconds: float, max_nodes: int,
               table_mb: int) -> tuple[str, list[str], int]:
    """(status, line in notation, nodes searched) for the game's current position."""
    s = game.state
    args = (bool(game.variant["strict"]), 52 if game.variant.family == "spiderette" else 104,
            [[code(c) for c in col] for col in s.columns], list(s.down),
            [code(c) for c in s.stock], len(s.foundations))
    start = time.perf_counter()
    phases = SpiderPhases(*args, max(8, table_mb // 2), max(8, table_mb))
    share = PHASE_SHARE[game.variant.family]
    phase_nodes = max(1, int(max_nodes * share)) if max_nodes else 0
    ops = phase_rounds(phases, max_seconds * share, phase_nodes)
    nodes = phases.nodes
    del phases  # free its pool before the exhaustive search allocates its own
    if ops is not None:
        return "solved", notation(ops), nodes
    if max_nodes and nodes >= max_nodes:
        return "unknown", [], nodes
    left_seconds = 0.0
    if max_seconds:
        left_seconds = max(max_seconds - (time.perf_counter() - start), 0.001)
    left_nodes = max(max_nodes - nodes, 1) if max_nodes else 0
    kernel = SpiderKernel(*args, table_mb)
    status, ops = drive(kernel, left_seconds, left_nodes)
    return status, notation(ops), nodes + kernel.nodes


def phase_rounds(phases: SpiderPhases, max_seconds: float, max_nodes: int) -> Any:
    """Beam rounds of the phase search within the limits (0 = none): the winning ops, or
    None when a limit is reached or every round failed."""
    deadline = time.perf_counter() + max_seconds if max_seconds else 0.0
    for budget, width in BEAM_ROUNDS:
        status, ops = beam(phases, budget, width, deadline, max_nodes)
        if status != FAILED:
            return ops
    return None


def beam(phases: SpiderPhases, budget: int, width: int, deadline: float,
         max_nodes: int) -> tuple[int, Any]:
    """One round: search each phase from the ``width`` best positions the previous phase
    found (over all of them, equal positions once), deal on them, and so on until a win;
    (SOLVED, ops), (FAILED, None) when no position is left, (STOPPED, None) at a limit."""
    phases.new_round()
    layer: list[tuple[bytes, list[Any]]] = [(phases.start(), [])]
    first = True
    while layer:
        found: dict[int, tuple[int, bytes, list[Any]]] = {}
        for state, line in layer:
            seconds, nodes = 0.0, 0
            if deadline:
                seconds = deadline - time.perf_counter()
                if seconds <= 0:
                    return STOPPED, None
            if max_nodes:
                nodes = max_nodes - phases.nodes
                if nodes <= 0:
                    return STOPPED, None
            status, payload = phases.search(state, not first, budget, min(width, 16), nodes,
                                            seconds)
            if status == SOLVED:
                return SOLVED, line + payload
            if status == STOPPED:
                return STOPPED, None
            for score, key, position, ops in payload:
                if key not in found or found[key][0] < score:
                    found[key] = (score, position, line + ops)
        best = sorted(found.values(), key=lambda entry: -entry[0])[:width]
        layer = [(position, line) for _, position, line in best]
        first = False
    return FAILED, None


def notation(ops: list[tuple[int, int, int, int]]) -> list[str]:
    """The kernels' operations (kind 1 = deal) in explicit notation."""
    return ["d" if kind == 1 else f"{a + 1}:{n}>{b + 1}" for kind, a, b, n in ops]
