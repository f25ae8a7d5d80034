# The Spider family's search by phases (included by _spider.pyx).
#
# A deal cannot be undone, so a Spider game falls into phases: the tableau play between two
# deals. ``search`` explores one phase best first (by ``_score``: removed runs, turned cards,
# empty columns, cards on the next rank in suit) over column moves only, keeping every
# position it reaches in a pool, and hands back the best positions that may be dealt on
# (strict rule: those without an empty column). kabale.solver.spider runs a beam over the
# phases with it: the best positions of a phase, over all the searches of that phase, are
# dealt on and searched next. ``exhaustive`` says whether a search cut nothing, for rule 5 of
# the module docstring.

from libc.stdint cimport int64_t


cdef struct PNode:
    int32_t parent     # pool index of the position before, -1 at the root
    int32_t score
    uint8_t kind       # the move from the parent: MOVE or DEAL
    uint8_t a
    uint8_t b
    uint8_t n

DEF FOUND = 1          # a win was found (its pool index is in self.won)
DEF FAILED = 0         # the phase was searched (within its budget) without a win
DEF STOPPED = -1       # time, node or memory limit


cdef int descending(const void* a, const void* b) noexcept nogil:
    cdef int64_t x = (<const int64_t*>a)[0], y = (<const int64_t*>b)[0]
    return (x < y) - (x > y)


