# Klondike kernel, end tests (included by _klondike.pyx after the kernel class): won,
# trivially won (rule 5) and its greedy finish, and buried cards (rule 11).

cdef bint buried(KlondikeKernel k) noexcept nogil:
    """Rule 11: a set of cards none of which can ever leave its place (position lost)."""
    cdef int col_of[52]
    cdef int idx_of[52]
    cdef int top[MAXC]
    cdef uint8_t inset[52]
    cdef int i, j, y, c, r, s, changed = 1, size = 0
    cdef bint ok
    if k.decks != 1 or k.empty_any:
        return False
    for c in range(52):
        idx_of[c] = -1
        inset[c] = 0
    for i in range(k.ncols):
        for j in range(k.clen[i]):
            c = k.cols[i][j]
            col_of[c] = i
            idx_of[c] = j
            if j <= k.cdown[i] and rank_of(c) != 13:
                inset[c] = 1
                size += 1
    while changed and size:
        changed = 0
        for i in range(k.ncols):
            top[i] = -1
        for c in range(52):
            if inset[c] and idx_of[c] > top[col_of[c]]:
                top[col_of[c]] = idx_of[c]
        for y in range(52):
            if not inset[y]:
                continue
            ok = False
            for r in range(rank_of(y) - 1):  # a lower card of y's suit covered
                c = suit_of(y) * 13 + r
                if idx_of[c] >= 0 and idx_of[c] < top[col_of[c]]:
                    ok = True
                    break
            if ok:
                for s in range(4):  # both cards y could lie on covered
                    if red(s * 13) != red(y):
                        c = s * 13 + rank_of(y)
                        if idx_of[c] < 0 or idx_of[c] >= top[col_of[c]]:
                            ok = False
            if not ok:
                inset[y] = 0
                size -= 1
                changed = 1
    return size > 0

cdef bint won(KlondikeKernel k) noexcept nogil:
    cdef int i, s = 0
    for i in range(k.nfound):
        s += k.found[i]
    return s == k.total

cdef bint trivially_won(KlondikeKernel k) noexcept nogil:
    """Rule 5: nothing face down, stock and waste empty, every column one run."""
    cdef int i, j
    if k.tlen:
        return False
    for i in range(k.ncols):
        if k.cdown[i]:
            return False
        for j in range(1, k.clen[i]):
            if rank_of(k.cols[i][j - 1]) != rank_of(k.cols[i][j]) + 1 or \
                    red(k.cols[i][j - 1]) == red(k.cols[i][j]):
                return False
    return True

cdef int finish(KlondikeKernel k) noexcept nogil:
    """Play every column top up until won (valid by rule 5)."""
    cdef int s, f, progress = 1
    while progress and not won(k):
        progress = 0
        for s in range(k.ncols):
            if k.clen[s] > 0:
                f = k._fits_found(k.cols[s][k.clen[s] - 1])
                if f >= 0:
                    if k._column_up(s, f) != 0:
                        return -1
                    progress = 1
    return 0 if won(k) else -2
