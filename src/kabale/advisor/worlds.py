"""Worlds: the unseen cards re-dealt uniformly at random, consistent with all that was seen.

Under a uniformly shuffled deck, every arrangement of the unseen cards over the unseen places
is equally likely given what the player saw (the observations are the same for each, and so
are the legal moves, which depend only on face-up cards); with duplicate cards (Spider, Double
Klondike) each distinct arrangement stands for equally many orders of the physical cards. So a
uniform shuffle of the unseen multiset over the unseen places samples the exact posterior.
Shuffles use core's PCG32 (a stream of the advisor's own): the same seed gives the same
worlds on every machine and Python.
"""

from __future__ import annotations

import math
import secrets
from collections import Counter
from collections.abc import Sequence
from itertools import permutations

from ..core import Card, Game, KabaleError, State
from ..core.deal import Pcg32
from ..core.state import IN_STOCK, STOCK, Place
from .knowledge import Knowledge, knowledge

#: the advisor's PCG32 stream ("worlds" in ASCII), apart from the dealer's
STREAM = 0x776F726C6473


def rng_for(seed: int | None) -> Pcg32:
    """The generator of a seed (a fresh random one for None)."""
    if seed is None:
        seed = secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise KabaleError(f"bad seed {seed!r}: an integer 0..2**64-1 or None")
    return Pcg32(seed, STREAM)


def shuffled(cards: Sequence[Card], rng: Pcg32) -> list[Card]:
    """A uniformly shuffled copy of ``cards`` (Fisher-Yates from the last position down)."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = rng.bounded(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def sample_positions(k: Knowledge, n: int, rng: Pcg32) -> list[State]:
    """``n`` positions drawn from the posterior: the current table of each world."""
    return [k.position(iter(shuffled(k.unseen_cards, rng))) for _ in range(n)]


def every_position(k: Knowledge, limit: int) -> list[State] | None:
    """Every position the knowledge allows (each distinct arrangement of the unseen cards
    over the unseen places, all equally likely: module docstring), in a fixed order, when
    there are at most ``limit`` of them; else None."""
    counts = Counter(k.unseen_cards)
    arrangements = math.factorial(len(k.unseen_cards))
    for count in counts.values():
        arrangements //= math.factorial(count)
    if arrangements > limit:
        return None
    orders = sorted(set(permutations(k.unseen_cards)), key=lambda cards: [
        (card.suit, card.rank) for card in cards])
    return [k.position(iter(order)) for order in orders]


def choice_positions(k: Knowledge, n: int, rng: Pcg32) -> list[State]:
    """The worlds a choice compares its plans on: every position the knowledge allows when
    they are no more than ``n`` (a late Klondike game: the comparison is then exact), else
    ``n`` drawn from the posterior."""
    return every_position(k, n) or sample_positions(k, n, rng)


def worlds(game: Game, n: int = 32, seed: int | None = None) -> list[Game]:
    """``n`` games with ``game``'s history whose unseen cards are re-dealt at random (module
    docstring): each replays the whole history through the checked path, showing the player
    the same cards at every step. World i is the position ``sample_positions`` draws i-th for
    the same seed."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise KabaleError(f"bad number of worlds {n!r}: a positive integer")
    k = knowledge(game)
    rng = rng_for(seed)
    index = {place: i for i, place in enumerate(game.rules.deal_places())}
    slots = [index[Place(IN_STOCK, i) if pile == STOCK else Place(int(pile) - 1, i)]
             for pile, i in k.unseen]  # an unseen card still lies where it was dealt
    out = []
    for _ in range(n):
        deal = list(k.deal)
        for slot, card in zip(slots, shuffled(k.unseen_cards, rng), strict=True):
            deal[slot] = card
        world = Game.from_deck(game.variant, [card for card in deal if card is not None])
        for move in game.history:
            world.play(move)
        out.append(world)
    return out
