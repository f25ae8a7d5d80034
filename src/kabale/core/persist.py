"""Save files as versioned JSON, and checking hand-made positions. Knows nothing of Game.

A save holds the deal (its id, or the whole starting position for a hand-made one), the moves
played and the redo stack, as notation, whether the player knows the deal id, and a check
block (moves made, score, outcome and a digest of the final state). :func:`read_save` checks
the shape of the text; ``Game.from_json`` then replays every move through the rules and
compares the check block with the replay.

What that detects, exactly: text that is not a save, a truncated file, a deal id that names no
deal, a position that is not one of the variant, a move the rules refuse, and a check block
that disagrees with the replay. The check block is a plain digest, not a signature: whoever
edits a save can recompute it, so an edit that stays within the rules (another legal move, the
starting score of a hand-made position) loads. Nothing in a save is trusted without replaying
it, so a save can never put a game in a position the rules do not reach.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import Card
from .deal import DEAL_FORMAT, fresh_deck
from .errors import InvalidDealError, InvalidSaveError, NotationError, quoted
from .state import State
from .variants import Variant

if TYPE_CHECKING:
    from .family import Rules

SAVE_FORMAT = "kabale-game"
SAVE_VERSION = 1
#: The deal id of a game started from a constructed position is ``VARIANT#position``.
POSITION = "position"
#: The most moves one game holds (history and redo stack together): a save stays small
#: enough to rewrite on every move, and loading one replays at most this many moves.
MAX_MOVES = 10_000


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


def _int(value: Any, where: str, low: int = -10**9, high: int = 10**9) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidDealError(f"{where} must be an integer {low}..{high}, not {value!r}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidDealError(f"{where} must be a list")
    return value


def state_from_dict(data: Any) -> State:
    """Rebuild a State from :func:`state_to_dict` data; raises InvalidDealError if malformed."""
    if not isinstance(data, dict):
        raise InvalidDealError("a position must be an object with columns, down, stock, ...")
    try:
        columns = _list(data["columns"], "columns")
        down = _list(data["down"], "down")
        founds = _list(data["foundations"], "foundations")
        return State(
            columns=tuple(_cards(p, f"column {i + 1}") for i, p in enumerate(columns)),
            down=tuple(_int(d, "down", 0, 104) for d in down),
            stock=_cards(data["stock"], "stock"),
            waste=_cards(data.get("waste", []), "waste"),
            foundations=tuple(_cards(p, f"foundation {i + 1}") for i, p in enumerate(founds)),
            passes_used=_int(data.get("passes_used", 0), "passes_used", 0, 10**6),
            score=_int(data.get("score", 0), "score"),
        )
    except KeyError as missing:
        raise InvalidDealError(f"a position needs the field {missing}") from None


def check_state(variant: Variant, rules: Rules, state: State) -> None:
    """Raise InvalidDealError unless ``state`` is a well-formed position of the variant: the
    right number of piles, the variant's exact cards, sane face-down counts, and the waste
    and foundations its family allows (``rules.check_position``)."""
    n_columns = rules.n_columns
    if len(state.columns) != n_columns or len(state.down) != n_columns:
        raise InvalidDealError(f"{variant} has {n_columns} columns, the position has "
                               f"{len(state.columns)} columns and {len(state.down)} down counts")
    for i, (pile, down) in enumerate(zip(state.columns, state.down, strict=True)):
        if not 0 <= down <= max(len(pile) - 1, 0):
            raise InvalidDealError(f"column {i + 1}: {down} face-down cards under "
                                   f"{len(pile)} cards (the top card is always face up)")
    rules.check_position(state)
    if Counter(state.all_cards()) != Counter(fresh_deck(variant)):
        raise InvalidDealError(f"the position does not hold exactly the cards of {variant}")


def state_digest(state: State) -> str:
    """A short fingerprint of a state (detects a save whose check block does not match)."""
    text = json.dumps(state_to_dict(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def check_block(moves_made: int, score: int, outcome: str, state: State) -> dict[str, Any]:
    """The check block a save of a game in ``state`` carries (see the module docstring)."""
    return {"moves_made": moves_made, "score": score, "outcome": outcome,
            "digest": state_digest(state)}


@dataclass(frozen=True, slots=True)
class Save:
    """The contents of a save, its shape checked but not yet replayed.

    ``start`` is the starting position of a hand-made game (deal id ``VARIANT#position``),
    else None; ``deal_known`` says whether the player may see the deal id (docs/api.md, "Deal
    secrecy").
    """

    variant: str
    deal_id: str
    start: State | None
    moves: list[str]
    redo: list[str]
    check: dict[str, Any]
    deal_known: bool


def dump_save(save: Save) -> str:
    """The save text (compact JSON)."""
    data = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "deal_format": DEAL_FORMAT,
        "variant": save.variant,
        "deal_id": save.deal_id,
        "deal_known": save.deal_known,
        "start": state_to_dict(save.start) if save.start is not None else None,
        "moves": save.moves,
        "redo": save.redo,
        "check": save.check,
    }
    return json.dumps(data, separators=(",", ":"))


def read_save(text: str) -> Save:
    """Parse save text and check its shape; raises InvalidSaveError naming the first problem."""
    if not isinstance(text, str | bytes | bytearray):
        raise InvalidSaveError(f"a save is JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except RecursionError:
        raise InvalidSaveError("save refused: its JSON is nested too deeply") from None
    except ValueError as error:  # JSONDecodeError, or bytes that are not UTF-8
        raise InvalidSaveError(f"save is not valid JSON (truncated or damaged?): {error}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise InvalidSaveError(f"not a kabale save: expected \"format\": \"{SAVE_FORMAT}\"")
    # ``True == 1`` in Python: the type is checked too, so "version": true is no version
    if type(data.get("version")) is not int or data.get("version") != SAVE_VERSION:
        raise InvalidSaveError(f"unsupported save version {quoted(data.get('version'))} "
                               f"(this kabale reads version {SAVE_VERSION})")
    if type(data.get("deal_format")) is not int or data.get("deal_format") != DEAL_FORMAT:
        raise InvalidSaveError(f"unsupported deal format {quoted(data.get('deal_format'))} "
                               f"(this kabale deals format {DEAL_FORMAT})")
    variant, deal_id = data.get("variant"), data.get("deal_id")
    if not isinstance(variant, str) or not isinstance(deal_id, str):
        raise InvalidSaveError("save refused: variant and deal_id must be strings")
    moves, redo = data.get("moves"), data.get("redo")
    for name, value in (("moves", moves), ("redo", redo)):
        if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
            raise InvalidSaveError(f"save refused: {name} must be a list of move strings")
    assert isinstance(moves, list) and isinstance(redo, list)
    if len(moves) + len(redo) > MAX_MOVES:
        raise InvalidSaveError(f"save refused: {len(moves) + len(redo)} moves, more than the "
                               f"{MAX_MOVES} one game holds")
    check = data.get("check")
    if not isinstance(check, dict):
        raise InvalidSaveError("save refused: no check block")
    known = data.get("deal_known", True)  # saves written before deal secrecy showed the id
    if not isinstance(known, bool):
        raise InvalidSaveError(f"save refused: deal_known must be true or false, not "
                               f"{quoted(known)}")
    start = None
    if deal_id.endswith("#" + POSITION):
        try:
            start = state_from_dict(data.get("start"))
        except (InvalidDealError, NotationError) as error:
            raise InvalidSaveError(f"save refused: its starting position: {error}") from None
    return Save(variant, deal_id, start, moves, redo, check, known)
