# Klondike kernel, one operation applied and taken back, and the safe foundation moves that
# follow a move (included by _klondike.pyx after the kernel class).

cdef inline uint64_t packed_heights(KlondikeKernel k) noexcept nogil:
    """The foundations' heights, found[f] in bits 4f-4f+3: k.heights computed from scratch."""
    cdef uint64_t h = 0
    cdef int f
    for f in range(k.nfound):
        h |= (<uint64_t>k.found[f]) << (4 * f)
    return h


cdef inline void found_step(KlondikeKernel k, int f, int d) noexcept nogil:
    """Raise (d 1) or lower (d -1) foundation f by one card, keeping the packed heights."""
    k.found[f] += d
    if d > 0:
        k.heights += (<uint64_t>1) << (4 * f)
    else:
        k.heights -= (<uint64_t>1) << (4 * f)


cdef inline void talon_shift(KlondikeKernel k, int to, int frm, int n) noexcept nogil:
    """memmove(&T[to], &T[frm], n): the talon's cards from frm on, one place down or up.
    Where n <= 32 and 32 bytes from either place fit in T, it moves 32 (the bytes past the
    talon's end hold nothing), which compiles to a few vector moves where a sized memmove
    dispatches on the size."""
    if n <= 32 and max(to, frm) <= MAXT - 32:
        memmove(&k.T[to], &k.T[frm], 32)
    else:
        memmove(&k.T[to], &k.T[frm], n)


cdef void apply_op(KlondikeKernel k, KMove* m) noexcept nogil:
    """Apply operation m to the kernel's state (recording in m what undo_op needs)."""
    cdef int s, t, c, p
    if m.kind == T2T:
        s = m.a
        t = m.b
        col_move(k, s, t, m.n)
        col_flip(k, s, m)
    elif m.kind == T2F:
        s = m.a
        found_step(k, m.b, 1)
        col_take(k, s)
        col_flip(k, s, m)
    elif m.kind == F2T:
        t = m.b
        c = suit_of_found(m.a) * 13 + k.found[m.a] - 1
        found_step(k, m.a, -1)
        col_put(k, t, c)
        m.flip = 0
    else:  # waste play after draws: card T[p-1]
        p = m.a
        m.old_wlen = k.wlen
        m.old_pu = k.pu
        c = k.T[p - 1]
        talon_shift(k, p - 1, p, k.tlen - p)
        k.tlen -= 1
        if k.decks == 1:
            k.tset -= KTS[c]
            k.tbits &= ~((<uint64_t>1) << c)
        k.wlen = p - 1
        k.pu = m.pu
        if m.kind == W2F:
            found_step(k, m.b, 1)
        else:
            col_put(k, m.b, c)
        k._rehash_talon()
        m.flip = 0

cdef void undo_op(KlondikeKernel k, KMove* m) noexcept nogil:
    """Take operation m back (m as apply_op left it)."""
    cdef int s, t, c, p
    if m.kind == T2T:
        s = m.a
        t = m.b
        if m.flip:
            col_unflip(k, s)
        col_move(k, t, s, m.n)
    elif m.kind == T2F:
        s = m.a
        if m.flip:
            col_unflip(k, s)
        col_put(k, s, suit_of_found(m.b) * 13 + k.found[m.b] - 1)
        found_step(k, m.b, -1)
    elif m.kind == F2T:
        col_take(k, m.b)
        found_step(k, m.a, 1)
    else:
        p = m.a
        if m.kind == W2F:
            c = suit_of_found(m.b) * 13 + k.found[m.b] - 1
            found_step(k, m.b, -1)
        else:
            c = col_take(k, m.b)
        talon_shift(k, p, p - 1, k.tlen - (p - 1))
        k.T[p - 1] = c
        k.tlen += 1
        if k.decks == 1:
            k.tset += KTS[c]
            k.tbits |= (<uint64_t>1) << c
        k.wlen = m.old_wlen
        k.pu = m.old_pu
        k._rehash_talon()


cdef uint64_t safe_fitting(KlondikeKernel k) noexcept nogil:
    """Bits of the cards that fit a foundation now (a card of the next rank) and are safe
    to send there (rules 2 and 8): the only cards up_from ever sends up. They depend on the
    foundations' heights and on ``back`` alone, so the last answer is kept with those."""
    cdef uint64_t bits = 0, heights = k.heights | (<uint64_t>k.back << 63)
    cdef int f, c
    if heights == k.fit_of and k.fit_known:
        return k.fit
    for f in range(k.nfound):
        if k.found[f] < 13:
            c = suit_of_found(f) * 13 + k.found[f]
            if k._safe_up(c):
                bits |= (<uint64_t>1) << c
    k.fit = bits
    k.fit_of = heights
    k.fit_known = True
    return bits


cdef int play_safe(KlondikeKernel k, int start=0, bint again=False) noexcept nogil:
    """Play every safe foundation move (rule 2), pushing each on the op stack. With one
    deck a safe card covered by a pile that fits its twin, a column top, goes up too,
    after moving the pile onto the twin (rule 12). Each pass looks at the columns in turn,
    then the talon; the first pass starts at column ``start``, and ``again`` asks for
    another pass after it (see play_safe_after)."""
    cdef int s, f, c, p, progress = 1
    cdef uint64_t fit
    cdef KMove a
    while progress:
        progress = again
        again = False
        fit = safe_fitting(k)
        if not k.tops & (fit | twin_bits(fit)):
            start = k.ncols  # no top nor its twin goes up (up_from)
        for s in range(start, k.ncols):
            if k.clen[s] > k.cdown[s]:
                c = k.cols[s][k.clen[s] - 1]
                if not (fit >> c) & 1 and not (k.decks == 1 and (fit >> twin_of(c)) & 1):
                    continue  # neither the top nor its twin goes up (up_from)
                p = up_from(k, s)
                if p < 0:
                    return -1
                if p:
                    progress = 1
                    fit = safe_fitting(k)
        if k.draw == 1 and k.passes == 0 and fit & k.tbits:
            for p in range(1, k.tlen + 1):
                c = k.T[p - 1]
                if not (fit >> c) & 1:
                    continue
                f = k._fits_found(c)
                if f >= 0:
                    a.kind = W2F
                    a.a = p
                    a.b = f
                    a.n = 1
                    if p >= k.wlen:
                        a.draws = p - k.wlen
                        a.pu = k.pu
                    else:
                        a.draws = k.tlen - k.wlen + 1 + p
                        a.pu = k.pu + 1
                    if k._play(a) != 0:
                        return -1
                    progress = 1
                    break
        start = 0
    return 0


cdef int play_safe_after(KlondikeKernel k, int s) noexcept nogil:
    """play_safe after a column move from column s, made where no safe move was left: the
    move changed no foundation and no talon, and its one new column top is column s's (the
    moved pile's top was a top before), so only s can start a safe move. Makes the moves
    play_safe makes, in its order: its first pass finds nothing before column s."""
    cdef int c, p
    cdef uint64_t fit
    if k.clen[s] == k.cdown[s]:
        return 0  # emptied: no new top
    c = k.cols[s][k.clen[s] - 1]
    fit = safe_fitting(k)
    if not (fit >> c) & 1 and not (k.decks == 1 and (fit >> twin_of(c)) & 1):
        return 0
    p = up_from(k, s)
    if p <= 0:
        return p
    return play_safe(k, s + 1, True)  # the rest of that first pass, then more passes
