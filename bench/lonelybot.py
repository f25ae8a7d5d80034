"""kabale's Klondike solver against lonelybot on the same deals, in one run (never a test).

    ../shared/peers/lonelybot/build.sh /tmp/lb          # builds lbdrive, prints its path
    python bench/lonelybot.py --lbdrive /tmp/lb/target/release/lbdrive --draw 1 --seeds 1-1000
    python bench/lonelybot.py --lbdrive ... --draw 3 --seeds 1-1000 --one-shot 200

The deals are Solvitaire's ``--random N`` seeds, exported by ``lbdrive print solvitaire N``
and read by kabale's Solvitaire reader (thoughtful Klondike: every card known, unlimited
passes, cards may come back from the foundations, only Kings on empty columns: the rules
lonelybot plays). lonelybot is only ever run as a separate program; it is no dependency.

In one process: lonelybot's ``lbdrive solve`` runs the deals one after the other and reports
its solver thread's CPU time per deal; kabale runs ``kabale.solve`` on each deal in this
process and is charged the process's CPU time (every thread, the replay through core
included); the two take turns, STRETCH deals at a time. As one-shot processes
(``--one-shot N``, the first N deals): one process per deal for each solver, charged the
child's user and system time and its peak resident memory (measured by a small C
launcher); kabale's is ``kabale solve --deal FILE --json``.

Prints, per solver: verdict counts, unknowns at the limit, and the median and mean CPU per
deal over the deals both decided; then verdict agreement (deals both decided with different
verdicts are listed: each is a bug in one of them). CPU time still varies by a few per cent
with the load of a shared machine: repeat a run before reading much into a small change.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from kabale import Game, solve
from kabale.storage.solvitaire import from_solvitaire

sys.path.insert(0, str(Path(__file__).parent))
from solve import parse_seeds  # noqa: E402  (bench/solve.py, beside this file)


@dataclass
class Row:
    status: str
    cpu: float          # seconds
    peak_kb: int = 0    # one-shot only


def export(lbdrive: str, seed: int) -> dict[str, object]:
    """Solvitaire's deal ``seed`` as lonelybot prints it (its one extra key dropped: kabale's
    reader names the foundations ``foundations``, and a deal's are empty)."""
    text = subprocess.run([lbdrive, "print", "solvitaire", str(seed)], check=True,
                          capture_output=True, text=True).stdout
    data = json.loads(text)
    data.pop("foundation", None)
    return data


# the in-process runs take turns by this many deals, so that a change in the machine's speed
# during a run weighs on both solvers alike (run one after the other, lonelybot's mean over
# the same deals moved by a fifth between two runs of the same binary)
STRETCH = 25


def variant(draw: int) -> str:
    return "klondike:open=true" + (",draw=3" if draw == 3 else "")


