"""Spider family: pack a core State for the Cython kernel and read its line back.

A search runs LANES at once, each its stages in turn, until one decides. The
beam over the phases (the play between two deals): each phase is searched best first
(SpiderPhases.search) from the best positions the previous phase found, and the best of all
the positions found there are dealt on; rounds differ in width, budget per phase and score
weights (BEAM_ROUNDS). It finds wins fast but can only say "solved" (or "unsolvable" after a
round that cut nothing). The depth-first search (SpiderKernel): exhaustive, it decides;
moving whole runs only (with or without a budget per endgame), or sweeping the endgames the
nearest first (SpiderKernel.sweep), it only finds wins. Every line is replayed through core
by the caller.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any

from ..core import Game
from ..core.deal import suits_and_copies
from ._spider import Halt, SpiderKernel, SpiderPhases
from .driver import cores, drive, race, time_left
from .klondike import code
from .status import KernelCode, PhaseCode, Status, verdict

# The stages of a search, in lanes. A lane runs its stages in turn, each with a share of the
# time (and of a node limit) the lane has left, until one decides. The lanes of a family run
# at once, one thread each: the kernels search without the GIL, so each lane has a core of
# its own where there are two, and the first lane to decide stops the others (Halt). The
# kinds of stage (docs/solver.md; the runs behind each choice: docs/benchmarks-log-2026.md):
# - "whole beam": the beam moving whole runs only (SpiderBoard.whole_runs). That space is
#   far smaller and most wins lie in it. It proves no loss.
# - "proof": a short exhaustive depth-first search. It proves Spiderette's lost deals far
#   sooner than the full beam.
# - "whole dfs": the depth-first search of whole runs only. It proves no loss.
# - "endgames": the same with at most ENDGAME_BUDGET positions per endgame (the play after
#   the last deal), then four times as many while one was cut (whole_runs_win): it wastes
#   no time in a lost endgame. It proves no loss.
# - "sweep": whole runs, endgame by endgame, the nearest first (SpiderKernel.sweep). It deals
#   early where the depth-first search deals last, and only finds wins.
# - "beam": the full beam; "drive": shuffled restarts then the exhaustive search (driver),
#   which alone may decide anything, with what is left. Spider, with 104 cards, hardly ever
#   gets that far: its beams decide it.
# Each stage wins deals no other wins, so the shares trade one deal for another; they come
# from each stage run alone on the hardest Spiderette deals, then every order and share.
Stage = tuple[str, float]
LANES: dict[str, tuple[tuple[Stage, ...], ...]] = {
    "spiderette": ((("whole beam", 0.3), ("proof", 0.15), ("sweep", 0.4), ("beam", 1.0)),
                   (("whole dfs", 0.15), ("endgames", 1.0), ("drive", 1.0))),
    "spider": ((("whole beam", 0.15), ("beam", 0.9), ("drive", 1.0)),),
}
# where fewer cores than lanes are free to this process, one lane of the same stages, in
# the order and shares measured best on one core (two lanes on one core, each at half
# speed, decide fewer deals)
ONE_CORE: dict[str, tuple[Stage, ...]] = {
    "spiderette": (("whole beam", 0.3), ("proof", 0.18), ("whole dfs", 0.21), ("sweep", 0.53),
                   ("beam", 1.0), ("drive", 1.0)),
}
# 4-suit Spider runs SUITS_LANE instead of LANES, under a node limit (kabale solve
# --max-nodes, kabale analyze) as under a time limit: one search, which the clock only cuts
# short. Its first stage, "whole rounds", runs the whole-runs beam's rounds of WHOLE_PLAN,
# each stopped after a budget of its own, not a share of the limit. Most 4-suit wins lie
# there, and a share of the budget cut them off at one budget and not at a smaller one
# (docs/spider-search-log-2026-12-07.md); now a larger budget only runs further along the
# same path (a deal won at one budget is won at any larger one, the drive aside). The full
# beam and the drive then share what is left as in LANES. Under 10 s it wins 394 of deals
# 1001-1400 where LANES won 373. Only 4 suits: with fewer, the drive wins deals early that
# the whole rounds would delay (spider:suits=1 #3 at 276,250 positions, where the whole
# rounds need 558,799), and LANES stay as measured.
SUITS_LANE: dict[tuple[str, int], tuple[Stage, ...]] = {
    ("spider", 4): (("whole rounds", 1.0), ("beam", 0.9), ("drive", 1.0)),
}
# with no limit at all, each stage before the full beam and the drive stops after this many
# positions (the drive then decides)
EARLY_NODES = 2_000_000
# the sweep's budget per endgame (x4 each time all are reached)
SWEEP_BUDGET = 200_000
SWEEP_MOVES = 60  # paid moves before the last deal, at most (SpiderKernel.sweep)
# the "endgames" stage's first budget per endgame: about what a won endgame of a hard deal
# costs, a small share of what a lost one does
ENDGAME_BUDGET = 5_000
# with a time limit, a stage left less than this is skipped: a kernel's first positions touch
# fresh pages of its table, and it looks at the clock only every 1024 positions, which can
# take far longer than such a stage's time
MIN_STAGE_SECONDS = 0.05
# the score's weights (empty column, face-down card, card on the next rank in suit, out of
# suit, on another card; see SpiderBoard._rehash_col). Each round names its own: deals one
# set misjudges, another often solves at once
Weights = tuple[int, int, int, int, int]
BALANCED: Weights = (60, 40, 20, 0, 6)
FEW_TURNS: Weights = (60, 25, 20, 0, 6)      # turning cards matters less
MANY_TURNS: Weights = (60, 70, 20, 0, 6)     # turning cards matters more
FEW_SPACES: Weights = (20, 40, 20, 0, 6)     # empty columns matter less
BREAKS: Weights = (60, 40, 20, 0, 15)        # a card on no next rank costs more
NATURAL: Weights = (60, 40, 30, 10, 6)       # building out of suit counts too
WEIGHTS = (BALANCED, FEW_TURNS, MANY_TURNS, FEW_SPACES, BREAKS, NATURAL)
Round = tuple[int, int, Weights]  # positions searched per phase, dealt on per phase, weights


def _cycled(sizes: tuple[tuple[int, int], ...], start: int = 0) -> tuple[Round, ...]:
    """Rounds of the given sizes with the first four weight sets in turn from ``start``."""
    return tuple((budget, width, WEIGHTS[(start + i) % 4])
                 for i, (budget, width) in enumerate(sizes))


# rounds of the phase search, in an order measured with bench/beam_matrix.py (each round run
# alone on the hardest deals; docs/benchmarks-log-2026.md); the last of each family is a
# whole search if phases are small
BEAM_ROUNDS: dict[str, tuple[Round, ...]] = {
    # Spider 4 suits: wide shallow rounds with FEW_SPACES come right after the cheap ones
    "spider": _cycled((
        (5_000, 4), (100_000, 1), (20_000, 8), (400_000, 2), (50_000, 16), (200_000, 4)))
    + ((20_000, 256, FEW_SPACES), (10_000, 512, FEW_SPACES))
    + _cycled(((1_000_000, 2), (100_000, 32), (400_000, 4), (200_000, 64), (2_000_000, 2),
               (1_000_000, 4), (400_000, 16), (2_000_000, 8), (50_000, 256), (50_000, 1024),
               (50_000, 4096), (100_000, 16_384), (4_000_000, 50_000)), start=2),
    # Spiderette: wide shallow rounds of (20k, 256) and (100k, 32) early, in turn with every
    # weight set, since which weights a round uses decides some deals
    "spiderette": (
        (5_000, 4, BALANCED), (5_000, 4, MANY_TURNS), (100_000, 1, FEW_TURNS),
        (20_000, 8, MANY_TURNS), (50_000, 16, NATURAL), (20_000, 256, FEW_SPACES),
        (100_000, 32, NATURAL), (20_000, 256, FEW_TURNS), (1_000_000, 2, FEW_TURNS),
        (50_000, 16, BREAKS), (200_000, 4, MANY_TURNS), (20_000, 256, MANY_TURNS),
        (100_000, 32, BREAKS), (20_000, 1024, NATURAL), (20_000, 256, BREAKS),
        (10_000, 4096, MANY_TURNS), (200_000, 4, NATURAL), (100_000, 32, FEW_TURNS),
        (20_000, 1024, FEW_SPACES), (10_000, 16_384, FEW_TURNS), (400_000, 2, BALANCED),
        (2_000_000, 2, MANY_TURNS), (400_000, 16, BALANCED), (10_000, 65_536, BALANCED),
        (4_000_000, 50_000, BALANCED)),
}
# the "whole rounds" stage of SUITS_LANE: (round, its own budget in positions). First the
# whole beam's six cheap rounds at 3M each (most wins; 9100009 needs 2,467,206 in the fifth).
# Then two wide shallow rounds at 20M each: of the 28 deals of 1-1,000 still undecided at
# 60M positions (the full beam had over 30M), (20,000 x 256) alone wins 20 within 18.6M
# and (10,000 x 512) two more (docs/spider-search-log-2026-12-07.md)
CappedRound = tuple[Round, int]
WHOLE_PLAN: tuple[CappedRound, ...] = tuple(
    (r, 3_000_000) for r in BEAM_ROUNDS["spider"][:6]) + (
    ((20_000, 256, BALANCED), 20_000_000), ((10_000, 512, BALANCED), 20_000_000))
# the beam's codes (status.PhaseCode); the depth-first kernel's are status.KernelCode
SOLVED, NO_WIN, STOPPED, UNSOLVABLE = (PhaseCode.SOLVED, PhaseCode.NO_WIN, PhaseCode.STOPPED,
                                       PhaseCode.UNSOLVABLE)
# a winning line is kept as a chain (earlier chain, one phase's ops as 4 bytes a move)
Chain = tuple["Chain", bytes] | None
PER_SEARCH = 16  # positions one phase search passes on (more would be near-duplicates)


Args = tuple[bool, int, list[list[int]], list[int], list[int], int, list[int] | None]
# the kernels' moves: (kind, a, b, n), kind 0 a column move, 1 a deal, 2 column a's top
# card to its foundation (foundations=cards)
Ops = list[tuple[int, int, int, int]]
DEAL, UP = 1, 2


def kernel_args(game: Game) -> Args:
    """The kernels' first arguments for the game's current position: strict rule, cards in
    the variant, columns, face-down counts, stock (card codes, bottom first), runs off, and
    under foundations=cards the codes of the cards on the foundations (else None)."""
    s = game.state
    cards_up = game.rules.foundation_rule == "cards"
    return (bool(game.variant["strict"]), game.rules.n_cards,
            [[code(c) for c in col] for col in s.columns], list(s.down),
            [code(c) for c in s.stock], 0 if cards_up else len(s.foundations),
            [code(c) for pile in s.foundations for c in pile] if cards_up else None)


def run_spider(game: Game, max_seconds: float, max_nodes: int,
               table_mb: int) -> tuple[str, list[str], int]:
    """(status, line in notation, nodes searched) for the game's current position: the
    family's LANES at once, each with the whole time limit and an equal share of the memory,
    until one decides. Under a node limit it runs lanes_for(family, 1, max_nodes, suits),
    one lane, whatever the cores: lanes that race decide in the order the threads happen to
    run, so their positions, line and (near the limit) verdict would vary with the machine."""
    lanes = lanes_for(game.variant.family, 1 if max_nodes else cores(), max_nodes,
                      suits_of(game))
    args = kernel_args(game)
    halt = Halt()
    share = len(lanes)
    quotas = [max_nodes // share + (i < max_nodes % share) for i in range(share)]
    status, ops, nodes = race(
        [partial(run_lane, lane, game.variant.family, args, max_seconds, quota,
                 max(8, table_mb // share), halt)
         for lane, quota in zip(lanes, quotas, strict=True) if quota or not max_nodes], halt)
    return status, notation(ops), nodes


def suits_of(game: Game) -> int:
    """How many suits ``game``'s deck has (core.deal owns the deck): SUITS_LANE's key."""
    return len(suits_and_copies(game.variant)[0])


def lanes_for(family: str, cores: int, max_nodes: int = 0,
              suits: int = 0) -> tuple[tuple[Stage, ...], ...]:
    """The SUITS_LANE of the family with ``suits`` where it has one; else the family's
    LANES, or its ONE_CORE lane where ``cores`` cannot run them all (always under a node
    limit, ``max_nodes``)."""
    if (family, suits) in SUITS_LANE:
        return (SUITS_LANE[family, suits],)
    lanes = LANES[family]
    if len(lanes) > cores and family in ONE_CORE:
        return (ONE_CORE[family],)
    return lanes


def run_lane(stages: tuple[Stage, ...], family: str, args: Args, max_seconds: float,
             max_nodes: int, table_mb: int,
             halt: Halt) -> tuple[str, Ops, int]:
    """One lane's ``stages`` in turn within the limits (0 = none) until one decides or
    ``halt`` is raised: (status, ops, nodes searched). Consecutive depth-first stages share
    one kernel (its table is only paid for once); a beam frees it first, to stay within the
    memory limit."""
    start = time.perf_counter()
    nodes = 0
    kernel: SpiderKernel | None = None
    for kind, share in stages:
        if halt.is_set() or (max_nodes and nodes >= max_nodes):
            break
        seconds = time_left(max_seconds, start) * share
        if max_seconds and seconds < MIN_STAGE_SECONDS:
            continue
        limit = max(1, int((max_nodes - nodes) * share)) if max_nodes else 0
        if kind not in ("beam", "drive", "whole rounds") and not max_seconds and \
                not max_nodes:  # the whole rounds are bounded by their own budgets
            limit = EARLY_NODES
        if kind == "whole rounds":
            kernel = None
            status, ops, used = beam_stage(True, family, args, table_mb, seconds, limit, halt,
                                           WHOLE_PLAN)
        elif kind.endswith("beam"):
            kernel = None
            status, ops, used = beam_stage(kind == "whole beam", family, args, table_mb,
                                           seconds, limit, halt)
        else:
            if kernel is None:
                kernel = SpiderKernel(*args, table_mb)
                kernel.halt = halt
            before = kernel.nodes
            status, ops = kernel_stage(kind, kernel, seconds, limit)
            used = kernel.nodes - before
        nodes += used
        if status != Status.UNKNOWN:
            return status, ops, nodes
    return Status.UNKNOWN, [], nodes


def beam_stage(whole_runs: bool, family: str, args: Args, table_mb: int, max_seconds: float,
               max_nodes: int, halt: Halt | None = None,
               plan: tuple[CappedRound, ...] = ()) -> tuple[str, Ops, int]:
    """The family's beam rounds, or the rounds of ``plan`` each stopped after its own budget,
    within the limits (0 = none) or until ``halt``: (status, ops, nodes searched). With
    ``whole_runs`` it answers "solved" or "unknown", never "unsolvable"."""
    phases = SpiderPhases(*args, max(8, table_mb // 2), max(8, table_mb))
    phases.halt = halt
    rounds = tuple(r for r, _ in plan) if plan else BEAM_ROUNDS[family]
    caps = tuple(cap for _, cap in plan)
    status, ops = phase_rounds(phases, rounds, max_seconds, max_nodes, whole_runs, caps)
    return PhaseCode(status).status, ops or [], phases.nodes


def kernel_stage(kind: str, kernel: SpiderKernel, max_seconds: float,
                 max_nodes: int) -> tuple[str, Ops]:
    """One depth-first stage of LANES ("proof", "whole dfs", "endgames", "sweep" or "drive")
    within the limits (0 = none): (status, ops). Those that move whole runs only answer
    "solved" or "unknown"; the sweep answers "unknown" when there is nothing left to deal."""
    if kind == "drive":  # drive counts all the kernel's positions, earlier stages' too
        return drive(kernel, max_seconds, kernel.nodes + max_nodes if max_nodes else 0)
    if kind == "proof":
        status, line = kernel.run(max_nodes, max_seconds)
        return verdict(status), line
    if kind == "sweep" and not kernel.stock_left:
        return Status.UNKNOWN, []
    if kind == "sweep":
        found = sweep_win(kernel, max_seconds, max_nodes)
    else:
        found = whole_runs_win(kernel, max_seconds, max_nodes,
                               ENDGAME_BUDGET if kind == "endgames" else 0)
    return (Status.UNKNOWN, []) if found is None else (Status.SOLVED, found)


def sweep_win(kernel: SpiderKernel, max_seconds: float,
              max_nodes: int) -> Ops | None:
    """The winning ops of the kernel's sweep of whole runs (SpiderKernel.sweep) within the
    limits (none given: EARLY_NODES positions), or None: like whole_runs_win it finds wins
    only, and the kernel is back at its position unless it won. Needs cards in the stock."""
    if not max_seconds and not max_nodes:
        max_nodes = EARLY_NODES
    kernel.whole_runs = True
    try:
        status, ops = kernel.sweep(max_nodes, max_seconds, SWEEP_BUDGET, SWEEP_MOVES)
    finally:
        kernel.whole_runs = False
    return ops if status == KernelCode.SOLVED else None


def whole_runs_win(kernel: SpiderKernel, max_seconds: float, max_nodes: int,
                   endgame_budget: int = 0) -> Ops | None:
    """The winning ops of a depth-first search of ``kernel`` that moves whole runs only,
    within the limits (none given: EARLY_NODES positions), or None. With ``endgame_budget``
    each endgame gets at most that many positions (SpiderKernel.endgame_budget), and while a
    search cut one it runs again with four times the budget. Its "unsolvable" proves nothing
    about the real game, so only a win is returned; the kernel is back at its position, on
    all moves, unless it won."""
    if not max_seconds and not max_nodes:
        max_nodes = EARLY_NODES
    start, first = time.perf_counter(), kernel.nodes
    kernel.whole_runs = True
    try:
        while True:
            kernel.endgame_budget = endgame_budget
            seconds = time_left(max_seconds, start)
            nodes = max_nodes - (kernel.nodes - first) if max_nodes else 0
            status, ops = kernel.run(nodes, seconds)
            if status == KernelCode.SOLVED:
                return ops
            spent = (max_nodes and kernel.nodes - first >= max_nodes) or \
                (max_seconds and time.perf_counter() - start >= max_seconds)
            if not endgame_budget or not kernel.left_out or spent or \
                    (kernel.halt is not None and kernel.halt.is_set()):
                return None
            endgame_budget *= 4
    finally:
        kernel.whole_runs = False
        kernel.endgame_budget = 0


def phase_rounds(phases: SpiderPhases, rounds: tuple[Round, ...], max_seconds: float,
                 max_nodes: int, whole_runs: bool = False,
                 caps: tuple[int, ...] = ()) -> tuple[int, Any]:
    """The beam's ``rounds`` (budget, width, weights) in turn, within the limits (0 = none;
    max_nodes caps phases.nodes): (SOLVED, ops), (UNSOLVABLE, None) when a round searched
    everything, else (STOPPED, None). With ``whole_runs`` only whole runs move, and a round
    that searched everything proves only that no such line wins: (STOPPED, None). With
    ``caps`` round i stops after caps[i] positions of its own (0: none) and the next one
    starts, so what a round does depends on neither the limit nor how far the others got."""
    deadline = time.perf_counter() + max_seconds if max_seconds else 0.0
    phases.whole_runs = whole_runs
    try:
        for i, (budget, width, weights) in enumerate(rounds):
            weigh(phases, weights)
            cap = max_nodes
            if i < len(caps) and caps[i]:
                mine = phases.nodes + caps[i]
                cap = min(cap, mine) if cap else mine
            status, ops = beam(phases, budget, width, deadline, cap)
            if status == STOPPED and cap != max_nodes and \
                    not (deadline and time.perf_counter() >= deadline) and \
                    not (phases.halt is not None and phases.halt.is_set()):
                continue  # this round's own budget is spent: on to the next
            if status == UNSOLVABLE and whole_runs:
                break
            if status != NO_WIN:
                return status, ops
    finally:
        phases.whole_runs = False
    return STOPPED, None


def weigh(phases: SpiderPhases, weights: Weights) -> None:
    """Set the weights of the phase search's score (see SpiderBoard._rehash_col)."""
    (phases.w_empty, phases.w_hidden, phases.w_suited, phases.w_natural,
     phases.w_break) = weights


