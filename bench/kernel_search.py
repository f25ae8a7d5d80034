"""One plain exhaustive search of the Klondike kernel per Solvitaire deal (never a test).

    python bench/kernel_search.py --lbdrive /tmp/lb/target/release/lbdrive --draw 3 \\
        --seeds 701,765,155

No lanes, restarts or relaxation: the kernel's depth-first search in its plain order from
the deal, on one thread, with a time limit only. Prints per deal the status (1 solved, 0
unsolvable, -1 limit), the moves the search made (kernel.nodes, table hits included) and
the CPU seconds; then the total. Run it in two builds (a git worktree) to see what a change
to the search does to the positions searched, apart from the lanes' timing.
"""

from __future__ import annotations

import argparse
import time

from kabale.solver.klondike import kernel_for
from kabale.storage.solvitaire import from_solvitaire
from lonelybot import export, variant
from solve import parse_seeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lbdrive", required=True, help="lonelybot's driver (exports the deals)")
    parser.add_argument("--draw", type=int, choices=(1, 3), default=3)
    parser.add_argument("--seeds", default="701,765,155")
    parser.add_argument("--max-seconds", type=float, default=60.0)
    args = parser.parse_args()
    total = 0.0
    for seed in parse_seeds(args.seeds):
        game = from_solvitaire(variant(args.draw), export(args.lbdrive, seed))
        kernel = kernel_for(game, 2048)
        start = time.process_time()
        status, _ = kernel.run(0, args.max_seconds)
        cpu = time.process_time() - start
        total += cpu
        print(f"{seed}\t{status}\t{kernel.nodes}\t{cpu:.2f}", flush=True)
    print(f"total\t\t\t{total:.2f}")


if __name__ == "__main__":
    main()
