"""The analysis database: one row per (variant, deal, player, budget) that ``kabale analyze``
measured, in SQLite (stdlib ``sqlite3``, WAL mode).

A row holds the result (the solver's verdict "solved", "unsolvable" or "unknown", or a
player's outcome "won", "lost", "gave up"), the moves played or the length of the winning
line, the positions searched (None where the player does not count them), the CPU seconds
it took and kabale's version. Rows are written as they arrive, each batch committed at once,
and a row already there is never written again: a run killed at any point resumes with the
deals it lacks.

Default location: ``platformdirs.user_data_dir("kabale")/analysis.db`` (the games' database
is another file: a server may hold that one).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import asdict, dataclass
from pathlib import Path

from ..core.errors import KabaleError

#: the results that count as a win, and as undecided (neither a win nor a loss)
WINS = ("solved", "won")
UNDECIDED = ("unknown",)
RESULTS = ("solved", "unsolvable", "unknown", "won", "lost", "gave up")
#: SQLite's INTEGER is signed 64-bit: the largest deal number a row can hold
MAX_ROW_SEED = 2**63 - 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    variant  TEXT NOT NULL,
    seed     INTEGER NOT NULL,
    player   TEXT NOT NULL,
    budget   TEXT NOT NULL,
    result   TEXT NOT NULL,
    moves    INTEGER NOT NULL,
    nodes    INTEGER,
    seconds  REAL NOT NULL,
    version  TEXT NOT NULL,
    PRIMARY KEY (variant, player, budget, seed)
);
"""
_COLUMNS = "variant, seed, player, budget, result, moves, nodes, seconds, version"


class ResultsError(KabaleError):
    """The analysis database cannot be read or written."""


@dataclass(frozen=True, slots=True)
class Row:
    """One measured deal: ``variant`` (canonical), deal number ``seed``, ``player``
    ("solver", "bot" or "random"), ``budget`` ("nodes=N", "effort=E", "moves=N"),
    ``result`` (RESULTS), ``moves``, ``nodes`` (None if not counted), CPU ``seconds``,
    kabale ``version``."""

    variant: str
    seed: int
    player: str
    budget: str
    result: str
    moves: int
    nodes: int | None
    seconds: float
    version: str

    @property
    def outcome(self) -> str:
        """"win", "loss" or "undecided" (the solver's unknown)."""
        if self.result in WINS:
            return "win"
        return "undecided" if self.result in UNDECIDED else "loss"

    def to_dict(self) -> dict[str, object]:
        """The row as JSON-safe data (``kabale analyze --json``)."""
        data = asdict(self)
        data["seconds"] = round(self.seconds, 6)
        return data


def default_results_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``explicit`` if given, else ``analysis.db`` in the user data directory."""
    if explicit:
        return Path(explicit)
    from platformdirs import user_data_dir

    return Path(user_data_dir("kabale")) / "analysis.db"


class ResultStore:
    """The rows in one SQLite file (created with its directory on first use)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = default_results_path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with closing(self._connect()) as db:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as error:
            raise ResultsError(f"cannot open the analysis database {str(self.path)!r}: "
                               f"{error}") from None

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30)

    def add(self, rows: Iterable[Row]) -> int:
        """Write ``rows`` in one transaction, keeping any row already there; returns how
        many were new."""
        values = [tuple(asdict(row).values()) for row in rows]
        try:
            with closing(self._connect()) as db, db:
                before = db.total_changes
                db.executemany(f"INSERT OR IGNORE INTO results ({_COLUMNS}) VALUES "
                               "(?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
                return db.total_changes - before
        except sqlite3.Error as error:
            raise ResultsError(f"cannot write to {str(self.path)!r}: {error}") from None

    def rows(self, variant: str | None = None, player: str | None = None,
             budget: str | None = None, seeds: Sequence[int] | None = None) -> list[Row]:
        """The rows that match every filter given, by variant, player, budget and seed."""
        where, args = [], []
        for name, value in (("variant", variant), ("player", player), ("budget", budget)):
            if value is not None:
                where.append(f"{name} = ?")
                args.append(value)
        found = list(self._select(" AND ".join(where) or "1", args))
        if seeds is not None:
            wanted = set(seeds)
            found = [row for row in found if row.seed in wanted]
        return found

    def _select(self, where: str, args: Sequence[object]) -> Iterator[Row]:
        try:
            with closing(self._connect()) as db:
                cursor = db.execute(f"SELECT {_COLUMNS} FROM results WHERE {where} "
                                    "ORDER BY variant, player, budget, seed", args)
                for values in cursor:
                    yield Row(*values)
        except sqlite3.Error as error:
            raise ResultsError(f"cannot read {str(self.path)!r}: {error}") from None
