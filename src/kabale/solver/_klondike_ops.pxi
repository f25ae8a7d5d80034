# Klondike kernel, one operation applied and taken back (included by _klondike.pyx after
# the kernel class): the do/undo of the depth-first search, on columns, foundations and talon.

cdef void apply_op(KlondikeKernel k, KMove* m) noexcept:
    """Apply operation m to the kernel's state (recording in m what undo_op needs)."""
    cdef int s, t, j, c, p
    if m.kind == T2T:
        s = m.a
        t = m.b
        p = k.clen[s] - m.n
        for j in range(m.n):
            col_put(k, t, k.cols[s][p + j])
        for j in range(m.n):
            col_take(k, s)
        col_flip(k, s, m)
    elif m.kind == T2F:
        s = m.a
        k.found[m.b] += 1
        col_take(k, s)
        col_flip(k, s, m)
    elif m.kind == F2T:
        t = m.b
        c = suit_of_found(m.a) * 13 + k.found[m.a] - 1
        k.found[m.a] -= 1
        col_put(k, t, c)
        m.flip = 0
    else:  # waste play after draws: card T[p-1]
        p = m.a
        m.old_wlen = k.wlen
        m.old_pu = k.pu
        c = k.T[p - 1]
        memmove(&k.T[p - 1], &k.T[p], k.tlen - p)
        k.tlen -= 1
        k.wlen = p - 1
        k.pu = m.pu
        if m.kind == W2F:
            k.found[m.b] += 1
        else:
            col_put(k, m.b, c)
        k._rehash_talon()
        m.flip = 0

cdef void undo_op(KlondikeKernel k, KMove* m) noexcept:
    """Take operation m back (m as apply_op left it)."""
    cdef int s, t, j, c, p
    if m.kind == T2T:
        s = m.a
        t = m.b
        if m.flip:
            col_unflip(k, s)
        p = k.clen[t] - m.n
        for j in range(m.n):
            col_put(k, s, k.cols[t][p + j])
        for j in range(m.n):
            col_take(k, t)
    elif m.kind == T2F:
        s = m.a
        if m.flip:
            col_unflip(k, s)
        col_put(k, s, suit_of_found(m.b) * 13 + k.found[m.b] - 1)
        k.found[m.b] -= 1
    elif m.kind == F2T:
        col_take(k, m.b)
        k.found[m.a] += 1
    else:
        p = m.a
        if m.kind == W2F:
            c = suit_of_found(m.b) * 13 + k.found[m.b] - 1
            k.found[m.b] -= 1
        else:
            c = col_take(k, m.b)
        memmove(&k.T[p], &k.T[p - 1], k.tlen - (p - 1))
        k.T[p - 1] = c
        k.tlen += 1
        k.wlen = m.old_wlen
        k.pu = m.old_pu
        k._rehash_talon()
