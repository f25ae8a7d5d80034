# Klondike kernel, move generation (included by _klondike.pyx after the kernel class):
# every move of the current position, best first, with the reductions of rules 1, 3, 4, 7,
# 8(b), 9, 13, 14 and 15 (listed in the module docstring, argued in docs/solver.md).

cdef extern from *:
    """
    /* the index of the lowest set bit of x (x != 0) */
    #if defined(__GNUC__) || defined(__clang__)
    #define kabale_ctz(x) __builtin_ctz(x)
    #else
    static int kabale_ctz(unsigned x) { int n = 0; while (!(x & 1u)) { x >>= 1; n++; } return n; }
    #endif
    """
    int kabale_ctz(unsigned int x) nogil


cdef int add_move(KlondikeKernel k, int kind, int a, int b, int n, int draws, int pu, int prio) noexcept nogil:
    cdef KMove* grown
    if k.mlen == k.mcap:
        grown = <KMove*>realloc(k.mbuf, 2 * k.mcap * sizeof(KMove))
        if grown == NULL:
            return -1
        k.mbuf = grown
        k.mcap *= 2
    cdef KMove* m = &k.mbuf[k.mlen]
    m.kind = kind
    m.a = a
    m.b = b
    m.n = n
    m.draws = draws
    m.pu = pu
    m.prio = prio
    m.done = 0
    if k.noise:
        k.rng ^= k.rng << 13
        k.rng ^= k.rng >> 7
        k.rng ^= k.rng << 17
        m.prio += <int16_t>(k.rng % k.noise)
    k.mlen += 1
    return 0

cdef inline bint pending_rank(KlondikeKernel k, int pend, int c) noexcept nogil:
    """Rules 9 and 13: card c has the rank of the pending card (the top of column pend) or
    one less."""
    cdef int r = rank_of(k.cols[pend][k.clen[pend] - 1])
    return rank_of(c) == r or rank_of(c) == r - 1


cdef struct Targets:
    int8_t cols[28][4]   # by (rank + 1) * 2 + red of a card: the columns it may go on, in order
    int8_t count[28]
    int8_t empty         # the first empty column, or -1
    int rank[MAXC]       # each non-empty column's top: rank and colour (1 red)
    int red[MAXC]
    unsigned int byrank[15]  # bits of the columns whose top has that rank
    unsigned int upto[15]    # bits of the columns whose top has that rank or a lower one
    unsigned int redcols     # bits of the columns whose top is red
    unsigned int oddcols     # bits of the columns whose top's rank and red differ in parity


cdef void find_targets(KlondikeKernel k, Targets* g) noexcept nogil:
    """The column tops of the position by rank and colour (a card goes on a top of its rank
    + 1 and the other colour), and its first empty column."""
    cdef int t, c, key
    memset(g.count, 0, sizeof(g.count))
    memset(g.byrank, 0, sizeof(g.byrank))
    g.redcols = 0
    g.oddcols = 0
    g.empty = -1
    for t in range(k.ncols):
        if k.clen[t] == 0:
            if g.empty < 0:
                g.empty = t
            continue
        c = k.cols[t][k.clen[t] - 1]
        g.rank[t] = rank_of(c)
        g.red[t] = red(c)
        g.byrank[g.rank[t]] |= 1u << t
        g.redcols |= (<unsigned int>g.red[t]) << t
        g.oddcols |= (<unsigned int>((g.rank[t] ^ g.red[t]) & 1)) << t
        key = g.rank[t] * 2 + g.red[t]
        g.cols[key][g.count[key]] = t
        g.count[key] += 1
    g.upto[0] = g.byrank[0]
    for key in range(1, 15):
        g.upto[key] = g.upto[key - 1] | g.byrank[key]


cdef inline bint twin_target_taken(KlondikeKernel k, int t, unsigned int* taken) noexcept nogil:
    """Rule 15(a): whether a move of one pile (or card) onto column t's top may be left out
    because the same pile was already laid onto that top's twin: with one deck, when both
    columns' face-up cards form one run, the two positions are twin-exchanged and share a
    key, so the second is always a position seen. ``taken`` keeps the ranks of the run
    columns already used as targets for this pile; t's is added."""
    cdef unsigned int bit
    if not k.fold or k.decks != 1 or k.clen[t] == 0 or k.colup[t] == 0:
        return False
    bit = 1u << rank_of(k.cols[t][k.clen[t] - 1])
    if taken[0] & bit:
        return True
    taken[0] |= bit
    return False


