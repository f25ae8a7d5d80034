"""The review of a finished game: every decision graded from the player's view, and the luck of
every card turned up told apart from the chance given away by choices.

Each decision is judged as the player stood then, never from the hidden cards: from what the
player had seen before move i (knowledge.py), the advisor draws worlds (worlds.py, the seed
fixed by the review's seed and i alone) and plays every distinct legal move in each of them;
a move's value is the mean worth of its worlds afterwards (in Klondike 1 if the solver
wins the world within the effort's budget, else 0; in the Spider family, value.py: before the
last deal the progress a player can make without seeing more, on the review's own scale
(``scale_for``), a move that shows nothing taken with the best plan after it, after the last
deal the solver's verdict). Every move
is valued on the same worlds (paired), so the gap between the best move's value and the
chosen move's, the chance given away, measures the choice and not the luck of the draw; a
gap counts only beyond chance on those worlds (``Z``). (In Klondike a world the solver
leaves undecided counts as not won, as in win_chance, so a value is a win chance and a
move that gets on is worth more than one that marks time.) A review spends at most a budget
of solver positions (``REVIEW_BUDGET``): in a long game whose moves each need many solves
the later decisions are valued on fewer of their worlds.

A card turned up (a flip, a draw, a Spider deal) changes the player's chance by itself. Its
luck is the value of the best move once the card is seen (the next decision's worlds,
which hold it) less the chosen move's value before it was seen (the worlds that did not know
it). Over a game, the final chance less the first is about the total luck less the total
given away plus the drift over the moves that showed nothing (Review.drift_total); "you lost
to the cards" and "you lost it at move 34" are told apart that way.

Only once the game is over does the review also read the true deal (the post-mortem): where
the deal stopped being winnable, and for a mistake or worse whether the true deal was still
won after the better move and after the chosen one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from ..core import Game, KabaleError, Move, State
from ..core.deal import suits_and_copies
from ..core.game import Rules
from ..solver.batch import solve_states
from .bot import decision_seed
from .effort import Effort, effort_for
from .knowledge import knowledge, sight
from .plans import Plan, Planner
from .postmortem import postmortem, prefix
from .value import outlook, progress, score, worths
from .worlds import choice_positions, rng_for, sample_positions

#: the grades, best first; "forced" marks a decision without a choice (not graded)
GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
FORCED = "forced"

#: the most chance a grade may give away (best: none at all, the chosen move is worth as
#: much as the best on the same worlds); more than the last is a blunder. With Klondike's
#: quick 128 worlds, one world turned from won to lost costs 0.008: good is up to 3 such
#: worlds, inaccuracy up to 9, mistake up to 19.
THRESHOLDS = (("best", 0.0), ("good", 0.025), ("inaccuracy", 0.075), ("mistake", 0.15))

#: values closer than this count as equal (sums of halves over a few dozen worlds)
EPSILON = 1e-9

#: a gap between two moves' values counts only beyond chance: when the mean of their paired
#: differences over the worlds is more than Z standard errors (as the bot's race, choose.py).
#: Below it the two are as good as each other: with Klondike's 128 worlds one world won by
#: one move and lost by the other is mostly the solver's budget reaching a win in one
#: position and not in the next, not the move, and such gaps graded the bot no better than
#: random play (docs/review-log-2026-12-07.md)
Z = 2.0

#: the effort a review thinks at by default
DEFAULT_EFFORT = "quick"

#: positions per world a review's solver may look at, by family and effort level, as a
#: multiple of the level's ``chance_nodes`` (a review is worth more time than a hint: its
#: positions are fewer than a game's hints, and an undecided world, worth a half whatever
#: the move, hides what a move gave away)
REVIEW_NODES = {"klondike": 1, "spiderette": 1, "spider": 1}

#: worlds a review compares the moves of one position on, as a multiple of the level's
#: ``chance_samples``: a grade wants a small standard error (with 32 worlds one world is
#: 3 points of chance; the Klondike solves are cheap enough for four times as many)
REVIEW_WORLDS = {"klondike": 4, "spiderette": 1, "spider": 1}

#: the review's scale of a Spider world before the last deal: the logistic of value.py's
#: progress score less STANDING_CENTER, STANDING_WIDTH score units a step. value.py's own
#: logistic (the bot's, 8 units a step about 0) is near 0 for every position early in a two-
#: or four-suit game (44 cards face down: a score near -33, a worth near 0.02), so a deal
#: made too soon, some 8 to 10 units below the flip or the build before it, gave away only
#: 0.01 to 0.02 and random play graded as well as the bot's; and it is steepest about 0,
#: where the bot's games stand before their last deal. On this scale a score unit is worth
#: 0.016 at the opening and 0.004 at +15. Tuned on two-suit deals 1 to 10 (bench/
#: review_scale.py; docs/review-log-2026-12-07.md)
STANDING_CENTER = -25.0
STANDING_WIDTH = 15.0

#: a review's budget of solver positions, as a multiple of the level's ``chance_nodes``
#: (budgets in positions, so a review repeats on any machine): each decision may spend its
#: share of what is left (SHARE), valued on its worlds in
#: ROUNDS rounds (by family) and stopped after the round that spends its share; the first
#: round is always valued. A typical game never reaches its share, and every decision is valued on
#: all its worlds, as coach mode values one; a long game whose moves each need many solves
#: (random play after Spider's last deal, a long Klondike game) values its later decisions
#: on fewer worlds, and gaps within chance on them are not graded (``Z``)
REVIEW_BUDGET = {"klondike": 35_000, "spiderette": 8_000, "spider": 8_000}
ROUNDS = {"klondike": 8, "spiderette": 4, "spider": 4}

#: a decision's share is SHARE times what is left over the moves left: decisions differ in
#: cost (the moves to compare, how soon the solver decides their worlds), and a typical game
#: spends well under its budget, so an even share would cut its dearest decisions short
SHARE = 2

Progress = Callable[[int, int], None]


def standing(state: State) -> float:
    """A Spider position's worth on the review's scale before the last deal, in (0, 1): the
    logistic of value.py's progress score (STANDING_CENTER, STANDING_WIDTH)."""
    return 1.0 / (1.0 + math.exp(-(score(state) - STANDING_CENTER) / STANDING_WIDTH))