def beam(phases: SpiderPhases, budget: int, width: int, deadline: float,
         max_nodes: int) -> tuple[int, Any]:
    """One round: search each phase from the ``width`` best positions the previous phase
    found (over all of them, at most PER_SEARCH from one search unless the round is the
    whole-search one, equal positions once), deal on them, and so on until a win.
    Returns (SOLVED, ops); (UNSOLVABLE, None) when no position is left and every phase was
    searched whole with no position left out (the round was exhaustive, see _spider.pyx);
    (NO_WIN, None) when no position is left otherwise; (STOPPED, None) at a limit."""
    phases.new_round()
    layer: list[tuple[bytes, Chain]] = [(phases.start(), None)]
    first = True
    exhaustive = True
    while layer:
        # each search passes on its share of the width, and at least PER_SEARCH positions:
        # the first phase has one search, which alone fills the beam (a winning line may
        # start from the 282nd of 625 first-phase positions, Spiderette seed 112)
        want = width if width > PER_SEARCH * 64 else \
            max(min(width, PER_SEARCH), -(-width // len(layer)))
        found: dict[int, tuple[int, bytes, Chain]] = {}
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
            status, payload = phases.search(state, not first, budget, want, nodes, seconds)
            if status == SOLVED:
                return SOLVED, unchain((line, payload))
            if status == STOPPED:
                return STOPPED, None
            exhaustive = exhaustive and phases.exhaustive
            for score, key, position, ops in payload:
                if key not in found or found[key][0] < score:
                    found[key] = (score, position, (line, ops))
            if len(found) > 2 * width:  # bound the memory: keep the best
                found = dict(best_of(found, width))
                exhaustive = False
        exhaustive = exhaustive and len(found) <= width
        layer = [(position, line) for _, (_, position, line) in best_of(found, width)]
        first = False
    return (UNSOLVABLE if exhaustive else NO_WIN), None


def best_of(found: dict[int, tuple[int, bytes, Chain]],
            width: int) -> list[tuple[int, tuple[int, bytes, Chain]]]:
    """The ``width`` best-scored entries of ``found``."""
    return sorted(found.items(), key=lambda item: -item[1][0])[:width]


def unchain(chain: Chain) -> Ops:
    """The moves of a line chain, first to last, as (kind, a, b, n) tuples."""
    parts: list[bytes] = []
    while chain is not None:
        chain, ops = chain
        parts.append(ops)
    flat = b"".join(reversed(parts))
    return [(flat[i], flat[i + 1], flat[i + 2], flat[i + 3]) for i in range(0, len(flat), 4)]


def notation(ops: Ops) -> list[str]:
    """The kernels' operations in explicit notation."""
    return ["d" if kind == DEAL else f"{a + 1}>f" if kind == UP else f"{a + 1}:{n}>{b + 1}"
            for kind, a, b, n in ops]