cdef bint goes_straight_up(KlondikeKernel k, int c) noexcept nogil:
    """Rule 15(b): whether talon card c, fitting its foundation, would go up by rule 2 as
    soon as it lay on top of a column: it is safe to go up, and with one deck its twin does
    not lie face up under another card (up_from would first lay that twin's run onto c)."""
    if not k.fold or not k._safe_up(c):
        return False
    return k.decks != 1 or not covered_up(k, twin_of(c))


cdef int gen_talon_pos(KlondikeKernel k, Targets* g, int p, int draws, int pu, int pend) noexcept nogil:
    cdef int c = k.T[p - 1], f, t, i, n = 0, key
    cdef int8_t order[5]
    cdef unsigned int taken = 0
    f = k._fits_found(c)
    if f >= 0 and pend < 0:
        if add_move(k, W2F, p, f, 1, draws, pu, 80 - draws) != 0:
            return -1
        if goes_straight_up(k, c):
            return 0  # rule 15(b): from a column c would go up at once, as by W2F
    # the columns c fits, in column order (rule 3: only the first empty column)
    key = (rank_of(c) + 1) * 2 + 1 - red(c)
    if rank_of(c) < 13:
        for i in range(g.count[key]):
            order[n] = g.cols[key][i]
            n += 1
    if g.empty >= 0 and (k.empty_any or rank_of(c) == 13):
        i = n
        while i > 0 and order[i - 1] > g.empty:
            order[i] = order[i - 1]
            i -= 1
        order[i] = g.empty
        n += 1
    for i in range(n):
        t = order[i]
        if pend >= 0 and t != pend and not (k.back and k.draw == 1 and k.passes == 0 and
                                            pending_rank(k, pend, c)):
            continue  # rules 9 and 13
        if twin_target_taken(k, t, &taken):
            continue  # rule 15(a): onto its twin was the same position
        if add_move(k, W2T, p, t, 1, draws, pu,
                     (30 if k.clen[t] == 0 else 60) - draws) != 0:
            return -1
    return 0

cdef uint64_t wanted_cards(KlondikeKernel k, Targets* g) noexcept nogil:
    """Bits of the cards that fit a foundation or a column now (a card of a column top's
    rank - 1 and the other colour; a King, or any card with empty=any, with an empty
    column): gen_talon_pos makes moves of no other card."""
    cdef uint64_t bits = 0
    cdef int t, f, r
    for f in range(k.nfound):
        if k.found[f] < 13:
            bits |= (<uint64_t>1) << (suit_of_found(f) * 13 + k.found[f])
    for t in range(k.ncols):
        if k.clen[t] > 0:
            r = g.rank[t]
            if r > 1:  # the two cards of rank r - 1 and the other colour
                bits |= (RED_BELOW if not g.red[t] else BLACK_BELOW) << (r - 2)
    if g.empty >= 0:
        bits |= ~(<uint64_t>0) if k.empty_any else KINGS
    return bits


