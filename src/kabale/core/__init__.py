"""The rules room: cards, variants, deals, the rules of each family, Game. Standard library only."""

from .cards import Card, Suit
from .errors import IllegalMoveError, InvalidDealError, InvalidSaveError, KabaleError, NotationError
from .game import Game
from .state import Move, State
from .variants import Variant, parse_variant

__all__ = [
    "Card", "Game", "IllegalMoveError", "InvalidDealError", "InvalidSaveError", "KabaleError",
    "Move", "NotationError", "State", "Suit", "Variant", "parse_variant",
]
