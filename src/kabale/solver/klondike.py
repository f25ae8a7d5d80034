"""Klondike family: pack a core State for the Cython kernel and read its line back."""

from __future__ import annotations

import threading
import time
from functools import partial

from ..core import Game
from ..core.cards import Card
from ..core.state import State
from ._klondike import Halt, KlondikeKernel, new_kernel
from .driver import (
    FIRST_BUDGET,
    NOISE,
    RESTART_SHARE,
    RESTARTS,
    Outcome,
    cores,
    drive,
    race,
    time_left,
)
from .status import KernelCode, Status, verdict

# share of the limits for the search without foundation-to-tableau moves (back=true only;
# 0: none): lost deals gain the time a larger share would take, and the wins it would find
# late, the search with those moves finds too (docs/benchmarks-log-2026.md has the runs
# behind these shares)
WITHOUT_BACK = 0.05
# shuffled restarts of the search with those moves, after that one: none, as the first
# search had its restarts
RESTARTS_WITH_BACK = 0
# share of the limits for the draw-1 relaxation (draw 3 or a pass limit, see run_klondike):
# about half the lost draw-3 deals are lost drawing one card too, most of them proved faster
# so; a larger share takes time from the deals it cannot decide
RELAXED = 0.2
# share of the limits for the relaxation's forecast (back=true): the relaxation without
# foundation-to-tableau moves. When that is won, or not lost within its share, the relaxation
# is left out: a relaxation that wins takes long to say so, and its forecast wins sooner,
# while the deals the relaxation proves lost in time lose their forecast fast
FORECAST = 0.08
# With two cores the search runs two lanes at once (driver.race): a first lane that starts the
# exhaustive search at once (first_lane), and a second lane that gives the relaxation
# (forecast included) these shares of its time, and the rest to the first lane's exhaustive
# search, which it joins on the same table in another move order (shuffled by NOISE, see
# Pair), which proves lost deals up to twice as fast
SECOND_FORECAST = 0.15
SECOND_RELAXED = 0.6
# the second lane starts this many seconds after the first: most deals are decided sooner,
# and starting it at once more than doubled their median time
SECOND_HEAD_START = 0.05
# Before its exhaustive search the first lane tries the plain order for QUICK positions, then
# short restarts in shuffled orders (NOISE + 1, + 2, ...) of these budgets. A depth-first
# search's time to a win is heavy-tailed in its move order: Solvitaire's draw-1 deal 365 is
# won in 47 positions in one shuffled order, 560k in the plain one. Simulated from each
# order's searches of Solvitaire's deals 1-400, this schedule searches 17% fewer positions
# in all at draw 1 and 4% at draw 3, the median unchanged (lost deals pay the 30k positions)
QUICK = 300
QUICK_RESTARTS = (2_000, 4_000, 8_000, 16_000)
# serial's lane as the kernel's solve_many runs it (its Plan, in its fields' order)
PLAN = (WITHOUT_BACK, RESTARTS, RESTARTS_WITH_BACK, RELAXED, FORECAST, RESTART_SHARE,
        FIRST_BUDGET, NOISE)
# kernel op kinds (see _klondike.pyx); its status codes are status.KernelCode
T2T, T2F, W2T, W2F, F2T, DRAW = range(6)
LIMIT, PAUSED = KernelCode.LIMIT, KernelCode.PAUSED
Line = list[tuple[int, int, int, int]]


def code(card: Card) -> int:
    """The kernels' card code: suit * 13 + rank - 1 (suits S H D C = 0..3)."""
    return int(card.suit) * 13 + card.rank - 1


def kernel_args(game: Game) -> tuple[int, int, int, bool, bool, list[list[int]], list[int],
                                     list[int], list[int], list[int], int]:
    """KlondikeKernel's arguments but the table size: the game's current true state."""
    v = game.variant
    return (int(v["draw"]), int(v["passes"]), int(v["decks"]), bool(v["back"]),
            v["empty"] == "any", *position_args(game.state))


