"""``kabale report``: markdown tables and PNG plots of an analysis database.

Under the output directory: ``report.md`` (every (variant, player, budget) with its counts,
win rate, 95% interval with the undecided counted both ways, and the command that measures
it again; full information beside the bot; one table per option that compares variants
differing in that option alone; how the solver's effort is distributed), ``winrates.png``
(the intervals per variant and player) and ``effort.png`` (the share of deals the solver
decided within N positions). Plots are drawn with matplotlib's Agg canvas (no display).
"""

from __future__ import annotations

import importlib.util
import os
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from ..core import KabaleError, parse_variant
from ..core.variants import OPTIONS, OptionValue
from ..storage.results import ResultStore, Row
from .summary import Summary, seed_ranges, summarize_all

T = TypeVar("T", int, float)
Others = tuple[tuple[str, OptionValue], ...]  # a variant's other options, sorted by name
PLAYER_ORDER = ("solver", "bot", "random")
PLAYER_NAMES = {"solver": "full information", "bot": "bot", "random": "random"}


def command(summary: Summary) -> str:
    """The ``kabale analyze`` command that measures (and, on a database that has them,
    prints) the summary's rows."""
    budget = summary.budget.partition("=")
    flag = {"nodes": " --nodes ", "effort": " --effort "}.get(budget[0], "")
    value = budget[2] if flag else ""
    return (f"kabale analyze {summary.variant} --seeds {seed_ranges(summary.seeds)} "
            f"--player {summary.player}{flag}{value}")


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.2f}%"


def cell(summary: Summary | None) -> str:
    """A win rate with its interval and sample size, for the comparison tables."""
    if summary is None:
        return ""
    return (f"{percent(summary.rate)} [{percent(summary.low)}, {percent(summary.high)}] "
            f"n={summary.deals}")


def rates_table(summaries: Sequence[Summary]) -> list[str]:
    lines = ["| variant | player | budget | deals | won | lost | undecided | win rate | "
             "95% interval | command |", "|---|---|---|---:|---:|---:|---:|---:|---|---|"]
    for s in summaries:
        lines.append(f"| `{s.variant}` | {s.player} | {s.budget} | {s.deals} | {s.wins} | "
                     f"{s.losses} | {s.undecided} | {percent(s.rate)} | "
                     f"{percent(s.low)} - {percent(s.high)} | `{command(s)}` |")
    return lines


def best_per_player(summaries: Sequence[Summary]) -> dict[tuple[str, str], Summary]:
    """For each (variant, player) the summary of the most deals (ties: the largest budget
    as text order gives it)."""
    best: dict[tuple[str, str], Summary] = {}
    for s in summaries:
        key = (s.variant, s.player)
        if key not in best or (s.deals, s.budget) > (best[key].deals, best[key].budget):
            best[key] = s
    return best


def side_by_side(summaries: Sequence[Summary]) -> list[str]:
    best = best_per_player(summaries)
    players = [p for p in PLAYER_ORDER if any(k[1] == p for k in best)]
    lines = ["| variant | " + " | ".join(PLAYER_NAMES[p] for p in players) + " |",
             "|---|" + "---|" * len(players)]
    for variant in sorted({k[0] for k in best}, key=variant_order):
        lines.append(f"| `{variant}` | " + " | ".join(cell(best.get((variant, p)))
                                                      for p in players) + " |")
    return lines


def variant_order(text: str) -> tuple[int, str]:
    family = parse_variant(text).family
    return list(OPTIONS).index(family), text


def option_tables(summaries: Sequence[Summary]) -> list[str]:
    """Per family and option: the measured variants that differ in that option alone, one
    row per player and setting of the other options, one column per value."""
    best = best_per_player(summaries)
    lines: list[str] = []
    for family, spec in OPTIONS.items():
        for name, values in spec.items():
            rows: dict[tuple[str, Others], dict[object, Summary]] = {}
            for (variant, player), s in best.items():
                parsed = parse_variant(variant)
                if parsed.family == family:
                    others = tuple(sorted((k, v) for k, v in parsed.options.items()
                                          if k != name))
                    rows.setdefault((player, others), {})[parsed[name]] = s
            compared = sorted(((key, by) for key, by in rows.items() if len(by) > 1),
                              key=lambda item: (PLAYER_ORDER.index(item[0][0]), str(item[0][1])))
            if not compared:
                continue
            lines += ["", f"### {family}: {name}", "",
                      "| player | other options | " + " | ".join(
                          f"{name}={str(v).lower()}" for v in values) + " |",
                      "|---|---|" + "---|" * len(values)]
            for (player, others), by in compared:
                shown = ",".join(f"{k}={str(v).lower()}" for k, v in others
                                 if v != spec[k][0]) or "defaults"
                lines.append(f"| {PLAYER_NAMES[player]} | {shown} | " + " | ".join(
                    cell(by.get(v)) for v in values) + " |")
    return lines


