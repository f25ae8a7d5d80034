"""Rule 6 of the Spider kernel: dead ends of the one-deck four-suit game (Spiderette).

A position the rule calls dead must be lost. The plain brute force of test_verdicts decides
each position over core's rules alone, with none of the kernel's reductions.
"""

from __future__ import annotations

import random

from test_verdicts import brute_force

from kabale import Game, State, parse_variant
from kabale.core.deal import fresh_deck
from kabale.solver import solve, spider
from kabale.solver._spider import SpiderKernel


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


def test_dead_positions_are_lost() -> None:
    """Over positions small enough for the brute force, every one called dead is lost, the
    solver (which prunes them) agrees with the brute force, and the rule has something to
    do: it calls several of the lost ones dead."""
    rng = random.Random(6)
    variant = parse_variant("spiderette")
    called = lost = decided = 0
    while decided < 40:
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
    strict, total, columns, down, stock, removed = spider.kernel_args(game)
    column = next(i for i, cards in enumerate(columns) if cards)
    columns[column].insert(0, columns[column][-1])  # a second copy, face down at the bottom
    down[column] += 1
    assert not SpiderKernel(strict, total, columns, down, stock, removed, 16).dead()
