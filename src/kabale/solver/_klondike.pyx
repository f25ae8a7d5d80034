# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Klondike-family search kernel: exhaustive depth-first search with undo on one packed state.

The Python layer (kabale.solver.klondike) packs a core State into plain lists of card codes
(code = suit * 13 + rank - 1, suits S H D C = 0..3) and reads the winning line back as tuples
of atomic operations, which it turns into notation and replays through core.

Search space reductions, each with the argument that it keeps every verdict right
(the search is complete: a deal is "unsolvable" only when every state reachable under these
reductions has been searched without a win):

1. Stock macro moves. A waste play is generated as "press d n times, then play the waste top"
   for every waste top reachable by pressing d from the current position. Drawing and turning
   the waste touch only stock and waste; tableau and foundation moves never touch them. So in
   any winning line each run of draws can be postponed to just before the next waste play
   (the draws see the same stock either way), and draws after the last waste play are
   useless because a won game has an empty stock and waste. Positions reached only after a
   second turn-back repeat the first pass's positions with fewer passes left, so at most one
   turn-back is ever considered inside a macro; a position reachable both before and after a
   turn-back is taken before it (same cards, more passes left).
2. Safe foundation moves, from the tableau, and from the stock and waste only in draw 1 with
   unlimited passes (elsewhere removing a talon card changes which cards later draws reach;
   in draw 1 with unlimited passes every talon card can be played at any time, before and
   after, so rule 6 makes the talon one state whatever its card order and a talon card is
   as free as a column top). A card X of rank r goes up automatically when
   - one deck: X is dominated (rule 8), with back=true and with back=false alike.
   - two decks, r <= 2: only Aces can ever be placed on a 2, nothing on an Ace; an Ace
     placed on a 2 could have gone to its foundation instead (an Ace's foundation is always
     free), so a line that keeps X in the tableau can be copied move for move with X on its
     foundation, leaving out the moves of X and of Aces onto it. With back=true a line may
     also bring an Ace back to the tableau: the copy keeps it on its foundation, where it
     blocks nothing.
   - two decks, back=false only: all four foundations of the opposite colour hold rank r-1
     or more. The only cards that can be placed on X are the opposite-colour r-1 cards, all
     already on foundations and (without foundation-to-tableau moves) never coming back, so
     X never holds anything; the copy of any line leaves out X's moves.
   With two decks and back=true the classic rule is not proven (a card brought back from a
   foundation can land on X and hold a card that uncovers something); with one deck rule 8
   asks less than it does.
3. Equal positions are searched once: states are keyed by a Zobrist-style hash in which the
   columns are summed without their index (a King run moved whole into an empty column, or
   any other column permutation, gives the same key), because winnability does not depend on
   the order of Klondike's columns (nothing is ever dealt to a particular column). A state on
   the current path that is seen again is a cycle and is skipped: a shortest winning line
   never repeats a state.
4. A whole column (no face-down cards) moved into an empty column is never generated: the
   result is the same position with two columns swapped (rule 3).
5. Once no card is face down, the stock and waste are empty and every column is one
   descending run, the game is won: the lowest card not on a foundation is the top of some
   column (columns descend), and every lower card of its suit is on a foundation (both copies
   in Double Klondike, so both foundations of the suit stop just below it), so it can go up;
   repeat. The line is completed greedily.
6. With unlimited passes, stock-and-waste positions that can reach each other by pressing d
   alone are one state (same cards, same choices ahead): for draw 1 every waste position
   (all lie on one cycle), for draw k the positions on the cycle after a turn-back (waste
   sizes 0, k, 2k, ..., all cards). Off-cycle positions (waste size not a multiple of k, left
   by an earlier waste play) reach the cycle but not back, so they stay distinct.
7. Part of a run (one deck). A column-to-column move onto a card that leaves behind a
   face-up card A on which the moved pile's first card lay is generated only when A can
   then go to its foundation. The target card B has A's rank and colour (both took that
   first card), and with one deck A and B are the only such cards. Say a line L wins after
   such a move m. Copy L from the position before m, keeping the invariant "L's position
   with the piles lying on A and on B exchanged" (true at the start: the run lies on A,
   nothing on B). A move that takes or places cards above A or B is copied with the columns
   of A and B exchanged: the same cards lie on top and A and B take the same cards (from a
   column, the waste or, with back=true, a foundation). Any other move, including a move
   of A or B with what lies on them, is copied as it is: legality depends only on the
   moved pile's first card and the target, and the same cards are uncovered below. Only a
   foundation move of A (or B) breaks the invariant; then nothing lies on A in L, so
   nothing lies on B in the copy, and the copy first moves the pile lying on A onto B, a
   move kept by this rule as A goes up next, and from then on equals L. A kept move of L
   that leaves A behind is copied as a move that leaves B behind, onto an empty column (not
   pruned; the only other target, B, means the copy already equals L, and the move is left
   out). So the copy wins without m and has no pruned move that L did not have; removing
   the last pruned move of a winning line again and again gives a line this rule keeps.
   Moves into an empty column are never pruned (with empty=any an empty column is no
   twin); Double Klondike (four cards per rank and colour) keeps every move. The copy
   only moves piles between columns and adds A's foundation move where L made it, so rules
   1, 2 and 6 (about the stock, and about foundation moves made as soon as they are safe)
   apply to it as to L.
