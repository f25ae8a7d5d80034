# Klondike kernel, the columns (included by _klondike.pyx after the kernel class): each
# column's hash and, for rule 12, the bits of its face-up cards when they form one run, and
# the bits of the column tops and of the face-down cards (one deck), kept up to date card by
# card as moves lay, take and turn cards.

cdef void col_rehash(KlondikeKernel k, int i) noexcept nogil:
    """Compute column i's hash, run flag and face-up bits from scratch (at load, and when a
    column that is not one run loses a card)."""
    cdef uint64_t h = 0, up = 0
    cdef int j, c
    cdef bint run = True
    k.downhash[i] = 0
    for j in range(k.clen[i]):
        c = k.cols[i][j]
        h += KZ[j < k.cdown[i]][j][c]
        if j + 1 == k.cdown[i]:
            k.downhash[i] = h
        if j >= k.cdown[i]:
            up |= (<uint64_t>1) << c
            if j > k.cdown[i] and not lies_on(c, k.cols[i][j - 1]):
                run = False
    k.colhash[i] = h
    k.colrun[i] = run
    set_colup(k, i, up if run else 0)

cdef inline void set_colup(KlondikeKernel k, int i, uint64_t bits) noexcept nogil:
    """Set column i's face-up run bits, keeping upall (with one deck the columns' bits are
    disjoint, so their sum is their union: an exchange of one column's bits keeps it)."""
    k.upall += bits - k.colup[i]
    k.colup[i] = bits


cdef void find_masks(KlondikeKernel k) noexcept nogil:
    """Compute the bits of the column tops and of the face-down cards from scratch (at
    load). With two decks two columns may have equal tops, so the tops' bits are all set
    (every card may be a top), and the face-down bits are not used."""
    cdef int i, j
    k.tops = 0
    k.down = 0
    for i in range(k.ncols):
        if k.clen[i] > 0:
            k.tops |= (<uint64_t>1) << k.cols[i][k.clen[i] - 1]
        for j in range(k.cdown[i]):
            k.down |= (<uint64_t>1) << k.cols[i][j]
    if k.decks != 1:
        k.tops = ~(<uint64_t>0)
        k.down = 0

cdef inline void col_put(KlondikeKernel k, int t, int c) noexcept nogil:
    """Lay card c face up on column t, keeping its hash, run bits and the tops."""
    cdef int j = k.clen[t]
    if k.decks == 1:
        if j > 0:
            k.tops &= ~((<uint64_t>1) << k.cols[t][j - 1])
        k.tops |= (<uint64_t>1) << c
    if k.colrun[t]:
        if j > k.cdown[t] and not lies_on(c, k.cols[t][j - 1]):
            k.colrun[t] = False
            set_colup(k, t, 0)
        else:
            set_colup(k, t, k.colup[t] | (<uint64_t>1) << c)
    k.cols[t][j] = c
    k.clen[t] = j + 1
    k.colhash[t] += KZ[0][j][c]

cdef inline int col_take(KlondikeKernel k, int s) noexcept nogil:
    """Take column s's top card, face up; return it."""
    cdef int j = k.clen[s] - 1, c = k.cols[s][j]
    k.clen[s] = j
    if k.decks == 1:
        k.tops &= ~((<uint64_t>1) << c)
        if j > 0:
            k.tops |= (<uint64_t>1) << k.cols[s][j - 1]
    if k.colrun[s]:
        k.colhash[s] -= KZ[0][j][c]
        set_colup(k, s, k.colup[s] & ~((<uint64_t>1) << c))
    else:
        col_rehash(k, s)  # what is left may be one run again
    return c

cdef inline void col_move(KlondikeKernel k, int s, int t, int n) noexcept nogil:
    """Move column s's top n cards, face up, onto column t (s != t) in one pass: the state
    n col_take of s and then n col_put of those cards on t leave (the same hashes, run
    bits and tops), without their per-card bookkeeping."""
    cdef int p = k.clen[s] - n, q = k.clen[t], j, c
    cdef uint64_t out = 0, into = 0, bits = 0
    cdef bint run = k.colrun[t]
    for j in range(n):
        c = k.cols[s][p + j]
        out += KZ[0][p + j][c]
        into += KZ[0][q + j][c]
        bits |= (<uint64_t>1) << c
        if run and q + j > k.cdown[t] and not lies_on(c, k.cols[t][q + j - 1]):
            run = False
        k.cols[t][q + j] = c
    if k.decks == 1:  # only the two columns' tops change
        k.tops &= ~((<uint64_t>1) << k.cols[s][p + n - 1])
        if p > 0:
            k.tops |= (<uint64_t>1) << k.cols[s][p - 1]
        if q > 0:
            k.tops &= ~((<uint64_t>1) << k.cols[t][q - 1])
        k.tops |= (<uint64_t>1) << k.cols[t][q + n - 1]
    k.clen[s] = p
    if k.colrun[s]:
        k.colhash[s] -= out
        set_colup(k, s, k.colup[s] & ~bits)
    else:
        col_rehash(k, s)  # what is left may be one run again
    k.clen[t] = q + n
    k.colhash[t] += into
    if k.colrun[t]:
        if run:
            set_colup(k, t, k.colup[t] | bits)
        else:
            k.colrun[t] = False
            set_colup(k, t, 0)


