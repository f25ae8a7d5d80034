"""Write tests/data/perft.json: golden counts of legal move sequences from fixed deals.

``perft(game, d)`` is the number of distinct sequences of ``d`` legal moves from the deal
(every move the rules list, pointless ones too), counted through the public API only:
``Game.legal_moves``, ``Game.play`` and ``Game.undo``. tests/core/test_perft.py recounts them.
Run ``.venv/bin/python tests/data/make_perft.py`` after a deliberate rule change, check the
new numbers by hand for at least one deal, then commit the file.
"""

from __future__ import annotations

import json
from pathlib import Path

from kabale import Game
from kabale.core.deal import DEAL_FORMAT

#: (variant, seed) of every golden deal; one or more per family and option that changes moves.
DEALS: list[tuple[str, int]] = [
    ("klondike", 1),
    ("klondike:draw=3", 2),
    ("klondike:decks=2", 3),
    ("klondike:empty=any", 4),
    ("klondike:back=false,passes=1", 5),
    ("spider:suits=1", 4),
    ("spider:suits=2", 5),
    ("spider", 6),
    ("spiderette", 7),
    ("spiderette:suits=1", 8),
    ("spiderette:foundations=cards", 7),
    ("spider:foundations=cards,suits=2", 3),
]
DEPTH = 4
PATH = Path(__file__).with_name("perft.json")


def perft(game: Game, depth: int) -> int:
    """How many sequences of ``depth`` legal moves start in the game's current position."""
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves():
        game.play(move)
        total += perft(game, depth - 1)
        game.undo()
    return total


def golden() -> dict[str, object]:
    """The whole golden file as data."""
    deals = []
    for variant, seed in DEALS:
        game = Game.new(variant, seed)
        deals.append({"deal_id": game.deal_id,
                      "counts": [perft(game, depth) for depth in range(1, DEPTH + 1)]})
    return {"deal_format": DEAL_FORMAT, "depths": list(range(1, DEPTH + 1)), "deals": deals}


def main() -> None:
    """Write the golden file and print it."""
    data = golden()
    rows = ",\n".join("  " + json.dumps(deal) for deal in data["deals"])  # type: ignore[union-attr]
    text = (f'{{"deal_format": {data["deal_format"]}, "depths": {json.dumps(data["depths"])},\n'
            f' "deals": [\n{rows}\n ]}}\n')
    PATH.write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
