# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Many Klondike-family games stepped in C, for the vectorised env (kabale.env.vector).

The rules are core's (kabale.core.klondike), restated on small arrays: the legal actions of
``legal`` are exactly ``KlondikeRules.legal_moves``, ``apply`` is ``KlondikeRules.apply`` and
``outcome`` is ``is_won`` / ``is_lost``; tests/env/test_vector.py plays random games through
both and compares every mask and every observation. Action numbers and their meaning come from
the Python side (ActionTable), so the catalogue is written once.

Card codes are the observation's: 13 * suit + rank (1..52), suits S H D C; 53 unseen.
Per game b: ``cols[b, i, :length[b, i]]`` column i bottom first, ``down[b, i]`` face-down
count, ``stock[b, :stock_n[b]]`` bottom first, ``waste[b, :waste_n[b]]`` bottom first,
``found[b, f]`` the top rank of foundation f, ``passes_used``, ``score``.
"""

DEF UNSEEN = 53
# action kinds (the Python side's ActionTable decoded)
DEF COL_F = 0
DEF WASTE_F = 1
DEF COL_COL = 2
DEF WASTE_COL = 3
DEF F_COL = 4
DEF STOCK = 5


cdef inline int rank_of(int code) noexcept nogil:
    return (code - 1) % 13 + 1


cdef inline int suit_of(int code) noexcept nogil:
    return (code - 1) // 13


cdef inline bint red(int code) noexcept nogil:
    cdef int suit = (code - 1) // 13
    return suit == 1 or suit == 2


cdef class KlondikeBatch:
    """``n`` games of one Klondike variant; see the module docstring for the arrays."""

    cdef public int n, n_columns, n_found, depth, stock_size
    cdef int draw, passes, any_empty, back, decks, scoring, open_table
    cdef signed char[:, :, ::1] cols
    cdef signed char[:, ::1] length, down, stock, waste, found
    cdef int[::1] stock_n, waste_n, passes_used, score
    cdef int[::1] kind, src, dst, cnt
    cdef int[::1] a_col_f, a_waste_col
    cdef int[:, :, ::1] a_col_col
    cdef int[:, ::1] a_f_col
    cdef int a_waste_f, a_stock

    def __init__(self, int n, dict options, dict arrays, dict tables):
        self.n = n
        self.draw = options["draw"]
        self.passes = options["passes"]
        self.any_empty = options["empty"] == "any"
        self.back = options["back"]
        self.decks = options["decks"]
        self.scoring = {"standard": 0, "vegas": 1, "none": 2}[options["scoring"]]
        self.open_table = options["open"]
        self.cols = arrays["cols"]
        self.length = arrays["length"]
        self.down = arrays["down"]
        self.stock = arrays["stock"]
        self.waste = arrays["waste"]
        self.found = arrays["found"]
        self.stock_n = arrays["stock_n"]
        self.waste_n = arrays["waste_n"]
        self.passes_used = arrays["passes_used"]
        self.score = arrays["score"]
        self.n_columns = self.cols.shape[1]
        self.depth = self.cols.shape[2]
        self.stock_size = self.stock.shape[1]
        self.n_found = self.found.shape[1]
        self.kind = tables["kind"]
        self.src = tables["src"]
        self.dst = tables["dst"]
        self.cnt = tables["cnt"]
        self.a_col_f = tables["col_f"]
        self.a_waste_col = tables["waste_col"]
        self.a_col_col = tables["col_col"]
        self.a_f_col = tables["f_col"]
        self.a_waste_f = tables["waste_f"]
        self.a_stock = tables["stock"]

    # ------------------------------------------------------------------ queries
    cdef int foundation_for(self, int b, int code) noexcept nogil:
        cdef int copy, index, rank = rank_of(code), suit = suit_of(code)
        for copy in range(self.decks):
            index = copy * 4 + suit
            if self.found[b, index] == rank - 1:
                return index
        return -1

    cdef bint fits(self, int b, int code, int col) noexcept nogil:
        cdef int size = self.length[b, col], top
        if size == 0:
            return self.any_empty or rank_of(code) == 13
        top = self.cols[b, col, size - 1]
        return rank_of(top) == rank_of(code) + 1 and red(top) != red(code)

    cdef int run_start(self, int b, int col) noexcept nogil:
        cdef int start = self.length[b, col] - 1, floor = self.down[b, col], below, above
        while start > floor:
            below = self.cols[b, col, start - 1]
            above = self.cols[b, col, start]
            if rank_of(below) != rank_of(above) + 1 or red(below) == red(above):
                break
            start -= 1
        return start

    cdef int passes_left(self, int b) noexcept nogil:
        """-1 when unlimited."""
        if self.passes == 0:
            return -1
        return self.passes - 1 - self.passes_used[b]

    cdef bint stock_possible(self, int b) noexcept nogil:
        if self.stock_n[b] > 0:
            return True
        return self.waste_n[b] > 0 and (self.passes == 0 or self.passes_left(b) > 0)

    cdef bint is_won(self, int b) noexcept nogil:
        cdef int f, total = 0
        for f in range(self.n_found):
            total += self.found[b, f]
        return total == 13 * self.n_found

    cdef int legal(self, int b, unsigned char[::1] mask) noexcept nogil:
        """Set ``mask`` to the legal actions of game b; returns how many there are."""
        cdef int i, j, k, f, size, start, low, top, card, count = 0
        cdef int n = self.n_columns
        mask[:] = 0
        if self.is_won(b):
            return 0
        for i in range(n):
            size = self.length[b, i]
            if size and self.foundation_for(b, self.cols[b, i, size - 1]) >= 0:
                mask[self.a_col_f[i]] = 1
                count += 1
        if self.waste_n[b] and self.foundation_for(b, self.waste[b, self.waste_n[b] - 1]) >= 0:
            mask[self.a_waste_f] = 1
            count += 1
        for i in range(n):
            size = self.length[b, i]
            if size == 0:
                continue
            start = self.run_start(b, i)
            low = rank_of(self.cols[b, i, start])
            for j in range(n):
                if j == i:
                    continue
                if self.length[b, j]:
                    top = self.cols[b, j, self.length[b, j] - 1]
                    k = start + low - rank_of(top) + 1  # the card one rank below top
                    if start <= k < size and red(self.cols[b, i, k]) != red(top):
                        mask[self.a_col_col[i, j, size - k]] = 1
                        count += 1
                elif self.any_empty:
                    for k in range(start, size):
                        mask[self.a_col_col[i, j, size - k]] = 1
                        count += 1
                elif low == 13:
                    mask[self.a_col_col[i, j, size - start]] = 1
                    count += 1
        if self.waste_n[b]:
            card = self.waste[b, self.waste_n[b] - 1]
            for j in range(n):
                if self.fits(b, card, j):
                    mask[self.a_waste_col[j]] = 1
                    count += 1
        if self.back:
            for f in range(self.n_found):
                if self.found[b, f]:
                    card = 13 * (f % 4) + self.found[b, f]
                    for j in range(n):
                        if self.fits(b, card, j):
                            mask[self.a_f_col[f, j]] = 1
                            count += 1
        if self.stock_possible(b):
            mask[self.a_stock] = 1
            count += 1
        return count

    # ------------------------------------------------------------------ moves
    cdef void add_score(self, int b, int points) noexcept nogil:
        if points == 0:
            return
        if self.scoring == 0:
            self.score[b] = max(0, self.score[b] + points)
        else:
            self.score[b] += points

    cdef void stock_action(self, int b) noexcept nogil:
        cdef int t, take, n
        if self.stock_n[b]:
            take = min(self.draw, self.stock_n[b])
            for t in range(take):
                self.waste[b, self.waste_n[b] + t] = self.stock[b, self.stock_n[b] - 1 - t]
            self.waste_n[b] += take
            self.stock_n[b] -= take
            return
        n = self.waste_n[b]
        for t in range(n):
            self.stock[b, t] = self.waste[b, n - 1 - t]
        self.stock_n[b] = n
        self.waste_n[b] = 0
        self.passes_used[b] += 1
        if self.scoring == 0:
            if self.draw == 1:
                self.add_score(b, -100)
            elif self.passes_used[b] >= 3:
                self.add_score(b, -20)

    cdef void apply(self, int b, int action) noexcept nogil:
        """Play a legal action on game b (not checked), with flips and score."""
        cdef int kind = self.kind[action], source = self.src[action]
        cdef int target = self.dst[action], count = self.cnt[action]
        cdef int points = 0, card, f, t, size
        if kind == STOCK:
            self.stock_action(b)
            return
        if kind == WASTE_F or kind == WASTE_COL:
            self.waste_n[b] -= 1
            card = self.waste[b, self.waste_n[b]]
            count = 1
        elif kind == F_COL:
            card = 13 * (source % 4) + self.found[b, source]
            self.found[b, source] -= 1
            points += -15 if self.scoring == 0 else (-5 if self.scoring == 1 else 0)
        else:
            size = self.length[b, source] - count
            card = self.cols[b, source, size]
            self.length[b, source] = size
            if size and self.down[b, source] == size:
                self.down[b, source] -= 1
                points += 5 if self.scoring == 0 else 0
        if kind == COL_F or kind == WASTE_F:
            f = self.foundation_for(b, card)
            self.found[b, f] += 1
            points += 10 if self.scoring == 0 else (5 if self.scoring == 1 else 0)
        else:
            size = self.length[b, target]
            if kind == COL_COL:
                for t in range(count):
                    self.cols[b, target, size + t] = self.cols[b, source,
                                                               self.length[b, source] + t]
            else:
                self.cols[b, target, size] = card
            self.length[b, target] = size + count
            if kind == WASTE_COL and self.scoring == 0:
                points += 5
        self.add_score(b, points)

    cdef bint unseen_could_play(self, int b) noexcept nogil:
        """Core's _unseen_could_play: could a stock or face-down card go to a foundation or
        onto a column as things stand?"""
        cdef int i, j, col, code
        for i in range(self.stock_n[b] + self.n_columns * self.depth):
            if i < self.stock_n[b]:
                code = self.stock[b, i]
            else:
                col = (i - self.stock_n[b]) // self.depth
                j = (i - self.stock_n[b]) % self.depth
                if j >= self.down[b, col]:
                    continue
                code = self.cols[b, col, j]
            if self.foundation_for(b, code) >= 0:
                return True
            for col in range(self.n_columns):
                if self.fits(b, code, col):
                    return True
        return False

    cdef bint is_lost(self, int b, int count, unsigned char[::1] scratch):
        """Core's is_lost: no legal move; with unlimited passes also when only the stock is
        left, a whole cycle through stock and waste offers nothing else, and the player
        could know it (the stock seen, or no unseen card that could play)."""
        cdef int step, lost = 0
        if count == 0:
            return not self.is_won(b)
        if self.passes != 0 or count != 1 or not scratch[self.a_stock]:
            return False
        saved = (bytes(self.stock[b, :self.stock_n[b]]), bytes(self.waste[b, :self.waste_n[b]]),
                 self.stock_n[b], self.waste_n[b], self.passes_used[b], self.score[b])
        for step in range(2 * (self.stock_n[b] + self.waste_n[b]) + 4):
            self.stock_action(b)
            if self.legal(b, scratch) != 1:
                break
            if (self.stock_n[b] == saved[2] and self.waste_n[b] == saved[3]
                    and bytes(self.stock[b, :self.stock_n[b]]) == saved[0]
                    and bytes(self.waste[b, :self.waste_n[b]]) == saved[1]):
                lost = 1
                break
        self._restore(b, saved)
        self.legal(b, scratch)
        if lost and not (self.open_table or self.passes_used[b] > 0 or self.stock_n[b] == 0):
            lost = not self.unseen_could_play(b)
        return lost

    def _restore(self, int b, tuple saved):
        cdef int i
        stock, waste = saved[0], saved[1]
        for i in range(len(stock)):
            self.stock[b, i] = <signed char>stock[i]
        for i in range(len(waste)):
            self.waste[b, i] = <signed char>waste[i]
        self.stock_n[b], self.waste_n[b] = saved[2], saved[3]
        self.passes_used[b], self.score[b] = saved[4], saved[5]

    # ------------------------------------------------------------------ the batch step
    def refresh(self, int b, unsigned char[:, ::1] masks):
        """Write game b's legal mask; returns 0 playing, 1 won, 2 lost."""
        cdef int count = self.legal(b, masks[b])
        if self.is_won(b):
            return 1
        return 2 if self.is_lost(b, count, masks[b]) else 0

    def step(self, long[::1] actions, unsigned char[:, ::1] masks, signed char[::1] outcome,
             signed char[::1] done, double[::1] reward, double shaped):
        """Play ``actions[b]`` on every game b still playing (``outcome[b] == 0``) and not
        about to be dealt again (``done[b] == 0``) whose mask allows it (others change nothing), then rewrite its mask and ``outcome[b]`` (0 playing, 1 won,
        2 lost) and set ``reward[b]``: 1 for a win, plus ``shaped`` times the change in
        (foundation cards - face-down cards) / deck cards."""
        cdef int b, a, before, count
        cdef double cards = 13.0 * self.n_found
        for b in range(self.n):
            reward[b] = 0.0
            a = actions[b]
            if done[b] or outcome[b] or not masks[b, a]:
                continue
            before = self.progress(b)
            self.apply(b, a)
            count = self.legal(b, masks[b])
            if self.is_won(b):
                outcome[b] = 1
                reward[b] = 1.0
            elif self.is_lost(b, count, masks[b]):
                outcome[b] = 2
            if shaped:
                reward[b] += shaped * (self.progress(b) - before) / cards

    cdef int progress(self, int b) noexcept nogil:
        cdef int i, total = 0
        for i in range(self.n_found):
            total += self.found[b, i]
        for i in range(self.n_columns):
            total -= self.down[b, i]
        return total

    def observe(self, dict out):
        """Write every game's observation (the fields of kabale.env.view) into ``out``."""
        cdef signed char[:, :, ::1] columns = out["columns"]
        cdef signed char[:, ::1] down = out["down"], waste = out["waste"]
        cdef signed char[:, ::1] stock_cards = out["stock_cards"], found = out["foundations"]
        cdef signed char[:, ::1] passes_left = out["passes_left"]
        cdef short[:, ::1] stock = out["stock"]
        cdef int[:, ::1] score = out["score"]
        cdef int b, i, p, hidden, seen
        for b in range(self.n):
            for i in range(self.n_columns):
                hidden = 0 if self.open_table else self.down[b, i]
                for p in range(self.depth):
                    if p >= self.length[b, i]:
                        columns[b, i, p] = 0
                    elif p < hidden:
                        columns[b, i, p] = UNSEEN
                    else:
                        columns[b, i, p] = self.cols[b, i, p]
                down[b, i] = self.down[b, i]
            for i in range(self.n_found):
                found[b, i] = self.found[b, i]
            seen = self.open_table or self.passes_used[b] > 0
            for p in range(self.stock_size):
                waste[b, p] = self.waste[b, p] if p < self.waste_n[b] else 0
                if p >= self.stock_n[b]:
                    stock_cards[b, p] = 0
                else:
                    stock_cards[b, p] = self.stock[b, p] if seen else UNSEEN
            stock[b, 0] = self.stock_n[b]
            passes_left[b, 0] = self.passes_left(b)
            score[b, 0] = self.score[b]
