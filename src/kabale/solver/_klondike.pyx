# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Klondike-family search kernel: exhaustive depth-first search with undo on one packed state.

The Python layer (kabale.solver.klondike) packs a core State into plain lists of card codes
(code = suit * 13 + rank - 1, suits S H D C = 0..3) and reads the winning line back as tuples
of atomic operations, which it turns into notation and replays through core.

Search space reductions. The search is complete: a deal is "unsolvable" only when every state
reachable under these reductions has been searched without a win. Each rule's argument, that
it keeps every verdict right, is in docs/solver.md ("Klondike: the reductions and their
arguments"), under the same number; the code names the rules by these numbers.

1. Stock macro moves: "press d n times, then play the waste top".
2. Safe foundation moves, played at once (from the talon only in draw 1 with unlimited
   passes): with one deck a dominated card (rule 8); with two decks ranks up to 2, and with
   back=false a card whose opposite colour's foundations all hold its rank - 1.
3. Equal positions are searched once: the key sums the columns in any order; a position on
   the current path is a cycle.
4. No whole column into an empty column.
5. A position with nothing face down, no talon and every column one run is won; its line is
   completed greedily.
6. One state per stock cycle (unlimited passes): the waste's size does not count where
   presses alone reach every place.
7. Part of a run (one deck): moved only to free the card it leaves for its foundation.
8. Dominated cards (one deck): the other colour's foundations at rank - 2, the twin suit's
   at rank - 3; such a card goes up at once and never comes back.
9. Cards brought back from a foundation, and rule 13's talon plays (JIT moves), only just in
   time: after one only its triggers are generated, and the key records the pending card.
10. Depth cap (max_depth, 0 = none): a cut search never reports "unsolvable".
11. Buried cards (one deck, empty=king): a set of cards none of which can ever move makes
    the loaded position lost.
12. Twin piles (one deck): positions that differ by exchanging the piles on two face-up
    twins share a key (twin_key), with the safe moves that keep their moves alike.
13. Talon plays to the tableau only just in time (draw 1, unlimited passes), as rule 9.
14. Commuting moves once: sleep sets one level deep.
15. Moves to a sibling's position made once: a pile onto the second of two twin tops (rule
    12's key), a talon card to a column from where it would go straight up (its foundation
    move's position).
16. An emptied column is filled next: after a move that empties the only empty column, only
    moves into it follow, and that position never enters the table.
Score is ignored: it does not affect which moves are legal.
The search loop runs without the GIL, so kernels search at once in threads; a shared Halt
flag (_common.pxi) stops each at its next look at the clock, as a time limit does.
"""

include "_common.pxi"

cimport cython

include "_klondike_types.pxi"
include "_klondike_cards.pxi"


@cython.final  # no subclasses: its C methods are called directly (and inlined), not by table
cdef class KlondikeKernel(Haltable):
    cdef int ncols, draw, passes, decks, empty_any, nfound, total
    cdef int rules_draw, rules_passes, rules_pu  # the variant's, while relax() is on
    cdef public bint back  # the klondike.py driver may search without foundation-to-tableau moves first
    cdef public bint commute  # rule 14 (on unless a test compares without it)
    cdef public bint fold  # moves to a sibling's position made once (on unless a test audits it)
    cdef uint8_t cols[MAXC][MAXL]
    cdef int clen[MAXC]
    cdef int cdown[MAXC]
    cdef uint64_t colhash[MAXC]
    cdef uint64_t downhash[MAXC]    # the share of column i's face-down cards in colhash
    cdef uint64_t colup[MAXC]   # bits of a column's face-up cards if they form one run (rule 12)
    cdef bint colrun[MAXC]      # whether they do
    cdef CutKey cut_keys[MAXC][CUT_KEYS]  # twin_key's cut keys of each column (cached_cut_key)
    cdef uint64_t tops              # bits of the column tops (all bits with two decks)
    cdef uint64_t down              # bits of the face-down cards (one deck)
    cdef uint8_t T[MAXT]
    cdef int tlen, wlen, pu
    cdef uint64_t thash
    cdef uint64_t tset              # one deck: the sum of the talon cards' keys (_rehash_talon)
    cdef uint64_t tbits             # bits of the talon's cards (all bits with two decks)
    cdef uint64_t upall             # colup's bits of every column (their sum: they are disjoint)
    cdef uint64_t heights           # found[f] in bits 4f-4f+3 (found_step keeps it)
    cdef uint64_t fit, fit_of       # safe_fitting's last answer, and the heights and back it had
    cdef bint fit_known
    cdef uint64_t colmix[MAXC]      # mix64(colhash[i] + 0x51), the plain key of column i ...
    cdef uint64_t colmix_of[MAXC]   # ... when colhash[i] was this
    cdef int found[8]
    cdef Table own                  # this kernel's table
    cdef Table* table               # the table it searches on: its own or another's
    cdef KMove* ops
    cdef int nops, cap_ops
    cdef KMove* mbuf
    cdef int mlen, mcap
    cdef Scout* scouts  # by mbuf index: where each generated move leads (scout)
    cdef int scap
    cdef Frame* frames
    cdef int cap_frames
    cdef public long long nodes
    cdef public int max_depth, restart_depth
    cdef int cut
    cdef uint64_t noise, rng
    cdef uint64_t mem_limit
    cdef KlondikeKernel table_owner  # the kernel whose table this one searches on, if another
    cdef Run live                   # the search in progress (run, resume)

    def __cinit__(self):
        self.own.slab = NULL
        self.table = &self.own
        self.ops = NULL
        self.mbuf = NULL
        self.scouts = NULL
        self.frames = NULL

    def __init__(self, int draw, int passes, int decks, bint back, bint empty_any,
                 list columns, list down, list stock, list waste, list found,
                 int passes_used, int table_mb):
        """Load a position (see load) of a variant: draw, passes (0: unlimited), decks,
        back (foundation-to-tableau moves), empty_any (any card on an empty column). The
        table grows with the search up to about ``table_mb`` MiB."""
        self._setup(draw, passes, decks, back, empty_any, table_mb)
        self.load(columns, down, stock, waste, found, passes_used)

    cdef _setup(self, int draw, int passes, int decks, bint back, bint empty_any,
                int table_mb):
        """The variant's rules, the table and the search stacks (no position yet)."""
        self.draw = draw
        self.passes = passes
        self.decks = decks
        self.back = back
        self.commute = True
        self.fold = True
        self.empty_any = empty_any
        self.total = 52 * decks
        if table_init(&self.own, <uint64_t>table_mb * 1024 * 1024, False, START_BYTES) != 0:
            raise MemoryError("cannot allocate the transposition table")
        self.mem_limit = <uint64_t>max(table_mb, 64) * 1024 * 1024
        self.cap_ops = 1024
        self.ops = <KMove*>malloc(self.cap_ops * sizeof(KMove))
        self.mcap = 8192
        self.scap = 0
        self.mbuf = <KMove*>malloc(self.mcap * sizeof(KMove))
        self.cap_frames = 1024
        self.frames = <Frame*>malloc(self.cap_frames * sizeof(Frame))
        if self.ops == NULL or self.mbuf == NULL or self.frames == NULL:
            raise MemoryError("cannot allocate search stacks")
        self.nodes = 0
        self.max_depth = 0
        self.restart_depth = 0  # no cap (rule 10)

    def load_state(self, state):
        """Load a core State of the kernel's variant (as load, without building lists)."""
        load_position(self, state.columns, state.down, state.stock, state.waste,
                      [len(pile) for pile in state.foundations], state.passes_used, True)

    def load(self, list columns, list down, list stock, list waste, list found,
             int passes_used):
        """Load a position of the kernel's variant, leaving the table as it stands (the next
        fresh run forgets it). columns: lists of card codes bottom first, with ``down[i]``
        face-down cards at the bottom of column i; stock/waste bottom first; found: top
        rank (0 = empty) of each foundation f1..f4 (..f8). A search paused in the old
        position is abandoned."""
        load_position(self, columns, down, stock, waste, found, passes_used, False)

    def __dealloc__(self):
        abandon(self)
        table_free(&self.own)
        free(self.ops)
        free(self.mbuf)
        free(self.scouts)
        free(self.frames)

    # ---------------------------------------------------------------- hashing
    cdef void _rehash_talon(self) noexcept nogil:
        """The talon's share of the key: its cards (see talon_set), the waste's size where
        rule 6 does not merge it, the passes used where they are limited."""
        cdef int w = self.wlen
        # rule 6: positions on the draw cycle are one state (| not or: no branch to guess)
        if self.passes == 0 and ((w % self.draw == 0) | (w == self.tlen)):
            w = 0
        cdef uint64_t h = KW[w]
        cdef int j
        if self.decks == 1:
            h += self.tset
        else:
            for j in range(self.tlen):
                h += KT[j][self.T[j]]
        if self.passes:
            h += KXP[self.pu & 255]
        self.thash = h

    cdef uint64_t _found_key(self) noexcept nogil:
        cdef uint64_t h = 0
        cdef int i, lo, hi
        if self.decks == 1:
            for i in range(4):
                h += KF[0][i][self.found[i]]
        else:
            for i in range(4):
                lo = min(self.found[i], self.found[i + 4])
                hi = max(self.found[i], self.found[i + 4])
                h += KF[0][i][lo] + KF[1][i][hi]
        return h

    cdef uint64_t _plain_hash(self) noexcept nogil:
        """The position's key under rules 3 and 6: talon, foundations, the columns in any
        order."""
        cdef uint64_t h = self.thash + self._found_key()
        cdef int i
        for i in range(self.ncols):
            h += col_key(self, i)
        return h

    cdef uint64_t _hash(self) noexcept nogil:
        """The position's key: _plain_hash, or with one deck twin_key (rule 12)."""
        if self.decks != 1:
            return self._plain_hash()
        return twin_key(self)

    cdef inline int _pending(self) noexcept nogil:
        """Rule 9: the column of the card X just brought down from a foundation when the last
        operation was that foundation-to-tableau move, else -1."""
        if self.nops > 0 and self.ops[self.nops - 1].kind == F2T:
            return self.ops[self.nops - 1].b
        return -1

    cdef inline int _played(self) noexcept nogil:
        """Rule 13 (draw 1, unlimited passes): the column of the card just played from the
        talon to the tableau when that was the last operation, else -1."""
        if self.draw == 1 and self.passes == 0 and self.nops > 0 and \
                self.ops[self.nops - 1].kind == W2T:
            return self.ops[self.nops - 1].b
        return -1

    cdef int _emptied(self) noexcept nogil:
        """Rule 16: the column the last operation emptied when that was a column-to-column
        move and the column is now the only empty one, else -1."""
        cdef int a, i
        if self.nops == 0 or self.ops[self.nops - 1].kind != T2T:
            return -1
        a = self.ops[self.nops - 1].a
        if self.clen[a] != 0:
            return -1
        for i in range(self.ncols):
            if i != a and self.clen[i] == 0:
                return -1
        return a

    cdef uint64_t _key(self, uint64_t* plain) noexcept nogil:
        """The table key: the position, and rule 9's or rule 13's pending card (it limits
        the moves). With a pending card, *plain is set to the key of the same position
        without it (_hash); else to 0."""
        cdef int p = self._pending()
        cdef uint64_t h
        plain[0] = 0
        if p >= 0:
            plain[0] = self._hash()
            return self._plain_hash() + KP[0][self.cols[p][self.clen[p] - 1]]
        p = self._played()
        if p >= 0:
            h = self._hash()
            plain[0] = h
            return h + KP[1][self.cols[p][self.clen[p] - 1]]
        return self._hash()

    # ---------------------------------------------------------------- rules helpers
    cdef inline int _fits_found(self, int c) noexcept nogil:
        """Foundation index that takes card c (first of its suit), or -1."""
        cdef int s = suit_of(c), r = rank_of(c)
        if self.found[s] == r - 1:
            return s
        if self.decks == 2 and self.found[s + 4] == r - 1:
            return s + 4
        return -1

    cdef inline bint _fits_col(self, int c, int t) noexcept nogil:
        cdef int top
        if self.clen[t] == 0:
            return self.empty_any or rank_of(c) == 13
        top = self.cols[t][self.clen[t] - 1]
        return rank_of(top) == rank_of(c) + 1 and red(top) != red(c)

    cdef inline bint _safe_up(self, int c) noexcept nogil:
        cdef int r = rank_of(c), s
        if self.decks == 1:
            return self._dominated(c)  # rule 8
        if r <= 2:
            return True
        if self.back:
            return False
        for s in range(4):
            if red(s * 13) != red(c):
                if self.found[s] < r - 1:
                    return False
                if self.decks == 2 and self.found[s + 4] < r - 1:
                    return False
        return True

    cdef inline bint _dominated(self, int c) noexcept nogil:
        """Rule 8 (one deck): both foundations of the other colour hold c's rank - 2 or
        more, and the other foundation of c's colour its rank - 3 or more."""
        cdef int s = suit_of(c), need = rank_of(c) - 2
        return self.found[s ^ 1] >= need and self.found[s ^ 2] >= need and \
            self.found[3 - s] >= need - 1

    # ---------------------------------------------------------------- do / undo
    cdef int _push(self, KMove m) noexcept nogil:
        cdef KMove* grown
        if self.nops == self.cap_ops:
            grown = <KMove*>realloc(self.ops, 2 * self.cap_ops * sizeof(KMove))
            if grown == NULL:
                return -1
            self.ops = grown
            self.cap_ops *= 2
        self.ops[self.nops] = m
        self.nops += 1
        return 0

    cdef int _play(self, KMove m) noexcept nogil:
        """Apply m and push it on the op stack; -1 when the stack cannot grow."""
        apply_op(self, &m)
        return self._push(m)

    cdef int _column_up(self, int s, int f) noexcept nogil:
        """Play column s's top card to foundation f (see _play)."""
        cdef KMove a
        a.kind = T2F
        a.a = s
        a.b = f
        a.n = 1
        a.draws = 0
        a.pu = self.pu
        return self._play(a)

    cdef int _do(self, KMove m) noexcept nogil:
        """Apply m and then every safe foundation move; push all of them on the op stack.
        With one deck a move of part of a pile is always followed by the foundation move of
        the card it leaves (rules 7 and 12)."""
        cdef int s = m.a, f
        if self._play(m) != 0:
            return -1
        if m.kind == T2T and self.decks == 1 and self.ops[self.nops - 1].flip == 0 and \
                self.clen[s] > self.cdown[s] and self.clen[m.b] > m.n and \
                lies_on(self.cols[m.b][self.clen[m.b] - m.n], self.cols[s][self.clen[s] - 1]):
            f = self._fits_found(self.cols[s][self.clen[s] - 1])
            if f >= 0:
                if self._column_up(s, f) != 0:
                    return -1
                return play_safe(self)
        if m.kind == T2T:
            return play_safe_after(self, s)
        return play_safe(self)

    cdef void _undo_to(self, int height) noexcept nogil:
        while self.nops > height:
            self.nops -= 1
            undo_op(self, &self.ops[self.nops])

    # ---------------------------------------------------------------- search
    def run(self, long long max_nodes, double max_seconds, int noise=0, bint fresh=True,
            double pause=0.0):
        """One search from the loaded position with an empty table (``fresh``; otherwise on
        the table as it stands, see share_table). ``noise`` > 0 adds a random 0..noise-1 to
        every move's priority (a restart with another order; seeded by noise, so runs
        repeat exactly); 0 keeps the plain order. max_nodes counts this run's positions (0:
        no limit); max_seconds its time (0: no limit). Returns (status, line): status 1
        solved, 0 unsolvable, -1 node or time limit (or halt), -2 memory limit, -3 paused;
        the line (when solved) as (kind, a, b, n) tuples, see line_of. Unless paused, the
        kernel is back at the loaded position afterwards, ready to run again. With
        ``pause`` > 0 the search pauses after about that many seconds (-3, []) and resume
        goes on with it. In the main thread a search stops for Ctrl-C (its exception is
        raised, the kernel back at its position)."""
        abandon(self)
        if fresh:
            table_forget(self.table)
        self.noise = noise
        self.rng = mix64(<uint64_t>noise + 12345)
        self.live.max_nodes = self.nodes + max_nodes if max_nodes > 0 else 0
        self.live.deadline = kabale_now() + max_seconds if max_seconds > 0 else 1e300
        self.live.active = 1
        status = search_begin(self)
        if status != 2:
            return finish_run(self, status)
        return go_on(self, pause)

    def resume(self, double pause=0.0):
        """Go on with a paused search, within the limits its run was given (see run)."""
        if not self.live.active:
            raise ValueError("no search to resume: run one first")
        return go_on(self, pause)

    def relax(self, bint on):
        """Search as if one card were drawn at a time with unlimited passes (on), or by the
        variant's rules again (off). Call it between runs, at the loaded position; the
        table is kept (see klondike.run_klondike)."""
        relax_rules(self, on)

    def forget_table(self):
        """Start an empty table (run does, unless fresh=False)."""
        table_forget(self.table)

    @property
    def table_bytes(self):
        """The size of the table's bucket array now (it grows with the search)."""
        return table_size(self.table)

    def expect_helper(self):
        """Let another kernel search on this one's table from now on (share_table): a slab
        the table outgrows is kept until the table is freed, as the helper may still probe
        it. Call it between runs."""
        self.own.shared = 1

    def share_table(self, KlondikeKernel owner):
        """Search on ``owner``'s table from now on, as it stands, with run(fresh=False): a
        helper searching the same position at once in another order. Each skips what
        either entered, so neither exhausted run proves anything until both ended exhausted
        (then every entered position was searched whole by the kernel that entered it, and
        those positions include every successor of each: all that is reachable). The owner
        must have called expect_helper, and keeps its table meanwhile (no fresh run)."""
        if not owner.own.shared:
            raise ValueError("share_table: the owner has not called expect_helper")
        abandon(self)
        table_free(&self.own)
        self.table = &owner.own
        self.table_owner = owner

    cdef int _do_root(self) noexcept nogil:
        """Play the safe foundation moves of the starting position (part of the line)."""
        return play_safe(self)


include "_klondike_load.pxi"
include "_klondike_cols.pxi"
include "_klondike_ops.pxi"
include "_klondike_twins.pxi"
include "_klondike_gen.pxi"
include "_klondike_search.pxi"
include "_klondike_line.pxi"
include "_klondike_batch.pxi"
include "_klondike_end.pxi"
