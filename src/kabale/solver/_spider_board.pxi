# The Spider-family board shared by the kernel's searches (included by _spider.pyx): the
# position on C arrays, Zobrist-style keys, do/undo of moves (with the automatic turning of
# cards and removal of completed runs) and move generation in heuristic order. Under the
# option foundations=cards (``cards_up``) no run is removed; a column's top card goes to a
# foundation instead (move kind UP), and ``fnd`` counts the copies of each card code there.

DEF MAXC = 10
DEF MAXL = 128
DEF MAXS = 128

DEF MOVE = 0
DEF DEAL = 1
DEF UP = 2      # foundations=cards: the top card of column a to its foundation
DEF UP_B = 15   # an UP move's ``b`` (no column has it: keeps by_prio a total order)

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
    uint8_t card        # an UP move's card
    int16_t prio
    uint64_t hash_a     # a MOVE's two columns' keys and scores before it, which its undo
    uint64_t hash_b     # puts back instead of computing them again
    int32_t score_a
    int32_t score_b


cdef struct GMove:
    # a generated, not yet played move (small: the search keeps every frame's list)
    uint8_t kind
    uint8_t a
    uint8_t b
    uint8_t n
    int16_t prio


cdef int by_prio(const void* a, const void* b) noexcept nogil:
    """qsort order: higher priority first, then generation order (a total order, so the
    search is deterministic)."""
    cdef const GMove* x = <const GMove*>a
    cdef const GMove* y = <const GMove*>b
    if x.prio != y.prio:
        return y.prio - x.prio
    return (x.a * 16 + x.b) * 128 + x.n - ((y.a * 16 + y.b) * 128 + y.n)


cdef uint64_t ZK[2][MAXL][52]   # Zobrist keys of (face down?, height, card)


cdef void _init_keys() noexcept:
    cdef int d, j, c
    for d in range(2):
        for j in range(MAXL):
            for c in range(52):
                ZK[d][j][c] = zkey(1 + d, j, c)


_init_keys()


cdef uint8_t RANK[52]   # card code -> rank 1..13 and suit 0..3: table loads, no division
cdef uint8_t SUIT[52]


cdef void _init_cards() noexcept:
    cdef int c
    for c in range(52):
        RANK[c] = c % 13 + 1
        SUIT[c] = c // 13


_init_cards()


cdef inline int rank_of(int c) noexcept nogil:
    return RANK[c]

cdef inline int suit_of(int c) noexcept nogil:
    return SUIT[c]

