"""``kabale analyze`` and ``kabale report``: the analysis from the shell (docs/api.md, "The
command line"; the measured tables: docs/winrates.md).

    kabale analyze VARIANT --seeds A-B --player solver|bot|random [--effort E | --nodes N]
                   [--jobs N] [--engine local|dask|ray] [--scheduler ADDRESS] [--db FILE]
                   [--json]
    kabale report [--db FILE] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TextIO

from ..advisor.cli import parse_seeds
from ..advisor.effort import LEVELS
from ..storage.results import ResultStore
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
    parser.add_argument("--engine", choices=ENGINES, default="local", help="local")
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
    """``kabale analyze``: plays the deals the database lacks, prints the summary."""
    from .run import analyze

    job = job_for(args.variant, args.player, args.nodes, args.effort)
    seeds = parse_seeds(args.seeds)
    store = ResultStore(args.db)
    jobs = args.jobs if args.jobs is not None else default_jobs()
    outcome = analyze(job, seeds, store, args.engine, jobs, args.scheduler,
                      progress=stderr if stderr.isatty() else None)
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


def main_report(args: argparse.Namespace, stdout: TextIO = sys.stdout) -> int:
    """``kabale report``: markdown tables and PNG plots of the whole database."""
    from .report import write_report

    path = write_report(ResultStore(args.db), args.out)
    print(path, file=stdout)
    return 0
