"""The Spider family's beam search over phases, checked against the plain brute force.

The beam may answer "unsolvable" only when a round searched every phase whole and left no
position out; narrow or tiny rounds must never claim it. Each constructed position is tried
with a tiny budget, a narrow beam and a wide one, and every answer is held to the truth.
"""

from __future__ import annotations

import random

import pytest
from test_verdicts import brute_force, maker, spider_position, wins

from kabale import Game, State, parse_variant
from kabale.core.cards import Card, parse_card
from kabale.solver import spider
from kabale.solver._spider import SpiderPhases
from kabale.solver.status import PhaseCode

ROUNDS = [(3, 1), (40, 1), (200, 2), (1_000_000, 1_000_000)]
VARIANTS = ["spider:suits=4", "spider:suits=2", "spiderette", "spiderette:suits=1",
            "spiderette:strict=false", "spiderette:foundations=cards",
            "spider:foundations=cards,suits=2"]


def phases_for(game: Game) -> SpiderPhases:
    return SpiderPhases(*spider.kernel_args(game), 16, 16)


def wins_by(game: Game, ops: list[tuple[int, int, int, int]]) -> bool:
    return wins(game, spider.notation(ops))


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIANTS)
def test_beam_answers_match_brute_force(name: str) -> None:
    variant = parse_variant(name)
    rng = random.Random("beam " + name)
    wide_decides = cases = 0
    while cases < 4:
        game = Game.from_position(variant, maker(variant)(variant, rng))
        truth = brute_force(game)
        if truth is None:
            continue
        cases += 1
        phases = phases_for(game)
        for round_, (budget, width) in enumerate(ROUNDS):
            # every weight set only orders the search: none may change a verdict
            spider.weigh(phases, spider.WEIGHTS[(cases + round_) % len(spider.WEIGHTS)])
            status, ops = spider.beam(phases, budget, width, 0.0, 0)
            if status == PhaseCode.SOLVED:
                assert truth and wins_by(game, ops), (name, game.state)
            elif status == PhaseCode.UNSOLVABLE:
                assert not truth, (name, budget, width, game.state)
            else:
                assert status == PhaseCode.NO_WIN
        wide_decides += status in (PhaseCode.SOLVED, PhaseCode.UNSOLVABLE)
    assert wide_decides == cases  # a whole search of these small positions decides them


def test_a_round_cut_short_does_not_claim_unsolvable() -> None:
    # a lost position that the wide round proves lost while the tiny round, which cannot
    # search it whole, only fails: the proof really depends on the search being whole
    variant = parse_variant("spiderette")
    rng = random.Random("cut short")
    for _ in range(40):
        game = Game.from_position(variant, spider_position(variant, rng))
        if brute_force(game) is not False:
            continue
        phases = phases_for(game)
        tiny, _ = spider.beam(phases, *ROUNDS[0], 0.0, 0)
        wide, _ = spider.beam(phases, *ROUNDS[-1], 0.0, 0)
        if (tiny, wide) == (PhaseCode.NO_WIN, PhaseCode.UNSOLVABLE):
            return
    raise AssertionError("no lost position needed more than the tiny round to be proven")


def test_a_beam_too_narrow_does_not_claim_unsolvable() -> None:
    # a lost Spiderette position whose first phase offers three positions to deal on (2H
    # stays, goes on 3S, or on 3H): a beam of width 1 leaves two out, so it may only say
    # it failed, though the position is lost and a wide beam proves it
    variant = parse_variant("spiderette")
    columns = [("QH", "KS"), ("QS", "KH"), ("JH JS TS", "2H"), ("9H 9S", "3S"),
               ("2S 8H 8S", "TH"), ("AH 7H 7S 6H", "5S"), ("6S 5H 4H 4S", "3H")]
    state = State(tuple(cards(down + " " + up) for down, up in columns),
                  tuple(len(down.split()) for down, _ in columns), cards("AS"), (),
                  (cards("KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC"),
                   cards("KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD")))
    game = Game.from_position(variant, state)
    assert brute_force(game) is False
    phases = phases_for(game)
    # rule 6 proves the position lost at once, whatever the width
    assert spider.beam(phases, 1_000_000, 1, 0.0, 0) == (PhaseCode.UNSOLVABLE, None)
    phases.dead_ends = False  # to see the beam's own bookkeeping
    phases.new_round()
    _, offered = phases.search(phases.start(), False, 1_000_000, 1_000_000, 0, 0.0)
    assert phases.exhaustive and len(offered) == 3
    assert spider.beam(phases, 1_000_000, 1, 0.0, 0) == (PhaseCode.NO_WIN, None)
    assert spider.beam(phases, 1_000_000, 1_000_000, 0.0, 0) == (PhaseCode.UNSOLVABLE, None)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(word) for word in text.split())


def test_beam_respects_the_node_limit() -> None:
    game = Game.new("spider:suits=4", seed=3)
    phases = phases_for(game)
    status, ops = spider.beam(phases, 100_000, 4, 0.0, 500)
    assert (status, ops) == (PhaseCode.STOPPED, None)
    assert phases.nodes <= 500