cdef class SpiderBoard(Haltable):
    """A Spider-family position on C arrays, with do/undo of moves and move generation."""

    cdef int ncols, strict, total, nrem
    cdef readonly bint cards_up  # foundations=cards (see the top of this file)
    cdef uint8_t fnd[52]         # cards_up: copies of each card code on the foundations
    cdef int nup                 # cards_up: cards on the foundations
    cdef public bint whole_runs  # move whole runs only: a search for wins (see _spider.pyx)
    cdef public bint dead_ends  # rule 6 applies (every card code at most once); tests may
                                # switch it off to see the searches without it
    cdef uint8_t cols[MAXC][MAXL]
    cdef int clen[MAXC]
    cdef int cdown[MAXC]
    cdef uint64_t colhash[MAXC]
    cdef int colscore[MAXC]
    cdef public int w_empty, w_hidden, w_suited, w_natural, w_break, w_up
    cdef uint8_t S[MAXS]
    cdef int slen
    cdef Table table
    cdef GMove* mbuf
    cdef int mlen, mcap
    cdef public long long nodes
    cdef uint64_t noise, rng
    cdef uint64_t mem_limit

    def __cinit__(self):
        self.table.slab = NULL
        self.mbuf = NULL

    def __init__(self, bint strict, int total, list columns, list down, list stock,
                 int removed, object found, int table_mb):
        """Load a position: columns bottom first, stock bottom first (top = next dealt to
        column 1), ``removed`` runs already off, ``total`` cards in the variant; ``found``
        None under the runs rule, else (foundations=cards) the codes of the cards on the
        foundations."""
        cdef int i, j
        self.strict = strict
        self.total = total
        self.ncols = len(columns)
        self.nrem = removed
        self.cards_up = found is not None
        memset(self.fnd, 0, 52)
        self.nup = 0
        for c in (found or ()):
            self.fnd[c] += 1
            self.nup += 1
        self.w_up = 60
        self.w_empty = 60
        self.w_hidden = 40
        self.w_suited = 20
        self.w_natural = 0
        self.w_break = 6
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
        cards = [c for col in columns for c in col] + list(stock)
        # rule 6's argument needs runs completed in a column: not so under foundations=cards
        self.dead_ends = len(set(cards)) == len(cards) and total == 52 and not self.cards_up
        self.whole_runs = 0
        # the table starts small and doubles as it fills, up to table_mb (_table.pxi): a
        # table made whole at once had each 2 MiB huge page cleared at its first random
        # probe, which at 1 GiB took 1-2 s before the search first looked at the clock (a
        # 1 s limit ran 2-3 s) and held the whole cap however few positions were searched
        if table_init(&self.table, <uint64_t>table_mb * 1024 * 1024, True,
                      SPIDER_START_BYTES) != 0:
            raise MemoryError("cannot allocate the transposition table")
        self.mem_limit = <uint64_t>max(table_mb, 64) * 1024 * 1024
        self.mcap = 8192
        self.mbuf = <GMove*>malloc(self.mcap * sizeof(GMove))
        if self.mbuf == NULL:
            raise MemoryError("cannot allocate search stacks")
        self.mlen = 0
        self.nodes = 0
        self.noise = 0
        self.rng = 0x2545F4914F6CDD1DULL

    def __dealloc__(self):
        table_free(&self.table)
        free(self.mbuf)

    cdef void _rehash_col(self, int i) noexcept nogil:
        """Column i's key (a sum over its cards) and its share of the phase search's score:
        w_empty if empty, else minus w_hidden per face-down card, plus w_suited (w_natural)
        per face-up card on the next rank in (out of) suit, minus w_break per other one."""
        cdef uint64_t h = 0
        cdef int j, e, down = self.cdown[i]
        for j in range(down):
            h += ZK[1][j][self.cols[i][j]]
        for j in range(down, self.clen[i]):
            h += ZK[0][j][self.cols[i][j]]
        self.colhash[i] = h
        if self.clen[i] == 0:
            self.colscore[i] = self.w_empty
            return
        e = -self.w_hidden * down
        for j in range(down + 1, self.clen[i]):
            e += self._pair(self.cols[i][j - 1], self.cols[i][j])
        self.colscore[i] = e

    cdef inline int _pair(self, int x, int y) noexcept nogil:
        """The score of face-up card y lying on face-up card x (see _rehash_col)."""
        if rank_of(x) == rank_of(y) + 1:
            return self.w_suited if suit_of(x) == suit_of(y) else self.w_natural
        return -self.w_break

    cdef uint64_t _hash(self) noexcept nogil:
        cdef uint64_t h = zkey(3, self.slen, 0)
        cdef int i
        for i in range(self.ncols):
            if self.slen:
                h += mix64(self.colhash[i] + zkey(8, i, 0))
            else:
                h += mix64(self.colhash[i] + 0x51)
        return h

    # ---------------------------------------------------------------- do / undo
    cdef inline int _run_len(self, int s) noexcept nogil:
        cdef int n = 1, i = self.clen[s] - 1
        if self.clen[s] == 0:
            return 0
        while i > self.cdown[s] and suit_of(self.cols[s][i - 1]) == suit_of(self.cols[s][i]) \
                and rank_of(self.cols[s][i - 1]) == rank_of(self.cols[s][i]) + 1:
            n += 1
            i -= 1
        return n

    cdef inline bint _won(self) noexcept nogil:
        """Every card off the table: in removed runs, or on the foundations."""
        return self.nrem * 13 + self.nup == self.total

    cdef inline bint _fits_up(self, int c) noexcept nogil:
        """foundations=cards: whether card c goes to a foundation, i.e. some foundation of
        its suit is one rank short of it. fnd[c - 1] counts the foundations of that suit up
        to c's rank - 1 at least, fnd[c] those up to c's: one is exactly one rank short when
        the first count is larger. An Ace always fits: the suit has a foundation for each
        copy of it."""
        return rank_of(c) == 1 or self.fnd[c - 1] > self.fnd[c]

    cdef void _remove_run(self, int t, SMove* m) noexcept nogil:
        """Take off a completed King-to-Ace run on top of column t, as the rules do (never
        under foundations=cards)."""
        cdef int i, base, s
        if self.cards_up or self.clen[t] - self.cdown[t] < 13:
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

    cdef void _move_cards(self, int s, int t, SMove* m) noexcept nogil:
        """Move the top m.n cards of column s onto t and turn s's new top if face down,
        updating both columns' keys and scores from what changed: the same values as
        _rehash_col, without going over the columns again."""
        cdef int n = m.n, c1 = self.clen[s] - n, t0 = self.clen[t], j, x, inner = 0, e
        cdef uint64_t hs = self.colhash[s], ht = self.colhash[t]
        for j in range(n):
            x = self.cols[s][c1 + j]
            self.cols[t][t0 + j] = x
            hs -= ZK[0][c1 + j][x]
            ht += ZK[0][t0 + j][x]
            if j > 0:
                inner += self._pair(self.cols[s][c1 + j - 1], x)
        self.clen[s] = c1
        self.clen[t] = t0 + n
        if c1 == 0:
            e = self.w_empty
        elif self.cdown[s] == c1:  # the card below was face down: it turns
            self.cdown[s] -= 1
            m.flip = 1
            x = self.cols[s][c1 - 1]
            hs += ZK[0][c1 - 1][x] - ZK[1][c1 - 1][x]
            e = self.colscore[s] - inner + self.w_hidden
        else:
            e = self.colscore[s] - inner - self._pair(self.cols[s][c1 - 1], self.cols[s][c1])
        self.colhash[s] = hs
        self.colscore[s] = e
        self.colhash[t] = ht
        if t0 == 0:
            self.colscore[t] = inner
        else:
            self.colscore[t] += inner + self._pair(self.cols[t][t0 - 1], self.cols[t][t0])

    cdef void _apply(self, SMove* m) noexcept nogil:
        cdef int s, t
        m.remmask = 0
        m.remflip = 0
        m.flip = 0
        if m.kind == UP:
            s = m.a
            m.hash_a = self.colhash[s]
            m.score_a = self.colscore[s]
            self.clen[s] -= 1
            m.card = self.cols[s][self.clen[s]]
            self.fnd[m.card] += 1
            self.nup += 1
            if self.clen[s] > 0 and self.cdown[s] == self.clen[s]:
                self.cdown[s] -= 1
                m.flip = 1
            self._rehash_col(s)
        elif m.kind == MOVE:
            s = m.a
            t = m.b
            m.hash_a = self.colhash[s]
            m.hash_b = self.colhash[t]
            m.score_a = self.colscore[s]
            m.score_b = self.colscore[t]
            self._move_cards(s, t, m)
            self._remove_run(t, m)
            if m.remmask:
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

    cdef void _unremove(self, SMove* m) noexcept nogil:
        cdef int t, i
        for t in range(self.ncols):
            if (m.remmask >> t) & 1:
                if (m.remflip >> t) & 1:
                    self.cdown[t] += 1
                for i in range(13):
                    self.cols[t][self.clen[t] + i] = m.remsuit[t] * 13 + 12 - i
                self.clen[t] += 13
                self.nrem -= 1

    cdef void _undo(self, SMove* m) noexcept nogil:
        cdef int s, t, j
        self._unremove(m)
        if m.kind == UP:
            s = m.a
            if m.flip:
                self.cdown[s] += 1
            self.cols[s][self.clen[s]] = m.card
            self.clen[s] += 1
            self.fnd[m.card] -= 1
            self.nup -= 1
            self.colhash[s] = m.hash_a
            self.colscore[s] = m.score_a
        elif m.kind == MOVE:
            s = m.a
            t = m.b
            if m.flip:
                self.cdown[s] += 1
            for j in range(m.n):
                self.cols[s][self.clen[s] + j] = self.cols[t][self.clen[t] - m.n + j]
            self.clen[s] += m.n
            self.clen[t] -= m.n
            self.colhash[s] = m.hash_a
            self.colhash[t] = m.hash_b
            self.colscore[s] = m.score_a
            self.colscore[t] = m.score_b
        else:
            for t in range(m.dealt):
                self.clen[t] -= 1
                self._rehash_col(t)
            self.slen += m.dealt

    cdef inline bint _dead(self) noexcept nogil:
        """Rule 6: the position is provably lost (_spider_dead.pxi). Examined only from the
        last deal on: with more cards in the stock the relaxation hardly ever fails."""
        return self.dead_ends and self.slen < self.ncols and \
            dead_end(self.cols, self.clen, self.cdown, self.ncols, self.S, self.slen)

    @property
    def stock_left(self):
        """How many cards the stock holds at the loaded position."""
        return self.slen

    def dead(self):
        """Whether rule 6 proves the loaded position lost (for tests)."""
        return self._dead()

    # ---------------------------------------------------------------- move generation
    cdef int _add(self, int kind, int a, int b, int n, int prio) noexcept nogil:
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

    cdef int _prio(self, int s, int t, int n, int run) noexcept nogil:
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

    cdef int _prio_up(self, int s) noexcept nogil:
        """Heuristic order of sending column s's top card up: low cards first, before
        column moves when it uncovers a card."""
        cdef int p = 60 - 2 * rank_of(self.cols[s][self.clen[s] - 1])
        if self.clen[s] - 1 == self.cdown[s] and self.cdown[s] > 0:
            p += 30 + 3 * self.cdown[s]
        return p

    cdef int _gen(self) noexcept nogil:
        cdef int start = self.mlen, s, t, n, run, top, need, first_empty, empties = 0, i, j
        cdef GMove tmp
        for t in range(self.ncols):
            if self.clen[t] == 0:
                empties += 1
        for s in range(self.ncols):
            run = self._run_len(s)
            if run == 0:
                continue
            if self.cards_up and self._fits_up(self.cols[s][self.clen[s] - 1]):
                if self._add(UP, s, UP_B, 1, self._prio_up(s)) != 0:
                    return -1
            top = rank_of(self.cols[s][self.clen[s] - 1])
            first_empty = 1
            for t in range(self.ncols):
                if t == s:
                    continue
                if self.clen[t] > 0:
                    need = rank_of(self.cols[t][self.clen[t] - 1]) - top
                    if 1 <= need <= run and (need == run or not self.whole_runs):
                        if self._add(MOVE, s, t, need, self._prio(s, t, need, run)) != 0:
                            return -1
                else:
                    if self.slen == 0:
                        if not first_empty:
                            continue  # rule 3
                        first_empty = 0
                    for n in range(run, run - 1 if self.whole_runs else 0, -1):
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
