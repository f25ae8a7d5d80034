"""Help that waits for a gate: stand-ins for the hint and the review (run in the advice
workers) that note their worker's process id and the deal, then wait until a file named
after their kind exists in a folder, and then give the real answer. With them a test holds a
job in flight for as long as it needs, in-process (monkeypatched) or in a real server
process (``app``: uvicorn's factory, the folder in ``KABALE_TEST_GATES``)."""

from __future__ import annotations

import os
import time
from functools import partial
from pathlib import Path
from typing import Any

from kabale.advisor import Effort, Hint, hint
from kabale.core.game import Game
from kabale.server import advice

#: the real review (this module's stand-in replaces ``advice._review``)
REVIEW = advice._review


def _note_and_wait(folder: str, kind: str, game: Game) -> None:
    with open(os.path.join(folder, kind + ".pids"), "a") as out:
        out.write(f"{os.getpid()} {game.deal_id}\n")
    while not os.path.exists(os.path.join(folder, kind)):
        time.sleep(0.02)


def gated_hint(folder: str, game: Game, level: Effort, seed: int) -> Hint:
    """The hint, once ``folder``/hint exists."""
    _note_and_wait(folder, "hint", game)
    return hint(game, level, seed)


def gated_review(folder: str, game: Game, level: Effort, seed: int, progress: Any
                 ) -> dict[str, Any]:
    """The review, its first position reported at once, the rest once ``folder``/review
    exists."""
    progress(1, game.moves_made + 1)
    _note_and_wait(folder, "review", game)
    return REVIEW(game, level, seed, progress)


def stand_ins(folder: str | Path) -> dict[str, Any]:
    """The names of ``kabale.server.advice`` to replace, and the gated stand-ins of
    ``folder`` to put in their place."""
    return {"hint": partial(gated_hint, str(folder)),
            "_review": partial(gated_review, str(folder))}


def started(folder: str | Path, kind: str) -> list[tuple[int, str]]:
    """The (process id, deal id) of each ``kind`` job started so far, in order."""
    path = Path(folder) / (kind + ".pids")
    if not path.exists():
        return []
    return [(int(pid), deal) for pid, deal in
            (line.split() for line in path.read_text().splitlines() if line.strip())]


def app() -> Any:
    """One web worker of `kabale serve` (serve.worker_app) with gated help."""
    from kabale.server.serve import worker_app

    for name, stand_in in stand_ins(os.environ["KABALE_TEST_GATES"]).items():
        setattr(advice, name, stand_in)
    return worker_app()
