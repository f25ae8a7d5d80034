"""Choosing a move from what the player has seen: plans compared over sampled worlds.

Each plan (plans.py) is played out in sampled worlds and each world is then solved with
every card known within a small budget of positions: a plan's value is the worth of its
worlds (value.py; in Klondike won 1, lost 0, undecided a half). Klondike's plans are compared
in a race on common worlds: every plan still in it is tried on the same new worlds each
round, and a plan leaves when the leader is better on the worlds both were tried on beyond
chance (a paired test), or when the two are shown equal to within a small margin. So the
budget goes where plans are close, and each comparison is paired, not luck of the draw. The
Spider family's plans, whose worth is a progress score (value.py), are compared by
successive halving on common worlds: the worse half leaves each round. Ties go to the
seeds' tips.

The other scheme, "vote", solves each world from the position itself and lets every world it
wins vote for its winning line's first move: plain determinized voting, kept to measure
against (it suffers from strategy fusion: a line chosen knowing a world's hidden cards).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass

from ..core import Game, Move, State
from ..core.game import Rules
from ..solver.batch import solve_states
from .effort import Effort
from .knowledge import Knowledge, sight
from .plans import Plan, Planner, explicit_move
from .value import outlook
from .value import worths as worths_of
from .worlds import choice_positions, rng_for, sample_positions

SCHEMES = ("plans", "vote")

#: the race's worlds per round, and its test: a plan leaves when the leader's paired lead
#: is over Z standard errors, or when after EQUAL_AFTER worlds the two are within MARGIN
ROUND = 16
Z = 2.0
EQUAL_AFTER = 16
MARGIN = 0.02


@dataclass(frozen=True)
class Scored:
    """A plan with its record over sampled worlds: ``wins`` of ``trials`` worlds won, and
    ``value`` the worlds' summed worth (value.py)."""

    plan: Plan
    wins: int
    trials: int
    value: float = 0.0

    @property
    def chance(self) -> float:
        """The share of the worlds tried that the plan won (0 when none was tried)."""
        return self.wins / self.trials if self.trials else 0.0

    def order(self) -> tuple[int, float, int]:
        """Sort key, best first when sorted descending: worlds tried (a plan that stayed in
        the race longer beat the plans that left before it on the same worlds), then mean
        worth, then the tips."""
        mean = self.value / self.trials if self.trials else 0.0
        return (self.trials, mean, self.plan.tips)


@dataclass(frozen=True)
class Choice:
    """The plans of one position, best first; ``hopeless`` when nothing can show a card or
    win (the game cannot be won), ``exact`` when every card was known, and ``moves_on``
    when no plan found shows a card or wins (the plans only move on to positions not yet
    played, in the hope of one that does)."""

    ranked: list[Scored]
    hopeless: bool
    exact: bool
    moves_on: bool = False


