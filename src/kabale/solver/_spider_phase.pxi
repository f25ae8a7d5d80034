# The Spider family's heuristic search by phases (included by _spider.pyx).
#
# A deal cannot be undone, so a Spider game falls into phases: the tableau play between two
# deals. SpiderPhases searches each phase best first (by ``_score``, a count of progress:
# removed runs, turned cards, empty columns, cards lying on the next rank, in suit or not)
# over column moves only, keeping every position it reaches in a pool. When the phase's
# budget is spent it deals on the ``width`` best positions found (strict rule: those without
# an empty column), best first, and searches the next phase from each; the last phase (stock
# empty) searches until a win. Phases are tried depth first, so the search goes on with the
# next candidate when a later phase fails. This search is incomplete by design: it can only
# answer "solved" (and every line is replayed through core); the exhaustive SpiderKernel is
# what may answer "unsolvable".

from libc.stdint cimport int64_t

DEF MAXW = 16          # most candidates a phase search returns

cdef struct PNode:
    int32_t parent     # pool index of the position before, -1 at the root
    int32_t score
    uint8_t kind       # the move from the parent: MOVE or DEAL
    uint8_t a
    uint8_t b
    uint8_t n

DEF FOUND = 1          # _phase found a win (its pool index is in self.won)
DEF FAILED = 0         # every candidate's phases were spent without a win
DEF STOPPED = -1       # time, node or memory limit


