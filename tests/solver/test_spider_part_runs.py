"""Moves of part of a run in the Spider family.

Rule 1 of the Spider kernel (_spider.pyx): no such move is pruned, as a position below needs
one. The searches that move whole runs only (``whole_runs``) are searches for wins: a line
they find is legal and wins, and their failing proves nothing.
"""

from __future__ import annotations

from test_verdicts import brute_force, wins

from kabale import Game, State, parse_variant
from kabale.core.cards import Card, Suit, parse_card
from kabale.core.spider import SpiderRules
from kabale.core.state import Move
from kabale.solver import solve, spider
from kabale.solver._spider import SpiderKernel, SpiderPhases
from kabale.solver.status import PhaseCode

# a Spiderette position (diamonds off), columns as "DOWN / UP"
NEEDS_A_PART = ["7C / 6H 9H KH 4H 8H 2H 9S 2S 3H", "/ QC AS 4C", "5S KC JC / JH 3C KS",
                "6C JS / 3S 6S", "5H / 4S 7H 9C 7S TC 8S", "AH QH 8C / 2C QS", "AC / TH TS 5C"]


def needs_a_part() -> Game:
    piles = [[parse_card(c) for c in text.replace("/", " ").split()] for text in NEEDS_A_PART]
    down = [len(text.partition("/")[0].split()) for text in NEEDS_A_PART]
    diamonds = tuple(Card(rank, Suit.DIAMONDS) for rank in range(13, 0, -1))
    state = State(tuple(map(tuple, piles)), tuple(down), (), (), (diamonds,))
    return Game.from_position(parse_variant("spiderette"), state)


def whole_run(game: Game, state: State, move: Move) -> bool:
    """Whether ``move`` takes the whole run on top of its column (a deal counts as one)."""
    rules = game.rules
    assert isinstance(rules, SpiderRules)
    return move.source == "d" or move.count == rules.run_length(state, int(move.source) - 1)


def parts_taken(game: Game, moves: list[str]) -> int:
    """How many of ``moves``, played through core from ``game``, take part of a run."""
    replay, parts = game.copy(), 0
    for text in moves:
        before = replay.state
        parts += not whole_run(game, before, replay.play(text))
    return parts


def test_the_spider_family_needs_moves_of_part_of_a_run() -> None:
    """In NEEDS_A_PART no win is reachable by moves of whole runs alone (under 300
    positions), and the solver's win, replayed by core, takes part of a run: 7S 6S leave 9S
    8S for the 8H, the 5C 4C follow onto the 6S, and the 9S 8S later go onto the TS."""
    game = needs_a_part()
    assert brute_force(game, 2_000, lambda s, m: whole_run(game, s, m)) is False
    result = solve(game, max_seconds=None)
    assert result.status == "solved" and wins(game, result.moves)
    assert parts_taken(game, result.moves) > 0, result.moves


def test_the_whole_runs_searches_find_no_win_where_none_moves_whole_runs() -> None:
    """On NEEDS_A_PART both whole-runs searches end without a win (the beam having searched
    that space whole, which proves nothing about the real game), while the full beam wins."""
    game = needs_a_part()
    args = spider.kernel_args(game)
    assert spider.whole_runs_win(SpiderKernel(*args, 16), 0, 0) is None
    phases = SpiderPhases(*args, 16, 32)
    rounds = spider.BEAM_ROUNDS["spiderette"]
    assert spider.phase_rounds(phases, rounds, 0, 0, whole_runs=True) == (PhaseCode.STOPPED, None)
    assert spider.phase_rounds(phases, rounds, 0, 0)[0] == PhaseCode.SOLVED


def test_a_whole_runs_win_is_a_real_win_of_whole_runs() -> None:
    """Spiderette deal 94 (unknown at 10 s before these searches) is won by the
    depth-first search of whole runs: every move of its line takes a whole run, and core
    plays the line to a win."""
    game = Game.new("spiderette", 94)
    ops = spider.whole_runs_win(SpiderKernel(*spider.kernel_args(game), 256), 0, 5_000_000)
    assert ops is not None
    line = spider.notation(ops)
    assert wins(game, line) and parts_taken(game, line) == 0


def test_a_whole_runs_beam_never_calls_a_deal_lost() -> None:
    """Deal 160 is lost (test_verdicts checks it without the kernel). The full beam proves
    it; the beam of whole runs searches its space whole too but must not say "unsolvable"."""
    args = spider.kernel_args(Game.new("spiderette", 160))
    rounds = spider.BEAM_ROUNDS["spiderette"]
    phases = SpiderPhases(*args, 16, 32)
    assert spider.phase_rounds(phases, rounds, 0, 0, whole_runs=True) == (PhaseCode.STOPPED, None)
    assert spider.phase_rounds(phases, rounds, 0, 0)[0] == PhaseCode.UNSOLVABLE
