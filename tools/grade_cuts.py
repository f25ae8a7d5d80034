"""Make the grade cut points the server ships (src/kabale/server/grades.json).

For every variant the solver tells apart (every option but ``open`` and ``scoring``), the
measure of deals 1..N (``kabale.server.deals.measure``: positions the one-lane search visits
to win the deal with every card known, within its family's budget) and the 25th, 50th and
75th percentiles of the deals it won. Resumable: a variant already in the file with the same
number of deals is kept. Run: ``.venv/bin/python tools/grade_cuts.py [--deals 200]
[--only spider]``; it prints one line per variant.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from kabale.core.variants import OPTIONS, Variant
from kabale.server.deals import CUTS_FILE, GRADE_NODES, UNGRADED_OPTIONS, cuts_of, measure


def grading_variants(only: str | None) -> list[Variant]:
    """Every combination of the options the solver sees, family by family."""
    out = []
    for family, spec in OPTIONS.items():
        if only and family != only:
            continue
        names = [n for n in spec if n not in UNGRADED_OPTIONS]
        for values in itertools.product(*(spec[n] for n in names)):
            out.append(Variant(family, dict(zip(names, values, strict=True))))
    return out


def sample(variant: Variant, deals: int) -> dict[str, Any]:
    """The cut points of deals 1..deals of ``variant``, with how many were won."""
    start = time.process_time()
    won = [n for seed in tqdm(range(1, deals + 1), desc=str(variant), leave=False)
           if (n := measure(variant, seed)) is not None]
    return {"deals": deals, "solved": len(won), "cuts": cuts_of(won) if won else None,
            "nodes": GRADE_NODES[variant.family],
            "cpu_seconds": round(time.process_time() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals 1..N per variant (200)")
    parser.add_argument("--only", choices=list(OPTIONS), help="one family only")
    parser.add_argument("--out", type=Path, default=CUTS_FILE, help="the file to write")
    args = parser.parse_args()
    data: dict[str, Any] = {"variants": {}}
    if args.out.exists():
        data = json.loads(args.out.read_text(encoding="utf-8"))
    data["about"] = ("grade cut points (25th, 50th, 75th percentile of the measure among the "
                     "won deals 1..N); made by tools/grade_cuts.py, see kabale.server.deals")
    for variant in grading_variants(args.only):
        key = str(variant)
        old = data["variants"].get(key)
        if old and old["deals"] == args.deals and old["nodes"] == GRADE_NODES[variant.family]:
            continue
        entry = sample(variant, args.deals)
        data["variants"][key] = entry
        data["variants"] = dict(sorted(data["variants"].items()))
        args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"{key:40} won {entry['solved']:3}/{entry['deals']}  cuts {entry['cuts']}  "
              f"{entry['cpu_seconds']} s", flush=True)


if __name__ == "__main__":
    main()