cdef class SpiderPhases(SpiderBoard):
    """Best-first search of one phase at a time, for the beam of kabale.solver.spider."""

    cdef PNode* pool
    cdef uint8_t* states
    cdef int64_t* heap
    cdef int cap, npool, hlen, sb, won, ndeal
    cdef int32_t* dealable  # pool indices of the positions that may be dealt on
    cdef uint64_t* keys     # the keys of the moves in mbuf (see _child_keys)
    cdef int kcap
    cdef public bint exhaustive
    cdef long long node_limit
    cdef double deadline
    cdef bytes root
    cdef public int last_factor
    cdef public int w_len   # score lost per move since the phase's start (0: none)
    cdef uint16_t* depths   # each pool node's moves since the phase's start (w_len only)

    def __cinit__(self):
        self.depths = NULL
        self.pool = NULL
        self.states = NULL
        self.heap = NULL
        self.dealable = NULL
        self.keys = NULL
        self.kcap = 0

    def __init__(self, bint strict, int total, list columns, list down, list stock,
                 int removed, object found, int table_mb, int pool_mb):
        """As SpiderBoard; ``pool_mb`` bounds the positions kept (pool and heap)."""
        SpiderBoard.__init__(self, strict, total, columns, down, stock, removed, found,
                             table_mb)
        # columns and counts, then (foundations=cards) the foundations' copies of each card
        self.sb = 2 * self.ncols + 2 + total + (52 if self.cards_up else 0)
        cdef uint64_t per_node = self.sb + sizeof(PNode) + sizeof(int64_t) + sizeof(int32_t)
        self.cap = <int>min(<uint64_t>pool_mb * 1024 * 1024 // per_node, 50_000_000)
        self.pool = <PNode*>malloc(self.cap * sizeof(PNode))
        self.states = <uint8_t*>malloc(<size_t>self.cap * self.sb)
        self.heap = <int64_t*>malloc(self.cap * sizeof(int64_t))
        self.dealable = <int32_t*>malloc(self.cap * sizeof(int32_t))
        if self.pool == NULL or self.states == NULL or self.heap == NULL or \
                self.dealable == NULL:
            raise MemoryError("cannot allocate the Spider search pool")
        self._pack(0)
        self.root = bytes(self.states[:self.sb])
        self.last_factor = 4
        self.w_len = 0

    def __dealloc__(self):
        free(self.depths)
        free(self.pool)
        free(self.states)
        free(self.heap)
        free(self.dealable)
        free(self.keys)

    # ---------------------------------------------------------------- pool
    cdef void _pack(self, int idx) noexcept nogil:
        """Store the board (columns, face-down counts, stock size, runs off) in slot idx."""
        cdef uint8_t* p = self.states + <size_t>idx * self.sb
        cdef int i, k = 2 * self.ncols + 2
        for i in range(self.ncols):
            p[i] = self.clen[i]
            p[self.ncols + i] = self.cdown[i]
            memcpy(p + k, self.cols[i], self.clen[i])
            k += self.clen[i]
        memset(p + k, 0, self.sb - k)  # the same position always packs to the same bytes
        p[2 * self.ncols] = self.slen
        p[2 * self.ncols + 1] = self.nrem
        if self.cards_up:
            memcpy(p + self.sb - 52, self.fnd, 52)

    cdef void _unpack(self, int idx) noexcept nogil:
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
        if self.cards_up:
            memcpy(self.fnd, p + self.sb - 52, 52)
            self.nup = self.total - (k - 2 * self.ncols - 2) - self.slen

    cdef int _add_node(self, int parent, SMove* m, bint winning=False) noexcept nogil:
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
        cdef int depth
        if self.w_len > 0:  # a shorter way to as good a position scores higher
            depth = 0 if parent < 0 else min(self.depths[parent] + 1, 65535)
            self.depths[self.npool] = depth
            q.score -= self.w_len * depth
        self._pack(self.npool)
        self.npool += 1
        return self.npool - 1

    # ---------------------------------------------------------------- heap (max on key)
    cdef void _heap_push(self, int idx) noexcept nogil:
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

    cdef int _heap_pop(self) noexcept nogil:
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
        return <int>(top & 0xFFFFFFFFLL)

    # ---------------------------------------------------------------- evaluation
    cdef int _score(self) noexcept nogil:
        """Progress of the board: 1000 per run off (w_up per card on a foundation), plus
        each column's share (see SpiderBoard._rehash_col: empty columns, cards turned, cards
        on the next rank)."""
        cdef int e = 1000 * self.nrem + self.w_up * self.nup, i
        for i in range(self.ncols):
            e += self.colscore[i]
        return e

    cdef bint _dealable(self) noexcept nogil:
        cdef int i
        if self.slen == 0:
            return False
        if self.strict:
            for i in range(self.ncols):
                if self.clen[i] == 0:
                    return False
        return True

    # ---------------------------------------------------------------- search
    cdef int _child_keys(self) noexcept nogil:
        """Key every generated column move's position into self.keys (same index as
        self.mbuf) and start loading its table bucket, so that the probes that follow
        overlap their memory waits instead of taking them one after another."""
        cdef int j
        cdef SMove m
        cdef GMove* g
        cdef uint64_t* grown
        if self.mlen > self.kcap:
            grown = <uint64_t*>realloc(self.keys, self.mcap * sizeof(uint64_t))
            if grown == NULL:
                return -1
            self.keys = grown
            self.kcap = self.mcap
        for j in range(self.mlen):
            g = &self.mbuf[j]
            if g.kind == DEAL:
                continue
            m.kind = g.kind
            m.a = g.a
            m.b = g.b
            m.n = g.n
            self._apply(&m)
            self.keys[j] = self._hash()
            table_prefetch(&self.table, self.keys[j])
            self._undo(&m)
        return 0

    cdef int _best_first(self, long long budget) noexcept nogil:
        """Search the phase from pool node 0 (the board, packed and in the table) best
        first over column moves, ``budget`` positions at most. FOUND (self.won set), or
        FAILED with the positions that may be dealt on in self.dealable (self.ndeal of
        them) and self.exhaustive telling whether every position of the phase was reached,
        or STOPPED at a limit."""
        cdef int idx, child, j
        cdef long long made = 0, expanded = 0
        cdef SMove m
        cdef GMove* g
        cdef bint full = False
        self.ndeal = 0
        self.hlen = 0
        self._heap_push(0)
        while self.hlen > 0 and made < budget:
            idx = self._heap_pop()
            self._unpack(idx)
            if self._dealable():
                self.dealable[self.ndeal] = idx
                self.ndeal += 1
            self.mlen = 0
            if self._gen() != 0 or self._child_keys() != 0:
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
                if self._won():
                    self.won = self._add_node(idx, &m, True)
                    return FOUND
                if not table_seen_or_add(&self.table, self.keys[j]):
                    if table_wants_room(&self.table):
                        table_grow(&self.table, self.deadline)
                    child = self._add_node(idx, &m)
                    if child < 0:
                        full = True  # this phase searches no further
                        budget = 0
                    else:
                        self._heap_push(child)
                self._undo(&m)
            expanded += 1
            if (expanded & 63) == 0 and self._past(self.deadline):
                return STOPPED
        self.exhaustive = self.hlen == 0 and not full
        return FAILED

    cdef bytes _ops_to(self, int idx):
        """The moves from pool node 0 to node idx, 4 bytes each (kind, a, b, n)."""
        cdef int n = 0, i = idx
        while i > 0:
            n += 1
            i = self.pool[i].parent
        cdef bytearray out = bytearray(4 * n)
        i = idx
        while i > 0:
            n -= 1
            out[4 * n] = self.pool[i].kind
            out[4 * n + 1] = self.pool[i].a
            out[4 * n + 2] = self.pool[i].b
            out[4 * n + 3] = self.pool[i].n
            i = self.pool[i].parent
        return bytes(out)

    def new_round(self):
        """Start with an empty table (positions seen by earlier rounds count no more)."""
        table_forget(&self.table)

    def start(self):
        """The loaded position, packed (the first ``state`` to search from)."""
        return self.root

    def search(self, bytes state, bint deal_first, long long budget, int want,
               long long max_nodes, double max_seconds):
        """Search one phase from ``state`` (from ``start`` or a candidate), dealing first if
        asked: budget positions (times last_factor once the stock is empty), max_nodes and
        max_seconds (0: none) for this call. Returns (1, ops) for a win with its moves from
        ``state`` (4 bytes each: kind, a, b, n); (0, candidates) when the phase is searched,
        candidates being the ``want`` best positions to deal on next as tuples (score, key,
        state, ops), best first (none in the last phase, none whose deal leads into a dead
        end of rule 6), and ``exhaustive`` set when the phase was searched whole and no
        candidate was left out; (-1, None) at a limit."""
        cdef SMove m
        cdef int rc, i, idx, n
        cdef bytes head = b""
        cdef list out = []
        if len(state) != self.sb:
            raise ValueError("not a packed position of this kernel")
        if self.w_len > 0 and self.depths == NULL:
            self.depths = <uint16_t*>malloc(self.cap * sizeof(uint16_t))
            if self.depths == NULL:
                raise MemoryError("cannot allocate the Spider search pool's depths")
        self.deadline = kabale_now() + max_seconds if max_seconds > 0 else 1e300
        self.node_limit = self.nodes + max_nodes if max_nodes > 0 else 0
        self.exhaustive = False
        memcpy(self.states, <const char*>state, self.sb)
        self._unpack(0)
        if deal_first:
            m.kind = DEAL
            self._apply(&m)
            self.nodes += 1
            head = bytes((DEAL, 0, 0, 0))
        if self._won():
            return 1, head
        if table_seen_or_add(&self.table, self._hash()) or self._dead():
            self.exhaustive = True  # searched from another position of this round, or lost
            return 0, []
        self.npool = 0
        m.kind = MOVE
        m.a = m.b = m.n = 0
        self._add_node(-1, &m)
        if self.slen == 0:
            budget *= self.last_factor
        with nogil:  # another search may run meanwhile (see Halt)
            rc = self._best_first(budget)
        if rc == FOUND:
            return 1, head + self._ops_to(self.won)
        if rc == STOPPED:
            return -1, None
        # the want best (score, then first found) of the positions to deal on
        for i in range(self.ndeal):
            idx = self.dealable[i]
            self.heap[i] = (<int64_t>self.pool[idx].score << 32) | (0x7FFFFFFF - idx)
        qsort(self.heap, self.ndeal, sizeof(int64_t), descending)
        n = max(want, 1)
        for i in range(self.ndeal):
            if len(out) == n:
                self.exhaustive = False  # some left out
                break
            idx = 0x7FFFFFFF - <int>(self.heap[i] & 0xFFFFFFFF)
            self._unpack(idx)
            if self._dead_after_deal():
                continue  # rule 6: dealing on it leads nowhere
            out.append((self.pool[idx].score, self._hash(),
                        bytes(self.states[<size_t>idx * self.sb:<size_t>(idx + 1) * self.sb]),
                        head + self._ops_to(idx)))
        return 0, out

    cdef bint _dead_after_deal(self) noexcept nogil:
        """Whether the board, once dealt on, is a dead end (rule 6); the board is kept."""
        cdef SMove m
        cdef bint dead
        if not self.dead_ends or self.slen - min(self.ncols, self.slen) >= self.ncols:
            return False
        m.kind = DEAL
        self._apply(&m)
        dead = self._dead()
        self._undo(&m)
        return dead
