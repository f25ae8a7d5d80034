# Dead ends of the one-deck four-suit game (Spiderette), included by _spider.pyx: rule 6
# of its docstring. A position is a dead end when some suit can never be completed even in
# a relaxed game in which what has once been true stays true: a card once uncovered stays
# free to take a card and to be lifted, an empty column once made stays empty, and every
# stock card lies free on top of a column. The relaxed facts grow to a fixpoint (52 cards,
# a few passes); if some suit still lacks a link then, no line of the real game completes
# it, so the position is lost.
#
# Why the relaxation over-approximates every line of the real game from the position
# checked (induction over the line's moves and deals; card codes are unique, so "the card"
# is well defined):
# (a) every card on top of a column is `uncovered`: it was on top in the position checked,
#     or came from the stock, or the card above it was lifted away (the rule below derives
#     that), or it was on top before a card was put or dealt onto it;
# (b) every card heading a movable group (face up, a suited run above it) is `liftable`:
#     each link of that run has been there since the position checked (the recursive
#     clause) or was made by putting a card on an uncovered card;
# (c) a column is empty only after its bottom card was lifted onto an uncovered card of the
#     next rank or into an empty column (`empty`), or after a run was taken off a bottom
#     King; a lifted card uncovers the card it lay on in the position checked, or one
#     uncovered before (it was put there);
# (d) each link of a completed run, card r of suit s on card r+1, was there in the position
#     checked (both face up) or was made by lifting the one onto the uncovered other.
# A run taken off uncovers the card under its King: the King never moved, or it moved into
# an empty column and leaves that column empty. Deals onto an empty column (the relaxed
# rule) change none of this.

cdef bint dead_end(uint8_t (*cols)[MAXL], const int* clen, const int* cdown, int ncols,
                   const uint8_t* stock, int slen) noexcept nogil:
    """True if the position provably cannot be won: some suit on the table (or in the
    stock) lacks a link under the relaxation above. False also means "not examined" (a
    position with an empty column). Valid only when every card code occurs at most once
    (one deck of four suits)."""
    cdef uint8_t uncovered[52]
    cdef uint8_t liftable[52]
    cdef int8_t col_of[52]      # column of each card, -1 off the table, ncols in the stock
    cdef int8_t idx_of[52]      # height in its column
    cdef uint8_t target[15]     # some uncovered card of this rank
    cdef bint empty = 0, changed = 1, lost
    cdef int i, j, c, up, s, n
    for i in range(ncols):
        if clen[i] == 0:
            return False  # not examined: with an empty column the relaxation never failed
    memset(uncovered, 0, 52)
    memset(liftable, 0, 52)
    memset(target, 0, 15)
    memset(col_of, -1, 52)
    for j in range(slen):
        c = stock[j]
        col_of[c] = ncols
        idx_of[c] = -1
        uncovered[c] = 1
        liftable[c] = 1
        target[rank_of(c)] = 1
    for i in range(ncols):
        n = clen[i]
        for j in range(n):
            col_of[cols[i][j]] = i
            idx_of[cols[i][j]] = j
        uncovered[cols[i][n - 1]] = 1
        target[rank_of(cols[i][n - 1])] = 1
    while True:
        while changed:
            changed = 0
            for i in range(ncols):
                n = clen[i]
                for j in range(n - 1, -1, -1):
                    c = cols[i][j]
                    if not liftable[c]:
                        if uncovered[c]:
                            liftable[c] = 1
                        elif j >= cdown[i] and j + 1 < n:
                            up = cols[i][j + 1]
                            if liftable[up] and suit_of(up) == suit_of(c) and \
                                    rank_of(up) + 1 == rank_of(c):
                                liftable[c] = 1
                    if not liftable[c]:
                        break  # nothing under a card that cannot be lifted can be either
                    if empty or (rank_of(c) < 13 and target[rank_of(c) + 1]):
                        changed |= _uncover(cols, i, j, uncovered, target, &empty)
        # the suits: a completable one uncovers the card under its King; once every suit
        # left is completable the answer is known (the facts only grow)
        lost = 0
        for s in range(4):
            c = s * 13 + 12
            if col_of[c] < 0:
                continue
            if not _completable(s, cdown, uncovered, liftable, col_of, idx_of):
                lost = 1
            elif col_of[c] < ncols:
                changed |= _uncover(cols, col_of[c], idx_of[c], uncovered, target, &empty)
        if not lost:
            return False
        if not changed:
            return True


cdef inline bint _uncover(uint8_t (*cols)[MAXL], int i, int j, uint8_t* uncovered,
                          uint8_t* target, bint* empty) noexcept nogil:
    """Record that the card at height j of column i can leave: the card under it becomes
    free (or the column empty). True if that is new."""
    cdef int b
    if j == 0:
        if empty[0]:
            return False
        empty[0] = 1
        return True
    b = cols[i][j - 1]
    if uncovered[b]:
        return False
    uncovered[b] = 1
    target[rank_of(b)] = 1
    return True


cdef bint _completable(int s, const int* cdown, const uint8_t* uncovered, const uint8_t* liftable,
                       const int8_t* col_of, const int8_t* idx_of) noexcept nogil:
    """Whether every link of suit s (card r on card r+1) is there, face up, or can be made
    by lifting card r onto free card r+1."""
    cdef int r, c
    for r in range(12):
        c = s * 13 + r
        if col_of[c] == col_of[c + 1] and idx_of[c] == idx_of[c + 1] + 1 and \
                idx_of[c + 1] >= cdown[col_of[c + 1]]:
            continue
        if not (liftable[c] and uncovered[c + 1]):
            return False
    return True
