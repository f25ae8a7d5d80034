"""The solver keeps its limits (issue 43 item 9): under a large memory cap a short time
limit used to run 2-3 s (the whole Spider table, on huge pages, was cleared page by page at
the first random probes, before the search first looked at the clock) and the process held
the whole cap however few positions it searched. The table now starts small and doubles as
it fills, so memory follows the positions searched and the clock is kept."""

from __future__ import annotations

import json
import subprocess
import sys

# one solve in a fresh process (no tables kept from an earlier solve): its JSON result and
# the process's peak resident memory before and after, in MiB
PROBE = """
import json, resource, sys
from kabale import Game
from kabale.solver import solve
game = Game.new(sys.argv[1], int(sys.argv[2]))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
limits = json.loads(sys.argv[3])
result = solve(game, **limits)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(json.dumps({"status": result.status, "nodes": result.nodes, "seconds": result.seconds,
                  "before": before, "after": after}))
"""


def probe(variant: str, seed: int, **limits: object) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", PROBE, variant, str(seed), json.dumps(limits)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data: dict[str, float] = json.loads(out.stdout)
    return data


def test_memory_follows_the_positions_searched_not_the_cap() -> None:
    # a million positions need a table of a few dozen MiB: before, a 2 GiB cap touched about
    # 1 GiB of table in that many random probes
    got = probe("spider", 3, max_seconds=None, max_nodes=1_000_000, max_memory_mb=2048)
    assert got["nodes"] == 1_000_000 and got["status"] == "unknown"
    assert got["after"] - got["before"] < 200


def test_the_memory_cap_holds_on_a_long_search() -> None:
    # Spider deal 3 takes millions of positions: the table and the beam's pool fill their
    # shares of the cap, and the process grows by no more than the cap
    got = probe("spider", 3, max_seconds=None, max_nodes=4_000_000, max_memory_mb=64)
    assert got["nodes"] > 1_000_000
    assert got["after"] - got["before"] <= 64


def test_a_short_time_limit_under_a_large_cap_is_kept() -> None:
    # a correctness bound, not a speed test: the limit is 0.5 s and the bound four times
    # that. Before, Spiderette deal 3 ran 2.9 s here and searched 1152 positions: the
    # clearing of a table of 1 GiB on huge pages took the time, not the search
    got = probe("spiderette", 3, max_seconds=0.5, max_memory_mb=4096)
    assert got["status"] in ("solved", "unknown")
    assert got["seconds"] < 2.0
    assert got["nodes"] > 10_000
    assert got["after"] - got["before"] < 400


def test_a_status_is_a_str_enum_that_still_equals_its_word() -> None:
    """Result.status was a plain str (issue 46 item 9); now a StrEnum, which compares,
    prints and goes into JSON as the word it always was."""
    from kabale import Game
    from kabale.solver import solve
    from kabale.solver.result import Status

    result = solve(Game.new("klondike:draw=3,open=true", 2), max_seconds=None, max_nodes=50_000)
    assert isinstance(result.status, Status)
    assert result.status in ("solved", "unsolvable", "unknown")
    assert f"{result.status}" == result.status.value
    assert json.loads(json.dumps(result.to_dict("x")))["status"] == result.status.value
    assert [str(s) for s in Status] == ["solved", "unsolvable", "unknown"]