def scale_for(game: Game) -> Callable[[State], float]:
    """The review's worth of a Spider position before the last deal: ``standing`` with two
    or four suits; with one suit value.py's ``progress``. A one-suit game's mid-game scores
    about 0 to +15, where standing is flat (0.004 a unit at +15) and progress steep (0.03
    a unit at 0): on standing greedy play's one-suit slips there graded smaller than the
    bot's, on progress they graded larger on held-out deals (docs/review-log-2026-12-07.md)."""
    suits, _ = suits_and_copies(game.variant)
    return standing if len(suits) > 1 else progress


def grade(given_away: float) -> str:
    """The grade of a decision that gave away ``given_away`` (0..1) of the chance: the first
    grade of THRESHOLDS whose bound it does not pass, else "blunder"."""
    for name, bound in THRESHOLDS:
        if given_away <= bound + EPSILON:
            return name
    return "blunder"


def move_accuracy(given_away: float) -> float:
    """A decision's accuracy, 0..100: Lichess's formula on the chance given away in
    percentage points, 103.1668 * exp(-0.04354 * points) - 3.1669, kept within 0..100 (100 for
    nothing given away, about 50 for 15 points, 10 for 50)."""
    points = 100.0 * max(0.0, given_away)
    if points <= 100 * EPSILON:
        return 100.0  # the formula gives 99.9999 there
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * points) - 3.1669))


@dataclass(frozen=True)
class Decision:
    """One move of the game: ``index`` (the position before ``moves[index]``), the ``move``
    played, the ``best`` move by the advisor (the chosen one when it is as good), the values
    of both on the same worlds, ``given_away`` (best's value less the chosen one's) and its
    ``grade`` ("forced" when there was one distinct move, or every move was worth the same).
    ``choices``: the distinct moves compared. Once the game is over, for a mistake or worse:
    ``true_best`` and ``true_chosen``, the solver's verdict on the true deal after each
    ("solved", "unsolvable", "unknown"), else None."""

    index: int
    move: str
    best: str
    chosen_value: float | None
    best_value: float | None
    given_away: float
    grade: str
    choices: int
    reveals: bool
    true_best: str | None = None
    true_chosen: str | None = None

    def to_dict(self) -> dict[str, object]:
        """A JSON object."""
        return {"index": self.index, "move": self.move, "best": self.best,
                "chosen_value": _rounded(self.chosen_value),
                "best_value": _rounded(self.best_value),
                "given_away": round(self.given_away, 4), "grade": self.grade,
                "choices": self.choices, "reveals": self.reveals,
                "true_best": self.true_best, "true_chosen": self.true_chosen}


