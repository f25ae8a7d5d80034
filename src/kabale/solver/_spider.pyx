# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Spider-family search kernel (Spider and Spiderette, 1/2/4 suits, strict or not, and
foundations=runs or cards).

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

Under foundations=cards (a column's top card goes alone to a foundation built up by suit,
and never comes back; no run is removed) the rules above stand as follows:
- Rule 1 holds as it is: every move to a foundation is generated too, none is forced or
  pruned (one is not always safe: the card may be needed to hold a lower one).
- Rule 2 holds: the foundations hold exactly the cards that are neither on the table nor
  in the stock, and the stock's cards are fixed by its size, so the key of the columns and
  the stock's size still names the whole position; the foundations do not depend on the
  order of the columns.
- Rules 3, 4 and 5 hold as they are: a move to a foundation changes no empty column, and
  the phase searches generate it like any column move (it is tableau play, not a deal).
- Rule 6 is switched off: its argument needs a suit completed as a run in one column,
  which this rule never asks for (a suit is completed card by card on its foundation).
- The searches for wins (``whole_runs``, the sweep, ``endgame_budget``) keep moves to a
  foundation (without them no line could win). The sweep counts such a move free, like
  turning a card: no line undoes it, so free moves still cannot cycle.

A restriction for finding wins, outside rules 1-6: with ``whole_runs`` set (on either
search), only whole runs move (onto a card or into an empty column). That space is far
smaller, and most wins lie in it, many that the full beam misses; its lines are
legal moves like any other, so a win found there is a win (and is replayed through core).
Rule 1 says why it proves nothing else: an exhausted search or beam round of whole runs
means only that no win moves whole runs alone, and the driver never reports it. The same
holds for SpiderKernel.sweep, a search for wins that visits the endgames (the play after
the last deal) the nearest first and may skip positions: it can only answer "won"; and for
the depth-first search with an ``endgame_budget``, which gives up on an endgame after that
many positions (its positions stay in the table, as if searched): a search that gave up on
one ends "unknown" (-1), never "unsolvable", like a depth cap (rule 4).

