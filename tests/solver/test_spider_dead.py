"""Rule 6 of the Spider kernel: dead ends of the one-deck four-suit game (Spiderette).

A position the rule calls dead must be lost. The plain brute force of test_verdicts decides
each position over core's rules alone, with none of the kernel's reductions.
"""

from __future__ import annotations

import random

import pytest
from test_verdicts import brute_force

from kabale import Game, State, parse_variant
from kabale.core.deal import fresh_deck
from kabale.solver import solve, spider
from kabale.solver._spider import SpiderKernel, SpiderPhases


def spiderette_position(rng: random.Random) -> State:
    """One to three suits off, the others over the seven columns (mostly face down) and a
    stock of at most three cards, as before Spiderette's last deal or after it."""
    variant = parse_variant("spiderette")
    deck = fresh_deck(variant)
    suits = rng.sample(range(4), 4)
    off = rng.choice([1, 2, 3])
    foundations = tuple(
        tuple(sorted((c for c in deck if c.suit == suit), key=lambda c: -c.rank))
        for suit in suits[:off])
    left = [c for c in deck if c.suit in suits[off:]]
    rng.shuffle(left)
    n_stock = rng.choice([0, 0, 3])
    stock, rest = left[:n_stock], left[n_stock:]
    columns: list[list] = [[] for _ in range(7)]
    for card in rest:
        columns[rng.randrange(7)].append(card)
    down = [max(len(c) - rng.randint(1, 2), 0) for c in columns]
    return State(tuple(map(tuple, columns)), tuple(down), tuple(stock), (), foundations)


def dead(game: Game) -> bool:
    return bool(SpiderKernel(*spider.kernel_args(game), 16).dead())


@pytest.mark.slow
def test_dead_positions_are_lost() -> None:
    """Over positions small enough for the brute force, every one called dead is lost, the
    solver (which prunes them) agrees with the brute force, and the rule has something to
    do: it calls several of the lost ones dead."""
    rng = random.Random(6)
    variant = parse_variant("spiderette")
    called = lost = decided = 0
    while decided < 30:
        game = Game.from_position(variant, spiderette_position(rng))
        truth = brute_force(game, 6_000)
        if truth is None:
            continue
        decided += 1
        if dead(game):
            assert truth is False, game.state
            called += 1
        lost += truth is False
        assert solve(game, max_seconds=None).status == ("solved" if truth else "unsolvable")
    assert 5 <= called <= lost


def test_dead_ends_only_where_every_card_is_unique() -> None:
    """With two decks (Spider) or repeated suits (Spiderette with one or two suits) card
    codes repeat, and the rule never answers: not even for a position it calls dead once
    one of its cards is doubled."""
    for name in ("spider", "spiderette:suits=1", "spiderette:suits=2"):
        for seed in range(3):
            assert not dead(Game.new(name, seed))
    rng = random.Random(7)
    variant = parse_variant("spiderette")
    game = Game.from_position(variant, spiderette_position(rng))
    while not dead(game):
        game = Game.from_position(variant, spiderette_position(rng))
    strict, total, columns, down, stock, removed, found = spider.kernel_args(game)
    column = next(i for i, cards in enumerate(columns) if cards)
    columns[column].insert(0, columns[column][-1])  # a second copy, face down at the bottom
    down[column] += 1
    assert not SpiderKernel(strict, total, columns, down, stock, removed, found, 16).dead()


def dealt(packed: bytes, stock: list[int]) -> tuple[list[list[int]], list[int], list[int]]:
    """Columns, face-down counts and stock of a packed Spiderette position (SpiderPhases'
    layout) after its next deal."""
    n = 7
    lengths, down, size = packed[:n], list(packed[n:2 * n]), packed[2 * n]
    columns, at = [], 2 * n + 2
    for length in lengths:
        columns.append(list(packed[at:at + length]))
        at += length
    for i in range(min(n, size)):
        columns[i].append(stock[size - 1 - i])
    return columns, down, stock[:max(size - n, 0)]


def test_the_beam_passes_on_no_position_whose_deal_is_a_dead_end() -> None:
    """Positions to deal on before Spiderette's last deal: with rule 6 the phase search
    offers exactly those of its offers without the rule whose deal is not a dead end, and
    over a few positions it leaves some out."""
    rng = random.Random(8)
    variant = parse_variant("spiderette")
    left_out = 0
    for _ in range(12):
        state = spiderette_position(rng)
        while len(state.stock) != 3:
            state = spiderette_position(rng)
        args = spider.kernel_args(Game.from_position(variant, state))
        offers = {}
        for rule in (True, False):
            phases = SpiderPhases(*args, 16, 16)
            phases.dead_ends = rule
            status, found = phases.search(phases.start(), False, 100_000, 100_000, 0, 0.0)
            assert status == 0
            offers[rule] = {packed for _, _, packed, _ in found}
        for packed in offers[False]:
            columns, down, stock = dealt(packed, args[4])
            lost = SpiderKernel(args[0], 52, columns, down, stock, args[5], None, 16).dead()
            assert (packed in offers[True]) == (not lost)
            left_out += lost
    assert left_out > 0
