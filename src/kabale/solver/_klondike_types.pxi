# The Klondike kernel's sizes, operation kinds and C structs (included by _klondike.pyx):
# a move or atomic operation (KMove), where a generated move leads (Scout), a search frame,
# a cached column key, the search in progress.

DEF MAXC = 9
DEF MAXL = 128
DEF MAXT = 128

# atomic operation kinds (returned to Python)
DEF T2T = 0
DEF T2F = 1
DEF W2T = 2
DEF W2F = 3
DEF F2T = 4
DEF DRAW = 5       # a press of the stock, in a line (never an operation)

# search statuses (returned to Python)
DEF SOLVED = 1
DEF LOST = 0
DEF LIMIT = -1
DEF MEMORY = -2
DEF PAUSED = -3       # the pause time came: resume continues the search
DEF INTERRUPTED = -4  # a signal's Python handler raised (Ctrl-C): the exception is set

# the table's first size: a search of a few thousand positions never grows it
DEF START_BYTES = 1 << 15

cdef struct KMove:
    uint8_t kind
    uint8_t a          # source column / foundation index / talon position p (card T[p-1])
    uint8_t b          # target column / foundation index
    uint8_t n          # cards moved (T2T)
    int16_t draws      # talon macro: d presses before the play
    uint8_t pu         # talon macro: passes used after the presses
    uint8_t flip       # filled in when applied: a face-down card was turned
    uint8_t old_wlen
    uint8_t old_pu
    uint8_t done       # set once made in the search: 1 alone, 2 followed by more ops (rule 14)
    int16_t prio


cdef struct Scout:
    uint64_t key       # the table key of the position the move leads to (with plain: _key)
    uint64_t plain
    int32_t nops       # operations the move made (the move and its safe foundation moves)
    bint won
    bint unused        # rule 16 leaves the move out: the search never makes it
    bint transient     # rule 16: the position is never entered in the table


cdef struct Frame:
    int32_t start
    int32_t next
    int32_t end
    int32_t ops_base


DEF CUT_KEYS = 32  # twin_key's cut keys kept for each column (direct-mapped by 5 bits of a hash)

cdef struct CutKey:
    uint64_t colhash   # a column's colhash and cut cards, and its share of twin_key
    uint64_t cards
    uint64_t key


cdef struct Run:
    int active         # a search is under way: its frames and ops are on the stacks
    int depth
    long long steps
    long long max_nodes  # the node count at which it stops (0: none)
    double deadline      # when it stops (kabale_now's clock)