8. Dominated cards (one deck; the rule lonelybot's "dominance" uses). Call a card X of rank
   r dominated when both foundations of the other colour hold r-2 or more and the other
   foundation of X's colour holds r-3 or more. (a) A dominated card that fits its
   foundation goes up at once (from a column; from the talon where rule 2 allows it). (b) A
   dominated card on top of its foundation is never brought back to the tableau. Argument:
   take a winning line L from the moment t at which X is dominated and fits (or tops) its
   foundation; call "window cards" X and every card of the other colour of rank <= r-1 and
   of X's colour of rank <= r-2 (of X's suit, <= r-1). A card that lies on a window card is
   one too (on a card of X's colour and rank <= r lies one of the other colour and rank <=
   r-1; on one of the other colour and rank <= r-1, one of X's colour and rank <= r-2), so
   no other card ever lies on a window card: in a column the window cards face up form a
   pile on top. At t every window card is on its foundation or is the next card of it: X's
   suit stands at r-1 (X fits) or r (X tops it), the other colour's suits at r-2 or more,
   X's twin suit at r-3 or more; so the window cards in play are X and at most the two of
   the other colour and rank r-1 and the one of X's twin suit and rank r-2. Copy L into L',
   in which no window card ever comes down and each goes up as soon as it is free: at t X
   goes up (or stays, (b)), and so does every window card in a column's top pile of window
   cards, that pile's top first (each is the next card of its foundation, which in L' only
   window cards change, and only upwards); a face-down window card goes up once the move
   that turns it is copied, a talon window card when L plays it (in draw 1 with unlimited
   passes, where rule 2 sends talon cards up, at once: every talon card can be played at
   any time there, so taking one out changes no other play). Every other move of L is
   copied as it is, without the window cards on top of the moved pile; a move of a window
   card is left out. So a window card on a foundation in L is on its foundation in L'
   (L' sends it up no later than it is free in L), and L' is legal: a moved pile's first
   card and its target are never window cards (nothing else lies on one), so they lie as
   in L; L's columns less their top piles of window cards are L''s, so a card L uncovers is
   uncovered in L' too, if not sooner (a card turned up early has no moves L needs it to
   lack, as L never moves a card that lies face down; a column emptied early only adds a
   choice); a move of another card onto or off a foundation needs (or has) every lower card
   of its suit, window ones included, on it in L, and L' holds those too, so it stands at
   the same height; the talon changes as in L. The copy wins where L does. In the copy the
   window cards never come down, so X stays dominated and never comes back: repeating the
   copy at the first move (a) or (b) would change ends in a winning line that keeps (a)
   and (b). With back=false nothing comes back at all, and the same copy holds. (Before
   this rule asked for the other colour at r-1 and X's twin suit at r-2, so that every
   window card but X was up at t; on Solvitaire's draw-1 deals 1-300 the weaker condition
   leaves 29% fewer positions to search, and it decided deals the old one left at 1M.)
