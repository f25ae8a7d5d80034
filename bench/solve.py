"""Benchmark the solver over a range of deals (never part of the test pass/fail).

    python bench/solve.py klondike:draw=3,open=true --seeds 1-1000 --max-seconds 10 [--jobs 2]
    python bench/solve.py spiderette --seeds 1-200 --max-seconds 0 --max-nodes 2000000
    python bench/solve.py klondike:draw=3,open=true --seeds 5,17,161 --max-seconds 30 --verbose

With ``--max-nodes`` (and no time limit) the verdicts repeat exactly from run to run and
machine to machine (a node limit runs one lane whatever the cores), so a change to the
search can be compared deal by deal; time limits swing by a few deals with the load of the
machine. Under a time limit alone Spiderette's search runs two lanes at once, one thread
each (kabale.solver.spider.LANES): to give each deal both cores, as its time limit assumes,
measure it with ``--jobs 1``.

Prints solved / unsolvable / unknown counts, the median, mean and 99th percentile of the
seconds per deal, and the peak resident memory of the process (of the largest worker with
--jobs). Every solved line has been replayed through core by ``solve`` itself.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from kabale import Game
from kabale.solver import solve


def parse_seeds(text: str) -> list[int]:
    """The seeds of "A-B" (inclusive), "A,B,C" or a mix ("1-10,23")."""
    seeds: list[int] = []
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        try:
            span = range(int(first), int(last or first) + 1)
        except ValueError:
            span = range(0)
        if not span:
            raise SystemExit(f"bad --seeds {text!r}: give A-B, A,B,C or a mix such as 1-10,23")
        seeds.extend(span)
    return seeds


def one(job: tuple[str, int, float, int | None, int]) -> tuple[int, str, float, int, int]:
    variant, seed, max_seconds, max_nodes, memory = job
    result = solve(Game.new(variant, seed), max_seconds=max_seconds or None,
                   max_nodes=max_nodes, max_memory_mb=memory)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return seed, result.status, result.seconds, result.nodes, peak_kb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--seeds", default="1-100",
                        help="A-B (inclusive), A,B,C or a mix such as 1-10,23")
    parser.add_argument("--max-seconds", type=float, default=10.0, help="0: no time limit")
    parser.add_argument("--max-nodes", type=int, default=None,
                        help="a position budget per deal: unlike time, the same on any machine")
    parser.add_argument("--max-memory-mb", type=int, default=512)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args(argv)
    jobs = [(args.variant, seed, args.max_seconds, args.max_nodes, args.max_memory_mb)
            for seed in parse_seeds(args.seeds)]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(one, jobs, chunksize=4))
    else:
        rows = [one(job) for job in jobs]
    wall = time.perf_counter() - start
    counts = {status: sum(r[1] == status for r in rows) for status in
              ("solved", "unsolvable", "unknown")}
    times = sorted(r[2] for r in rows)
    if args.verbose:
        for seed, status, seconds, nodes, _ in rows:
            print(f"{seed:8d} {status:10s} {seconds:8.3f}s {nodes:12d} nodes")
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    limits = [f"{args.max_seconds:g}s"] if args.max_seconds else []
    limits += [f"{args.max_nodes} nodes"] if args.max_nodes else []
    print(f"{args.variant}  seeds {args.seeds}  max {' '.join(limits) or 'none'}  "
          f"jobs {args.jobs}")
    print("  " + "  ".join(f"{k} {v} ({100 * v / len(rows):.1f}%)" for k, v in counts.items()))
    print(f"  seconds per deal: median {statistics.median(times):.4f}  "
          f"mean {statistics.fmean(times):.4f}  p99 {p99:.4f}  max {times[-1]:.3f}")
    print(f"  peak memory {max(r[4] for r in rows) / 1024:.0f} MiB  wall {wall:.1f}s")
    unknown = [r[0] for r in rows if r[1] == "unknown"]
    if unknown:
        print(f"  unknown seeds: {unknown[:40]}{' ...' if len(unknown) > 40 else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