cdef int gen_moves(KlondikeKernel k) noexcept nogil:
    """Append the moves of the current position to mbuf, best first. -1 on no memory."""
    cdef int start = k.mlen, s, t, i, c, f, lo, need, w, pu, draws, redeals, j, past
    cdef unsigned int taken, alike
    cdef uint64_t wanted
    cdef uint8_t seen[MAXT + 1]
    cdef KMove tmp
    cdef Targets g
    cdef unsigned int bits
    cdef int pend = k._pending(), played = k._played()
    if played >= 0:
        pend = played  # rule 13: the card just played is pending as in rule 9
    # tableau to foundation (not safe ones: those were played already)
    for s in range(k.ncols if pend < 0 else 0):
        if k.clen[s] > k.cdown[s]:
            c = k.cols[s][k.clen[s] - 1]
            f = k._fits_found(c)
            if f >= 0 and add_move(k, T2F, s, f, 1, 0, 0,
                                    100 if k.clen[s] - 1 == k.cdown[s] else 70) != 0:
                return -1
    # tableau to tableau
    find_targets(k, &g)
    for s in range(k.ncols):
        if k.clen[s] == k.cdown[s]:
            continue
        if k.colrun[s]:
            lo = k.cdown[s]  # the face-up cards form one run
        else:
            lo = k.clen[s] - 1
            while lo > k.cdown[s] and lies_on(k.cols[s][lo], k.cols[s][lo - 1]):
                lo -= 1
        # the targets, in column order: the first empty column and the columns whose top
        # is one rank above a card of the run and of the other colour; with a pending card
        # X only X's column (rule 9: nothing lands elsewhere, and X's column is never
        # empty). The colours alternate along the run, so a card of the run has the other
        # colour to a top one rank above it exactly when the top's rank and colour have
        # the parity of s's top's: ``alike``.
        alike = g.oddcols if (g.rank[s] ^ g.red[s]) & 1 else ~g.oddcols
        if pend >= 0:
            bits = 0
            if g.rank[s] < g.rank[pend] <= min(g.rank[s] + k.clen[s] - lo, 13):
                bits = (1u << pend) & alike
        else:
            bits = (1u << g.empty) if g.empty >= 0 else 0  # only the first one (rule 3)
            # the tops one rank above a card of the run (a top has one rank: the sets of
            # byrank are disjoint, so those of the ranks in between are a difference of two)
            bits |= g.upto[min(g.rank[s] + k.clen[s] - lo, 13)] & ~g.upto[g.rank[s]] & alike
        taken = 0
        while bits:
            t = kabale_ctz(bits)
            bits &= bits - 1
            if k.clen[t] == 0:
                if pend >= 0:
                    continue  # rule 9: nothing lands on the pending card X
                # any card of the run with empty=any; else a King, which in a run can only
                # be its lowest card (nothing lies on a King but as the next rank down)
                past = k.clen[s] if k.empty_any else \
                    lo + (rank_of(k.cols[s][lo]) == 13)
                for i in range(max(lo, 1), past):  # i == 0: the whole column (rule 4)
                    if add_move(k, T2T, s, t, k.clen[s] - i, 0, 0,
                                 (90 + k.cdown[s]) if i == k.cdown[s] else 15) != 0:
                        return -1
                continue
            # the card of the run that fits t's top lies (t's rank - 1 - s's top rank) deeper
            need = g.rank[t] - 1 - g.rank[s]
            i = k.clen[s] - 1 - need
            if pend >= 0 and t != pend:
                continue  # rule 9: only onto the pending card X
            if i > lo and k.decks == 1 and k._fits_found(k.cols[s][i - 1]) < 0:
                continue  # rule 7: a part of a run only to free a foundation card
            if twin_target_taken(k, t, &taken):
                continue  # rule 15(a): onto its twin was the same position
            if i == k.cdown[s]:
                j = (90 + k.cdown[s]) if i > 0 else 50
            else:
                j = 20
            if add_move(k, T2T, s, t, k.clen[s] - i, 0, 0, j) != 0:
                return -1
    # waste plays (rule 1), of the cards that have somewhere to go
    wanted = wanted_cards(k, &g)
    w = k.wlen
    pu = k.pu
    if k.draw == 1:
        # the presses reach every place p once, in this order: the waste top (no press), the
        # stock's cards (p - w presses), then after a turn-back where one is left the
        # waste's cards below the top (the stock's, a turn-back and p presses)
        for i in range(w if w > 0 else 1, k.tlen + 1):
            if (wanted >> k.T[i - 1]) & 1 and \
                    gen_talon_pos(k, &g, i, i - w, pu, pend) != 0:
                return -1
        if k.tlen > 0 and not (k.passes and pu >= k.passes - 1):
            for i in range(1, w):
                if (wanted >> k.T[i - 1]) & 1 and \
                        gen_talon_pos(k, &g, i, k.tlen - w + 1 + i, pu + 1, pend) != 0:
                    return -1
        w = -1  # done
    draws = 0
    redeals = 0
    if w >= 0:
        memset(seen, 0, k.tlen + 1)
    if w > 0:
        seen[w] = 1
        if (wanted >> k.T[w - 1]) & 1 and gen_talon_pos(k, &g, w, 0, pu, pend) != 0:
            return -1
    while w >= 0:
        if w == k.tlen:
            if k.tlen == 0 or redeals >= 1:
                break
            if k.passes and pu >= k.passes - 1:
                break
            w = 0
            pu += 1
            redeals += 1
            draws += 1
            continue
        w = min(w + k.draw, k.tlen)
        draws += 1
        if not seen[w]:
            seen[w] = 1
            if (wanted >> k.T[w - 1]) & 1 and gen_talon_pos(k, &g, w, draws, pu, pend) != 0:
                return -1
    # foundation to tableau
    if k.back:
        for f in range(k.nfound):
            if k.found[f] == 0:
                continue
            c = suit_of_found(f) * 13 + k.found[f] - 1
            if k.decks == 1 and k._dominated(c):
                continue  # rule 8
            # the columns c fits, in column order: the first empty one (rule 3), if it
            # takes c, and those whose top is one rank above c in the other colour
            bits = g.byrank[rank_of(c) + 1] & ~g.redcols if red(c) else \
                g.byrank[rank_of(c) + 1] & g.redcols
            if g.empty >= 0 and (k.empty_any or rank_of(c) == 13):
                bits |= 1u << g.empty
            while bits:
                t = kabale_ctz(bits)
                bits &= bits - 1
                if pend >= 0 and t != pend and not pending_rank(k, pend, c):
                    continue  # rules 9 and 13
                if f2t_goes_on(k, f, t, &g):
                    if add_move(k, F2T, f, t, 1, 0, 0, 5) != 0:
                        return -1
    # order: insertion sort by priority, descending, stable
    for i in range(start + 1, k.mlen):
        tmp = k.mbuf[i]
        j = i - 1
        while j >= start and k.mbuf[j].prio < tmp.prio:
            k.mbuf[j + 1] = k.mbuf[j]
            j -= 1
        k.mbuf[j + 1] = tmp
    return 0


