# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Spider-family search kernel (Spider and Spiderette, 1/2/4 suits, strict or not).

Two searches share one board (_spider_board.pxi: packed columns, Zobrist-style keys,
do/undo, move generation) and the fixed-size table of _common.pxi:
- SpiderPhases (_spider_phase.pxi), a beam search over the phases between deals, driven by
  kabale.solver.spider. It finds wins fast; it may answer "unsolvable" only under rule 5.
- SpiderKernel (below), an exhaustive depth-first search with undo.
The Python layer packs core's State (card code = suit * 13 + rank - 1) and replays every
line through core.

Search space reductions, each with the argument that it keeps every verdict right (the
search is complete: "unsolvable" means every state reachable under them was searched, or
proved lost):

1. No move is pruned by a dominance rule. Moving part of a run is genuinely needed in the
   Spider family: the part left behind can take a card of another suit, or later join its
   own suit elsewhere (tests/solver/test_spider_part_runs.py holds a Spiderette position
   won only that way). So all legal column moves and the deal are generated; only their
   order is heuristic. It is the costliest rule to keep: moving whole runs only, an endgame
   of deal 71 is searched whole in 25,425 positions; with every move it is still open after
   3 million.
2. Equal positions are searched once (transposition table). While the stock has cards the
   key includes each column's index, because a deal gives a known card to each column, so
   columns are not interchangeable. Once the stock is empty nothing is dealt any more and
   winnability does not depend on column order, so the key sums the columns without their
   index: positions that differ by a permutation of columns are searched once. A state seen
   again on the current path is a cycle and is skipped (a shortest win never repeats one).
3. With the stock empty, a move into an empty column is generated for the first empty
   column only (the others give the same position up to column order, rule 2), and a whole
   column (no face-down card) is never moved into an empty one (same position).
4. Depth cap (``max_depth`` moves; 0 = none, the driver caps only its restarts). A Spider
   search can run millions of moves deep without backing up. Past the cap the search backs
   up instead; a state cut
   there may still be in the table and prune a shallower path later, so once any cut
   happened an exhausted search reports "unknown" (-1), never "unsolvable". Solved lines
   are unaffected (each one is replayed through core).