cdef inline void col_flip(KlondikeKernel k, int s, KMove* m) noexcept nogil:
    """Turn column s's top card when all its cards lie face down; m.flip says so."""
    cdef int j, c
    if k.clen[s] > 0 and k.cdown[s] == k.clen[s]:
        j = k.cdown[s] - 1
        c = k.cols[s][j]
        k.cdown[s] = j
        k.colhash[s] += KZ[0][j][c] - KZ[1][j][c]
        k.downhash[s] -= KZ[1][j][c]
        k.colrun[s] = True
        set_colup(k, s, (<uint64_t>1) << c)
        k.down &= ~((<uint64_t>1) << c)
        m.flip = 1
    else:
        m.flip = 0

cdef inline void col_unflip(KlondikeKernel k, int s) noexcept nogil:
    """Undo col_flip: column s's one face-up card lies face down again."""
    cdef int j = k.cdown[s], c = k.cols[s][j]
    k.colhash[s] += KZ[1][j][c] - KZ[0][j][c]
    k.downhash[s] += KZ[1][j][c]
    k.cdown[s] = j + 1
    k.colrun[s] = True
    set_colup(k, s, 0)
    if k.decks == 1:
        k.down |= (<uint64_t>1) << c


cdef inline uint64_t col_key(KlondikeKernel k, int i) noexcept nogil:
    """Column i's plain share of the key, mix64(colhash + 0x51), remembered until the column
    changes (most columns do not between two keys)."""
    if k.colmix_of[i] != k.colhash[i] or k.colmix[i] == 0:
        k.colmix_of[i] = k.colhash[i]
        k.colmix[i] = mix64(k.colhash[i] + 0x51)
    return k.colmix[i]


cdef void talon_set(KlondikeKernel k) noexcept nogil:
    """Compute the talon's card sum and bits from scratch (at load). With one deck the talon
    is the loaded one less the cards played from it, in the same order (a play removes a
    card, a press or a turn-back moves none), so its cards alone fix their order: their
    sum keys the talon as well as their places would. With two decks equal cards make
    that not so; there the key sums the cards by place (_rehash_talon)."""
    cdef int j
    k.tset = 0
    k.tbits = 0
    for j in range(k.tlen):
        k.tset += KTS[k.T[j]]
        k.tbits |= (<uint64_t>1) << k.T[j]
    if k.decks != 1:
        k.tbits = ~(<uint64_t>0)


def state_audit(KlondikeKernel k, int steps, uint64_t seed):
    """Walk up to ``steps`` moves from the kernel's position (after its safe foundation
    moves), each drawn by ``seed`` among those gen_moves makes, and after each compare what
    the moves keep up to date card by card (each column's hashes, run flag and run bits,
    the bits of the tops, of the face-down cards and of all run cards, the packed heights)
    with the same computed from scratch. (moves walked, mismatches); the kernel is back at
    its position afterwards."""
    cdef int loaded = k.nops, save = k.mlen, walked = 0, bad = 0, i, n
    cdef uint64_t rng = seed * <uint64_t>0x9E3779B97F4A7C15ULL | 1
    cdef uint64_t colhash[MAXC]
    cdef uint64_t downhash[MAXC]
    cdef uint64_t colup[MAXC]
    cdef bint colrun[MAXC]
    cdef uint64_t tops, down, upall
    cdef KMove m
    if k._do_root() != 0:
        raise MemoryError("cannot grow the kernel's stacks")
    while walked < steps:
        if gen_moves(k) != 0:
            raise MemoryError("cannot grow the kernel's stacks")
        n = k.mlen - save
        if n == 0:
            break
        rng ^= rng << 13
        rng ^= rng >> 7
        rng ^= rng << 17
        m = k.mbuf[save + rng % n]
        k.mlen = save
        if k._do(m) != 0:
            raise MemoryError("cannot grow the kernel's stacks")
        walked += 1
        for i in range(k.ncols):
            colhash[i], downhash[i], colup[i], colrun[i] = \
                k.colhash[i], k.downhash[i], k.colup[i], k.colrun[i]
        tops, down, upall = k.tops, k.down, k.upall
        for i in range(k.ncols):
            col_rehash(k, i)
            bad += (colhash[i] != k.colhash[i]) + (downhash[i] != k.downhash[i]) + \
                (colup[i] != k.colup[i]) + (colrun[i] != k.colrun[i])
        find_masks(k)
        bad += (tops != k.tops) + (down != k.down) + (upall != k.upall)
        bad += packed_heights(k) != k.heights
    k.mlen = save
    k._undo_to(loaded)
    return walked, bad