The searches run without the GIL (their loops touch C data only), so searches on different
kernels run at once in threads; a Halt flag shared by them stops each at its next look at
the clock, as a time limit does.
"""

include "_common.pxi"

from libc.stdlib cimport qsort

DEF SPIDER_START_BYTES = 1 << 20  # a table's first size; it doubles as it fills (_table.pxi)

include "_spider_board.pxi"
include "_spider_dead.pxi"


cdef uint64_t LOST_TAG = 0x5ca1ab1e0dd5ULL  # sweep: an endgame searched whole (mixed into its key)


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
    cdef Table pre          # sweep: pre-deal positions of this pass, keyed with moves left
    cdef Table ends         # sweep: endgames searched (whole, or at a level's budget)
    cdef bint sweep_short   # sweep: this pass left out a move (a next pass may reach more)
    cdef bint sweep_cut     # sweep: an endgame was cut by its budget at this level
    cdef public long long endgame_budget  # positions per endgame in _dfs (0: no limit)

    def __cinit__(self):
        self.ops = NULL
        self.frames = NULL
        self.pre.slab = NULL
        self.ends.slab = NULL

    def __init__(self, bint strict, int total, list columns, list down, list stock,
                 int removed, object found, int table_mb):
        SpiderBoard.__init__(self, strict, total, columns, down, stock, removed, found,
                             table_mb)
        self.cap_ops = 1024
        self.ops = <SMove*>malloc(self.cap_ops * sizeof(SMove))
        self.cap_frames = 1024
        self.frames = <Frame*>malloc(self.cap_frames * sizeof(Frame))
        if self.ops == NULL or self.frames == NULL:
            raise MemoryError("cannot allocate search stacks")
        self.nops = 0
        self.max_depth = 0
        self.cut = 0
        self.endgame_budget = 0

    def __dealloc__(self):
        free(self.ops)
        free(self.frames)
        table_free(&self.pre)
        table_free(&self.ends)

    cdef int _push(self, SMove* m) noexcept nogil:
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

    @property
    def left_out(self):
        """Whether the last search left positions out (a depth cap or an endgame budget):
        then its end proved nothing."""
        return bool(self.cut)

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
        limit (or halt), -2 memory limit; ops the winning line as (kind, a, b, n) tuples.
        The search runs without the GIL: other threads run meanwhile."""
        cdef double deadline = kabale_now() + max_seconds if max_seconds > 0 else 1e300
        cdef int status
        with nogil:
            status = self._dfs(max_nodes, deadline)
        return status, (self._line() if status == 1 else [])

    cdef int _dfs(self, long long max_nodes, double deadline) noexcept nogil:
        """The depth-first search below the current position, as _search says (max_nodes
        caps self.nodes, 0: none; deadline on kabale_now's clock). A win leaves the board
        there, its line on the ops stack. With ``endgame_budget`` each endgame (the play
        after the deal that empties the stock) gets at most that many positions; a search
        that cut one ends -1, not 0."""
        cdef int depth = 0, rc, d, eg_depth = 0
        cdef long long eg_end = 0
        cdef Frame* fr
        cdef Frame* grown
        cdef SMove m
        cdef GMove* g
        cdef uint64_t used
        if self._won():
            return 1
        table_seen_or_add(&self.table, self._hash())
        self.frames[0].start = self.mlen
        self.frames[0].ops_base = self.nops
        if self._gen() != 0:
            return -2
        self.frames[0].next = self.frames[0].start
        self.frames[0].end = self.mlen
        while True:
            fr = &self.frames[depth]
            if fr.next >= fr.end:
                if depth == 0:
                    return -1 if self.cut else 0
                if depth == eg_depth:
                    eg_depth = 0
                self.mlen = fr.start
                while self.nops > fr.ops_base:
                    self.nops -= 1
                    self._undo(&self.ops[self.nops])
                depth -= 1
                continue
            if eg_depth and self.nodes >= eg_end:
                # the endgame's budget is spent: back up to its root, proving nothing
                for d in range(eg_depth, depth + 1):
                    self.frames[d].next = self.frames[d].end
                self.cut = 1
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
                return -2
            self.nodes += 1
            if self._won():
                return 1
            # limits are checked on every position, also those the table turns away (a long
            # run of table hits must not outlast the time limit)
            if (self.nodes & 1023) == 0:
                if self._past(deadline):
                    return -1
                used = <uint64_t>self.cap_ops * sizeof(SMove) + self.mcap * sizeof(GMove) + \
                    <uint64_t>self.cap_frames * sizeof(Frame)
                if used > self.mem_limit:
                    return -2
            if max_nodes > 0 and self.nodes >= max_nodes:
                return -1
            if table_seen_or_add(&self.table, self._hash()) or self._dead():
                self.nops -= 1
                self._undo(&self.ops[self.nops])
                continue
            if table_wants_room(&self.table):
                table_grow(&self.table, deadline)
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
                    return -2
                self.frames = grown
                self.cap_frames *= 2
            if m.kind == DEAL and self.slen == 0 and self.endgame_budget > 0:
                eg_depth = depth
                eg_end = self.nodes + self.endgame_budget
            fr = &self.frames[depth]
            fr.ops_base = rc
            fr.start = self.mlen
            if self._gen() != 0:
                return -2
            fr.next = fr.start
            fr.end = self.mlen

    def sweep(self, long long max_nodes, double max_seconds, long long budget, int max_moves):
        """Search for a win endgame by endgame, the nearest first: a search for wins only,
        like ``whole_runs`` (which it follows, before the last deal and after it).
        An endgame is the play after the last deal. Pass k = 0, 1, ... reaches every
        position just after the last deal that k paid moves can reach, and each one not
        searched before gets a depth-first search of at most ``budget`` positions. A move
        is free, not paid, when it turns a card or puts a run on its next rank in suit
        (_progress): no line undoes that, so free moves cannot cycle, and each pass is
        finite. Once a pass leaves out no move, every endgame has been reached: those cut by
        the budget are searched again, from pass 0, with four times the budget (a level);
        one searched whole never again.
        The endgames of a level share the table, so a position searched under one is not
        searched again under another. That may hide a win (a position on the path of an
        endgame cut by its budget counts as searched), which a search for wins may do; it
        made Spiderette deal 101 six times faster than a fresh table per endgame.
        The depth-first search deals last and reaches the endgames after a long preparation
        first; this one deals early. Spiderette deal 74 is won here in 3.6M positions,
        there after 150M.
        Returns (1, ops) for a win; (0, []) when every endgame was searched whole, or after
        pass max_moves; (-1, []) at max_nodes or max_seconds (0: none); (-2, []) at the
        memory limit. Unless it won, the kernel is back at its position. Needs cards in the
        stock."""
        cdef long long limit = self.nodes + max_nodes if max_nodes > 0 else 0
        cdef double deadline = kabale_now() + max_seconds if max_seconds > 0 else 1e300
        cdef int k, rc = 0
        cdef uint64_t level = 0
        if self.slen == 0:
            raise ValueError("sweep needs cards in the stock")
        if self.pre.slab == NULL:
            if table_init(&self.pre, 8 * 1024 * 1024) != 0 or \
                    table_init(&self.ends, 8 * 1024 * 1024) != 0:
                raise MemoryError("cannot allocate the sweep's tables")
        table_forget(&self.ends)
        self.cut = 0
        with nogil:
            while rc == 0:
                table_forget(&self.table)
                self.sweep_cut = 0
                for k in range(max_moves + 1):
                    table_forget(&self.pre)
                    self.sweep_short = 0
                    rc = self._sweep_from(k, k, limit, deadline, budget, zkey(10, level, 0))
                    if rc != 0 or not self.sweep_short:
                        break
                if rc != 0 or self.sweep_short or not self.sweep_cut:
                    break
                level += 1
                budget *= 4
        return rc, (self._line() if rc == 1 else [])

    cdef int _sweep_from(self, int left, int k, long long limit, double deadline,
                         long long budget, uint64_t level) noexcept nogil:
        """One pass of sweep below the current position with ``left`` paid moves left to
        make before the last deal (k in the pass). 1 won (the board left there, its line on
        the ops stack), 0 done, -1 / -2 at a limit (the board back where it was)."""
        cdef int start = self.mlen, end, i, rc, after
        cdef bint paid
        cdef SMove m
        cdef GMove* g
        if self._gen() != 0:
            return -2
        end = self.mlen
        for i in range(start, end):
            g = &self.mbuf[i]
            paid = g.kind == MOVE and not self._progress(g)
            if paid and left == 0:
                self.sweep_short = 1
                continue
            m.kind = g.kind
            m.a = g.a
            m.b = g.b
            m.n = g.n
            self._apply(&m)
            if self._push(&m) != 0:
                self._undo(&m)
                self.mlen = start
                return -2
            self.nodes += 1
            if self._won():
                return 1
            after = left - paid
            if self.slen == 0:
                rc = self._sweep_endgame(limit, deadline, budget, level)
            elif self._pre_seen(after, k):
                rc = 0
            else:
                rc = self._sweep_from(after, k, limit, deadline, budget, level)
            if rc == 1:
                return 1
            self.nops -= 1
            self._undo(&self.ops[self.nops])
            if rc == 0 and ((limit > 0 and self.nodes >= limit) or self._past(deadline)):
                rc = -1
            if rc != 0:
                self.mlen = start
                return rc
        self.mlen = start
        return 0

    cdef bint _progress(self, GMove* g) noexcept nogil:
        """Whether move g uncovers a face-down card or puts a run on its next rank in suit
        (the card it leaves is not that): progress no line ever undoes."""
        cdef int s = g.a, t = g.b, head = self.cols[s][self.clen[s] - g.n], below
        if self.clen[s] - g.n == self.cdown[s] and self.cdown[s] > 0:
            return True
        if self.clen[t] == 0:
            return False
        if self.cols[t][self.clen[t] - 1] != head + 1 or rank_of(head) == 13:
            return False
        if self.clen[s] - g.n > self.cdown[s]:
            below = self.cols[s][self.clen[s] - g.n - 1]
            if below == head + 1:
                return False
        return True

    cdef bint _pre_seen(self, int left, int k) noexcept nogil:
        """Whether this pass reached the position before with ``left`` paid moves to make
        or more (then it has nothing new to give); records it otherwise."""
        cdef uint64_t h = self._hash()
        cdef int j
        for j in range(left, k + 1):
            if table_seen(&self.pre, h ^ zkey(9, j, 0)):
                return True
        table_seen_or_add(&self.pre, h ^ zkey(9, left, 0))
        return False

    cdef int _sweep_endgame(self, long long limit, double deadline, long long budget,
                            uint64_t level) noexcept nogil:
        """The depth-first search of the endgame at the current position (just dealt the
        last cards), unless searched whole before or at this ``level``: 1 won, 0 lost or cut
        by ``budget`` (then sweep_cut is set), -1 / -2 at a limit; the board is back here
        unless won."""
        cdef uint64_t h = self._hash()
        cdef int mlen0 = self.mlen, base = self.nops
        cdef long long cap = self.nodes + budget
        cdef int status
        if table_seen(&self.ends, h ^ LOST_TAG) or table_seen_or_add(&self.ends, h ^ level):
            return 0
        if self._dead():
            table_seen_or_add(&self.ends, h ^ LOST_TAG)
            return 0
        if limit > 0 and limit < cap:
            cap = limit
        if self._past(deadline):
            return -1
        status = self._dfs(cap, deadline)
        if status == 1:
            return 1
        while self.nops > base:
            self.nops -= 1
            self._undo(&self.ops[self.nops])
        self.mlen = mlen0
        if status == 0:
            table_seen_or_add(&self.ends, h ^ LOST_TAG)
        else:
            self.sweep_cut = 1
        if status == -2:
            return -2
        if (limit > 0 and self.nodes >= limit) or self._past(deadline):
            return -1
        return 0

    cdef list _line(self):
        cdef int i
        cdef list out = []
        for i in range(self.nops):
            out.append((self.ops[i].kind, self.ops[i].a, self.ops[i].b, self.ops[i].n))
        return out


include "_spider_phase.pxi"
