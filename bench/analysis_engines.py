"""Deals per second of ``kabale analyze`` on each engine and worker count, and what Dask adds
per deal. A benchmark, never a test.

    python bench/analysis_engines.py [--variant V] [--seeds 1-200] [--nodes N]
                                     [--engines local,dask] [--workers 1,2]

Each configuration plays the same solver job into a fresh database: the time to start the
engine, the time to play the deals (wall), deals per second, and the CPU seconds the rows
record per deal. Dask's overhead per deal is its playing time minus the local engine's at the
same worker count, over the deals; a tiny node budget (--nodes 1000) makes it the larger part.
Every configuration must give the same rows (checked).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from kabale.advisor.cli import parse_seeds
from kabale.analysis import analyze, job_for
from kabale.analysis.engines import engine_for
from kabale.storage.results import ResultStore


def measure(engine: str, workers: int, job: object, seeds: list[int],
            folder: Path) -> tuple[float, float, list[tuple[object, ...]], float]:
    """(start seconds, play seconds, rows, CPU seconds per deal) of one configuration."""
    start = time.perf_counter()
    runner = engine_for(engine, workers)
    started = time.perf_counter() - start
    try:
        begin = time.perf_counter()
        outcome = analyze(job, seeds, ResultStore(folder / f"{engine}{workers}.db"), runner,
                          progress=None)
        played = time.perf_counter() - begin
    finally:
        runner.close()
    rows = [(r.seed, r.result, r.moves, r.nodes) for r in outcome.rows]
    return started, played, rows, outcome.summary.seconds / len(seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="klondike:draw=3,open=true")
    parser.add_argument("--seeds", default="1-200")
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--engines", default="local,dask")
    parser.add_argument("--workers", default="1,2")
    args = parser.parse_args()
    job = job_for(args.variant, "solver", nodes=args.nodes)
    seeds = parse_seeds(args.seeds)
    print(f"{args.variant}, solver at {args.nodes} positions, {len(seeds)} deals")
    print(f"{'engine':8} {'workers':>7} {'start s':>8} {'play s':>8} {'deals/s':>8} "
          f"{'CPU s/deal':>10} {'overhead ms/deal':>16}")
    local: dict[int, float] = {}
    first = None
    with tempfile.TemporaryDirectory() as folder:
        for engine in args.engines.split(","):
            for workers in (int(w) for w in args.workers.split(",")):
                started, played, rows, cpu = measure(engine, workers, job, seeds, Path(folder))
                if first is None:
                    first = rows
                assert rows == first, f"{engine} x{workers} gave other rows"
                if engine == "local":
                    local[workers] = played
                overhead = (f"{1000 * (played - local[workers]) / len(seeds):16.2f}"
                            if engine != "local" and workers in local else f"{'-':>16}")
                print(f"{engine:8} {workers:7} {started:8.2f} {played:8.2f} "
                      f"{len(seeds) / played:8.1f} {cpu:10.4f} {overhead}", flush=True)


if __name__ == "__main__":
    main()
