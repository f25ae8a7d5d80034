# Klondike kernel, rule 12 (included by _klondike.pyx after the kernel class): the table key
# that counts piles exchanged between face-up twins as one position, and the safe foundation
# move that keeps exchanged positions' moves alike.

cdef inline bint lies_on(int c, int under) noexcept nogil:
    """Whether card c may lie on card ``under`` in a column."""
    return rank_of(under) == rank_of(c) + 1 and red(under) != red(c)


cdef inline bint covered_up(KlondikeKernel k, int a) noexcept nogil:
    """One deck: whether card a lies face up in a column under another card, that is in no
    other place: no column top, not face down, not in the talon, not on its foundation."""
    return not ((k.tops | k.down | k.tbits) >> a) & 1 and k.found[suit_of(a)] < rank_of(a)


cdef bint run_from(KlondikeKernel k, int i, int j) noexcept nogil:
    """Whether column i from height j up descends in alternating colours."""
    cdef int h
    for h in range(j + 1, k.clen[i]):
        if not lies_on(k.cols[i][h], k.cols[i][h - 1]):
            return False
    return True


cdef inline uint64_t twin_bits(uint64_t cards) noexcept nogil:
    """The bits of the twins of the cards in ``cards`` (S-C and H-D, 13 bits a suit)."""
    cdef uint64_t suit = 0x1FFF
    return ((cards & suit) << 39) | ((cards >> 39) & suit) | \
        ((cards & (suit << 13)) << 13) | ((cards >> 13) & (suit << 13))


cdef uint64_t twin_key(KlondikeKernel k) noexcept nogil:
    """The key of a one-deck position: as _plain_hash, but each column whose face-up cards
    form one run is cut above every face-up card whose twin lies face up in such a column
    too, and a piece above a cut is keyed by the cut card's rank and colour only."""
    cdef uint64_t h = k.thash + k._found_key(), up = k.upall, below
    cdef int i
    # the face-up run cards whose twin is one too, but for the column tops (nothing lies on
    # a top: no cut above it); with one deck tops holds exactly the tops' bits
    below = up & twin_bits(up) & ~k.tops
    for i in range(k.ncols):
        h += cached_cut_key(k, i, k.colup[i] & below)
    return h


cdef inline uint64_t cached_cut_key(KlondikeKernel k, int i, uint64_t cut) noexcept nogil:
    """cut_column_key(k, i, cut), from the column's cache when asked for before and not
    pushed out since (most are: the moves of a position and their undos switch a column
    between a few states). The cache is direct-mapped: one slot to look at, the top bits of
    a hash (CUT_KEYS slots). The slots start as colhash 0 with no cut, an empty column's
    pair, which only slot 0 is asked for: load_position gives slot 0 that column's key."""
    cdef uint64_t h = k.colhash[i]
    cdef CutKey* e = &k.cut_keys[i][((h ^ cut) * <uint64_t>0x9E3779B97F4A7C15ULL) >> 59]
    if e.colhash != h or e.cards != cut:
        e.colhash = h
        e.cards = cut
        e.key = cut_column_key(k, i, cut)
    return e.key


cdef uint64_t cut_column_key(KlondikeKernel k, int i, uint64_t cut) noexcept nogil:
    """Column i's share of twin_key, cut above the cards in ``cut`` (face-up cards: the
    sum starts with the face-down part's, downhash); with no cut, col_key's
    mix64(colhash + 0x51)."""
    cdef uint64_t h = 0, seg = k.downhash[i], anchor = 0x51
    cdef int j, c, base = 0, down = k.cdown[i]
    for j in range(down, k.clen[i]):
        c = k.cols[i][j]
        seg += KZ[j < down][j - base][c]
        if (cut >> c) & 1:
            h += mix64(seg + anchor)
            anchor = KCLS[2 * (c % 13) + red(c)]
            base = j + 1
            seg = 0
    return h + mix64(seg + anchor)


cdef int up_from(KlondikeKernel k, int t) noexcept nogil:
    """The safe foundation move for the top B of column t: B up; or, with one deck, when B's
    twin A is safe to go up and lies face up under a run (and B is not safe, or A is the
    twin of lower suit, so exchanged positions make the same move), that run onto B and A
    up. 1 if played, 0 if not, -1 when the op stack cannot grow."""
    cdef int b = k.cols[t][k.clen[t] - 1], fb = k._fits_found(b), a, fa, s, j
    cdef bint safe_b = fb >= 0 and k._safe_up(b)
    cdef KMove m
    if k.decks == 1:
        a = twin_of(b)
        fa = k._fits_found(a)
        if fa >= 0 and covered_up(k, a) and (not safe_b or a < b) and k._safe_up(a):
            for s in range(k.ncols):
                for j in range(k.cdown[s], k.clen[s] - 1):
                    if k.cols[s][j] == a and run_from(k, s, j):
                        m.kind = T2T
                        m.a = s
                        m.b = t
                        m.n = k.clen[s] - 1 - j
                        m.draws = 0
                        m.pu = k.pu
                        if k._play(m) != 0 or k._column_up(s, fa) != 0:
                            return -1
                        return 1
    if safe_b:
        return -1 if k._column_up(t, fb) != 0 else 1
    return 0
