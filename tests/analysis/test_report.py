"""``kabale report`` renders its tables and plots from a small fixture database."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.image import imread

from kabale.analysis.report import write_report
from kabale.storage.results import ResultStore, Row


def fixture(path: Path) -> ResultStore:
    """Thoughtful draw 1 and draw 3 with full information, draw 1 by the bot, and Spiderette
    under both deal rules; some deals undecided."""
    rows = []

    def add(variant: str, player: str, budget: str, results: list[str]) -> None:
        for seed, result in enumerate(results, start=1):
            nodes = None if player != "solver" else 10 ** (seed % 5 + 2)
            rows.append(Row(variant, seed, player, budget, result, 100 + seed, nodes,
                            0.01 * seed, "0.1.0"))

    add("klondike:open=true", "solver", "nodes=1000000", ["solved"] * 9 + ["unsolvable"])
    add("klondike:draw=3,open=true", "solver", "nodes=1000000",
        ["solved"] * 6 + ["unsolvable"] * 3 + ["unknown"])
    add("klondike:open=true", "bot", "effort=normal", ["won", "lost", "gave up", "lost"])
    add("spiderette", "solver", "nodes=1000000", ["solved"] * 19 + ["unsolvable"])
    add("spiderette:strict=false", "solver", "nodes=1000000", ["solved"] * 20)
    store = ResultStore(path)
    assert store.add(rows) == len(rows)
    return store


def test_the_report_has_every_table_and_plot(tmp_path: Path) -> None:
    path = write_report(fixture(tmp_path / "fixture.db"), tmp_path / "out")
    text = path.read_text()
    assert path == tmp_path / "out" / "report.md"
    assert "64 deals from `fixture.db` (kabale 0.1.0)" in text
    # every measurement, with its counts, rate, interval (undecided both ways) and command
    assert ("| `klondike:draw=3,open=true` | solver | nodes=1000000 | 10 | 6 | 3 | 1 | 66.67% | "
            "31.27% - 89.22% | `kabale analyze klondike:draw=3,open=true --seeds 1-10 --player "
            "solver --nodes 1000000` |") in text
    assert "`kabale analyze klondike:open=true --seeds 1-4 --player bot --effort normal`" in text
    # full information beside the bot
    assert ("| `klondike:open=true` | 90.00% [59.58%, 98.21%] n=10 | 25.00% [4.56%, 69.94%] "
            "n=4 |") in text
    # one table per option that varies alone: draw (Klondike), strict (Spiderette)
    assert "### klondike: draw" in text and "### spiderette: strict" in text
    assert ("| full information | open=true | 90.00% [59.58%, 98.21%] n=10 | 66.67% [31.27%, "
            "89.22%] n=10 |") in text
    assert ("| full information | defaults | 95.00% [76.39%, 99.11%] n=20 | 100.00% "
            "[83.89%, 100.00%] n=20 |") in text
    assert "### klondike: open" not in text  # no pair differs in it alone
    # the solver's effort: positions and CPU seconds
    assert "| `spiderette` | nodes=1000000 | 20 | 10,000 | 1,000,000 |" in text
    for name in ("winrates.png", "effort.png"):
        assert f"]({name})" in text
        image = imread(tmp_path / "out" / name)
        assert image.shape[0] > 200 and image.shape[1] > 500


def test_an_empty_database_says_so(tmp_path: Path) -> None:
    path = write_report(ResultStore(tmp_path / "empty.db"), tmp_path / "out")
    assert "No rows yet: run `kabale analyze` first." in path.read_text()
    assert not (tmp_path / "out" / "winrates.png").exists()


def test_wilson_at_the_edges_of_the_fixture() -> None:
    from kabale.analysis import interval

    assert interval(20, 0, 20) == pytest.approx((0.8389, 1.0), abs=5e-5)


def test_no_by_option_heading_without_a_table_under_it(tmp_path: Path) -> None:
    """One variant measured: no two differ in one option, so no empty "By option" heading
    (issue 46 item 9); the report's other sections are all there."""
    store = ResultStore(tmp_path / "one.db")
    store.add([Row("klondike", seed, "solver", "nodes=1000", "solved", 100, 500, 0.01, "0.1.0")
               for seed in (1, 2, 3)])
    text = write_report(store, tmp_path / "out").read_text()
    assert "## By option" not in text
    assert "## Every measurement" in text and "## Solving effort" in text
    assert "\n\n\n" not in text