def position_args(state: State) -> tuple[list[list[int]], list[int], list[int], list[int],
                                         list[int], int]:
    """KlondikeKernel.load's arguments: the state's columns, face-down counts, stock,
    waste, foundation heights and passes used."""
    return ([[code(c) for c in col] for col in state.columns], list(state.down),
            [code(c) for c in state.stock], [code(c) for c in state.waste],
            [len(f) for f in state.foundations], state.passes_used)


def kernel_for(game: Game, table_mb: int) -> KlondikeKernel:
    """A kernel loaded with the game's current true state (its table grows with the search
    up to about ``table_mb`` MiB)."""
    v = game.variant
    return new_kernel(int(v["draw"]), int(v["passes"]), int(v["decks"]), bool(v["back"]),
                      v["empty"] == "any", game.state, table_mb)


def notation(line: Line) -> list[str]:
    """The kernel's line (KlondikeKernel.run) as moves in explicit notation."""
    out: list[str] = []
    for kind, a, b, n in line:
        if kind == DRAW:
            out.append("d")
        elif kind == T2T:
            out.append(f"{a + 1}:{n}>{b + 1}")
        elif kind == T2F:
            out.append(f"{a + 1}>f")
        elif kind == F2T:
            out.append(f"f{a + 1}>{b + 1}")
        else:
            out.append("w>f" if kind == W2F else f"w>{b + 1}")
    return out