cdef bint f2t_goes_on(KlondikeKernel k, int f, int t, Targets* g) noexcept nogil:
    """Rule 9: False only if after bringing foundation f's top X (rank r) down onto column
    t no move is possible (such a position is not won, X being off its foundation, so it
    holds no win). With one deck, and not in draw 1 with unlimited passes (rule 13), that
    is so when all of these hold:
    - no safe foundation move follows, which would lift rule 9's restriction: X itself goes
      up only if r <= 2 (rule 8(b) kept X from coming down if dominated, and X's
      foundation does not count for that), and nothing else became safe (a lower
      foundation makes no card safe) but X's twin A, moved up from under a run laid onto
      X (rule 12), which needs A to fit its foundation, be safe after the move and lie
      face up;
    - no card can be laid on X: that takes a card of rank r - 1 and the other colour,
      from a column (face up), the talon, or its foundation's top (next clause);
    - no JIT move of rank r or r - 1 (a foundation top after the move, f's new top
      included, not dominated, rule 8) fits a column top (X on t included) or an empty
      column.
    Every move rule 9 allows after X comes down is one of these (the talon and column
    moves onto X, the foundation-to-tableau moves of those ranks), each over-counted
    rather than under-counted; g holds the column tops before the move."""
    cdef int x = suit_of_found(f) * 13 + k.found[f] - 1, r = rank_of(x), s, y, h, c, u
    cdef bint x_red = red(x), live = False
    if k.decks != 1 or (k.draw == 1 and k.passes == 0) or r <= 2:
        return True
    found_step(k, f, -1)  # the foundations after the move
    y = twin_of(x)
    if k._fits_found(y) >= 0 and k._safe_up(y) and not (k.down >> y) & 1:
        live = True
    for s in range(4):
        if live:
            break
        y = s * 13 + r - 2  # a card of rank r - 1 ...
        if red(y) != x_red and k.found[s] < r - 1 and not (k.down >> y) & 1:
            live = True  # ... of the other colour, face up in a column or in the talon
        h = k.found[s]
        if live or h == 0 or (h != r and h != r - 1):
            continue
        c = s * 13 + h - 1
        if k._dominated(c):
            continue
        if g.empty >= 0 and (h == 13 or k.empty_any):
            live = True
        elif r == h + 1 and x_red != red(c):
            live = True  # onto X
        else:
            for u in range(k.ncols):
                if u != t and k.clen[u] > 0 and g.rank[u] == h + 1 and g.red[u] != red(c):
                    live = True
                    break
    found_step(k, f, 1)
    return live


cdef inline uint64_t touched(KMove* m) noexcept nogil:
    """Rule 14: bits of the columns (0-8) and foundations (16-23) a move changes; all bits
    for a foundation-to-tableau move (never commuted)."""
    if m.kind == T2T:
        return (<uint64_t>1 << m.a) | (<uint64_t>1 << m.b)
    if m.kind == T2F:
        return (<uint64_t>1 << m.a) | (<uint64_t>1 << (16 + m.b))
    if m.kind == W2T:
        return <uint64_t>1 << m.b
    if m.kind == W2F:
        return <uint64_t>1 << (16 + m.b)
    return ~(<uint64_t>0)


cdef inline bint leaves_no_pending(KlondikeKernel k, KMove* m) noexcept nogil:
    """Rule 14: m is no foundation-to-tableau move (rule 9) and no talon play to the tableau
    that rule 13 makes pending."""
    return m.kind != F2T and not (m.kind == W2T and k.draw == 1 and k.passes == 0)