def lonelybot_in_process(lbdrive: str, seeds: list[int], draw: int,
                         limit: float) -> dict[int, Row]:
    """lbdrive's TSV rows, one run per stretch of consecutive seeds."""
    rows: dict[int, Row] = {}
    start = 0
    while start < len(seeds):
        end = start
        while end + 1 < len(seeds) and seeds[end + 1] == seeds[end] + 1:
            end += 1
        out = subprocess.run([lbdrive, "solve", "solvitaire", str(seeds[start]),
                              str(end - start + 1), str(draw), str(limit)],
                             check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split("\t")
            if parts[0].isdigit():
                rows[int(parts[0])] = Row(parts[1], float(parts[6]))
        start = end + 1
    return rows


def kabale_in_process(games: dict[int, Game], limit: float) -> dict[int, Row]:
    rows: dict[int, Row] = {}
    for seed, game in games.items():
        start = time.process_time()
        result = solve(game, max_seconds=limit)
        rows[seed] = Row(result.status, time.process_time() - start)
    return rows


def alternating(lbdrive: str, games: dict[int, Game], draw: int,
                limit: float) -> tuple[dict[int, Row], dict[int, Row]]:
    """Both solvers in one process each, taking turns by STRETCH deals: (lonelybot's rows,
    kabale's rows)."""
    lone: dict[int, Row] = {}
    kab: dict[int, Row] = {}
    seeds = list(games)
    for start in range(0, len(seeds), STRETCH):
        part = seeds[start:start + STRETCH]
        lone.update(lonelybot_in_process(lbdrive, part, draw, limit))
        kab.update(kabale_in_process({seed: games[seed] for seed in part}, limit))
    return lone, kab


# a launcher for one-shot runs: a child that this (large) process started directly would
# report this process's resident size as its own peak (Linux carries the peak over the exec),
# and GNU time counts CPU in hundredths of a second, too coarse for lonelybot's easy deals
LAUNCHER = r"""
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char** argv) {
    struct rusage u;
    int status;
    pid_t pid = fork();
    if (pid == 0) { execvp(argv[2], argv + 2); _exit(127); }
    wait4(pid, &status, 0, &u);
    FILE* f = fopen(argv[1], "w");
    fprintf(f, "%ld.%06ld %ld.%06ld %ld\n", (long)u.ru_utime.tv_sec, (long)u.ru_utime.tv_usec,
            (long)u.ru_stime.tv_sec, (long)u.ru_stime.tv_usec, u.ru_maxrss);
    fclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
"""


def build_launcher(folder: str) -> str:
    """Compile LAUNCHER (with the system's C compiler) into ``folder``; its path."""
    source = Path(folder, "launch.c")
    source.write_text(LAUNCHER)
    binary = str(Path(folder, "launch"))
    subprocess.run(["cc", "-O2", "-o", binary, str(source)], check=True)
    return binary


def child(launcher: str, argv: list[str]) -> tuple[str, float, int]:
    """Run argv as one process: (its stdout, user + system seconds, peak RSS in KiB)."""
    with tempfile.NamedTemporaryFile("r") as report:
        out = subprocess.run([launcher, report.name, *argv], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout
        user, system, peak = report.read().split()
    return out, float(user) + float(system), int(peak)


def one_shot(lbdrive: str, deals: dict[int, dict[str, object]], draw: int,
             limit: float) -> tuple[dict[int, Row], dict[int, Row]]:
    """Both solvers, one process per deal: (kabale's rows, lonelybot's rows)."""
    kab: dict[int, Row] = {}
    lone: dict[int, Row] = {}
    with tempfile.TemporaryDirectory() as folder:
        launcher = build_launcher(folder)
        for seed, data in deals.items():
            path = Path(folder, f"{seed}.json")
            path.write_text(json.dumps(data))
            out, cpu, peak = child(launcher, [sys.executable, "-m", "kabale", "solve",
                                              variant(draw), "--deal", str(path), "--json",
                                              "--max-seconds", str(limit)])
            kab[seed] = Row(json.loads(out)["status"], cpu, peak)
            out, cpu, peak = child(launcher, [lbdrive, "solve", "solvitaire", str(seed), "1",
                                              str(draw), str(limit)])
            status = next(line.split("\t")[1] for line in out.splitlines()
                          if line.split("\t")[0].isdigit())
            lone[seed] = Row(status, cpu, peak)
    return kab, lone


def summary(name: str, rows: dict[int, Row], both: list[int], memory: bool = False) -> None:
    counts = {s: sum(r.status == s for r in rows.values()) for s in
              ("solved", "unsolvable", "unknown")}
    cpu = [rows[s].cpu * 1e3 for s in both]
    line = (f"  {name:9s} solved {counts['solved']:4d}  unsolvable {counts['unsolvable']:4d}  "
            f"unknown {counts['unknown']:3d}   CPU per deal over {len(both)} both decided: "
            f"median {statistics.median(cpu):8.3f} ms  mean {statistics.fmean(cpu):8.3f} ms")
    if memory:
        peak = statistics.median(r.peak_kb for r in rows.values()) / 1024
        line += f"  peak RSS median {peak:.1f} MB"
    print(line)


def compare(title: str, kab: dict[int, Row], lone: dict[int, Row], memory: bool = False) -> None:
    both = [s for s in kab if kab[s].status != "unknown" and lone[s].status != "unknown"]
    against = [s for s in both if kab[s].status != lone[s].status]
    print(title)
    summary("kabale", kab, both, memory)
    summary("lonelybot", lone, both, memory)
    if both:
        kmean = statistics.fmean(kab[s].cpu for s in both)
        lmean = statistics.fmean(lone[s].cpu for s in both)
        print(f"  mean ratio kabale / lonelybot {kmean / lmean:.2f}; verdicts agree on "
              f"{len(both) - len(against)} of {len(both)} deals both decided"
              + (f"; DISAGREE on {against}" if against else ""))
    print(f"  unknown: kabale {[s for s in kab if kab[s].status == 'unknown']}, "
          f"lonelybot {[s for s in lone if lone[s].status == 'unknown']}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lbdrive", required=True, help="lonelybot's driver (build.sh)")
    parser.add_argument("--draw", type=int, choices=(1, 3), default=1)
    parser.add_argument("--seeds", default="1-1000", help="A-B, A,B,C or a mix")
    parser.add_argument("--max-seconds", type=float, default=10.0)
    parser.add_argument("--one-shot", type=int, default=0, metavar="N",
                        help="also run the first N deals as one process each")
    parser.add_argument("--skip-in-process", action="store_true")
    parser.add_argument("--rows", metavar="FILE",
                        help="write every deal's verdicts and CPU seconds to FILE (JSON)")
    args = parser.parse_args(argv)
    seeds = parse_seeds(args.seeds)
    deals = {seed: export(args.lbdrive, seed) for seed in seeds}
    label = f"draw {args.draw}, Solvitaire seeds {args.seeds}, {args.max_seconds:g} s limit"
    if not args.skip_in_process:
        games = {seed: from_solvitaire(variant(args.draw), data) for seed, data in deals.items()}
        lone, kab = alternating(args.lbdrive, games, args.draw, args.max_seconds)
        compare(f"in one process ({label})", kab, lone)
        if args.rows:
            with open(args.rows, "w", encoding="utf-8") as handle:
                json.dump({seed: {"kabale": [kab[seed].status, kab[seed].cpu],
                                  "lonelybot": [lone[seed].status, lone[seed].cpu]}
                           for seed in seeds}, handle)
    if args.one_shot:
        first = dict(list(deals.items())[:args.one_shot])
        kab, lone = one_shot(args.lbdrive, first, args.draw, args.max_seconds)
        compare(f"one process per deal ({label}, first {len(first)} deals)", kab, lone, True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