class Pair:
    """The first lane's exhaustive search and the second lane's, on one table (share_table):
    the owner publishes its kernel once it is under way (None: no sharing); the helper joins
    it, or searches alone if the owner has ended. An exhausted run of either proves the deal
    lost only once the other also ended exhausted, so the owner waits for a helper that
    joined, and the helper leaves that verdict to the owner."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.published = threading.Event()
        self.owner: KlondikeKernel | None = None
        self.owner_ended = False
        self.helper_joined = False
        self.helper_ended = threading.Event()
        self.helper_exhausted = False

    def publish(self, owner: KlondikeKernel | None) -> None:
        with self.lock:
            self.owner = owner
        self.published.set()

    def adopt(self, kernel: KlondikeKernel) -> None:
        """Make ``kernel``, its exhaustive search paused (run with a pause), the owner: a
        helper may join its table from now on; owner_resume goes on with the search."""
        kernel.expect_helper()
        self.publish(kernel)

    def owner_resume(self, kernel: KlondikeKernel) -> tuple[int, Line]:
        """The owner's paused exhaustive search, resumed on the shared table: (status, line)
        as run, KernelCode.UNSOLVABLE only if a helper that joined ended exhausted too."""
        try:
            status, line = kernel.resume()
        finally:
            with self.lock:
                self.owner_ended = True
                joined = self.helper_joined
            self.publish(None)  # a helper still waiting for it goes on alone
        if status == KernelCode.UNSOLVABLE and joined:
            self.helper_ended.wait()  # it completes what it entered, or stops at its limit
            if not self.helper_exhausted:
                status = KernelCode.LIMIT
        return status, line

    def helper_search(self, kernel: KlondikeKernel, max_seconds: float,
                      max_nodes: int) -> tuple[int, Line]:
        """The helper's exhaustive search in a shuffled order: on the owner's table while the
        owner searches (then its exhaustion is reported as LIMIT, the owner decides), else
        alone. Waits for the owner to publish, within max_seconds."""
        start = time.perf_counter()
        self.published.wait(max_seconds or None)
        with self.lock:
            owner = None if self.owner_ended else self.owner
            self.helper_joined = owner is not None
        kernel.max_depth = 0
        if owner is None:
            return kernel.run(max_nodes, time_left(max_seconds, start), NOISE)
        kernel.share_table(owner)
        status: int = KernelCode.LIMIT
        try:
            status, line = kernel.run(max_nodes, time_left(max_seconds, start), NOISE, False)
        finally:
            self.helper_exhausted = status == KernelCode.UNSOLVABLE
            self.helper_ended.set()
        return (LIMIT, []) if status == KernelCode.UNSOLVABLE else (status, line)


def run_klondike(game: Game, max_seconds: float, max_nodes: int,
                 table_mb: int) -> tuple[str, list[str], int]:
    """(status, line in notation, nodes searched) for the game's current position.

    When cards may come back from the foundations, a share of the limits first goes to a
    search that never brings one back: far fewer positions, and a win it finds is a win of
    the real game too (core replays it), though its "unsolvable" proves nothing here.

    Drawing three cards, or with a pass limit, a share then goes to the relaxation that
    draws one card at a time with unlimited passes (after its forecast, see
    relaxation_loses). Every line of the variant is a line of
    the relaxation (a card the variant plays from the waste, the relaxation brings to the
    waste top by drawing and turning as often as it takes; no other move looks at the
    stock), so a position that the relaxation proves lost is lost; its wins prove nothing.

    With two cores the first lane tries the plain order and short restarts (quick_tries),
    then the exhaustive search, in this thread (first_lane); a search still going after
    SECOND_HEAD_START seconds gets the second lane (second_lane) in another thread, with
    half the memory, which tries the relaxation and then joins the first lane's search; the
    first lane to decide stops the other. Most positions are decided before that, and pay for no
    thread.

    Under a node limit it always runs serial's one lane, whatever the cores: two lanes on one
    table race, and which enters a position first (so the positions counted, the line, and
    near the limit the verdict) depends on the threads' timing. One lane in fixed order
    gives the same answer on any machine."""
    if max_nodes or cores() < 2:
        return serial(game, max_seconds, max_nodes, table_mb, RELAXED)
    start = time.perf_counter()
    kernel = kernel_for(game, table_mb)
    status, line = quick_tries(kernel, max_seconds, 0)
    if status != LIMIT:
        return verdict(status), notation(line), kernel.nodes
    status, line = kernel.run(0, time_left(max_seconds, start), 0, True, SECOND_HEAD_START)
    if status != PAUSED:
        return verdict(status), notation(line), kernel.nodes
    halt = Halt()
    kernel.halt = halt
    pair = Pair()
    pair.adopt(kernel)
    seconds = time_left(max_seconds, start)
    return race([partial(first_lane, kernel, pair),
                 partial(second_lane, game, seconds, 0, max(8, table_mb // 2),
                         halt, pair)],
                halt)


def quick_tries(kernel: KlondikeKernel, max_seconds: float, max_nodes: int) -> tuple[int, Line]:
    """The plain order for QUICK positions, then QUICK_RESTARTS (see QUICK), within the
    limits (0: none; the node limit counts the kernel's positions in all): the first that
    decides, else (LIMIT, []). A restart that ends exhausted proves the position lost (it
    searched the whole space: no depth cap here)."""
    start = time.perf_counter()
    kernel.max_depth = 0
    for attempt, budget in enumerate((QUICK, *QUICK_RESTARTS)):
        if max_nodes:
            budget = min(budget, max_nodes - kernel.nodes)
            if budget <= 0:
                break
        status, line = kernel.run(budget, time_left(max_seconds, start),
                                  NOISE + attempt if attempt else 0)
        if status != LIMIT:
            return status, line
        if max_seconds and time.perf_counter() - start >= max_seconds:
            break
    return LIMIT, []


def first_lane(kernel: KlondikeKernel, pair: Pair) -> Outcome:
    """The first of two lanes: the exhaustive search, started after quick_tries and paused
    after SECOND_HEAD_START, goes on as ``pair``'s owner. The search without cards brought
    back and the serial lane's long restarts are left out: they did not pay here (the runs:
    docs/benchmarks-log-2026.md, "Klondike: the solver's shares of the time"). Returns the
    status, the line in notation and the positions searched."""
    status, line = pair.owner_resume(kernel)
    return verdict(status), notation(line), kernel.nodes


def serial(game: Game, max_seconds: float, max_nodes: int, table_mb: int, relaxed: float,
           halt: Halt | None = None) -> tuple[str, list[str], int]:
    """run_klondike on one lane: the search without cards brought back, the relaxation with
    the share ``relaxed`` of the limits (0: none), then the exhaustive search; ``halt``
    stops it."""
    kernel = kernel_for(game, table_mb)
    kernel.halt = halt
    start = time.perf_counter()
    restarts = RESTARTS
    if kernel.back and WITHOUT_BACK > 0:
        kernel.back = False
        status, ops = drive(kernel, max_seconds * WITHOUT_BACK,
                            max(int(max_nodes * WITHOUT_BACK), 1) if max_nodes else 0)
        kernel.back = True
        if status == Status.SOLVED:
            return status, notation(ops), kernel.nodes
        restarts = RESTARTS_WITH_BACK
    if max_nodes and kernel.nodes >= max_nodes:
        return Status.UNKNOWN, [], kernel.nodes  # drive counts the nodes spent so far
    if relaxed > 0 and relaxable(game) and \
            relaxation_loses(kernel, max_seconds, max_nodes, start, FORECAST, relaxed):
        return Status.UNSOLVABLE, [], kernel.nodes
    if max_nodes and kernel.nodes >= max_nodes:
        return Status.UNKNOWN, [], kernel.nodes
    status, ops = drive(kernel, time_left(max_seconds, start), max_nodes, restarts)
    return status, notation(ops), kernel.nodes


def second_lane(game: Game, max_seconds: float, max_nodes: int, table_mb: int,
                halt: Halt, pair: Pair | None = None) -> Outcome:
    """The second lane (see SECOND_FORECAST): the relaxation where the variant has one, then
    the exhaustive search in a shuffled order (with ``pair``, helping the first lane's where
    it can); ``halt`` stops it."""
    kernel = kernel_for(game, table_mb)
    kernel.halt = halt
    start = time.perf_counter()
    if relaxable(game) and relaxation_loses(kernel, max_seconds, max_nodes, start,
                                            SECOND_FORECAST, SECOND_RELAXED):
        return Status.UNSOLVABLE, [], kernel.nodes
    if halt.is_set() or (max_nodes and kernel.nodes >= max_nodes):
        return Status.UNKNOWN, [], kernel.nodes
    nodes = max_nodes - kernel.nodes if max_nodes else 0
    if pair is None:
        pair = Pair()
        pair.publish(None)
    status, ops = pair.helper_search(kernel, time_left(max_seconds, start), nodes)
    return verdict(status), notation(ops), kernel.nodes


def relaxable(game: Game) -> bool:
    """Whether the variant draws more than one card or limits the passes (the relaxation
    differs from it)."""
    return int(game.variant["draw"]) > 1 or int(game.variant["passes"]) > 0


def relaxation_loses(kernel: KlondikeKernel, max_seconds: float, max_nodes: int,
                     start: float, forecast: float, relaxed: float) -> bool:
    """True if the relaxation (see run_klondike) proves the kernel's position lost within
    the share ``relaxed`` of what is left of the limits (0 = none). With back=true its
    forecast, the relaxation without foundation-to-tableau moves, runs first within the
    share ``forecast``; unless that proves the forecast lost, the relaxation is left out: a
    forecast that wins means the relaxation wins too (every line of the forecast is one of
    the relaxation), and one that runs out of its share means a relaxation too large to
    finish in time. The kernel is back on the variant's rules afterwards; the forecast
    proves nothing itself."""
    kernel.relax(True)  # the same kernel and table: a fresh table costs time to map
    back = kernel.back
    try:
        if back and forecast > 0:
            kernel.back = False
            status, _ = drive(kernel, *_share(kernel, forecast, max_seconds, max_nodes, start), 0)
            if status != Status.UNSOLVABLE:
                return False
            kernel.back = True
        status, _ = drive(kernel, *_share(kernel, relaxed, max_seconds, max_nodes, start), 0)
        return status == Status.UNSOLVABLE
    finally:
        kernel.back = back
        kernel.relax(False)


def _share(kernel: KlondikeKernel, share: float, max_seconds: float, max_nodes: int,
           start: float) -> tuple[float, int]:
    """``share`` of what is left of the limits, as drive's (seconds, node count) arguments
    (the node count is the kernel's total at which to stop; 0 = no limit)."""
    nodes = kernel.nodes + max(int((max_nodes - kernel.nodes) * share), 1) if max_nodes else 0
    return time_left(max_seconds, start) * share, nodes

