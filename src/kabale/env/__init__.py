"""Gymnasium environments for every variant (docs/env.md).

Importing this package registers ``kabale/Klondike-v0``, ``kabale/Spider-v0`` and
``kabale/Spiderette-v0``; gymnasium imports it itself when the id names it first. Every
option of the variant is a keyword of ``gymnasium.make``::

    import gymnasium
    env = gymnasium.make("kabale.env:kabale/Klondike-v0", draw=3)

Needs gymnasium and numpy (the ``env`` extra: ``pip install '.[env]'`` in a clone).
"""

from typing import TYPE_CHECKING, Any

from gymnasium.envs.registration import register, registry

from .actions import ActionTable
from .agents import Agent, BotAgent, GreedyAgent, RandomAgent
from .environment import KabaleEnv, variant_with

if TYPE_CHECKING:
    from .vector import KlondikeVectorEnv

__all__ = ["ActionTable", "Agent", "BotAgent", "GreedyAgent", "KabaleEnv", "KlondikeVectorEnv",
           "RandomAgent", "variant_with"]

#: registered id -> the variant family it plays
ENV_IDS = {"kabale/Klondike-v0": "klondike", "kabale/Spider-v0": "spider",
           "kabale/Spiderette-v0": "spiderette"}


def __getattr__(name: str) -> Any:
    """KlondikeVectorEnv, imported on first use: it needs the compiled batch kernel, which a
    kabale built without a C compiler lacks (KabaleEnv does not need it)."""
    if name == "KlondikeVectorEnv":
        from .vector import KlondikeVectorEnv

        return KlondikeVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


for _env_id, _family in ENV_IDS.items():
    if _env_id not in registry:
        register(id=_env_id, entry_point="kabale.env.environment:KabaleEnv",
                 vector_entry_point="kabale.env.vector:KlondikeVectorEnv"
                 if _family == "klondike" else None, kwargs={"variant": _family})