cdef inline bint same_move(KMove* a, KMove* b) noexcept nogil:
    return a.kind == b.kind and a.a == b.a and a.b == b.b and a.n == b.n and \
        a.draws == b.draws and a.pu == b.pu


cdef void drop_commuted(KlondikeKernel k, Frame* parent, Frame* fr) noexcept nogil:
    """Rule 14: leave out of the frame fr, the moves after the parent frame's current move
    u, every move that the parent made alone (no further ops) before u and that commutes
    with u (disjoint columns and foundations, not both talon plays, no pending card)."""
    cdef KMove* u = &k.mbuf[parent.next - 1]
    cdef KMove* x
    cdef uint64_t busy
    cdef int i, j, kept
    cdef bint talon_u, drop
    if u.done != 1 or not leaves_no_pending(k, u):
        return
    busy = touched(u)
    talon_u = u.kind == W2T or u.kind == W2F
    kept = fr.start
    for i in range(fr.start, fr.end):
        x = &k.mbuf[i]
        drop = False
        if (touched(x) & busy) == 0 and leaves_no_pending(k, x) and \
                not (talon_u and (x.kind == W2T or x.kind == W2F)):
            for j in range(parent.start, parent.next - 1):
                if k.mbuf[j].done == 1 and same_move(x, &k.mbuf[j]):
                    drop = True
                    break
        if not drop:
            if kept != i:
                k.mbuf[kept] = k.mbuf[i]
            kept += 1
    fr.end = kept
    k.mlen = kept


def fold_audit(KlondikeKernel k):
    """For each move that folding leaves out of the kernel's position (after its safe
    foundation moves, as the search sees it), whether a kept move leads to a position with
    the same table key (or both are won): a list of ((kind, a, b, n, draws), matched)."""
    cdef int save = k.mlen, loaded = k.nops, height, i, j, nkept
    cdef uint64_t plain
    cdef bint found
    cdef KMove m
    if k._do_root() != 0:
        raise MemoryError("cannot grow the kernel's stacks")
    height = k.nops
    k.fold = True
    if gen_moves(k) != 0:
        raise MemoryError("cannot grow the kernel's stacks")
    nkept = k.mlen - save
    k.fold = False
    if gen_moves(k) != 0:
        raise MemoryError("cannot grow the kernel's stacks")
    k.fold = True
    keys = []
    for i in range(save, k.mlen):
        if k._do(k.mbuf[i]) != 0:
            raise MemoryError("cannot grow the kernel's stacks")
        keys.append(None if won(k) or trivially_won(k) else k._key(&plain))
        k._undo_to(height)
    out = []
    for i in range(save + nkept, k.mlen):
        found = False
        for j in range(save, save + nkept):
            if same_move(&k.mbuf[i], &k.mbuf[j]):
                found = True
        if found:
            continue
        m = k.mbuf[i]
        out.append(((m.kind, m.a, m.b, m.n, m.draws), keys[i - save] in keys[:nkept]))
    k.mlen = save
    k._undo_to(loaded)
    return out


def f2t_audit(KlondikeKernel k):
    """f2t_goes_on's answer for each foundation-to-tableau move that rule 8 allows in the
    kernel's position (after its safe foundation moves, as the search sees it), beside the
    moves the position after it really has: a list of (f, t, kept, moves)."""
    cdef Targets g
    cdef KMove m
    cdef int f, t, c, height, save = k.mlen, moves, loaded = k.nops
    if k._do_root() != 0:
        raise MemoryError("cannot grow the kernel's stacks")
    height = k.nops
    out = []
    find_targets(k, &g)
    for f in range(k.nfound):
        if k.found[f] == 0:
            continue
        c = suit_of_found(f) * 13 + k.found[f] - 1
        if k.decks == 1 and k._dominated(c):
            continue  # rule 8: never brought down
        for t in range(k.ncols):
            if not k._fits_col(c, t):
                continue
            kept = f2t_goes_on(k, f, t, &g)
            m.kind = F2T
            m.a = f
            m.b = t
            m.n = 1
            m.draws = 0
            m.pu = k.pu
            if k._do(m) != 0 or gen_moves(k) != 0:
                raise MemoryError("cannot grow the kernel's stacks")
            moves = k.mlen - save
            k.mlen = save
            k._undo_to(height)
            out.append((f, t, kept, moves))
    k._undo_to(loaded)
    return out
