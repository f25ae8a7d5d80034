"""How long the winning lines shown to a player are (never part of the test pass/fail).

    python bench/line_lengths.py spider --seeds 9100001-9100016 --max-nodes 20000000 \
        --short-nodes 1000000

For each deal: ``kabale solve``'s search with a budget in positions (the line it found, and
the line it shows: kabale.solve's, stripped of detours by kabale.solver.lines.strip_line),
then the shortest line that beams counting every move against a position find
(kabale.solver.lines.short_line, ``--short-nodes`` positions per try): a yardstick, not a
proved shortest. Prints a Markdown table and the totals. Everything is deterministic
(budgets in positions): the same numbers on any machine; only the seconds vary.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace

from kabale import Game
from kabale.advisor.cli import parse_seeds
from kabale.solver import solve
from kabale.solver.lines import SHORT_TRIES, short_line, strip_line


def main(argv: list[str] | None = None) -> int:
    """Run the table; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--seeds", required=True)
    parser.add_argument("--max-nodes", type=int, default=20_000_000)
    parser.add_argument("--short-nodes", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    print(f"{args.variant}, solve --max-nodes {args.max_nodes}, short_line "
          f"--short-nodes {args.short_nodes} per try")
    print("| deal | verdict | positions | search's line | shown | solve s | shortest found "
          "| short s | shown / shortest |")
    print("|---|---|---|---|---|---|---|---|---|")
    ratios: list[float] = []
    found_total = shown_total = 0
    wins = [0] * len(SHORT_TRIES)  # deals each try won
    bests = [0] * len(SHORT_TRIES)  # deals where it found the shortest line
    for seed in parse_seeds(args.seeds):
        game = Game.new(args.variant, seed)
        start = time.perf_counter()
        result = solve(game, max_seconds=None, max_nodes=args.max_nodes)
        if result.status == "solved":  # the line kabale solve shows
            result = replace(result, moves=strip_line(game, result.moves).moves)
        solve_s = time.perf_counter() - start
        if result.status != "solved":
            print(f"| {seed} | {result.status} | {result.nodes} | | | {solve_s:.1f} | | | |")
            continue
        start = time.perf_counter()
        lengths = []  # each try alone: short_line over all of them is the shortest of these
        for index, attempt in enumerate(SHORT_TRIES):
            short = short_line(game, args.short_nodes, tries=[attempt])
            lengths.append(len(short.moves) if short else None)
            wins[index] += short is not None
        short_s = time.perf_counter() - start
        shortest = min([len(result.moves), *(n for n in lengths if n is not None)])
        for index, length in enumerate(lengths):
            bests[index] += length == shortest
        ratio = len(result.moves) / shortest
        ratios.append(ratio)
        found_total += result.found
        shown_total += len(result.moves)
        print(f"| {seed} | solved | {result.nodes} | {result.found} | {len(result.moves)} | "
              f"{solve_s:.1f} | {shortest} | {short_s:.1f} | {ratio:.2f} |", flush=True)
    if ratios:
        print(f"\nsolved {len(ratios)}: search's lines {found_total} moves, shown "
              f"{shown_total} ({shown_total / found_total:.2f}); shown / shortest found: "
              f"median {statistics.median(ratios):.2f}, max {max(ratios):.2f}")
        print("\nshort_line's tries (w_len, whole runs, beam round): deals won, deals where "
              "shortest")
        for attempt, won, best in zip(SHORT_TRIES, wins, bests, strict=True):
            print(f"- {attempt}: {won}, {best}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
