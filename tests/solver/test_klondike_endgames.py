"""Klondike endgames built by hand, each a puzzle for one of the kernel's rules (rules.md,
solver.md): the solver's verdict must be the brute force's, and a win it claims must replay
through core."""

from __future__ import annotations

import pytest
from brute import LIMIT, brute_force, key, wins

from kabale import Game, State, parse_variant
from kabale.core.cards import Card, parse_card
from kabale.core.deal import fresh_deck
from kabale.solver import solve


def endgame(tops: str, columns: list[str], stock: str = "", waste: str = "") -> State:
    """A one-deck position: foundation tops ("5S 5H 6D 2C", suits S H D C), columns as
    "DOWN|UP" card lists ("3C|6C"), stock and waste bottom first. Every other card lies face
    down in one more column, the lowest on top (face up), so it goes up card by card once
    the puzzle in front of it is solved."""
    piles = []
    placed: set[Card] = set()
    for text in tops.split():
        top = parse_card(text)
        piles.append(tuple(Card(rank, top.suit) for rank in range(1, top.rank + 1)))
        placed.update(piles[-1])
    cols: list[tuple[Card, ...]] = []
    down: list[int] = []
    for text in columns:
        low, _, up = text.partition("|")
        cards = [parse_card(c) for c in low.split()] + [parse_card(c) for c in up.split()]
        cols.append(tuple(cards))
        down.append(len(low.split()))
        placed.update(cards)
    talon = [[parse_card(c) for c in part.split()] for part in (stock, waste)]
    placed.update(talon[0] + talon[1])
    rest = sorted((c for c in fresh_deck(parse_variant("klondike")) if c not in placed),
                  key=lambda c: (-c.rank, -c.suit))
    cols.append(tuple(rest))
    down.append(len(rest) - 1)
    while len(cols) < 7:
        cols.append(())
        down.append(0)
    return State(tuple(cols), tuple(down), tuple(talon[0]), tuple(talon[1]), tuple(piles))


def f2t_brute_force(game: Game, most: int) -> bool | None:
    """brute_force with at most ``most`` foundation-to-tableau moves on the way."""
    rules = game.rules
    todo = [(game.state, 0)]
    seen = {(key(game.state, False, True), 0)}
    while todo:
        state, used = todo.pop()
        for move in rules.legal_moves(state):
            spent = used + move.source.startswith("f")
            if spent > most:
                continue
            after = rules.apply(state, move)
            if rules.is_won(after):
                return True
            k = (key(after, False, True), spent)
            if k not in seen:
                if len(seen) >= 20 * LIMIT:
                    return None
                seen.add(k)
                todo.append((after, spent))
    return False


# Kernel rule 9 (a foundation-to-tableau move only right before a card lands on the card it
# brought down, or chained with another one): positions won only through such moves.
F2T_POSITIONS = {
    # 5H down onto 6C, 4C onto it (turns 7H), then the pile 6C 5H 4C onto 7H (turns 3C):
    # the card brought down must move inside a pile afterwards
    "pile": ("5S 5H 6D 2C", ["3C|6C", "7H|4C"], 1),
    # 6H down onto 7C, 5S down onto 6H, then 4D onto 5S (turns 3D): two chained moves
    "chain": ("5S 6H 2D 5C", ["|7C", "3D|4D"], 2),
}


@pytest.mark.parametrize("name", ["klondike:open=true", "klondike:draw=3,open=true"])
@pytest.mark.parametrize("case", sorted(F2T_POSITIONS))
def test_f2t_positions(name: str, case: str) -> None:
    tops, columns, needed = F2T_POSITIONS[case]
    state = endgame(tops, columns)
    game = Game.from_position(name, state)
    assert f2t_brute_force(game, needed) is True
    assert f2t_brute_force(game, needed - 1) is False
    result = solve(game, max_seconds=None)
    assert result.status == "solved", (name, case)
    assert wins(game, result.moves)
    assert sum(m.startswith("f") for m in result.moves) >= needed


# Rules 9 and 13 together: 6C from the talon onto 7H, 5H down onto it, 6D from the talon
# onto 7S, 5S down onto it, 4H down onto 5S, and 3C onto 4H turns 4D (the rest follows). The
# two chains must interleave: right after a card is brought down, a talon play of a card of
# its rank is needed (the kernel called this position lost in draw 1 before rule 9 counted
# such moves as triggers).
INTERLEAVED = ("5S 5H 3D AC", ["6S 6H 5D 5C 4C 2C 4D|3C", "|7S", "|7H"], "6C 6D")


@pytest.mark.parametrize("name", ["klondike:open=true", "klondike:draw=3,open=true",
                                  "klondike:open=true,passes=3"])
def test_interleaved_chains(name: str) -> None:
    tops, columns, stock = INTERLEAVED
    game = Game.from_position(name, endgame(tops, columns, stock))
    assert brute_force(game) is True
    assert f2t_brute_force(game, 2) is False  # 5H, 5S and 4H all come down
    result = solve(game, max_seconds=None)
    assert result.status == "solved", name
    assert wins(game, result.moves)


# Rule 13 in draw 1 with unlimited passes (a waste card goes to the tableau only right before
# a card lands on it): 6H from the talon onto 7C, 5S (talon, or foundation with back=true)
# onto 6H, then 4D onto 5S turns 3D. With back=false both talon plays are needed in a row.
WASTE_POSITIONS = [("4S 4H 2D 4C", ["|7C", "3D|4D"], "6H 5S"),
                   ("4S 4H 2D 4C", ["|7C", "3D|4D"], "5S 6H"),
                   ("4S 5H 2D 4C", ["|7C", "3D|4D"], "6H 5S")]


@pytest.mark.parametrize("name", ["klondike:open=true", "klondike:open=true,back=false",
                                  "klondike:draw=3,open=true,back=false"])
@pytest.mark.parametrize("case", range(len(WASTE_POSITIONS)))
def test_waste_chain_positions(name: str, case: int) -> None:
    tops, columns, stock = WASTE_POSITIONS[case]
    game = Game.from_position(name, endgame(tops, columns, stock))
    truth = brute_force(game)
    assert truth is not None
    result = solve(game, max_seconds=None)
    assert result.status == ("solved" if truth else "unsolvable"), (name, case)


# Kernel rule 11 (cards that can never leave their columns): 8S lies on both red 9s and on
# 2S, so 2S never goes up; the near misses are won (8S has a red 9 to go to, a King goes
# to an empty column, 8S can go up, empty=any takes any card).
BURIED = [("klondike:open=true", "AS AH AD AC", ["2S 9H 9D|8S"]),
          ("klondike:draw=3,open=true", "AS AH AD AC", ["9H 2S 9D 8S|QC"]),
          ("klondike:open=true", "AS AH AD AC", ["9H 2S|8S", "9D 2C|8C"]),  # each holds the other
          ("klondike:open=true", "AS AH AD AC", ["9H 2S|8S", "|9D"]),
          ("klondike:draw=3,open=true", "AS AH AD AC", ["2S QD|KS"]),
          ("klondike:open=true", "7S AH AD AC", ["9H 9D|8S"]),  # no lower spade below 8S
          ("klondike:empty=any,open=true", "AS AH AD AC", ["2S 9H 9D|8S"])]


@pytest.mark.parametrize("case", range(len(BURIED)))
def test_buried_card_verdicts(case: int) -> None:
    name, tops, columns = BURIED[case]
    game = Game.from_position(name, endgame(tops, columns))
    truth = brute_force(game)
    assert truth is not None
    assert solve(game, max_seconds=None).status == ("solved" if truth else "unsolvable")