5. The beam (SpiderPhases) says "unsolvable" only after a round in which every phase search
   ran until no position was left to expand (no budget or pool cut), and every position
   that may be dealt on was passed on and dealt on (none left out by the per-search count
   or the beam's width). Such a round visited every position reachable from the start by
   column moves and deals, under rules 1-3 and 6 only: each phase search generates every column
   move (rule 1, with rule 3 once the stock is empty), and a position is skipped only when
   the table holds it for this round (rule 2), i.e. it was searched whole from elsewhere in
   the round, or it is a dead end (rule 6); the keys of different phases never meet, as
   they include the stock's size.
   So no win was reachable. A round that cut anything ends "failed", proving nothing.
6. Dead ends (Spiderette with four suits, where every card is unique; from the last deal
   on). A position in which some suit cannot be completed even in a relaxed game, where
   every card once uncovered stays free and an empty column once made stays empty, is lost:
   the relaxation over-approximates every line of the real game (the argument is in
   _spider_dead.pxi). The exhaustive search treats such a position as searched; the beam
   does not search a phase that starts in one, nor pass on a position whose deal leads into
   one (rule 5 counts either as searched whole, not as left out).
Completed King-to-Ace runs are removed and face-down cards turned as the rules do it
(automatically), not as a pruning choice.

A restriction for finding wins, outside rules 1-6: with ``whole_runs`` set (on either
search), only whole runs move (onto a card or into an empty column). That space is far
smaller, and most wins lie in it, many that the full beam misses; its lines are
legal moves like any other, so a win found there is a win (and is replayed through core).
Rule 1 says why it proves nothing else: an exhausted search or beam round of whole runs
means only that no win moves whole runs alone, and the driver never reports it.
"""

include "_common.pxi"

from libc.stdlib cimport qsort

from time import perf_counter

include "_spider_board.pxi"
include "_spider_dead.pxi"


cdef struct Frame:
    int32_t start
    int32_t next
    int32_t end
    int32_t ops_base



cdef class SpiderKernel(SpiderBoard):
    """The exhaustive depth-first search (rules 1-4 above)."""

    cdef SMove* ops
    cdef int nops, cap_ops
    cdef Frame* frames
    cdef int cap_frames
    cdef public int max_depth
    cdef bint cut

    def __cinit__(self):
        self.ops = NULL
        self.frames = NULL

    def __init__(self, bint strict, int total, list columns, list down, list stock,
                 int removed, int table_mb):
        SpiderBoard.__init__(self, strict, total, columns, down, stock, removed, table_mb)
        self.cap_ops = 1024
        self.ops = <SMove*>malloc(self.cap_ops * sizeof(SMove))
        self.cap_frames = 1024
        self.frames = <Frame*>malloc(self.cap_frames * sizeof(Frame))
        if self.ops == NULL or self.frames == NULL:
            raise MemoryError("cannot allocate search stacks")
        self.nops = 0
        self.max_depth = 0
        self.cut = 0

    def __dealloc__(self):
        free(self.ops)
        free(self.frames)

    cdef int _push(self, SMove* m) noexcept:
        cdef SMove* grown
        if self.nops == self.cap_ops:
            grown = <SMove*>realloc(self.ops, 2 * self.cap_ops * sizeof(SMove))
            if grown == NULL:
                return -1
            self.ops = grown
            self.cap_ops *= 2
        self.ops[self.nops] = m[0]
        self.nops += 1
        return 0

    def run(self, long long max_nodes, double max_seconds, int noise=0):
        """One search from the loaded position with an empty table. ``noise`` > 0 adds a
        random 0..noise-1 to every move's priority (a restart with another order; seeded by
        noise, so runs repeat exactly); 0 keeps the plain order. max_nodes counts this run's
        positions (0: no limit); max_seconds its time (0: no limit). Unless the result is
        "solved" the kernel is back at the loaded position afterwards, ready to run again.
        Returns (status, ops) as _search."""
        cdef long long before = self.nodes
        self.cut = 0
        table_forget(&self.table)
        self.noise = noise
        self.rng = mix64(<uint64_t>noise + 12345)
        status, ops = self._search(before + max_nodes if max_nodes > 0 else 0, max_seconds)
        if status != 1:
            while self.nops > 0:
                self.nops -= 1
                self._undo(&self.ops[self.nops])
            self.mlen = 0
        return status, ops

    def _search(self, long long max_nodes, double max_seconds):
        """Search. Returns (status, ops): status 1 solved, 0 unsolvable, -1 node or time
        limit, -2 memory limit; ops the winning line as (kind, a, b, n) tuples."""
        cdef int depth = 0, rc
        cdef Frame* fr
        cdef Frame* grown
        cdef SMove m
        cdef GMove* g
        cdef double deadline = perf_counter() + max_seconds if max_seconds > 0 else 1e300
        cdef uint64_t used
        if self.nrem * 13 == self.total:
            return 1, []
        table_seen_or_add(&self.table, self._hash())
        self.frames[0].start = self.mlen
        self.frames[0].ops_base = self.nops
        if self._gen() != 0:
            return -2, []
        self.frames[0].next = self.frames[0].start
        self.frames[0].end = self.mlen
        while True:
            fr = &self.frames[depth]
            if fr.next >= fr.end:
                if depth == 0:
                    return (-1 if self.cut else 0), []
                self.mlen = fr.start
                while self.nops > fr.ops_base:
                    self.nops -= 1
                    self._undo(&self.ops[self.nops])
                depth -= 1
                continue
            g = &self.mbuf[fr.next]
            m.kind = g.kind
            m.a = g.a
            m.b = g.b
            m.n = g.n
            fr.next += 1
            rc = self.nops
            self._apply(&m)
            if self._push(&m) != 0:
                return -2, []
            self.nodes += 1
            if self.nrem * 13 == self.total:
                return 1, self._line()
            # limits are checked on every position, also those the table turns away (a long
            # run of table hits must not outlast the time limit)
            if (self.nodes & 1023) == 0:
                if perf_counter() >= deadline:
                    return -1, []
                used = <uint64_t>self.cap_ops * sizeof(SMove) + self.mcap * sizeof(GMove) + \
                    <uint64_t>self.cap_frames * sizeof(Frame)
                if used > self.mem_limit:
                    return -2, []
            if max_nodes > 0 and self.nodes >= max_nodes:
                return -1, []
            if table_seen_or_add(&self.table, self._hash()) or self._dead():
                self.nops -= 1
                self._undo(&self.ops[self.nops])
                continue
            if self.max_depth > 0 and depth + 1 >= self.max_depth:
                # rule 4: too deep; the search backs up, and can no longer prove "unsolvable"
                self.cut = 1
                self.nops -= 1
                self._undo(&self.ops[self.nops])
                continue
            depth += 1
            if depth == self.cap_frames:
                grown = <Frame*>realloc(self.frames, 2 * self.cap_frames * sizeof(Frame))
                if grown == NULL:
                    return -2, []
                self.frames = grown
                self.cap_frames *= 2
            fr = &self.frames[depth]
            fr.ops_base = rc
            fr.start = self.mlen
            if self._gen() != 0:
                return -2, []
            fr.next = fr.start
            fr.end = self.mlen

    cdef list _line(self):
        cdef int i
        cdef list out = []
        for i in range(self.nops):
            out.append((self.ops[i].kind, self.ops[i].a, self.ops[i].b, self.ops[i].n))
        return out


include "_spider_phase.pxi"
