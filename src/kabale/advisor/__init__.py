"""Playing without peeking: what a player knows, hints, win chance, a bot, a post-mortem.

Everything here but ``postmortem`` (and the true deal's part of ``review``) works from what
the player has seen (knowledge.py), never from the true unseen cards, for every variant;
budgets are positions and samples, never seconds (effort.py), so the same game, effort and
seed give the same answer anywhere.
"""

from .bot import Bot, autoplay
from .chance import Chance, wilson, win_chance
from .effort import EFFORTS, LEVELS, Effort
from .hint import Hint, hint
from .knowledge import Knowledge, knowledge
from .postmortem import PostMortem, postmortem
from .review import Review, review
from .worlds import worlds

__all__ = [
    "EFFORTS", "LEVELS", "Bot", "Chance", "Effort", "Hint", "Knowledge", "PostMortem",
    "Review", "autoplay", "hint", "knowledge", "postmortem", "review", "wilson", "win_chance",
    "worlds",
]
