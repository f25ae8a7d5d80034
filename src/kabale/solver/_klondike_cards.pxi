# Klondike kernel, cards (included by _klondike.pyx before the kernel class): a card's rank,
# suit, colour and twin from its code (suit * 13 + rank - 1, suits S H D C), and the Zobrist
# keys of columns, talon and foundations, filled once at import.

# a card's rank, suit, colour (1 red) and twin by its code, filled once at import: a load is
# cheaper than the division by 13 in the move generator's and the key's inner loops
cdef uint8_t RANK[52]
cdef uint8_t SUIT[52]
cdef uint8_t RED[52]
cdef uint8_t TWIN[52]


cdef void init_cards() noexcept nogil:
    cdef int c
    for c in range(52):
        RANK[c] = c % 13 + 1
        SUIT[c] = c // 13
        RED[c] = SUIT[c] == 1 or SUIT[c] == 2
        TWIN[c] = (3 - c // 13) * 13 + c % 13  # the other card of its rank and colour


init_cards()


cdef inline int rank_of(int c) noexcept nogil:
    return RANK[c]

cdef inline int suit_of(int c) noexcept nogil:
    return SUIT[c]

cdef inline int red(int c) noexcept nogil:
    return RED[c]

cdef inline int twin_of(int c) noexcept nogil:
    """The other card of c's rank and colour (suits S H D C: S-C and H-D)."""
    return TWIN[c]


# Zobrist keys of a column card (face down?, height in its piece, card) and of a cut card's
# rank and colour (rule 12), filled once at import
cdef uint64_t KZ[2][MAXL][52]
cdef uint64_t KCLS[26]
# Zobrist keys of the talon (waste size; card at a talon height) and of foundation heights
cdef uint64_t KW[MAXT + 1]
cdef uint64_t KT[MAXT][52]
cdef uint64_t KF[2][4][14]
# and of a pending card (rules 9 and 13)
cdef uint64_t KP[2][52]
# of the exact position (_klondike_line.pxi): a column's place, a foundation's height by its
# index, the waste's size, the passes used
cdef uint64_t KXC[MAXC]
cdef uint64_t KXF[8][14]
cdef uint64_t KXW[MAXT + 1]
cdef uint64_t KXP[256]
# of a card in the talon, wherever it lies (one deck: talon_set)
cdef uint64_t KTS[52]


cdef void init_keys() noexcept nogil:
    cdef int d, j, c
    for d in range(2):
        for j in range(MAXL):
            for c in range(52):
                KZ[d][j][c] = zkey(1 + d, j, c)
    for c in range(26):
        KCLS[c] = zkey(9, c, 0)
    for j in range(MAXT + 1):
        KW[j] = zkey(3, j, 0)
    for j in range(MAXT):
        for c in range(52):
            KT[j][c] = zkey(4, j, c)
    for d in range(2):
        for j in range(4):
            for c in range(14):
                KF[d][j][c] = zkey(6 + d, j, c)
    for c in range(52):
        KP[0][c] = zkey(8, c, 0)
        KP[1][c] = zkey(10, c, 0)
    for j in range(MAXC):
        KXC[j] = zkey(12, j, 0)
    for j in range(8):
        for c in range(14):
            KXF[j][c] = zkey(13, j, c)
    for j in range(MAXT + 1):
        KXW[j] = zkey(11, j, 0)
    for j in range(256):
        KXP[j] = zkey(5, j, 0)
    for c in range(52):
        KTS[c] = zkey(14, c, 0)


init_keys()


# bits of the red (hearts, diamonds) and the black (spades, clubs) Aces, shifted by a rank
# give that rank's two cards of the colour; and of the Kings
cdef uint64_t RED_BELOW = ((<uint64_t>1) << 13) | ((<uint64_t>1) << 26)
cdef uint64_t BLACK_BELOW = (<uint64_t>1) | ((<uint64_t>1) << 39)
cdef uint64_t KINGS = ((<uint64_t>1) << 12) | ((<uint64_t>1) << 25) | ((<uint64_t>1) << 38) | \
    ((<uint64_t>1) << 51)


cdef inline int suit_of_found(int f) noexcept nogil:
    return f & 3
