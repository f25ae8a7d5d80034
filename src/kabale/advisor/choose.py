"""Choosing a move from what the player has seen: plans compared over sampled worlds.

Each plan (plans.py) is played out in sampled worlds and each world is then solved with
every card known within a small budget of positions: a plan's value is the share of worlds
it wins ("unknown" counts as not won, as lonelybot counts it). Plans are compared by
successive halving on common worlds: every plan still in the race is tried on the same new
worlds each round, and the worse half leaves, so the budget goes to the leaders and each
comparison is paired (same worlds), not luck of the draw. Ties go to the seeds' tips.

The other scheme, "vote", solves each world from the position itself and lets every world it
wins vote for its winning line's first move: plain determinized voting, kept to measure
against (it suffers from strategy fusion: a line chosen knowing a world's hidden cards).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from ..core import Game, Move, State
from ..core.game import Rules
from ..core.klondike import KlondikeRules
from ..solver.batch import solve_states
from .effort import Effort
from .knowledge import Knowledge
from .plans import Plan, Planner, explicit_move
from .value import worths as worths_of
from .worlds import rng_for, sample_positions

SCHEMES = ("plans", "vote")


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
    positions = sample_positions(k, 1 if k.complete else effort.worlds, rng)
    planner = Planner(k, rules, positions[0])
    found, reached, cut = planner.plans(effort.closure)
    count = len(positions) if scheme == "vote" else min(effort.proposals, len(positions))
    if scheme == "plans" and not planner.symmetric and positions[0].stock:
        count = 0  # before Spider's last deal small solves hardly ever win (value.py)
    solved = solve_states(game.variant, positions[:count], effort.chance_nodes, lines=True)
    wins = [v.line for v in solved if v.status == "solved" and v.line]
    plans = _distinct(found + [planner.plan_of(line) for line in wins])
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
        ranked = _halving(game, planner, plans, positions, effort)
    return Choice(ranked, False, False, moves_on)


def _distinct(plans: list[Plan]) -> list[Plan]:
    """The plans without repeats, in their first order."""
    return list(dict.fromkeys(plans))


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
        if j - i > 1 and isinstance(rules, KlondikeRules):
            after = rules.stock_actions(state, j - i)
            assert after is not None  # the plan was found legal in a world of the same sight
            state, i = after, j
        else:
            state = rules.apply(state, moves[i])
            i += 1
    return state


def _halving(game: Game, planner: Planner, plans: list[Plan], positions: list[State],
             effort: Effort) -> list[Scored]:
    """Successive halving of ``plans`` on common worlds within ``effort.solves`` solves."""

    def reach(state: State) -> list[State]:
        return planner.reach(state, effort.reach)

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
        values = worths_of(game.variant, rules, finals, effort.nodes, reach)
        for n, i in enumerate(alive):
            for won, value in values[n * batch:(n + 1) * batch]:
                wins[i] += won
                worth[i] += value
            trials[i] += batch
        alive.sort(key=lambda i: (worth[i], plans[i].tips), reverse=True)
        alive = alive[:max(1, (len(alive) + 1) // 2)]
    scored = [Scored(plan, wins[i], trials[i], worth[i]) for i, plan in enumerate(plans)]
    return sorted(scored, key=Scored.order, reverse=True)
