"""Games for the advisor's tests: deals played some way in, and twins that differ only in
cards the player has never seen."""

from __future__ import annotations

import random

from kabale import Game
from kabale.advisor import knowledge
from kabale.core.state import IN_STOCK, STOCK, Place

#: one variant of every kind the advisor must handle (options that change what is seen)
VARIANTS = ["klondike", "klondike:draw=3", "klondike:passes=1,back=false",
            "klondike:empty=any", "klondike:decks=2", "spider:suits=1", "spider:suits=2",
            "spider", "spiderette", "spiderette:suits=2,strict=false"]


def played(variant: str, seed: int, moves: int) -> Game:
    """Deal ``seed`` of ``variant`` after up to ``moves`` random legal moves (seeded), the
    stock action less often so that cards get turned on the table too."""
    game = Game.new(variant, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        others = [m for m in legal if not m.is_stock]
        game.play(rng.choice(others) if others and rng.random() < 0.8 else rng.choice(legal))
    return game


def deal_of(game: Game) -> list:
    """The deck, in deal order, that deals ``game``'s start."""
    places = game.rules.deal_places()
    start = game.initial_state
    return [start.stock[p.index] if p.column == IN_STOCK else start.columns[p.column][p.index]
            for p in places]


def twins(game: Game, limit: int = 6) -> list[Game]:
    """Games with ``game``'s history in which two cards the player has never seen (and that
    differ) trade places, up to ``limit`` of them, found from what ``knowledge`` says is
    unseen."""
    k = knowledge(game)
    index = {place: i for i, place in enumerate(game.rules.deal_places())}
    slots = [index[Place(IN_STOCK, i) if pile == STOCK else Place(int(pile) - 1, i)]
             for pile, i in k.unseen]
    deck = deal_of(game)
    out = []
    rng = random.Random(len(slots))
    pairs = [(a, b) for a in slots for b in slots if a < b and deck[a] != deck[b]]
    rng.shuffle(pairs)
    for a, b in pairs[:limit]:
        swapped = list(deck)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        twin = Game.from_deck(game.variant, swapped)
        for move in game.history:
            twin.play(move)
        out.append(twin)
    return out


def sights(game: Game) -> list[dict]:
    """The observation at every step of the game's history, without the deal's id and hash
    (which name the deal, not what is on the table)."""
    copy = Game.from_deck(game.variant, deal_of(game))
    out = []
    for move in [None, *game.history]:
        if move is not None:
            copy.play(move)
        obs = copy.observe()
        obs.pop("deal_id")
        obs.pop("deal_hash")
        out.append(obs)
    return out
