"""Compare the Klondike kernel's speed with a baseline build of it, in one process.

    git worktree add /tmp/base REV && (cd /tmp/base && python setup.py build_ext --inplace)
    python bench/kernel_ab.py --baseline /tmp/base/src/kabale/solver --seeds 23,393,998,5

Both kernels search the same deals from scratch with the same node limit, one after the
other in rounds (baseline, current, current, baseline, ...), so that a change of the
machine's speed hits both alike; the ratio of their CPU times per round is printed, with
the median. Each search must end with the same status and node count in both builds (a
change meant only to speed the kernel up searches the same positions), otherwise the
deal is reported as a different search.
"""

from __future__ import annotations

import argparse
import glob
import importlib.machinery
import importlib.util
import os
import statistics
import time
from types import ModuleType

from kabale import Game
from kabale.solver import _klondike, klondike


def load_kernel(folder: str) -> ModuleType:
    """The _klondike extension module built in ``folder``."""
    paths = glob.glob(os.path.join(folder, "_klondike*.so")) + \
        glob.glob(os.path.join(folder, "_klondike*.pyd"))
    if not paths:
        raise SystemExit(f"no built _klondike module in {folder!r}: build it there first")
    loader = importlib.machinery.ExtensionFileLoader("kabale.solver._klondike", paths[0])
    spec = importlib.util.spec_from_file_location("kabale.solver._klondike", paths[0],
                                                  loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def search(module: ModuleType, game: Game, nodes: int) -> tuple[float, int, int]:
    """(CPU seconds, status, positions) of one search of ``nodes`` positions at most, with
    the kernel of ``module``."""
    kernel = module.KlondikeKernel(*klondike.kernel_args(game), 256)
    kernel.max_depth = 0
    start = time.process_time()
    status, _ = kernel.run(nodes, 0.0)
    return time.process_time() - start, status, kernel.nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="folder of the baseline build")
    parser.add_argument("--variant", default="klondike:draw=3,open=true")
    parser.add_argument("--seeds", default="23,393,998,5")
    parser.add_argument("--nodes", type=int, default=2_000_000)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    base = load_kernel(args.baseline)
    games = [Game.new(args.variant, seed=int(s)) for s in args.seeds.split(",")]
    ratios: list[float] = []
    for round_ in range(args.rounds):
        order = [(base, _klondike), (_klondike, base)][round_ % 2]
        spent = {id(base): 0.0, id(_klondike): 0.0}
        for game in games:
            results = {}
            for module in order:
                seconds, status, nodes = search(module, game, args.nodes)
                spent[id(module)] += seconds
                results[id(module)] = (status, nodes)
            if results[id(base)] != results[id(_klondike)]:
                print(f"  {game.deal_id}: a different search: (status, positions) "
                      f"{results[id(base)]} in the baseline, {results[id(_klondike)]} now")
        ratios.append(spent[id(_klondike)] / spent[id(base)])
        print(f"round {round_ + 1}: baseline {spent[id(base)]:.2f} s, "
              f"current {spent[id(_klondike)]:.2f} s, ratio {ratios[-1]:.3f}", flush=True)
    print(f"median ratio current / baseline: {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