@dataclass(frozen=True)
class Luck:
    """A move that turned up a card: ``index`` of the move, the chance ``before`` (the chosen
    move's value before the card was seen) and ``after`` (the best value once it was seen);
    ``luck`` = after - before."""

    index: int
    before: float
    after: float

    @property
    def luck(self) -> float:
        """The change in chance that the card itself caused."""
        return self.after - self.before

    def to_dict(self) -> dict[str, object]:
        """A JSON object."""
        return {"index": self.index, "before": round(self.before, 4),
                "after": round(self.after, 4), "luck": round(self.luck, 4)}


@dataclass(frozen=True)
class Review:
    """The review of a game (module docstring): ``decisions`` one per move, ``luck`` one per
    move that turned up a card, ``start`` and ``end`` the best value at the first and the
    last position, ``luck_total`` and ``given_away_total``, ``drift_total`` (the change over
    the moves that showed nothing: the chosen move's value against the best one after it, on
    fresh worlds; in Klondike mostly the solver's budget reaching more wins as the game gets
    on, so that end - start is about luck_total - given_away_total + drift_total),
    ``accuracy`` (0..100: the mean of move_accuracy over the graded decisions, 100 when none
    was graded), ``counts`` per grade
    (forced too), ``effort`` and ``seed``; once the game is over ``postmortem`` (the true
    deal's verdicts: post-mortem's dict, ``lost_at`` in it), else None."""

    deal_id: str | None
    outcome: str
    effort: str
    seed: int
    decisions: list[Decision]
    luck: list[Luck]
    start: float
    end: float
    accuracy: float
    counts: dict[str, int]
    luck_total: float
    given_away_total: float
    drift_total: float = 0.0
    postmortem: dict[str, object] | None = field(default=None)

    def to_dict(self) -> dict[str, object]:
        """A JSON object (only str, numbers, bools, None, lists and dicts)."""
        return {"deal_id": self.deal_id, "outcome": self.outcome, "effort": self.effort,
                "seed": self.seed, "thresholds": dict(THRESHOLDS),
                "decisions": [d.to_dict() for d in self.decisions],
                "luck": [entry.to_dict() for entry in self.luck],
                "start": round(self.start, 4), "end": round(self.end, 4),
                "accuracy": round(self.accuracy, 1), "counts": dict(self.counts),
                "luck_total": round(self.luck_total, 4),
                "given_away_total": round(self.given_away_total, 4),
                "drift_total": round(self.drift_total, 4),
                "postmortem": self.postmortem}


@dataclass(frozen=True)
class _Values:
    """The distinct moves of one position with their values on common worlds."""

    values: dict[Move, float]
    groups: dict[Move, Move]  # each legal move -> the move standing for its result
    reveals: dict[Move, bool]
    #: each valued move's worth in every world, in the worlds' order (paired)
    worlds: dict[Move, list[float]] = field(default_factory=dict)
    #: the worlds are every one the knowledge allows (no sampling error)
    exact: bool = False
    #: the worlds whose worth is a verdict the solver did not reach, by move (Spider after
    #: the last deal); a gap between two moves is not counted in them
    open_worlds: dict[Move, list[bool]] = field(default_factory=dict)

    @property
    def best(self) -> float:
        return max(self.values.values(), default=0.0)


def _values(game: Game, level: Effort, seed: int, always: bool = False,
            share: int | None = None, spent: list[int] | None = None) -> _Values:
    """Every distinct legal move of ``game``'s position valued on the same worlds, drawn from
    what the player has seen (the seed fixed by the caller from the move number alone). A
    lone move is valued only when it shows a card, or ``always`` (the card before it needs
    the value after it for its luck). With ``share`` the solves stop after the round of
    worlds (REVIEW_BUDGET) that brings the positions they searched to it; ``spent[0]`` has
    those positions added."""
    rules = game.rules
    k = knowledge(game)
    klondike = level.race  # Klondike's tuning: the plans race on common worlds (effort.py)
    rng = rng_for(seed)
    n = 1 if k.complete else level.chance_samples * REVIEW_WORLDS.get(game.variant.family, 1)
    positions = choice_positions(k, n, rng) if klondike else sample_positions(k, n, rng)
    exact = k.complete or len(positions) < n  # every world there is (choice_positions)
    planner = Planner(k, rules, positions[0])
    groups: dict[Move, Move] = {}
    firsts: dict[Hashable, Move] = {}
    reveals: dict[Move, bool] = {}
    for move in game.legal_moves():
        after = rules.apply(positions[0], move)
        # two moves whose positions look alike in one world do in every world: moves read
        # only cards in sight, and show the same places
        key = sight(after, planner.symmetric)
        groups[move] = firsts.setdefault(key, move)
        reveals[move] = planner.reveals(positions[0], after)
    distinct = list(firsts.values())
    if len(distinct) <= 1:
        if distinct and (always or reveals[distinct[0]]):  # a forced card has its luck
            worlds = _valued(game, level, planner, positions, distinct, share, spent)
            return _Values(_means(worlds), groups, reveals, worlds,
                           exact and _all(worlds, positions), _open(game, positions, worlds))
        return _Values(dict.fromkeys(distinct, math.nan), groups, reveals, {}, exact)
    worlds = _valued(game, level, planner, positions, distinct, share, spent)
    return _Values(_means(worlds), groups, reveals, worlds, exact and _all(worlds, positions),
                   _open(game, positions, worlds))