def effort_table(summaries: Sequence[Summary], rows: Sequence[Row]) -> list[str]:
    """Positions and CPU seconds of the solver's deals per (variant, budget)."""
    lines = ["| variant | budget | deals | positions: median | p90 | p99 | max | CPU s: "
             "median | p99 | max | mean |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"
             "---:|---:|"]
    for s in summaries:
        if s.player != "solver":
            continue
        mine = [r for r in rows if (r.variant, r.player, r.budget) == (s.variant, s.player,
                                                                       s.budget)]
        nodes = sorted(r.nodes or 0 for r in mine)
        seconds = sorted(r.seconds for r in mine)
        lines.append(f"| `{s.variant}` | {s.budget} | {s.deals} | {quantile(nodes, 0.5):,} | "
                     f"{quantile(nodes, 0.9):,} | {quantile(nodes, 0.99):,} | {nodes[-1]:,} | "
                     f"{quantile(seconds, 0.5):.3f} | {quantile(seconds, 0.99):.2f} | "
                     f"{seconds[-1]:.2f} | {statistics.fmean(seconds):.3f} |")
    return lines


def quantile(ordered: Sequence[T], q: float) -> T:
    """The nearest-rank quantile of sorted values."""
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.5) - 1))]


def plot_rates(summaries: Sequence[Summary], path: Path) -> None:
    """Each measured variant's interval and point estimate, one colour per player."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    best = best_per_player(summaries)
    variants = sorted({k[0] for k in best}, key=variant_order, reverse=True)
    players = [p for p in PLAYER_ORDER if any(k[1] == p for k in best)]
    figure = Figure(figsize=(9, 1.4 + 0.3 * len(variants) * len(players)))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for offset, player in enumerate(players):
        for y, variant in enumerate(variants):
            s = best.get((variant, player))
            if s is None:
                continue
            at = y + 0.25 * (offset - (len(players) - 1) / 2)
            axes.plot([100 * s.low, 100 * s.high], [at, at], color=f"C{offset}", lw=2.5)
            if s.rate is not None:
                axes.plot([100 * s.rate], [at], "o", color=f"C{offset}", ms=4)
    axes.set_yticks(range(len(variants)), variants, fontsize=8)
    axes.set_ylim(-0.6, len(variants) - 0.4)
    axes.set_xlim(0, 100)
    axes.set_xlabel("win rate, % (95% interval; undecided deals counted both ways)")
    axes.grid(axis="x", alpha=0.3)
    handles = [axes.plot([], [], color=f"C{i}", lw=2.5)[0] for i in range(len(players))]
    axes.legend(handles, [PLAYER_NAMES[p] for p in players], loc="lower right", fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def plot_effort(summaries: Sequence[Summary], rows: Sequence[Row], path: Path) -> None:
    """For each solver (variant, budget): the share of its deals decided within N
    positions (log scale), up to its budget."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 5))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for i, s in enumerate(x for x in summaries if x.player == "solver"):
        mine = [r for r in rows if (r.variant, r.player, r.budget) == (s.variant, "solver",
                                                                       s.budget)]
        nodes = sorted(max(1, r.nodes or 1) for r in mine if r.result != "unknown")
        if not nodes:
            continue
        share = [100 * (k + 1) / len(mine) for k in range(len(nodes))]
        axes.step(nodes, share, where="post", color=f"C{i % 10}",
                  ls="-" if i < 10 else "--", label=f"{s.variant} ({s.deals})")
    axes.set_xscale("log")
    axes.set_ylim(0, 100)
    axes.set_xlabel("positions searched")
    axes.set_ylabel("deals decided, % of the sample")
    axes.grid(alpha=0.3)
    axes.legend(fontsize=7, loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def write_report(store: ResultStore, out: str | os.PathLike[str]) -> Path:
    """Write report.md, winrates.png and effort.png under ``out``; returns report.md's
    path."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    rows = store.rows()
    summaries = sorted(summarize_all(rows), key=lambda s: (variant_order(s.variant),
                                                           PLAYER_ORDER.index(s.player),
                                                           s.budget))
    versions = sorted({row.version for row in rows})
    lines = ["# Win rates", "",
             f"{len(rows)} deals from `{store.path.name}` (kabale {', '.join(versions) or '-'})."
             " Win rate: the share of decided deals won; the interval is a 95% Wilson "
             "interval with the undecided deals counted lost at its low end and won at its "
             "high end (Blake & Gent's convention).", ""]
    if not summaries:
        lines.append("No rows yet: run `kabale analyze` first.")
    else:
        if importlib.util.find_spec("matplotlib") is None:
            raise KabaleError("kabale report draws its plots with matplotlib: pip install "
                              "matplotlib (in kabale's venv)")
        plot_rates(summaries, folder / "winrates.png")
        plot_effort(summaries, rows, folder / "effort.png")
        # a heading only over tables: with no two variants differing in one option alone
        # there is nothing to show "By option"
        by_option = option_tables(summaries)
        lines += ["## Every measurement", "", *rates_table(summaries), "",
                  "## Full information beside the bot", "", *side_by_side(summaries), "",
                  "![win rates](winrates.png)", "",
                  *(["## By option", *by_option, ""] if by_option else []),
                  "## Solving effort", "", *effort_table(summaries, rows), "",
                  "![effort](effort.png)"]
    path = folder / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