def choose(game: Game, k: Knowledge, effort: Effort, seed: int | None,
           scheme: str = "plans", lines: bool = False) -> Choice:
    """Rank what the player of ``game`` (who knows ``k``) can do now (module docstring).
    Deterministic for a seed. With ``lines`` every plan gets worlds tried even when one
    plan is all there is (a hint wants its chance).

    The plans compared: those the search over moves that show nothing finds within
    ``effort.closure`` positions, and the plans that the winning lines of
    ``effort.proposals`` worlds solved from here start with (a plan the search's breadth
    missed). Only when none shows a card or wins are plans that just move on compared;
    when there are none of those either and the search saw everything, nothing can ever
    show a card or win: the choice is hopeless."""
    rules = game.rules
    rng = rng_for(seed)
    if k.complete:
        exact = _exact(game, k, effort)
        if exact is not None:
            return exact
    # Klondike's plans race on common worlds (all of them when few are possible); the Spider
    # family's keep successive halving, which their worth (value.py) was tuned with and which
    # wins more of their games than the race (docs/advisor.md): the effort's ``race``
    race = effort.race
    n = 1 if k.complete else effort.worlds
    positions = choice_positions(k, n, rng) if race else sample_positions(k, n, rng)
    planner = Planner(k, rules, positions[0])
    found, reached, cut = planner.plans(effort.closure)
    count = len(positions) if scheme == "vote" else min(effort.proposals, len(positions))
    if scheme == "plans" and not rules.has_waste and positions[0].stock:
        count = 0  # before Spider's last deal small solves hardly ever win (value.py)
    # the plans' worlds are not the proposals' own: a plan a world proposes wins that world
    proposing = sample_positions(k, count, rng) if race and scheme == "plans" \
        else positions
    solved = solve_states(game.variant, proposing[:count], effort.chance_nodes, lines=True)
    wins = [v.line for v in solved if v.status == "solved" and v.line]
    plans = found + [planner.plan_of(line) for line in wins]
    plans = _distinct(rules, planner, plans) if rules.columns_interchangeable \
        else list(dict.fromkeys(plans))
    moves_on = not plans
    if moves_on:
        # the nearest ones only (the search's order): each plan compared costs at least one
        # solve, and a position whose search was cut may reach thousands
        plans = reached[:max(2, effort.solves // 4)]
    if not plans:
        return Choice([], not cut, False)
    if scheme == "vote":
        votes = Counter(explicit_move(line[0]) for line in wins)
        ranked = [Scored(plan, votes[plan.first], count, votes[plan.first]) for plan in plans]
        ranked.sort(key=Scored.order, reverse=True)
    elif len(plans) == 1 and not lines:
        ranked = [Scored(plans[0], 0, 0)]
    else:
        ranked = (_race if race else _halving)(game, planner, plans, positions, effort)
    return Choice(ranked, False, False, moves_on)


def _distinct(rules: Rules, planner: Planner, plans: list[Plan]) -> list[Plan]:
    """One plan for each position the plans lead to, the one the tips like best (then the
    shortest), in their first order. Positions are told apart as the player sees them,
    showing the cards the plans show, in the planner's world: two plans that reach the same
    position there turn up the same places and leave every card in sight alike, so they
    reach the same position in every world and are worth the same."""
    best: dict[Hashable, Plan] = {}
    for plan in map(planner.earliest, plans):
        key = sight(_play_out(rules, planner.start, plan), planner.symmetric, planner.cycle)
        kept = best.get(key)
        if kept is None or (plan.tips, -len(plan.moves)) > (kept.tips, -len(kept.moves)):
            best[key] = plan
    return list(best.values())


def _exact(game: Game, k: Knowledge, effort: Effort) -> Choice | None:
    """Every card known: the solver's own line as the one plan (None if undecided)."""
    state = k.position(iter(()))
    (verdict,) = solve_states(game.variant, [state], effort.exact_nodes, lines=True)
    if verdict.status == "unknown":
        return None
    if verdict.status == "unsolvable":
        return Choice([], True, True)
    line = tuple(_legal(game.rules, state, verdict.line))
    return Choice([Scored(Plan(line, False), 1, 1, 1.0)], False, True)


def _legal(rules: Rules, state: State, line: tuple[str, ...]) -> list[Move]:
    """The kernel's line as legal moves with canonical text (it is checked: a move the rules
    do not list raises, as core's replay would)."""
    out = []
    for text in line:
        wanted = explicit_move(text)
        legal = {m: m for m in rules.legal_moves(state)}
        move = legal[wanted]
        out.append(move)
        state = rules.apply(state, move)
    return out


def _play_out(rules: Rules, state: State, plan: Plan) -> State:
    """The position after ``plan`` in the world ``state``; a run of Klondike presses goes
    in one step (stock_actions builds no position between them)."""
    moves = plan.moves
    i = 0
    while i < len(moves):
        j = i
        while j < len(moves) and moves[j].is_stock:
            j += 1
        if j - i > 1:
            after = rules.stock_actions(state, j - i)
            assert after is not None  # the plan was found legal in a world of the same sight
            state, i = after, j
        else:
            state = rules.apply(state, moves[i])
            i += 1
    return state


def _halving(game: Game, planner: Planner, plans: list[Plan], positions: list[State],
             effort: Effort) -> list[Scored]:
    """Successive halving of ``plans`` on common worlds within ``effort.solves`` solves:
    every plan still in it is tried on the same new worlds each round, and the worse half
    by summed worth leaves."""

    ahead = outlook(lambda state: planner.reach(state, effort.reach))
    rules = game.rules
    wins = [0] * len(plans)
    worth = [0.0] * len(plans)
    trials = [0] * len(plans)
    alive = list(range(len(plans)))
    rounds = max(1, math.ceil(math.log2(len(plans))))
    used = 0
    while used < len(positions) and (len(alive) > 1 or used == 0):
        batch = max(1, effort.solves // (rounds * len(alive)))
        batch = min(batch, len(positions) - used)
        worlds = positions[used:used + batch]
        used += batch
        finals = [_play_out(rules, world, plans[i]) for i in alive for world in worlds]
        values = worths_of(game.variant, rules, finals, effort.nodes, ahead)
        for n, i in enumerate(alive):
            for won, value in values[n * batch:(n + 1) * batch]:
                wins[i] += won
                worth[i] += value
            trials[i] += batch
        alive.sort(key=lambda i: (worth[i], plans[i].tips), reverse=True)
        alive = alive[:max(1, (len(alive) + 1) // 2)]
    scored = [Scored(plan, wins[i], trials[i], worth[i]) for i, plan in enumerate(plans)]
    return sorted(scored, key=Scored.order, reverse=True)


def _race(game: Game, planner: Planner, plans: list[Plan], positions: list[State],
          effort: Effort) -> list[Scored]:
    """The race of ``plans`` (module docstring) on the worlds ``positions``, in rounds of
    ROUND worlds, within ``effort.solves`` solves: every plan ranked, the leader first. When
    the plans still in it are too many for the budget left to give them two rounds, the
    worse half leaves first (successive halving)."""

    ahead = outlook(lambda state: planner.reach(state, effort.reach))
    rules = game.rules
    wins = [0] * len(plans)
    values: list[list[float]] = [[] for _ in plans]
    alive = list(range(len(plans)))
    used = solves = 0
    while used < len(positions) and solves < effort.solves and (len(alive) > 1 or used == 0):
        left = effort.solves - solves
        if len(alive) > 2 and len(alive) * ROUND * 2 > left and used:
            alive.sort(key=lambda i: (sum(values[i]), plans[i].tips), reverse=True)
            alive = alive[:(len(alive) + 1) // 2]
        batch = max(1, min(ROUND, left // len(alive), len(positions) - used))
        worlds = positions[used:used + batch]
        used += batch
        solves += batch * len(alive)
        finals = [_play_out(rules, world, plans[i]) for i in alive for world in worlds]
        got = worths_of(game.variant, rules, finals, effort.nodes, ahead)
        for n, i in enumerate(alive):
            for won, value in got[n * batch:(n + 1) * batch]:
                wins[i] += won
                values[i].append(value)
        lead = max(alive, key=lambda i: (sum(values[i]), plans[i].tips))
        alive = [i for i in alive if i == lead or not _settled(values[lead], values[i])]
    scored = [Scored(plan, wins[i], len(values[i]), sum(values[i])) for i, plan in enumerate(plans)]
    return sorted(scored, key=Scored.order, reverse=True)


def _settled(lead: list[float], other: list[float]) -> bool:
    """Has the race settled between the leader and another plan, from their worths on the
    same worlds: the leader better beyond chance (the mean of the paired differences over
    Z standard errors), or the two equal to within MARGIN (after EQUAL_AFTER worlds)?"""
    diffs = [a - b for a, b in zip(lead, other, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 1.0
    error = math.sqrt(var / n)
    return mean > Z * error or (n >= EQUAL_AFTER and abs(mean) + Z * error < MARGIN)