def _all(worlds: dict[Move, list[float]], positions: list[State]) -> bool:
    """Were the moves valued on every world of ``positions`` (no budget cut them short)?"""
    return all(len(got) == len(positions) for got in worlds.values())


def _open(game: Game, positions: list[State],
          worlds: dict[Move, list[float]]) -> dict[Move, list[bool]]:
    """The Spider family after the last deal: the worlds each move leaves undecided by the
    solver (value.py: worth half the progress, strictly between 0 and a half, where a
    decided world is worth 0 or 1). With every card known nearly every Spider position is
    won, so a world the solver proves won after one move and leaves open after another
    mostly tells the solver's budget, not the move: a referee with eight times the positions
    undid such gaps (docs/review-log-2026-12-07.md). Elsewhere none is left open (Klondike
    counts an undecided world lost, as win_chance does; before the last deal the worth is
    the progress)."""
    if game.rules.has_waste or positions[0].stock:
        return {}
    return {move: [0.0 < w < 1.0 for w in got] for move, got in worlds.items()}


def _means(worlds: dict[Move, list[float]]) -> dict[Move, float]:
    return {move: sum(got) / len(got) for move, got in worlds.items()}


def _valued(game: Game, level: Effort, planner: Planner, positions: list[State],
            moves: list[Move], share: int | None = None,
            spent: list[int] | None = None) -> dict[Move, list[float]]:
    """Each move's worth in the worlds of ``positions`` (module docstring), in their order:
    every world, or with ``share`` the first rounds of them (ROUNDS), up to the round whose
    solves bring the positions searched to ``share``; ``spent[0]`` has those added."""
    rules = game.rules
    ahead = outlook(lambda state: planner.reach(state, level.reach), scale_for(game))
    if not rules.has_waste and positions[0].stock:
        return _spider_valued(game, level, planner, positions, moves, ahead)
    nodes = level.chance_nodes * REVIEW_NODES.get(game.variant.family, 1)
    here = [0]
    out: dict[Move, list[float]] = {move: [] for move in moves}
    size = max(1, math.ceil(len(positions) / ROUNDS.get(game.variant.family, 1)))
    for start in range(0, len(positions), size):
        worlds = positions[start:start + size]
        finals = [rules.apply(world, move) for move in moves for world in worlds]
        got = worths(game.variant, rules, finals, nodes, ahead, here)
        if level.race:
            # a review counts a Klondike world won only when the solver wins it, as
            # win_chance does: the worlds a small budget leaves open are mostly lost ones,
            # and a half for each made every move that decides nothing look as good as the
            # one that gets on (bot against random play: docs/review-log-2026-12-07.md)
            got = [(won, float(won)) for won, _ in got]
        n = len(worlds)
        for i, move in enumerate(moves):
            out[move].extend(w for _, w in got[i * n:(i + 1) * n])
        if share is not None and here[0] >= share:
            break
    if spent is not None:
        spent[0] += here[0]
    return out