cdef class SpiderPhases(SpiderBoard):
    """Best-first search per phase with backtracking over the positions dealt on."""

    cdef PNode* pool
    cdef uint8_t* states
    cdef int64_t* heap
    cdef int cap, npool, hlen, sb, won, ncand
    cdef int cand[MAXW]
    cdef long long node_limit
    cdef double deadline
    cdef bytes root
    cdef public int last_factor

    def __cinit__(self):
        self.pool = NULL
        self.states = NULL
        self.heap = NULL

    def __init__(self, bint strict, int total, list columns, list down, list stock,
                 int removed, int table_mb, int pool_mb):
        """As SpiderBoard; ``pool_mb`` bounds the positions kept (pool and heap)."""
        SpiderBoard.__init__(self, strict, total, columns, down, stock, removed, table_mb)
        self.sb = 2 * self.ncols + 2 + total
        self.cap = <int>min(<uint64_t>pool_mb * 1024 * 1024 //
                            (self.sb + sizeof(PNode) + sizeof(int64_t)), 50_000_000)
        self.pool = <PNode*>malloc(self.cap * sizeof(PNode))
        self.states = <uint8_t*>malloc(<size_t>self.cap * self.sb)
        self.heap = <int64_t*>malloc(self.cap * sizeof(int64_t))
        if self.pool == NULL or self.states == NULL or self.heap == NULL:
            raise MemoryError("cannot allocate the Spider search pool")
        self._pack(0)
        self.root = bytes(self.states[:self.sb])
        self.last_factor = 4

    def __dealloc__(self):
        free(self.pool)
        free(self.states)
        free(self.heap)

    # ---------------------------------------------------------------- pool
    cdef void _pack(self, int idx) noexcept:
        """Store the board (columns, face-down counts, stock size, runs off) in slot idx."""
        cdef uint8_t* p = self.states + <size_t>idx * self.sb
        cdef int i, k = 2 * self.ncols + 2
        for i in range(self.ncols):
            p[i] = self.clen[i]
            p[self.ncols + i] = self.cdown[i]
            memcpy(p + k, self.cols[i], self.clen[i])
            k += self.clen[i]
        p[2 * self.ncols] = self.slen
        p[2 * self.ncols + 1] = self.nrem

    cdef void _unpack(self, int idx) noexcept:
        """Load slot idx onto the board (the stock's cards never change, only its size)."""
        cdef uint8_t* p = self.states + <size_t>idx * self.sb
        cdef int i, k = 2 * self.ncols + 2
        for i in range(self.ncols):
            self.clen[i] = p[i]
            self.cdown[i] = p[self.ncols + i]
            memcpy(self.cols[i], p + k, self.clen[i])
            k += self.clen[i]
            self._rehash_col(i)
        self.slen = p[2 * self.ncols]
        self.nrem = p[2 * self.ncols + 1]

    cdef int _add_node(self, int parent, SMove* m, bint winning=False) noexcept:
        """Pack the board as a new node reached from ``parent`` by ``m``; -1 if the pool is
        full (its last slot is kept for a winning position, so a win is never lost)."""
        if self.npool >= self.cap - 1 + winning:
            return -1
        cdef PNode* q = &self.pool[self.npool]
        q.parent = parent
        q.kind = m.kind
        q.a = m.a
        q.b = m.b
        q.n = m.n
        q.score = self._score()
        self._pack(self.npool)
        self.npool += 1
        return self.npool - 1

    # ---------------------------------------------------------------- heap (max on key)
    cdef void _heap_push(self, int idx) noexcept:
        cdef int64_t key = (<int64_t>self.pool[idx].score << 32) | idx
        cdef int i = self.hlen, up
        self.hlen += 1
        while i > 0:
            up = (i - 1) >> 1
            if self.heap[up] >= key:
                break
            self.heap[i] = self.heap[up]
            i = up
        self.heap[i] = key

    cdef int _heap_pop(self) noexcept:
        """The index of the best node (ties: the newest)."""
        cdef int64_t top = self.heap[0], last
        cdef int i = 0, c
        self.hlen -= 1
        last = self.heap[self.hlen]
        while True:
            c = 2 * i + 1
            if c >= self.hlen:
                break
            if c + 1 < self.hlen and self.heap[c + 1] > self.heap[c]:
                c += 1
            if self.heap[c] <= last:
                break
            self.heap[i] = self.heap[c]
            i = c
        self.heap[i] = last
        return <int>(top & 0xFFFFFFFF)

    # ---------------------------------------------------------------- evaluation
    cdef int _score(self) noexcept:
        """Progress of the board: 1000 per run off, plus each column's share (see
        SpiderBoard._rehash_col: empty columns, cards turned, cards on the next rank)."""
        cdef int e = 1000 * self.nrem, i
        for i in range(self.ncols):
            e += self.colscore[i]
        return e

    cdef bint _dealable(self) noexcept:
        cdef int i
        if self.slen == 0:
            return False
        if self.strict:
            for i in range(self.ncols):
                if self.clen[i] == 0:
                    return False
        return True

    # ---------------------------------------------------------------- search
    cdef int _best_first(self, long long budget, int want) noexcept:
        """Search the phase from pool node 0 (the board, packed and in the table) best
        first over column moves, ``budget`` positions at most. FOUND (self.won set), or
        FAILED with the ``want`` best positions that may be dealt on in self.cand (best
        first, self.ncand of them), or STOPPED at a limit."""
        cdef int idx, child, i, j
        cdef long long made = 0, expanded = 0
        cdef SMove m
        cdef GMove* g
        self.ncand = 0
        self.hlen = 0
        self._heap_push(0)
        while self.hlen > 0 and made < budget:
            idx = self._heap_pop()
            self._unpack(idx)
            if self._dealable():
                i = self.ncand if self.ncand < want else want - 1
                if self.ncand < want or self.pool[idx].score > self.pool[self.cand[i]].score:
                    while i > 0 and self.pool[self.cand[i - 1]].score < self.pool[idx].score:
                        self.cand[i] = self.cand[i - 1]
                        i -= 1
                    self.cand[i] = idx
                    if self.ncand < want:
                        self.ncand += 1
            self.mlen = 0
            if self._gen() != 0:
                return STOPPED
            for j in range(self.mlen):
                g = &self.mbuf[j]
                if g.kind == DEAL:
                    continue
                if self.node_limit and self.nodes >= self.node_limit:
                    return STOPPED
                m.kind = g.kind
                m.a = g.a
                m.b = g.b
                m.n = g.n
                self._apply(&m)
                self.nodes += 1
                made += 1
                if self.nrem * 13 == self.total:
                    self.won = self._add_node(idx, &m, True)
                    return FOUND
                if not table_seen_or_add(&self.table, self._hash()):
                    child = self._add_node(idx, &m)
                    if child < 0:
                        budget = 0  # pool full: this phase searches no further
                    else:
                        self._heap_push(child)
                self._undo(&m)
            expanded += 1
            if (expanded & 63) == 0 and perf_counter() >= self.deadline:
                return STOPPED
        return FAILED

    cdef list _ops_to(self, int idx):
        """The moves from pool node 0 to node idx, as (kind, a, b, n) tuples."""
        cdef list line = []
        while idx > 0:
            line.append((self.pool[idx].kind, self.pool[idx].a, self.pool[idx].b,
                         self.pool[idx].n))
            idx = self.pool[idx].parent
        line.reverse()
        return line

    def new_round(self):
        """Start with an empty table (positions seen by earlier rounds count no more)."""
        self.table.salt = mix64(self.table.salt + 0x9E3779B97F4A7C15ULL)

    def start(self):
        """The loaded position, packed (the first ``state`` to search from)."""
        return self.root

    def search(self, bytes state, bint deal_first, long long budget, int want,
               long long max_nodes, double max_seconds):
        """Search one phase from ``state`` (from ``start`` or a candidate), dealing first if
        asked: budget positions (times last_factor once the stock is empty), max_nodes and
        max_seconds (0: none) for this call. Returns (1, ops) for a win with its moves
        from ``state``; (0, candidates) when the budget is spent, candidates being up to
        ``want`` (at most 16) tuples (score, key, state, ops) of positions to deal on next,
        best first (none in the last phase); (-1, None) at a limit."""
        cdef SMove m
        cdef int rc, i
        cdef list head = [], out = []
        cdef uint64_t key
        if len(state) != self.sb:
            raise ValueError("not a packed position of this kernel")
        self.deadline = perf_counter() + max_seconds if max_seconds > 0 else 1e300
        self.node_limit = self.nodes + max_nodes if max_nodes > 0 else 0
        memcpy(self.states, <const char*>state, self.sb)
        self._unpack(0)
        if deal_first:
            m.kind = DEAL
            self._apply(&m)
            self.nodes += 1
            head.append((DEAL, 0, 0, 0))
        if self.nrem * 13 == self.total:
            return 1, head
        if deal_first and table_seen_or_add(&self.table, self._hash()):
            return 0, []
        self.npool = 0
        m.kind = MOVE
        m.a = m.b = m.n = 0
        self._add_node(-1, &m)
        if self.slen == 0:
            budget *= self.last_factor
        rc = self._best_first(budget, min(max(want, 1), MAXW))
        if rc == FOUND:
            return 1, head + self._ops_to(self.won)
        if rc == STOPPED:
            return -1, None
        for i in range(self.ncand):
            self._unpack(self.cand[i])
            key = self._hash()
            out.append((self.pool[self.cand[i]].score, key,
                        bytes(self.states[<size_t>self.cand[i] * self.sb:
                                          <size_t>(self.cand[i] + 1) * self.sb]),
                        head + self._ops_to(self.cand[i])))
        return 0, out
