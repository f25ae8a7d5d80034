"""Which beam rounds solve which Spider-family deals: the data behind BEAM_ROUNDS' order.

    python bench/beam_matrix.py spiderette --seeds 13,53,55 --max-nodes 4000000 --jobs 2
    python bench/beam_matrix.py spider --seeds 15,16 --sizes 20000x256,10000x512 \
        --weights FEW_SPACES,NATURAL --max-nodes 30000000 > matrix.jsonl
    python bench/beam_matrix.py spider --from matrix.jsonl --max-nodes 40000000 \
        --order 20000x256xFEW_SPACES,10000x512xNATURAL
    python bench/beam_matrix.py spiderette --seeds 74,135 --sizes 10000x4096 --whole-runs

Runs every round (each size with each weight set; by default every size and weight set that
the family's BEAM_ROUNDS use) alone, from an empty table, on each deal, with a position
budget, and prints one JSON object per run: seed, budget, width, weights (their name),
status (1 solved, 0 failed, -1 budget spent, 2 unsolvable) and positions; with
``--whole-runs`` the rounds move whole runs only, as the beam's first stage does (there,
2 means only that no line of whole runs wins). Position budgets make the runs repeat
exactly, so the matrix can be gathered on a busy machine. Then ``--order`` replays rounds in
a given order on the printed matrix (``--from FILE``) and tells which deals that order
solves within ``--max-nodes`` per deal, counting every failed round's positions on the way.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from kabale import Game
from kabale.solver import spider
from kabale.solver._spider import SpiderPhases
from kabale.solver.status import PhaseCode

NAMES = {getattr(spider, name): name for name in ("BALANCED", "FEW_TURNS", "MANY_TURNS",
                                                  "FEW_SPACES", "BREAKS", "NATURAL")}
Job = tuple[str, int, int, int, str, int, bool]


def run_alone(job: Job) -> dict[str, Any]:
    """One round alone on one deal (the Python layer's SpiderPhases with its default pool)."""
    variant, seed, budget, width, weights, max_nodes, whole_runs = job
    phases = SpiderPhases(*spider.kernel_args(Game.new(variant, seed)), 128, 256)
    spider.weigh(phases, getattr(spider, weights))
    phases.whole_runs = whole_runs
    status, _ = spider.beam(phases, budget, width, 0.0, max_nodes)
    return {"seed": seed, "budget": budget, "width": width, "weights": weights,
            "status": status, "nodes": phases.nodes}


def replay_order(rows: list[dict[str, Any]], order: list[tuple[int, int, str]],
                 max_nodes: int) -> dict[int, int]:
    """{seed: positions spent until solved} for the deals ``order`` solves within max_nodes,
    from a matrix's rows (a round missing from the matrix is an error)."""
    cell = {(r["seed"], r["budget"], r["width"], r["weights"]): r for r in rows}
    solved: dict[int, int] = {}
    for seed in sorted({r["seed"] for r in rows}):
        spent = 0
        for budget, width, weights in order:
            run = cell[(seed, budget, width, weights)]
            spent += run["nodes"]
            if spent > max_nodes:
                break
            if run["status"] == PhaseCode.SOLVED:
                solved[seed] = spent
                break
    return solved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--seeds", default="", help="comma-separated deal numbers")
    parser.add_argument("--sizes", default="", help="BUDGETxWIDTH,... (default: the family's)")
    parser.add_argument("--weights", default="", help="weight set names (default: the family's)")
    parser.add_argument("--max-nodes", type=int, default=4_000_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--order", default="", help="BUDGETxWIDTHxWEIGHTS,... to replay")
    parser.add_argument("--from", dest="matrix", default="", help="a matrix printed before")
    parser.add_argument("--whole-runs", action="store_true",
                        help="move whole runs only (the beam's first stage)")
    args = parser.parse_args(argv)
    if args.order:
        text = Path(args.matrix).read_text(encoding="utf-8")
        rows = [json.loads(line) for line in text.splitlines() if line]
        order = [(int(b), int(w), name) for b, w, name in
                 (item.split("x") for item in args.order.split(","))]
        solved = replay_order(rows, order, args.max_nodes)
        print(f"solved {len(solved)} of {len({r['seed'] for r in rows})}: {solved}")
        return 0
    family = Game.new(args.variant, 1).variant.family
    rounds = spider.BEAM_ROUNDS[family]
    sizes = [tuple(int(x) for x in item.split("x")) for item in args.sizes.split(",")] \
        if args.sizes else sorted({(b, w) for b, w, _ in rounds})
    weights = args.weights.split(",") if args.weights else \
        sorted({NAMES[ws] for _, _, ws in rounds})
    unknown = [name for name in weights if name not in NAMES.values()]
    if unknown or not args.seeds:
        parser.error(f"bad weights {unknown}: one of {sorted(NAMES.values())}" if unknown
                     else "--seeds is required")
    jobs = [(args.variant, int(seed), budget, width, name, args.max_nodes, args.whole_runs)
            for budget, width in sizes for name in weights for seed in args.seeds.split(",")]
    with ProcessPoolExecutor(args.jobs) as pool:
        for row in pool.map(run_alone, jobs):
            print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