def _spider_valued(game: Game, level: Effort, planner: Planner, positions: list[State],
                   moves: list[Move], ahead: Callable[[State], float]) -> dict[Move, list[float]]:
    """The Spider family before the last deal: a move that shows a card is worth the progress
    its worlds then reach (value.py); a move that shows nothing is worth the best plan that
    follows it (moves that show nothing, then a deal or a flip: plans.py, as the bot chooses,
    choose.py), or its own worth when no plan does. Progress is lowered by the cards a deal
    or a flip brings into play, so a move that shows nothing, worth the position it leaves,
    would look better than the deal or the flip that must come sooner or later; weighed with
    the best plan after it, it is on the same footing, and a move that sets up a flip some
    moves away is worth that flip (a deal or flip right after it undervalued such moves)."""
    rules = game.rules
    n = len(positions)
    out: dict[Move, list[float]] = {}
    for move in moves:
        afters = [rules.apply(world, move) for world in positions]
        if planner.reveals(positions[0], afters[0]):
            out[move] = [ahead(state) for state in afters]
            continue
        found, _, _ = planner.explore(afters[0], PLAN_POSITIONS, plans=False)
        if not found:
            out[move] = [ahead(state) for state in afters]
            continue
        # the plans' order by their worth in the first world, then the few best on all
        first = sorted(found, key=lambda plan: (-ahead(_after(rules, afters[0], plan)),
                                                len(plan.moves)))
        tried = [[ahead(_after(rules, state, plan)) for state in afters]
                 for plan in first[:PLAN_TRIES]]
        out[move] = max(tried, key=lambda got: sum(got) / n)
    return out


#: positions the plan search after a Spider move that shows nothing may look at, and the
#: plans (the best in the first world) valued on every world
PLAN_POSITIONS = 60
PLAN_TRIES = 3


def _after(rules: Rules, state: State, plan: Plan) -> State:
    """The position after ``plan``'s moves in the world ``state``."""
    for move in plan.moves:
        state = rules.apply(state, move)
    return state


def _final_value(game: Game, level: Effort, seed: int, share: int | None = None) -> float:
    """The best value of the last position: 1 won, 0 lost, else its best move's value."""
    if game.outcome == "won":
        return 1.0
    if game.outcome != "playing" or not game.legal_moves():
        return 0.0
    values = _values(game, level, seed, always=True, share=share)
    best = values.best
    return 0.0 if math.isnan(best) else best


