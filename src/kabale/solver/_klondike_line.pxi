# Klondike kernel, the winning line (included by _klondike.pyx after the kernel class): the
# operations on the stack spelled out as moves, one press of the stock at a time, with every
# loop cut out.
#
# A line from the search repeats no position of the search's own (rule 3 turns a position on
# the current path away), but it can still pass twice through one position as core sees it:
# between the operations of one search step (a move of part of a pile and the foundation
# move after it), among the presses of a talon macro (rule 1) when the waste is not merged
# (rule 6), or after the table evicted a position on the path. A stretch of moves from a
# position back to the same position can be left out, and what follows is still legal (the
# moves see the same cards). Positions are compared by a 64-bit key of everything core's
# legality reads (columns in order with their face-down cards, stock and waste in order,
# each foundation's height, the passes used where they are limited); two different
# positions with one key would make a line core refuses, which the caller's replay catches.

cdef uint64_t exact_key(KlondikeKernel k) noexcept nogil:
    """The key of the position as core sees it (see above)."""
    cdef uint64_t h = KXW[k.wlen]
    cdef int i
    for i in range(k.ncols):
        h += mix64(k.colhash[i] + KXC[i])
    for i in range(k.nfound):
        h += KXF[i][k.found[i]]
    for i in range(k.tlen):
        h += KT[i][k.T[i]]
    if k.passes:
        h += KXP[k.pu & 255]
    return h


cdef struct LineBuf:
    int8_t* kind     # DRAW, or an operation kind, by move
    uint8_t* a
    uint8_t* b
    uint8_t* n
    uint64_t* keys   # keys[i]: the position after the first i moves
    int32_t* index   # open addressing: position number + 1 by key (0: empty)
    uint64_t mask
    int length


cdef inline void line_add(LineBuf* L, int kind, int a, int b, int n, uint64_t key) noexcept nogil:
    """Append one move leading to the position of ``key``; when that position came before,
    cut the line back to it."""
    cdef uint64_t slot = key & L.mask
    cdef int32_t at
    while L.index[slot] != 0:
        at = L.index[slot] - 1
        if at <= L.length and L.keys[at] == key:
            L.length = at  # a loop: leave it out
            return
        slot = (slot + 1) & L.mask
    L.kind[L.length] = kind
    L.a[L.length] = a
    L.b[L.length] = b
    L.n[L.length] = n
    L.length += 1
    L.keys[L.length] = key
    L.index[slot] = L.length + 1


cdef list line_of(KlondikeKernel k):
    """The line from the loaded position to the kernel's (won) one, as (kind, a, b, n)
    tuples: DRAW for a press of the stock, else the operation kinds (a, b: source and
    target column or foundation index, n: cards moved), loops cut out. The kernel ends
    where it was, its operations on the stack again."""
    cdef int nops = k.nops, moves = nops, i, d, wlen, pu
    cdef KMove* saved = <KMove*>malloc(max(nops, 1) * sizeof(KMove))
    cdef LineBuf L
    cdef uint64_t size = 4
    cdef list out = []
    if saved == NULL:
        raise MemoryError("cannot copy the winning line")
    memcpy(saved, k.ops, nops * sizeof(KMove))
    for i in range(nops):
        if saved[i].kind == W2T or saved[i].kind == W2F:
            moves += saved[i].draws
    while size < <uint64_t>(2 * (moves + 1)):
        size *= 2
    L.kind = <int8_t*>malloc(moves + 1)
    L.a = <uint8_t*>malloc(moves + 1)
    L.b = <uint8_t*>malloc(moves + 1)
    L.n = <uint8_t*>malloc(moves + 1)
    L.keys = <uint64_t*>malloc((moves + 1) * sizeof(uint64_t))
    L.index = <int32_t*>calloc(size, sizeof(int32_t))
    L.mask = size - 1
    L.length = 0
    try:
        if L.kind == NULL or L.a == NULL or L.b == NULL or L.n == NULL or L.keys == NULL or \
                L.index == NULL:
            raise MemoryError("cannot spell out the winning line")
        with nogil:
            k._undo_to(0)
            L.keys[0] = exact_key(k)
            L.index[L.keys[0] & L.mask] = 1
            for i in range(nops):
                if saved[i].kind == W2T or saved[i].kind == W2F:
                    wlen = k.wlen
                    pu = k.pu
                    for d in range(saved[i].draws):
                        if k.wlen == k.tlen:
                            k.wlen = 0  # the waste turned back into the stock
                            k.pu += 1
                        else:
                            k.wlen = min(k.wlen + k.draw, k.tlen)
                        line_add(&L, DRAW, 0, 0, 1, exact_key(k))
                    k.wlen = wlen  # the operation sets both itself (and undo restores these)
                    k.pu = pu
                k._play(saved[i])  # never grows the stack: it held these before
                line_add(&L, saved[i].kind, saved[i].a, saved[i].b, saved[i].n, exact_key(k))
        for i in range(L.length):
            out.append((L.kind[i], L.a[i], L.b[i], L.n[i]))
    finally:
        free(saved)
        free(L.kind)
        free(L.a)
        free(L.b)
        free(L.n)
        free(L.keys)
        free(L.index)
    return out
