# Klondike kernel, loading a position (included by _klondike.pyx after the kernel class):
# from lists of card codes or straight from a core State, and a kernel made for a State.

cdef inline int code_of(object card, bint cards) except -1:
    """A position's card as the kernel's code: a core Card (``cards``), or a code already."""
    if cards:
        return <int>card.suit * 13 + <int>card.rank - 1
    return <int>card


cdef load_position(KlondikeKernel k, columns, down, stock, waste, heights, int passes_used,
                   bint cards):
    """KlondikeKernel.load (card codes) and load_state (core Cards, with ``cards``)."""
    cdef int i, j, n
    abandon(k)
    if len(columns) > MAXC or len(stock) + len(waste) > MAXT or \
            len(heights) != 4 * k.decks:
        raise ValueError("position does not fit the Klondike kernel")
    k.ncols = len(columns)
    k.nfound = len(heights)
    memset(k.cut_keys, 0, sizeof(k.cut_keys))
    for i in range(MAXC):  # an empty column's key where cached_cut_key looks for it
        k.cut_keys[i][0].key = mix64(0x51)
    for i in range(k.ncols):
        col = columns[i]
        n = len(col)
        if n > 104:
            raise ValueError("column too long for the Klondike kernel")
        k.clen[i] = n
        k.cdown[i] = down[i]
        for j in range(n):
            k.cols[i][j] = code_of(col[j], cards)
        col_rehash(k, i)
    find_masks(k)
    for i in range(k.nfound):
        k.found[i] = heights[i]
    k.heights = packed_heights(k)
    k.tlen = 0
    for j in range(len(waste)):
        k.T[k.tlen] = code_of(waste[j], cards)
        k.tlen += 1
    k.wlen = k.tlen
    for j in range(len(stock) - 1, -1, -1):
        k.T[k.tlen] = code_of(stock[j], cards)
        k.tlen += 1
    talon_set(k)
    k.pu = passes_used
    k.rules_draw, k.rules_passes, k.rules_pu = k.draw, k.passes, passes_used
    k._rehash_talon()
    k.nops = 0
    k.mlen = 0
    k.noise = 0
    k.rng = 0x2545F4914F6CDD1DULL


cdef void relax_rules(KlondikeKernel k, bint on) noexcept nogil:
    """KlondikeKernel.relax."""
    if on:
        k.draw, k.passes, k.pu = 1, 0, 0
    else:
        k.draw, k.passes, k.pu = k.rules_draw, k.rules_passes, k.rules_pu
    k._rehash_talon()


def new_kernel(int draw, int passes, int decks, bint back, bint empty_any, state,
               int table_mb):
    """A kernel of the variant's rules (as KlondikeKernel's) loaded with a core State."""
    cdef KlondikeKernel k = KlondikeKernel.__new__(KlondikeKernel)
    k._setup(draw, passes, decks, back, empty_any, table_mb)
    k.load_state(state)
    return k