9. Cards brought back, and talon cards (rule 13), only just in time. Call JIT moves the
   foundation-to-tableau (F2T) moves and, in draw 1 with unlimited passes, the talon plays
   to the tableau (rule 13). A trigger of a JIT move m of a card X of rank r is a move that
   places a card onto X or is a JIT move of a card of rank r or r - 1 (for instance of the
   next card of X's foundation f). After m the search generates only triggers of m; the
   table key records X then (the same cards with X pending allow fewer moves).
   Argument: take a winning line L that keeps rules 1-8.
   (T1) If X goes up before any trigger of m: for an F2T move leave out m and that move (X
   waits on f); for a talon play make X's foundation move from the talon (rule 13).
   (T1') If X moves alone to a column before any trigger of m: move m to just before that
   move (legal as in T2) and let m lay X there directly (X is still f's top or a talon card
   the same presses reach, and that column's top is unchanged by m): the same position, one
   move sooner.
   (T2) Otherwise let u be the first trigger of m after it; if u is not right after m, move
   m to just before u, laying X on the card (or empty column) it lies on in L at u.
   Both copies are legal: between m and u (or X's return) X is the top of its column in L
   (nothing is placed on it) and lies on the same card, since it moves only inside a pile
   with the cards below it, which the copy moves without X (same first card, target and
   uncovered card); no move lands on X or takes X alone; f stands one higher in the copy,
   which forbids only bringing down f's next card (a JIT move of rank r - 1, a trigger, so
   none happens) and allows X's successor up (never used); a JIT move of another rank in
   between lays a card from another foundation or the talon on a card other than X; every
   other pile, target and flip is L's. The copy's position at u equals L's.
   The copy keeps rules 1-8: the stock is untouched; with one
   deck X is not dominated from m to u (rule 8(b) at m; after it 8(a) would have sent X
   up, as it lies free), and a card that f's extra card makes dominated would make X
   dominated too (it is X's successor, or of the other colour and rank X+2, or X's twin
   suit's X+3, each of which needs X's other foundations high enough for X), so f's extra
   card changes no rule 2/8 safe move, and X in the tableau is never safe to go
   up (with two decks only ranks <= 2 are auto-safe, and a 2 brought down goes straight
   back: a repeated position); rule 7's card left behind is never X. T1 and T1' shorten
   the line.
   T2, applied to the last JIT move not followed by a trigger, leaves m followed by u; the
   moves between shift one place earlier and keep their successors, except the last one, v,
   now followed by m. If v is a JIT move of a card of rank s, then u is a trigger of both,
   so u's card has rank r or r - 1 (a card onto X or a JIT move of such a card)
   and also s or s - 1, while s is neither r nor r - 1 (v is no trigger of m): so s = r + 1,
   and m, of rank s - 1, is a trigger of v. So every JIT move from m's old place on is
   followed by a trigger, and the last one that is not lies strictly earlier. Repeating T1
   and T1' (when they apply) and T2 ends in a winning line in which every JIT move is
   followed by a trigger. (The ranks matter: every move that needs a JIT move of rank r
   lays or is a card of rank r - 1. Counting every F2T move, but no talon play, as a
   trigger lost wins in draw 1 where two chains of a talon play and a card brought down
   onto it interleave; the tests' INTERLEAVED position is one.) The pending card is known
   from the op stack alone (the last operation is a JIT move; when safe foundation moves
   followed it no restriction is applied, which only searches more). An F2T move after
   which no move is possible is not generated (one deck, not in draw 1 with unlimited
   passes; the test and its argument: f2t_goes_on, in _klondike_gen.pxi).
10. Depth cap (``max_depth`` moves from the start, 0 = none; the driver caps only its
   restarts, at ``restart_depth``, 0 for now: restarts capped at 90 or 300 moves, 10 s per
   deal, won none of the deals the plain search leaves unknown). A depth-first search can
   wander thousands of moves deep without backing up. Past the cap the search backs up
   instead; a state cut there may still be in the table and prune a shallower path later,
   so once any cut happened an exhausted search reports "unknown" (-1), never
   "unsolvable". Solved lines are unaffected (each one is replayed through core).
11. Buried cards (one deck, empty=king). Call a card a candidate if it is no King and is
   face down or the lowest face-up card of its column: it can leave its place only as the
   first card of a pile (onto a column top of rank+1 and the other colour; no empty
   column takes it) or to its foundation, and the cards below it never change while it
   stays. Take the largest set S of candidates such that for every Y in S both cards Y
   could lie on, and some lower card of Y's suit, lie in columns below a card of S
   (found by dropping failing candidates until none fails). Then no card of S ever
   moves: at the first move of one, Y, its lower card would have to be up, or one of
   its two cards a column top, but each is still covered by an unmoved card of S (none is
   on a foundation or in the talon, so none comes from there). So if S is not empty the
   position is lost, and the search reports "unsolvable" at once. Moves only put cards
   on tops, so no later position has such a set unless the loaded one has: the test is
   made once, on the loaded position.
12. Twin piles (one deck). Call two cards twins when they share rank and colour (S and C,
   H and D). Positions that differ only by exchanging the piles lying on two face-up
   twins A and B (each pile a run that fits them) are equally winnable: copy a line as in
   rule 7's argument, with the piles above A and B exchanged, until A (or B) goes to its
   foundation; there, in the copy, A carries the pile that lies on B in the line and
   nothing lies on B, so the copy first moves that pile onto B (it fits B as it fitted A)
   and then sends A up, and from then on equals the line. So the table key (``_hash``)
   cuts each column whose face-up cards form one run above every face-up card whose twin
   also lies face up in such a column, keys the piece above a cut by the cut card's rank
   and colour only, and sums the pieces: exchanged positions share a key.
   Sharing a key is sound for the depth-first argument (a position skipped as seen has a
   win only if the one searched has a shortest win of the same length) when the moves of
   exchanged positions match: each move of one has a move of the other to positions
   sharing a key. The one move that would not match is the foundation move of A when A
   is a top in one position and covered in the other. Three things restore it. (a) A move
   of part of a pile, which rule 7 makes only onto the twin of the card it leaves and
   only when that card can go up, is followed at once by that foundation move (the copy
   in rule 7's argument does exactly that). (b) Rule 2's safe moves also take a safe
   card A covered by a run when its twin is a column top, moving the run onto the twin
   first: the position the plain safe move gives in the exchanged position. (c) When
   both twins could go up safely, the one of lower suit goes first, whichever is
   covered, so exchanged positions make the same safe moves. Positions with a pending
   card of rule 9 keep the plain key (no pieces): they share a key only with equal ones.
13. Talon plays to the tableau only just in time (draw 1, unlimited passes): they are JIT
   moves of rule 9. There every talon card can be played at any time, before and after
   (rule 6), so a talon play is as free to wait as a card on a foundation. Moving a talon
   play m of X later (rule 9's T2) keeps the copy legal: a pile that holds X is moved
   without it, and m then lays X on the same card at its new place; X in the talon is no
   less free than X on top of a column (X in the talon goes up by rule 2 exactly when X on
   a column top would, and T1 plays X to its foundation from the talon). The card Y that X
   lies on goes up by a safe move only after X: with two decks Y is never safe while X is
   off its foundation (rule 2 would need X's suit at X's rank; an Ace played onto a 2 goes
   straight up); with one deck Y dominated (rule 8: X's colour at X's rank - 1 or more,
   Y's twin suit at X's rank - 2 or more, Y fitting) makes X dominated too (the other
   colour at X's rank - 2 or more, X's twin suit at X's rank - 3 or more, X fitting), so X
   goes up first, from the top of Y in L and from the talon in the copy (T1). After safe
   foundation moves no restriction applies, which only searches more. So the copy makes
   L's safe moves. Pending cards of rules 9 and 13 limit the moves, so a pending
   position whose plain position is in the table (searched without a win, or on the current
   path) is skipped: any win from it is a win from the plain one. Rule 12's key serves rule
   13's pending positions too: exchanging the piles on two twins maps the moves onto X to
   the moves onto X. Without foundation-to-tableau moves (back=false) a talon play of
   another card is no trigger: a move that is a trigger of two talon plays then lays one
   of their cards onto the other, and the copy plays that card there straight from the
   talon, a shorter line (with back=true such a move may bring down the card below an
   F2T move's card onto the other, which needs the rank clause).
14. Commuting moves once (partial-order reduction: sleep sets one level deep). Two moves
   of a position P commute when they change disjoint columns and foundations, are not both
   talon plays, and neither brings a card down (rule 9) nor leaves a pending card (rule 13).
   When the search made x from P alone (no safe foundation move or other operation followed
   it) and then made u, commuting with x, from P alone, it leaves x out of P.u's moves.
   Argument: the cards after x then u lie as after u then x; as neither x nor u made a safe
   move, the safe moves after x at P.u are those after u at P.x (the same cards before
   them, and they depend only on the cards), so P.u.x and P.x.u are one position, and u is
   made at P.x (its columns, foundation and talon are as at P; with one deck x cannot make
   the card u leaves behind (rule 7) fit or not fit; a move into an empty column may go to
   another empty column, the same position by rule 3). The search still reaches every
   position it reached before: order the expansions of positions by their start; at P.u a
   kept move's position is reached from there, and x's is the position of u at P.x, which
   was reached before P.u was (x was made first), so its expansion (there, or an earlier
   one of the same key when the table turned P.x away) started before P.u's and, by
   induction, reaches all its successors. Only moves that the parent itself made are left
   out (a move left out in turn there gives no such earlier expansion).
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
    cdef uint8_t cols[MAXC][MAXL]
    cdef int clen[MAXC]
    cdef int cdown[MAXC]
    cdef uint64_t colhash[MAXC]
    cdef uint64_t downhash[MAXC]    # the share of column i's face-down cards in colhash
    cdef uint64_t colup[MAXC]   # bits of a column's face-up cards if they form one run (rule 12)
    cdef bint colrun[MAXC]      # whether they do
    cdef CutKey cut_keys[MAXC][CUT_KEYS]  # twin_key's last cut keys of each column
    cdef uint8_t cut_next[MAXC]     # the one of them to replace next
    cdef uint64_t tops              # bits of the column tops (all bits with two decks)
    cdef uint64_t down              # bits of the face-down cards (one deck)
    cdef uint8_t T[MAXT]
    cdef int tlen, wlen, pu
    cdef uint64_t thash
    cdef uint64_t tset              # one deck: the sum of the talon cards' keys (_rehash_talon)
    cdef uint64_t tbits             # bits of the talon's cards (all bits with two decks)
    cdef uint64_t upall             # colup's bits of every column (their sum: they are disjoint)
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
        if self.passes == 0 and (self.draw == 1 or w % self.draw == 0 or w == self.tlen):
            w = 0  # rule 6: positions on the draw cycle are one state
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
