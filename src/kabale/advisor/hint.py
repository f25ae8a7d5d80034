"""The hint: the move the advisor would play, with its chance and the reason in words."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Game
from .choose import choose
from .effort import Effort, effort_for
from .knowledge import knowledge
from .tips import REASONS, reason


@dataclass(frozen=True)
class Hint:
    """``move``: the best move in notation (None when the game is over or nothing is
    legal); ``chance``: the share of sampled worlds won after the plan it starts (1 or 0
    when every card is known and the solver decided); ``moves``: each first move with its
    best plan's chance, best first; ``reason``: why, in words (``reason_key`` names it for
    translations, tips.REASONS); ``line``: the plan behind it, up to the move that shows a
    card."""

    move: str | None
    chance: float
    moves: list[tuple[str, float]]
    reason: str
    reason_key: str
    line: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        """The JSON object the HTTP API sends."""
        return {"move": self.move, "chance": round(self.chance, 4),
                "moves": [[move, round(chance, 4)] for move, chance in self.moves],
                "reason": self.reason, "reason_key": self.reason_key, "line": self.line}


def hint(game: Game, effort: str | Effort = "normal", seed: int | None = None) -> Hint:
    """The best move for the player of ``game``, worked out only from the cards that player
    has seen (the unseen ones are re-dealt at random into worlds, which are solved), as a
    :class:`Hint`: the move, the chance to win after it, every first move ranked, and the
    reason in words. A game that is over gives ``move`` None.

    ``effort``: ``"quick"``, ``"normal"`` or ``"strong"`` (or an ``Effort``), budgets in
    positions, never seconds; the same game, effort and ``seed`` give the same hint on any
    machine. An unknown effort raises KabaleError; without the compiled solver, importing
    this raises ModuleNotFoundError saying what to install. How it chooses: docs/advisor.md;
    the contract: docs/api.md ("The advisor: playing without peeking")."""
    level = effort_for(game.variant, effort)
    if game.outcome != "playing":
        return Hint(None, 1.0 if game.outcome == "won" else 0.0, [], "the game is over",
                    "game_over")
    k = knowledge(game)
    choice = choose(game, k, level, seed, lines=True)
    if not choice.ranked:
        legal = [str(m) for m in game.legal_moves()]
        return Hint(legal[0] if legal else None, 0.0, [(m, 0.0) for m in legal],
                    REASONS["no_hope"], "no_hope")
    best: dict[str, float] = {}
    for scored in choice.ranked:  # best first: a move's first plan is its best
        best.setdefault(str(scored.plan.first), scored.chance)
    top = choice.ranked[0]
    seen = k.position(iter(k.unseen_cards))  # any world: reasons read only cards in sight
    key = "no_hope" if choice.hopeless else reason(game.rules, seen, top.plan.first,
                                                    top.plan.reveals)
    return Hint(str(top.plan.first), top.chance, list(best.items()), REASONS[key], key,
                [str(m) for m in top.plan.moves])
