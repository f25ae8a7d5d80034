"""Playing without peeking: what a player knows, hints, win chance, a bot, a post-mortem.

Everything here but ``postmortem`` (and the true deal's part of ``review``) works from what
the player has seen (knowledge.py), never from the true unseen cards, for every variant;
budgets are positions and samples, never seconds (effort.py), so the same game, effort and
seed give the same answer anywhere.

The names are imported on first use: the effort levels, the interval and the deal-number
ranges need no compiled solver, so ``kabale analyze --player random`` works in a build
without the kernels; the rest import the solver, which says in one line what to install.
"""

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

#: each public name and the module of this package that holds it
_HOMES = {
    "Bot": "bot", "autoplay": "bot", "Chance": "chance", "win_chance": "chance",
    "wilson": "interval", "EFFORTS": "effort", "LEVELS": "effort", "Effort": "effort",
    "Hint": "hint", "hint": "hint", "Knowledge": "knowledge", "knowledge": "knowledge",
    "PostMortem": "postmortem", "postmortem": "postmortem", "worlds": "worlds",
    "Review": "review", "review": "review",
}

__all__ = [
    "EFFORTS", "LEVELS", "Bot", "Chance", "Effort", "Hint", "Knowledge", "PostMortem",
    "Review", "autoplay", "hint", "knowledge", "postmortem", "review", "wilson", "win_chance",
    "worlds",
]

if TYPE_CHECKING:
    from .bot import Bot, autoplay
    from .chance import Chance, win_chance
    from .effort import EFFORTS, LEVELS, Effort
    from .hint import Hint, hint
    from .interval import wilson
    from .knowledge import Knowledge, knowledge
    from .postmortem import PostMortem, postmortem
    from .review import Review, review
    from .worlds import worlds


class _Advisor(ModuleType):
    """This package, whose public names come from their modules on first use. Four of them
    (hint, knowledge, postmortem, worlds) are also the names of their modules, which the
    import system sets on the package when it imports them: the public name wins."""

    def __getattribute__(self, name: str) -> Any:
        home = _HOMES.get(name)
        if home is None:
            return super().__getattribute__(name)
        return getattr(import_module(f"{__name__}.{home}"), name)


sys.modules[__name__].__class__ = _Advisor
