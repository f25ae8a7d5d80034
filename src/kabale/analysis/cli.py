"""``kabale analyze`` and ``kabale report``: the analysis from the shell (docs/api.md, "The
command line"; the measured tables: docs/winrates.md).

    kabale analyze VARIANT --seeds A-B --player solver|bot|random [--effort E | --nodes N]
                   [--jobs N] [--engine local|dask|ray] [--scheduler ADDRESS] [--db FILE]
                   [--json]
    kabale report [--db FILE] [--out DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import TextIO

from ..advisor.effort import LEVELS
from ..advisor.seeds import parse_seeds
from ..core import KabaleError
from ..storage.results import ResultStore, default_results_path
from .engines import ENGINES
from .players import PLAYERS, job_for


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def configure_analyze(parser: argparse.ArgumentParser) -> None:
    """Add ``analyze``'s arguments to its sub-parser."""
    parser.add_argument("variant", help="variant id, e.g. klondike:draw=3,open=true")
    parser.add_argument("--seeds", required=True, help="deal numbers: 1-1000, or 3,17,20-25")
    parser.add_argument("--player", choices=PLAYERS, required=True,
                        help="solver (full information), bot (the advisor's), random")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--nodes", type=int,
                        help="solver: positions per deal (default 5000000)")
    budget.add_argument("--effort", choices=LEVELS, help="bot: effort level (normal)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="workers (default: the CPUs free to this process)")
    parser.add_argument("--engine", choices=ENGINES, default="local",
                        help="where the deals are played: local (this machine's processes, "
                             "the default), dask or ray (a cluster; pip install "
                             "'kabale[cluster]' or ray)")
    parser.add_argument("--scheduler", help="dask or ray: the cluster's address (default: a "
                                            "local cluster of --jobs workers)")
    parser.add_argument("--db", help="results database (default: analysis.db in the user "
                                     "data directory)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per deal, then the summary")


def configure_report(parser: argparse.ArgumentParser) -> None:
    """Add ``report``'s arguments to its sub-parser."""
    parser.add_argument("--db", help="results database (default: analysis.db in the user "
                                     "data directory)")
    parser.add_argument("--out", default="report", help="directory for report.md and the "
                                                        "plots (report)")


def main_analyze(args: argparse.Namespace, stdout: TextIO = sys.stdout,
                 stderr: TextIO = sys.stderr) -> int:
    """``kabale analyze``: plays the deals the database lacks, prints the summary. Stopped
    (Ctrl-C, SIGTERM) it says on ``stderr`` how many deals it stored and where, then lets
    the interrupt go on (kabale.cli exits 130 or 143); an engine that fails to start leaves
    no database it created."""
    from .run import Interrupted, analyze

    job = job_for(args.variant, args.player, args.nodes, args.effort)
    seeds = parse_seeds(args.seeds)
    jobs = args.jobs if args.jobs is not None else default_jobs()
    created = new_paths(default_results_path(args.db))
    store = ResultStore(args.db)
    try:
        outcome = analyze(job, seeds, store, args.engine, jobs, args.scheduler,
                          progress=stderr if stderr.isatty() else None)
    except Interrupted as stop:
        print(f"kabale analyze: {stop.played} deals played now are saved in {store.path} "
              f"(the same command goes on with the rest)", file=stderr, flush=True)
        raise stop.stop from None
    except KabaleError:
        if created and not store.rows():  # nothing stored: take back what was made
            remove_new(created)
        raise
    if args.json:
        for row in outcome.rows:
            print(json.dumps(row.to_dict()), file=stdout)
        print(json.dumps({"summary": outcome.summary.to_dict(), "played": outcome.played}),
              file=stdout)
    else:
        print(outcome.summary.line(), file=stdout)
        print(f"({outcome.played} played now, {len(outcome.rows) - outcome.played} already "
              f"in {store.path})", file=stdout)
    return 0


def new_paths(db: Path) -> list[Path]:
    """What opening a database at ``db`` would create: the file (with SQLite's -wal and -shm
    beside it) and its missing folders, innermost first; empty if the file exists."""
    if db.exists():
        return []
    folders = [folder for folder in db.parents if not folder.exists()]
    return [db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm"), *folders]


def remove_new(paths: list[Path]) -> None:
    """Remove what new_paths listed (files, then folders if empty), ignoring what is gone."""
    for path in paths:
        with contextlib.suppress(OSError):
            if path.is_dir():
                path.rmdir()
            else:
                path.unlink(missing_ok=True)


def main_report(args: argparse.Namespace, stdout: TextIO = sys.stdout) -> int:
    """``kabale report``: markdown tables and PNG plots of the whole database. A database
    that does not exist is an error (KabaleError naming it): nothing is created."""
    from .report import write_report

    db = default_results_path(args.db)
    if not db.is_file():
        raise KabaleError(f"report: no analysis database at {str(db)!r} (run kabale analyze "
                          "first, or name one with --db FILE)")
    path = write_report(ResultStore(db), args.out)
    print(path, file=stdout)
    return 0
