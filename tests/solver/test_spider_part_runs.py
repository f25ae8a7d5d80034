"""Rule 1 of the Spider kernel (_spider.pyx): no move of part of a run is pruned."""

from __future__ import annotations

from test_verdicts import brute_force, wins

from kabale import Game, State, parse_variant
from kabale.core.cards import Card, Suit, parse_card
from kabale.core.spider import SpiderRules
from kabale.core.state import Move
from kabale.solver import solve


def test_the_spider_family_needs_moves_of_part_of_a_run() -> None:
    """Rule 1 of the Spider kernel: a move of part of a same-suit run is never pruned. In
    this Spiderette position (diamonds off) no win is reachable by moves of whole runs alone
    (under 300 positions), and the solver's win, replayed by core, takes part of a run: 7S 6S
    leave 9S 8S for the 8H, the 5C 4C follow onto the 6S, and the 9S 8S later go onto the TS."""
    columns = ["7C / 6H 9H KH 4H 8H 2H 9S 2S 3H", "/ QC AS 4C", "5S KC JC / JH 3C KS",
               "6C JS / 3S 6S", "5H / 4S 7H 9C 7S TC 8S", "AH QH 8C / 2C QS", "AC / TH TS 5C"]
    piles = [[parse_card(c) for c in text.replace("/", " ").split()] for text in columns]
    down = [len(text.partition("/")[0].split()) for text in columns]
    diamonds = tuple(Card(rank, Suit.DIAMONDS) for rank in range(13, 0, -1))
    state = State(tuple(map(tuple, piles)), tuple(down), (), (), (diamonds,))
    game = Game.from_position(parse_variant("spiderette"), state)
    rules = game.rules
    assert isinstance(rules, SpiderRules)

    def whole_runs(state: State, move: Move) -> bool:
        return move.source == "d" or move.count == rules.run_length(state, int(move.source) - 1)

    assert brute_force(game, 2_000, whole_runs) is False
    result = solve(game, max_seconds=None)
    assert result.status == "solved" and wins(game, result.moves)
    replay, parts = game.copy(), 0
    for text in result.moves:
        before = replay.state
        parts += not whole_runs(before, replay.play(text))
    assert parts > 0, result.moves