def review(game: Game, effort: str | Effort = DEFAULT_EFFORT, seed: int = 0,
           progress: Progress | None = None, with_deal: bool | None = None) -> Review:
    """The review of ``game`` (module docstring). Deterministic for a game, effort and seed;
    budgets in positions (the effort's worlds and positions per world), never seconds.
    ``progress(done, total)`` is called after each position. ``with_deal`` adds the true
    deal's verdicts (post-mortem); by default only once the game is over (won or lost), as
    they read the hidden cards. Raises KabaleError on a bad seed or effort."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise KabaleError(f"bad seed {seed!r}: an integer 0..2**64-1")
    level = effort_for(game.variant, effort)
    if with_deal is None:
        with_deal = game.outcome != "playing"
    history = game.history
    total = len(history) + 1
    decisions: list[Decision] = []
    chosen: list[tuple[float, bool]] = []
    bests: list[float] = []
    position = prefix(game, 0)
    budget = REVIEW_BUDGET.get(game.variant.family, 1) * level.chance_nodes
    spent = [0]
    for i, move in enumerate(history):
        shown = bool(chosen) and chosen[-1][1]
        # the final position has its share too
        share = SHARE * max(0, budget - spent[0]) // (total - i)
        found = _values(position, level, decision_seed(seed, i) or 0, always=shown,
                        share=share, spent=spent)
        decisions.append(_decision(i, move, found))
        value = found.values[found.groups[move]]
        chosen.append((value, found.reveals[move]))
        bests.append(found.best)
        position.play(move)
        if progress is not None:
            progress(i + 1, total)
    end = _final_value(position, level, decision_seed(seed, len(history)) or 0,
                       max(0, budget - spent[0]))
    bests.append(end)
    if progress is not None:
        progress(total, total)
    luck = [Luck(i, value, bests[i + 1]) for i, (value, shows) in enumerate(chosen)
            if shows and not math.isnan(value) and not math.isnan(bests[i + 1])]
    drift = sum(bests[i + 1] - value for i, (value, shows) in enumerate(chosen)
                if not shows and not math.isnan(value) and not math.isnan(bests[i + 1]))
    graded = [d for d in decisions if d.grade != FORCED]
    accuracy = sum(move_accuracy(d.given_away) for d in graded) / len(graded) if graded \
        else 100.0
    counts = {name: sum(d.grade == name for d in decisions) for name in (*GRADES, FORCED)}
    found_postmortem = None
    if with_deal:
        decisions = _with_truth(game, decisions, level)
        found_postmortem = postmortem(game, level, seed, drops=False).to_dict()
    starts = [b for b in bests if not math.isnan(b)]
    # the deal id names every card: only with the true deal's part
    return Review(game.deal_id if with_deal and game.deal_known else None, game.outcome,
                  level.name, seed, decisions, luck, starts[0] if starts else 0.0, end,
                  accuracy, counts, sum(entry.luck for entry in luck),
                  sum(d.given_away for d in graded), drift, found_postmortem)


def grade_move(game: Game, move: Move | str, effort: str | Effort = DEFAULT_EFFORT,
               seed: int = 0) -> Decision:
    """The grade of playing ``move`` in ``game``'s position now, from what the player has
    seen (coach mode): the decision the review would record, with its better move. Raises
    KabaleError for a move that is not legal there or a game that is over."""
    if game.outcome != "playing":
        raise KabaleError("the game is over: there is no move to grade")
    level = effort_for(game.variant, effort)
    chosen = game.parse_move(move) if isinstance(move, str) else move
    legal = {m: m for m in game.legal_moves()}
    if chosen not in legal:
        raise KabaleError(f"{str(chosen)!r} is not a legal move here")
    found = _values(game, level, decision_seed(seed, game.moves_made) or 0)
    return _decision(game.moves_made, legal[chosen], found)


def _decision(index: int, move: Move, found: _Values) -> Decision:
    """The graded decision of ``move`` among ``found``'s values. A gap between two moves
    counts only beyond chance on their paired worlds (``beyond``): the decision is forced
    when no move is worth more than another so, and the chosen move is as good as the best
    (given away 0) when the best is not worth more than it so."""
    own = found.groups[move]
    values = found.values
    reveals = found.reveals[move]
    best = max(values, key=lambda m: values[m]) if values else own
    worst = min(values, key=lambda m: values[m]) if values else own
    if len(values) <= 1 or not _beyond(found, best, worst):
        # no values: a lone move's is worked out only for luck, so a decision reads the same
        # whatever came before it (coach mode grades a move alone)
        return Decision(index, str(move), str(move), None, None, 0.0, FORCED, len(values),
                        reveals)
    if values[own] >= values[best] - EPSILON or not _beyond(found, best, own):
        best = own
    gap = _gaps(found, best, own)
    given = max(0.0, sum(gap) / len(gap)) if gap else 0.0
    shown = move if best == own else best
    return Decision(index, str(move), str(shown), values[own], values[best], given,
                    grade(given), len(values), reveals)


def _beyond(found: _Values, better: Move, worse: Move) -> bool:
    """Is ``better`` worth more than ``worse`` beyond chance: the mean of their paired
    differences over the worlds more than Z standard errors (any gap when the worlds are
    every one there is, or the differences do not vary)?"""
    diffs = _gaps(found, better, worse)
    if not diffs:
        return False
    n = len(diffs)
    mean = sum(diffs) / n
    if mean <= EPSILON:
        return False
    if found.exact or n == 1:
        return True
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > Z * math.sqrt(var / n) + EPSILON


def _gaps(found: _Values, better: Move, worse: Move) -> list[float]:
    """``better``'s worth less ``worse``'s in each world, 0 in a world either leaves open
    (``_Values.open_worlds``); empty without worths."""
    a, b = found.worlds.get(better), found.worlds.get(worse)
    if not a or not b:
        return []
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    if found.open_worlds:
        shut = zip(found.open_worlds[better], found.open_worlds[worse], strict=True)
        diffs = [0.0 if x or y else d for d, (x, y) in zip(diffs, shut, strict=True)]
    return diffs


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _with_truth(game: Game, decisions: list[Decision], level: Effort) -> list[Decision]:
    """For each mistake or worse: the true deal's verdict after the best move and after the
    chosen one (the game is over: its cards may be read)."""
    out = []
    for d in decisions:
        if d.grade in ("mistake", "blunder"):
            before = prefix(game, d.index)
            states = [before.rules.apply(before.state, before.parse_move(text))
                      for text in (d.best, d.move)]
            verdicts = solve_states(game.variant, states, level.chance_nodes)
            d = Decision(d.index, d.move, d.best, d.chosen_value, d.best_value, d.given_away,
                         d.grade, d.choices, d.reveals, verdicts[0].status, verdicts[1].status)
        out.append(d)
    return out
