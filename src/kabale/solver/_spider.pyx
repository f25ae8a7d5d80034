# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Spider-family search kernel (Spider and Spiderette, 1/2/4 suits, strict or not).

Depth-first search with undo on one packed state, Zobrist-style keys and a fixed-size table
(see _common.pxi). The Python layer (kabale.solver.spider) packs core's State (card code =
suit * 13 + rank - 1) and replays the line through core.

Search space reductions, each with the argument that it keeps every verdict right (the
search is complete: "unsolvable" means every state reachable under them was searched):

1. No move is pruned by a dominance rule. Moving part of a run is genuinely needed in the
   Spider family (it uncovers a card of another suit that can take a different card), so all
   legal column moves and the deal are generated; only their order is heuristic.
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
Completed King-to-Ace runs are removed and face-down cards turned as the rules do it
(automatically), not as a pruning choice.
"""

include "_common.pxi"

from libc.stdlib cimport qsort

from time import perf_counter

DEF MAXC = 10
DEF MAXL = 128
DEF MAXS = 128

DEF MOVE = 0
DEF DEAL = 1

cdef struct SMove:
    uint8_t kind
    uint8_t a
    uint8_t b
    uint8_t n
    uint8_t flip        # the source column turned a card
    uint16_t remmask    # columns where a run was removed
    uint16_t remflip    # columns that turned a card after the removal
    uint8_t remsuit[MAXC]
    uint8_t dealt
    int16_t prio


cdef struct GMove:
    # a generated, not yet played move (small: the search keeps every frame's list)
    uint8_t kind
    uint8_t a
    uint8_t b
    uint8_t n
    int16_t prio


cdef struct Frame:
    int32_t start
    int32_t next
    int32_t end
    int32_t ops_base


cdef int by_prio(const void* a, const void* b) noexcept nogil:
    """qsort order: higher priority first, then generation order (a total order, so the
    search is deterministic)."""
    cdef const GMove* x = <const GMove*>a
    cdef const GMove* y = <const GMove*>b
    if x.prio != y.prio:
        return y.prio - x.prio
    return (x.a * 16 + x.b) * 128 + x.n - ((y.a * 16 + y.b) * 128 + y.n)


cdef inline int rank_of(int c) noexcept nogil:
    return c % 13 + 1

cdef inline int suit_of(int c) noexcept nogil:
    return c // 13


cdef class SpiderKernel:
    cdef int ncols, strict, total, nrem
    cdef uint8_t cols[MAXC][MAXL]
    cdef int clen[MAXC]
    cdef int cdown[MAXC]
    cdef uint64_t colhash[MAXC]
    cdef uint8_t S[MAXS]
    cdef int slen
    cdef Table table
    cdef SMove* ops
    cdef int nops, cap_ops
    cdef GMove* mbuf
    cdef int mlen, mcap
    cdef Frame* frames
    cdef int cap_frames
    cdef public long long nodes
    cdef public int max_depth
    cdef bint cut
    cdef uint64_t noise, rng
    cdef uint64_t mem_limit

    def __cinit__(self):
        self.table.keys = NULL
        self.ops = NULL
        self.mbuf = NULL
        self.frames = NULL

    def __init__(self, bint strict, int total, list columns, list down, list stock,
                 int removed, int table_mb):
        """Load a position: columns bottom first, stock bottom first (top = next dealt to
        column 1), ``removed`` runs already off, ``total`` cards in the variant."""
        cdef int i, j
        self.strict = strict
        self.total = total
        self.ncols = len(columns)
        self.nrem = removed
        if self.ncols > MAXC or len(stock) > MAXS:
            raise ValueError("position too large for the Spider kernel")
        for i in range(self.ncols):
            if len(columns[i]) > 104:
                raise ValueError("column too long for the Spider kernel")
            self.clen[i] = len(columns[i])
            self.cdown[i] = down[i]
            for j in range(self.clen[i]):
                self.cols[i][j] = columns[i][j]
            self._rehash_col(i)
        self.slen = len(stock)
        for j in range(self.slen):
            self.S[j] = stock[j]
        if table_init(&self.table, <uint64_t>table_mb * 1024 * 1024) != 0:
            raise MemoryError("cannot allocate the transposition table")
        self.mem_limit = <uint64_t>max(table_mb, 64) * 1024 * 1024
        self.cap_ops = 1024
        self.ops = <SMove*>malloc(self.cap_ops * sizeof(SMove))
        self.mcap = 8192
        self.mbuf = <GMove*>malloc(self.mcap * sizeof(GMove))
        self.cap_frames = 1024
        self.frames = <Frame*>malloc(self.cap_frames * sizeof(Frame))
        if self.ops == NULL or self.mbuf == NULL or self.frames == NULL:
            raise MemoryError("cannot allocate search stacks")
        self.nops = 0
        self.mlen = 0
        self.nodes = 0
        self.max_depth = 0
        self.cut = 0
        self.noise = 0
        self.rng = 0x2545F4914F6CDD1DULL

    def __dealloc__(self):
        table_free(&self.table)
        free(self.ops)
        free(self.mbuf)
        free(self.frames)

    cdef void _rehash_col(self, int i) noexcept:
        cdef uint64_t h = 0
        cdef int j
        for j in range(self.clen[i]):
            h += zkey(1 + (j < self.cdown[i]), j, self.cols[i][j])
        self.colhash[i] = h

    cdef uint64_t _hash(self) noexcept:
        cdef uint64_t h = zkey(3, self.slen, 0)
        cdef int i
        for i in range(self.ncols):
            if self.slen:
                h += mix64(self.colhash[i] + zkey(8, i, 0))
            else:
                h += mix64(self.colhash[i] + 0x51)
        return h

    # ---------------------------------------------------------------- do / undo
    cdef inline int _run_len(self, int s) noexcept:
        cdef int n = 1, i = self.clen[s] - 1
        if self.clen[s] == 0:
            return 0
        while i > self.cdown[s] and suit_of(self.cols[s][i - 1]) == suit_of(self.cols[s][i]) \
                and rank_of(self.cols[s][i - 1]) == rank_of(self.cols[s][i]) + 1:
            n += 1
            i -= 1
        return n

    cdef void _remove_run(self, int t, SMove* m) noexcept:
        """Take off a completed King-to-Ace run on top of column t, as the rules do."""
        cdef int i, base, s
        if self.clen[t] - self.cdown[t] < 13:
            return
        base = self.clen[t] - 13
        s = suit_of(self.cols[t][base])
        if rank_of(self.cols[t][base]) != 13:
            return
        for i in range(1, 13):
            if self.cols[t][base + i] != s * 13 + 12 - i:
                return
        self.clen[t] = base
        self.nrem += 1
        m.remmask |= (1 << t)
        m.remsuit[t] = s
        if self.clen[t] > 0 and self.cdown[t] == self.clen[t]:
            self.cdown[t] -= 1
            m.remflip |= (1 << t)

    cdef void _apply(self, SMove* m) noexcept:
        cdef int s, t, j
        m.remmask = 0
        m.remflip = 0
        m.flip = 0
        if m.kind == MOVE:
            s = m.a
            t = m.b
            for j in range(m.n):
                self.cols[t][self.clen[t] + j] = self.cols[s][self.clen[s] - m.n + j]
            self.clen[t] += m.n
            self.clen[s] -= m.n
            if self.clen[s] > 0 and self.cdown[s] == self.clen[s]:
                self.cdown[s] -= 1
                m.flip = 1
            self._remove_run(t, m)
            self._rehash_col(s)
            self._rehash_col(t)
        else:
            m.dealt = min(self.ncols, self.slen)
            for t in range(m.dealt):
                self.cols[t][self.clen[t]] = self.S[self.slen - 1 - t]
                self.clen[t] += 1
            self.slen -= m.dealt
            for t in range(m.dealt):
                self._remove_run(t, m)
                self._rehash_col(t)

    cdef void _unremove(self, SMove* m) noexcept:
        cdef int t, i
        for t in range(self.ncols):
            if (m.remmask >> t) & 1:
                if (m.remflip >> t) & 1:
                    self.cdown[t] += 1
                for i in range(13):
                    self.cols[t][self.clen[t] + i] = m.remsuit[t] * 13 + 12 - i
                self.clen[t] += 13
                self.nrem -= 1

    cdef void _undo(self, SMove* m) noexcept:
        cdef int s, t, j
        self._unremove(m)
        if m.kind == MOVE:
            s = m.a
            t = m.b
            if m.flip:
                self.cdown[s] += 1
            for j in range(m.n):
                self.cols[s][self.clen[s] + j] = self.cols[t][self.clen[t] - m.n + j]
            self.clen[s] += m.n
            self.clen[t] -= m.n
            self._rehash_col(s)
            self._rehash_col(t)
        else:
            for t in range(m.dealt):
                self.clen[t] -= 1
                self._rehash_col(t)
            self.slen += m.dealt

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

    # ---------------------------------------------------------------- move generation
    cdef int _add(self, int kind, int a, int b, int n, int prio) noexcept:
        cdef GMove* grown
        if self.mlen == self.mcap:
            grown = <GMove*>realloc(self.mbuf, 2 * self.mcap * sizeof(GMove))
            if grown == NULL:
                return -1
            self.mbuf = grown
            self.mcap *= 2
        cdef GMove* m = &self.mbuf[self.mlen]
        m.kind = kind
        m.a = a
        m.b = b
        m.n = n
        m.prio = prio
        if self.noise:
            self.rng ^= self.rng << 13
            self.rng ^= self.rng >> 7
            self.rng ^= self.rng << 17
            m.prio += <int16_t>(self.rng % self.noise)
        self.mlen += 1
        return 0

    cdef int _prio(self, int s, int t, int n, int run) noexcept:
        """Heuristic order: complete runs, uncover cards, build in suit; deal last."""
        cdef int head = self.cols[s][self.clen[s] - n]
        cdef int p = 0, top, below, uncovers
        uncovers = self.clen[s] - n == self.cdown[s]
        if self.clen[t] > 0:
            top = self.cols[t][self.clen[t] - 1]
            if suit_of(top) == suit_of(head):
                p += 40
                if self.clen[t] - self.cdown[t] >= 1 and rank_of(head) - n + 1 == 1:
                    p += 5
        else:
            p -= 30
        if uncovers:
            p += 30 + 3 * self.cdown[s] if self.cdown[s] > 0 else 20
        elif n < run:
            p -= 10  # splits a suited run
        else:
            below = self.cols[s][self.clen[s] - n - 1]
            if suit_of(below) == suit_of(head) and rank_of(below) == rank_of(head) + 1:
                p -= 10
            elif self.clen[t] > 0 and suit_of(self.cols[t][self.clen[t] - 1]) != suit_of(head):
                p -= 5
        return p + n

    cdef int _gen(self) noexcept:
        cdef int start = self.mlen, s, t, n, run, top, need, first_empty, empties = 0, i, j
        cdef GMove tmp
        for t in range(self.ncols):
            if self.clen[t] == 0:
                empties += 1
        for s in range(self.ncols):
            run = self._run_len(s)
            if run == 0:
                continue
            top = rank_of(self.cols[s][self.clen[s] - 1])
            first_empty = 1
            for t in range(self.ncols):
                if t == s:
                    continue
                if self.clen[t] > 0:
                    need = rank_of(self.cols[t][self.clen[t] - 1]) - top
                    if 1 <= need <= run:
                        if self._add(MOVE, s, t, need, self._prio(s, t, need, run)) != 0:
                            return -1
                else:
                    if self.slen == 0:
                        if not first_empty:
                            continue  # rule 3
                        first_empty = 0
                    for n in range(run, 0, -1):
                        if self.slen == 0 and n == self.clen[s] and self.cdown[s] == 0:
                            continue  # rule 3: whole column into an empty one
                        if self._add(MOVE, s, t, n, self._prio(s, t, n, run)) != 0:
                            return -1
        if self.slen > 0 and not (self.strict and empties > 0):
            if self._add(DEAL, 0, 0, 0, -100) != 0:
                return -1
        if self.mlen - start > 24:
            qsort(&self.mbuf[start], self.mlen - start, sizeof(GMove), by_prio)
            return 0
        for i in range(start + 1, self.mlen):
            tmp = self.mbuf[i]
            j = i - 1
            while j >= start and self.mbuf[j].prio < tmp.prio:
                self.mbuf[j + 1] = self.mbuf[j]
                j -= 1
            self.mbuf[j + 1] = tmp
        return 0

    # ---------------------------------------------------------------- search
    def run(self, long long max_nodes, double max_seconds, int noise=0):
        """One search from the loaded position with an empty table. ``noise`` > 0 adds a
        random 0..noise-1 to every move's priority (a restart with another order; seeded by
        noise, so runs repeat exactly); 0 keeps the plain order. max_nodes counts this run's
        positions (0: no limit); max_seconds its time (0: no limit). Unless the result is
        "solved" the kernel is back at the loaded position afterwards, ready to run again.
        Returns (status, ops) as _search."""
        cdef long long before = self.nodes
        self.cut = 0
        self.table.salt = mix64(self.table.salt + 0x9E3779B97F4A7C15ULL)
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
            if table_seen_or_add(&self.table, self._hash()):
                self.nops -= 1
                self._undo(&self.ops[self.nops])
                continue
            if (self.nodes & 1023) == 0:
                if perf_counter() >= deadline:
                    return -1, []
                used = <uint64_t>self.cap_ops * sizeof(SMove) + self.mcap * sizeof(GMove) + \
                    <uint64_t>self.cap_frames * sizeof(Frame)
                if used > self.mem_limit:
                    return -2, []
            if max_nodes > 0 and self.nodes >= max_nodes:
                return -1, []
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
