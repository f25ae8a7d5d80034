"""Saving and loading games as versioned JSON; checking hand-made positions.

A save holds the deal (its id, or the whole starting position for a hand-made one), the moves
played and the redo stack, as notation, and a check block (moves made, score, outcome and a
digest of the final state). Loading replays every move through the rules and compares the
check block, so a truncated, tampered or inconsistent file is refused with InvalidSaveError
and nothing is half-loaded.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from .cards import Card
from .deal import DEAL_FORMAT, fresh_deck
from .errors import InvalidDealError, InvalidSaveError, KabaleError
from .state import State
from .variants import Variant, parse_variant

if TYPE_CHECKING:
    from .game import Game, Rules

SAVE_FORMAT = "kabale-game"
SAVE_VERSION = 1


def state_to_dict(state: State) -> dict[str, Any]:
    """A State as JSON-safe data (every card shown: this is not an observation)."""
    return {
        "columns": [[str(c) for c in pile] for pile in state.columns],
        "down": list(state.down),
        "stock": [str(c) for c in state.stock],
        "waste": [str(c) for c in state.waste],
        "foundations": [[str(c) for c in pile] for pile in state.foundations],
        "passes_used": state.passes_used,
        "score": state.score,
    }


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise InvalidDealError(f"{where} must be a list of card codes like 'TH'")
    return tuple(Card.parse(c) for c in value)


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidDealError(f"{where} must be an integer, not {value!r}")
    return value


def state_from_dict(data: Any) -> State:
    """Rebuild a State from :func:`state_to_dict` data; raises InvalidDealError if malformed."""
    if not isinstance(data, dict):
        raise InvalidDealError("a position must be an object with columns, down, stock, ...")
    try:
        columns, down, founds = data["columns"], data["down"], data["foundations"]
        if not isinstance(columns, list) or not isinstance(down, list) or not isinstance(
                founds, list):
            raise InvalidDealError("columns, down and foundations must be lists")
        return State(
            columns=tuple(_cards(p, f"column {i + 1}") for i, p in enumerate(columns)),
            down=tuple(_int(d, "down") for d in down),
            stock=_cards(data["stock"], "stock"),
            waste=_cards(data.get("waste", []), "waste"),
            foundations=tuple(_cards(p, f"foundation {i + 1}") for i, p in enumerate(founds)),
            passes_used=_int(data.get("passes_used", 0), "passes_used"),
            score=_int(data.get("score", 0), "score"),
        )
    except KeyError as missing:
        raise InvalidDealError(f"a position needs the field {missing}") from None


def check_state(variant: Variant, rules: Rules, state: State) -> None:
    """Raise InvalidDealError unless ``state`` is a well-formed position of the variant: the
    right number of piles, the variant's exact cards, sane face-down counts."""
    n = rules.n_columns
    if len(state.columns) != n or len(state.down) != n:
        raise InvalidDealError(f"{variant} has {n} columns, the position has {len(state.columns)}")
    for i, (pile, down) in enumerate(zip(state.columns, state.down, strict=True)):
        if not 0 <= down <= max(len(pile) - 1, 0):
            raise InvalidDealError(f"column {i + 1}: {down} face-down cards under "
                                   f"{len(pile)} cards (the top card is always face up)")
    if variant.family == "klondike":
        if len(state.foundations) != 4 * int(variant["decks"]):
            raise InvalidDealError(f"{variant} has {4 * int(variant['decks'])} foundations")
        for index, pile in enumerate(state.foundations):
            for rank, card in enumerate(pile, start=1):
                if card.rank != rank or card.suit != index % 4:
                    raise InvalidDealError(f"foundation f{index + 1} must build "
                                           f"{'SHDC'[index % 4]} up from the Ace")
    else:
        if state.waste:
            raise InvalidDealError(f"{variant.family} has no waste")
        for pile in state.foundations:
            if [(c.rank, c.suit) for c in pile] != [(13 - k, pile[0].suit) for k in range(13)]:
                raise InvalidDealError("each removed run must be King to Ace of one suit")
    if Counter(state.all_cards()) != Counter(fresh_deck(variant)):
        raise InvalidDealError(f"the position does not hold exactly the cards of {variant}")


def state_digest(state: State) -> str:
    """A short fingerprint of a state (detects a save whose check block does not match)."""
    text = json.dumps(state_to_dict(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def dump_game(game: Game) -> str:
    """The save text of a game (see the module docstring)."""
    from .game import POSITION

    data = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "deal_format": DEAL_FORMAT,
        "variant": str(game.variant),
        "deal_id": game.deal_id,
        "start": state_to_dict(game.initial_state) if game.deal_id.endswith(
            "#" + POSITION) else None,
        "moves": [str(m) for m in game.history],
        "redo": [str(m) for m in game.redo_moves],
        "check": {"moves_made": game.moves_made, "score": game.score,
                  "outcome": game.outcome, "digest": state_digest(game.state)},
    }
    return json.dumps(data, separators=(",", ":"))


def load_game(text: str) -> Game:
    """Rebuild and verify a saved game; raises InvalidSaveError with the first problem found."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as error:
        raise InvalidSaveError(f"save is not valid JSON (truncated or damaged?): {error}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise InvalidSaveError(f"not a kabale save: expected \"format\": \"{SAVE_FORMAT}\"")
    if data.get("version") != SAVE_VERSION:
        raise InvalidSaveError(f"unsupported save version {data.get('version')!r} "
                               f"(this kabale reads version {SAVE_VERSION})")
    if data.get("deal_format") != DEAL_FORMAT:
        raise InvalidSaveError(f"unsupported deal format {data.get('deal_format')!r} "
                               f"(this kabale deals format {DEAL_FORMAT})")
    try:
        game = _replay(data)
    except InvalidSaveError:
        raise
    except KabaleError as error:
        raise InvalidSaveError(f"save refused: {error}") from None
    check = data.get("check")
    expected = {"moves_made": game.moves_made, "score": game.score, "outcome": game.outcome,
                "digest": state_digest(game.state)}
    if check != expected:
        raise InvalidSaveError("save refused: its check block does not match the replayed game "
                               "(the file was changed or is inconsistent)")
    return game


def _replay(data: dict[str, Any]) -> Game:
    from .game import POSITION, Game

    deal_id, moves, redo = data.get("deal_id"), data.get("moves"), data.get("redo")
    if not isinstance(deal_id, str):
        raise InvalidSaveError("save refused: no deal_id")
    for name, value in (("moves", moves), ("redo", redo)):
        if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
            raise InvalidSaveError(f"save refused: {name} must be a list of move strings")
    assert isinstance(moves, list) and isinstance(redo, list)
    if deal_id.endswith("#" + POSITION):
        variant = parse_variant(deal_id.rpartition("#")[0])
        game = Game.from_position(variant, state_from_dict(data.get("start")))
    else:
        game = Game.from_deal_id(deal_id)
    if str(game.variant) != data.get("variant"):
        raise InvalidSaveError("save refused: its variant does not match its deal id")
    for number, move in enumerate(moves, start=1):
        try:
            game.play(move)
        except KabaleError as error:
            raise InvalidSaveError(f"save refused at move {number} {move!r}: {error}") from None
    for move in redo:
        try:
            game.play(move)
        except KabaleError as error:
            raise InvalidSaveError(f"save refused: redo move {move!r}: {error}") from None
    for _ in redo:
        game.undo()
    return game
