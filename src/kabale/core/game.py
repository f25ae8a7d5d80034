"""Game: a deal, its current state and its history. The checked path for every change.

A Game keeps the list of states it went through (states are immutable and share untouched
piles), so undo is exact by construction: it restores the previous state, flips, removed runs,
score and pass count included. Every move a person or a file asks for goes through
:meth:`Game.play`, which refuses anything the rules do not list as legal and leaves the game
exactly as it was.

Deal secrecy (docs/api.md): a deal id and the public dealer give every hidden card, so
:meth:`Game.observe` and ``str(game)`` show the deal id only once the player knows it: they
chose the deal (a seed, a deal id, a deck or a position), the game was won, or it was revealed
with :meth:`Game.reveal` (asked for, or the game given up for good). A lost position does not
reveal it: undo would lead back into the game with every hidden card known. Until then the
observation carries only ``deal_hash``, the sha256 of the deal id, which lets anyone check
afterwards that the deal was fixed from the start. ``Game.deal_id`` itself is always the true
id: whoever holds the Game holds every card.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from .cards import Card
from .deal import MAX_SEED, check_deck, check_seed, deck_for, random_seed
from .errors import (
    IllegalMoveError,
    InvalidDealError,
    InvalidSaveError,
    KabaleError,
    NotationError,
    quoted,
)
from .family import Rules, rules_for
from .notation import parse_move_text
from .observe import observation, render_table, short_deal_id
from .persist import (
    MAX_MOVES,
    POSITION,
    Save,
    check_block,
    check_state,
    dump_save,
    read_save,
)
from .refusal import Refusal
from .state import FOUNDATION, STOCK, WASTE, Move, State
from .variants import Variant, parse_variant

__all__ = ["Game", "Rules", "deck_text", "rules_for"]  # Rules and rules_for: core/family.py


def deck_text(deck: Sequence[Card]) -> str:
    """A deck as concatenated two-letter card codes (used in deal ids of hand-made deals)."""
    return "".join(str(card) for card in deck)


class Game:
    """One game of a variant: the deal, the moves played, undo/redo, score and outcome.

    ``Game.new(variant, seed)`` deals one; ``play``, ``undo``, ``redo`` and ``legal_moves``
    speak kabale's move notation; ``observe()`` is what the player sees; ``to_json`` and
    ``from_json`` save and load the whole history. Every method: docs/api.md ("Game"); every
    rule: docs/rules.md."""

    def __init__(self, variant: Variant, start: State, deal_id: str,
                 seed: int | None = None, deal_known: bool = True) -> None:
        """Low-level constructor; use :meth:`new`, :meth:`from_deal_id`, :meth:`from_deck` or
        :meth:`from_position`. ``deal_known``: may the player see the deal id (module doc)."""
        self.variant = variant
        self.rules: Rules = rules_for(variant)
        self.deal_id = deal_id
        self.seed = seed
        self._deal_known = deal_known
        self._states: list[State] = [start]
        self._moves: list[Move] = []
        self._redo: list[Move] = []
        self._legal_state: State | None = None
        self._legal: list[Move] = []
        self._legal_index: dict[Move, Move] = {}

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, variant: str | Variant, seed: int | None = None) -> Game:
        """Deal number ``seed`` of ``variant``; without one, a random deal number from 2^64
        that stays secret until the game ends or :meth:`reveal` (module docstring)."""
        parsed = parse_variant(variant)
        chosen = seed is not None
        seed = check_seed(seed) if chosen else random_seed()
        deck = deck_for(parsed, seed)
        return cls(parsed, rules_for(parsed).layout(deck), f"{parsed}#{seed}", seed, chosen)

    @classmethod
    def from_deck(cls, variant: str | Variant, deck: Sequence[Card]) -> Game:
        """Deal a given deck (in deal order, see deal.py) instead of a shuffled one."""
        parsed = parse_variant(variant)
        cards = list(deck)
        check_deck(parsed, cards)
        return cls(parsed, rules_for(parsed).layout(cards), f"{parsed}#={deck_text(cards)}")

    @classmethod
    def from_position(cls, variant: str | Variant, state: State) -> Game:
        """Start from any constructed position (for puzzles, tests and solver checks)."""
        parsed = parse_variant(variant)
        check_state(parsed, rules_for(parsed), state)
        return cls(parsed, state, f"{parsed}#{POSITION}")

    @classmethod
    def from_deal_id(cls, deal_id: str) -> Game:
        """Deal again the game a deal id names: ``VARIANT#SEED`` or ``VARIANT#=CARDS``."""
        if not isinstance(deal_id, str) or "#" not in deal_id:
            raise InvalidDealError(f"bad deal id {quoted(deal_id)}: expected VARIANT#NUMBER, e.g. "
                                   "'spider:suits=2#42'")
        variant, _, number = deal_id.strip().rpartition("#")
        if number.startswith("="):
            codes = number[1:]
            try:
                deck = [Card.parse(codes[i:i + 2]) for i in range(0, len(codes), 2)]
            except NotationError as error:
                raise InvalidDealError(f"bad deal id {quoted(deal_id)}: {error}") from None
            return cls.from_deck(variant, deck)
        # str.isdigit() accepts '³' and '①', which int() refuses; 20 digits hold MAX_SEED.
        # The leading zeros go before int(), which refuses text of over 4,300 digits.
        digits = number.lstrip("0") or "0"
        if not (number.isascii() and number.isdigit()) or len(digits) > 20:
            raise InvalidDealError(f"bad deal id {quoted(deal_id)}: after '#' comes a deal number "
                                   f"0..{MAX_SEED} (or '=' and the deck's cards)")
        return cls.new(variant, int(digits))

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Load a game saved by :meth:`to_json`, replaying every move through the rules;
        raises InvalidSaveError (and nothing else) for anything it refuses, never
        half-loads. What it detects is listed in ``kabale.core.persist``."""
        save = read_save(text)
        try:
            game = cls._replay(save)
        except InvalidSaveError:
            raise
        except ValueError as error:  # every KabaleError, and whatever else bad data raises
            raise InvalidSaveError(f"save refused: {error}") from None
        if save.check != check_block(game.moves_made, game.score, game.outcome, game.state):
            raise InvalidSaveError("save refused: its check block does not match the replayed "
                                   "game (the file was changed or is inconsistent)")
        return game

    @classmethod
    def _replay(cls, save: Save) -> Game:
        if save.start is not None:
            game = cls.from_position(save.deal_id.rpartition("#")[0], save.start)
        else:
            game = cls.from_deal_id(save.deal_id)
        if str(game.variant) != save.variant:
            raise InvalidSaveError("save refused: its variant does not match its deal id")
        # A move of the replay that wins the game makes the id known, as it did in play.
        game._deal_known = save.deal_known
        for number, move in enumerate(save.moves, start=1):
            try:
                game.play(move)
            except KabaleError as error:
                raise InvalidSaveError(f"save refused at move {number} {quoted(move)}: "
                                       f"{error}") from None
        for move in save.redo:
            try:
                game.play(move)
            except KabaleError as error:
                raise InvalidSaveError(f"save refused: redo move {quoted(move)}: {error}") from None
        for _ in save.redo:
            game.undo()
        return game

    def to_json(self) -> str:
        """The whole game (deal, moves, redo stack, whether the deal id is known) as
        versioned JSON text."""
        return dump_save(Save(
            variant=str(self.variant), deal_id=self.deal_id,
            start=self.initial_state if self.deal_id.endswith("#" + POSITION) else None,
            moves=[str(m) for m in self.history], redo=[str(m) for m in self.redo_moves],
            check=check_block(self.moves_made, self.score, self.outcome, self.state),
            deal_known=self._deal_known))

    def copy(self) -> Game:
        """An independent game in the same position with the same history (``copy.copy``,
        ``copy.deepcopy`` and pickle give the same)."""
        return self._restored(self.variant, self.deal_id, self.seed, self._deal_known,
                              self._states, self._moves, self._redo)

    def opening(self, moves: int) -> Game:
        """A new game of the same deal as this one stood after its first ``moves`` moves,
        with nothing to redo; cheap, for each position is kept (nothing is replayed).
        IllegalMoveError unless ``moves`` is 0..moves_made."""
        if isinstance(moves, bool) or not isinstance(moves, int) or not (
                0 <= moves <= self.moves_made):
            raise IllegalMoveError(f"no position after {quoted(moves)} moves: this game has "
                                   f"0..{self.moves_made}")
        return self._restored(self.variant, self.deal_id, self.seed, self._deal_known,
                              self._states[:moves + 1], self._moves[:moves], [])

    def __eq__(self, other: object) -> bool:
        """Games are equal when they have the same variant, deal (id and first position) and
        moves played; the redo stack, the seed's secrecy and the cached legal moves do not
        count. A game changes as it is played, so it is not hashable."""
        if not isinstance(other, Game):
            return NotImplemented
        return (self.variant == other.variant and self.deal_id == other.deal_id
                and self._states[0] == other._states[0] and self._moves == other._moves)

    __hash__ = None  # type: ignore[assignment]  # mutable: equal games may differ later

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self.copy()  # states and moves are immutable: new lists make it independent

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # pickled as the variant, the deal and the history; the rules object and the cache
        # of legal moves are rebuilt from them
        return Game._restored, (self.variant, self.deal_id, self.seed, self._deal_known,
                                self._states, self._moves, self._redo)

    @classmethod
    def _restored(cls, variant: Variant, deal_id: str, seed: int | None, deal_known: bool,
                  states: Sequence[State], moves: Sequence[Move], redo: Sequence[Move]) -> Game:
        """A game with this history (the states it went through, the moves between them and
        the redo stack), sharing no list with the caller."""
        game = cls(variant, states[0], deal_id, seed, deal_known)
        game._states = list(states)
        game._moves = list(moves)
        game._redo = list(redo)
        return game

    # ------------------------------------------------------------------ queries
    @property
    def state(self) -> State:
        """The current true state (all cards, hidden ones included)."""
        return self._states[-1]

    @property
    def initial_state(self) -> State:
        """The state before the first move."""
        return self._states[0]

    @property
    def history(self) -> list[Move]:
        """The moves played from the start to the current position."""
        return list(self._moves)

    @property
    def redo_moves(self) -> list[Move]:
        """The moves :meth:`redo` would replay, next one first."""
        return list(reversed(self._redo))

    @property
    def moves_made(self) -> int:
        """How many moves lead from the deal to the current position."""
        return len(self._moves)

    @property
    def score(self) -> int:
        """The score in the current position (docs/rules.md, "Scoring")."""
        return self.state.score

    @property
    def can_undo(self) -> bool:
        """True when a move can be taken back."""
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        """True when an undone move can be replayed."""
        return bool(self._redo)

    def _refresh_legal(self) -> None:
        state = self.state
        if self._legal_state is not state:
            self._legal = self.rules.legal_moves(state)
            self._legal_index = {move: move for move in self._legal}
            self._legal_state = state

    def legal_moves(self) -> list[Move]:
        """Every legal move in the current position, in the family's fixed order."""
        self._refresh_legal()
        return list(self._legal)

    @property
    def outcome(self) -> str:
        """"won", "lost" (no way to go on, as far as the player can know: docs/rules.md) or
        "playing"."""
        state = self.state
        if self.rules.is_won(state):
            return "won"
        self._refresh_legal()
        return "lost" if self.rules.is_lost(state, self._legal) else "playing"

    @property
    def passes_left(self) -> int | None:
        """Turn-backs of the waste still allowed (None = unlimited, or no waste)."""
        return self.rules.passes_left(self.state)

    @property
    def deal_known(self) -> bool:
        """True once the player may see the deal id: they chose the deal, the game was won (in
        any position since), or :meth:`reveal` was called. Kept in saves."""
        return self._deal_known

    @property
    def deal_hash(self) -> str:
        """sha256 of the deal id (hex): a commitment to the deal that reveals no card."""
        return hashlib.sha256(self.deal_id.encode()).hexdigest()

    def reveal(self) -> str:
        """Let the player see the deal id from now on (to share the deal); returns it. Once
        the id is known, the hidden cards are no secret to anyone who has it."""
        self._deal_known = True
        return self.deal_id

    def observe(self) -> dict[str, Any]:
        """What the player sees (docs/api.md, "The observation"); hidden cards appear as
        "??", and the deal id is None while it is secret (module docstring)."""
        self._refresh_legal()
        return observation(self.variant, self.rules, self.deal_id if self._deal_known else None,
                           self.deal_hash, self.state, self._legal, self.outcome,
                           self.passes_left, self.moves_made)

    def __str__(self) -> str:
        return render_table(self.observe())

    def __repr__(self) -> str:
        shown = short_deal_id(self.deal_id) if self._deal_known else f"{self.variant}#?"
        return f"<Game {shown!r} moves={self.moves_made} {self.outcome}>"

    # ------------------------------------------------------------------ moves
    def parse_move(self, text: str) -> Move:
        """Read notation in the current position: ``3>7`` takes the longest legal count, ``3>f2``
        means ``3>f`` when f2 is the foundation the card goes to. Raises NotationError."""
        source, target, count = parse_move_text(text)
        if source == STOCK:
            return Move(STOCK, "", 1, STOCK)
        if source.isdigit() and target.isdigit():
            if count is None:
                self._refresh_legal()
                counts = [m.count for m in self._legal if m.source == source
                          and m.target == target]
                count = max(counts, default=1)
            return self._canonical(Move(source, target, count), text)
        if target.startswith(FOUNDATION) and len(target) > 1:
            card = self._top_card(source)
            if card is not None and self.rules.foundation_for(self.state, card) == int(
                    target[1:]) - 1:
                target = FOUNDATION
        return self._canonical(Move(source, target, 1), text)

    def _top_card(self, source: str) -> Card | None:
        state = self.state
        if source == WASTE:
            return state.waste[-1] if state.waste else None
        if source.isdigit() and 1 <= int(source) <= len(state.columns):
            pile = state.columns[int(source) - 1]
            return pile[-1] if pile else None
        return None

    def _canonical(self, move: Move, text: str) -> Move:
        """The legal move equal to ``move`` (canonical text), else ``move`` labelled ``text``."""
        self._refresh_legal()
        legal = self._legal_index.get(move)
        if legal is not None:
            return legal
        return Move(move.source, move.target, move.count, text.strip().lower().replace(" ", ""))

    def play(self, move: Move | str) -> Move:
        """Play a Move or notation text; returns the move played (canonical text).

        Raises NotationError for text that is not a move and IllegalMoveError (with the reason)
        for a move the rules refuse; in both cases the game is unchanged.
        """
        wanted = self.parse_move(move) if isinstance(move, str) else move
        if not isinstance(wanted, Move):
            raise NotationError(f"not a move: {move!r} (give a Move or notation such as '3>7')")
        self._refresh_legal()
        legal = self._legal_index.get(wanted)
        if legal is None:
            _check_syntax(wanted)
            refusal = self._refusal(wanted)
            raise IllegalMoveError(f"illegal move {str(wanted)!r}: {refusal.text()}", refusal)
        if len(self._moves) >= MAX_MOVES:
            raise IllegalMoveError(f"illegal move {str(legal)!r}: the game has {MAX_MOVES} "
                                   "moves, the most one game holds (undo some, or start anew)")
        self._advance(legal)
        if self._redo and self._redo[-1] == legal:
            self._redo.pop()
        else:
            self._redo.clear()
        return legal

    def refusal(self, move: Move | str) -> Refusal | None:
        """Why the rules refuse ``move`` here, as a reason key and its parameters (the
        ``refusal`` that :meth:`play` would raise with), or None when it is legal; the game
        is unchanged. Raises NotationError for text that is not a move. The parameters name
        only cards the player sees (face up)."""
        wanted = self.parse_move(move) if isinstance(move, str) else move
        if not isinstance(wanted, Move):
            raise NotationError(f"not a move: {move!r} (give a Move or notation such as '3>7')")
        self._refresh_legal()
        if wanted in self._legal_index:
            return None
        _check_syntax(wanted)
        return self._refusal(wanted)

    def _advance(self, move: Move) -> None:
        """Apply a legal move; a move that wins the game makes the deal id known for good
        (every card has been seen). A lost position does not: it can still be undone, and
        the id would then show every hidden card of a game still in play. Whoever gives a
        lost game up for good shows the id with :meth:`reveal`."""
        self._states.append(self.rules.apply(self.state, move))
        self._moves.append(move)
        if not self._deal_known and self.rules.is_won(self.state):
            self._deal_known = True

    def _refusal(self, move: Move) -> Refusal:
        """Why the rules refuse ``move`` here."""
        if self.rules.is_won(self.state):
            return Refusal("already_won")
        return self.rules.refusal(self.state, move)

    def undo(self) -> Move:
        """Take back the last move (with the flips and removals it caused); returns it."""
        if not self._moves:
            raise IllegalMoveError("nothing to undo: no move has been played")
        self._states.pop()
        move = self._moves.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        """Replay the last undone move; returns it."""
        if not self._redo:
            raise IllegalMoveError("nothing to redo: no move has been undone")
        move = self._redo.pop()
        self._advance(move)
        return move


def _check_syntax(move: Move) -> None:
    """Raise NotationError for a hand-made Move that no notation could spell."""
    if isinstance(move.count, bool) or not isinstance(move.count, int) or not (
            1 <= move.count <= 999_999):
        raise NotationError(f"not a move: {quoted(move)} (a move takes 1 to 999999 cards)")
    if not all(isinstance(part, str) for part in (move.source, move.target)):
        raise NotationError(f"not a move: {quoted(move)} (source and target are notation "
                            "strings)")
    parse_move_text(move.explicit())
