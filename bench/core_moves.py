"""Klondike's move rules per call, this tree's core against another revision's (never part of
the test pass/fail).

    python bench/core_moves.py --base HEAD --games 40 --rounds 5

Both cores run in one process: the base revision's ``src/kabale/core`` is unpacked (git
archive) into a temporary package, and each round times the two one after the other on the
same positions and moves, so that the shared machine's load falls on both alike. Positions
come from random games (seeded) of Klondike, Klondike draw 3, Easy Klondike and Double
Klondike; per position: ``legal_moves``, ``legal_move`` of every legal move and of every
column-to-column move that is not, and ``play_line`` of each game's whole line. Prints the
best round's process time per call in microseconds, and the ratio new/base.
"""

from __future__ import annotations

import argparse
import importlib
import io
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ("klondike", "klondike:draw=3", "klondike:empty=any", "klondike:decks=2")


def load_core(rev: str | None, into: Path) -> ModuleType:
    """The ``kabale.core`` package of ``rev`` as a package of its own (None: this tree's)."""
    if rev is None:
        sys.path.insert(0, str(ROOT / "src"))
        return importlib.import_module("kabale.core")
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src/kabale/core"],
                         check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(into, filter="data")
    package = into / "basecore"
    (into / "src/kabale/core").rename(package)
    sys.path.insert(0, str(into))
    return importlib.import_module("basecore")


def workload(core: ModuleType, games: int, seed: int) -> list[tuple[Any, list[Any], list[Any],
                                                                     list[Any]]]:
    """Per game: (rules, positions, moves tried per position, the game's line)."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        game = core.Game.new(VARIANTS[g % len(VARIANTS)], seed=g + 1)
        rules = game.rules
        state = game.state
        n = rules.n_columns
        positions, tried, line = [], [], []
        for _ in range(200):
            legal = rules.legal_moves(state)
            if not legal:
                break
            moves = list(legal)
            for i in range(n):
                for j in range(n):
                    if i != j:
                        moves.append(core.Move(str(i + 1), str(j + 1), 1 + rng.randrange(3),
                                               ""))
            positions.append(state)
            tried.append(moves)
            move = rng.choice(legal)
            line.append(move)
            state = rules.apply(state, move)
        out.append((rules, positions, tried, line, game.state))
    return out


def timed(core: ModuleType, work: list[Any]) -> tuple[float, float, float, int, int, int]:
    """Process seconds of legal_moves, legal_move and play_line over ``work``, and the calls."""
    n_lm = n_one = n_line = 0
    t0 = time.process_time()
    for rules, positions, _, _, _ in work:
        for state in positions:
            rules.legal_moves(state)
            n_lm += 1
    t1 = time.process_time()
    for rules, positions, tried, _, _ in work:
        legal_move = rules.legal_move
        for state, moves in zip(positions, tried, strict=True):
            for move in moves:
                legal_move(state, move)
            n_one += len(moves)
    t2 = time.process_time()
    for rules, _, _, line, start in work:
        rules.play_line(start, line)
        n_line += len(line)
    t3 = time.process_time()
    return t1 - t0, t2 - t1, t3 - t2, n_lm, n_one, n_line


def main(argv: list[str] | None = None) -> int:
    """Time both cores; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD", help="the revision to compare against")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        cores = {"base": load_core(args.base, Path(tmp)), "new": load_core(None, Path(tmp))}
        works = {name: workload(core, args.games, 7) for name, core in cores.items()}
        for name in works:  # the same positions, lines and answers in both
            assert [len(w[1]) for w in works[name]] == [len(w[1]) for w in works["base"]]
        best: dict[str, list[float]] = {name: [1e9, 1e9, 1e9] for name in cores}
        calls: tuple[int, int, int] = (0, 0, 0)
        for _ in range(args.rounds):
            for name, core in cores.items():
                *secs, a, b, c = timed(core, works[name])
                calls = (a, b, c)
                best[name] = [min(x, y) for x, y in zip(best[name], secs, strict=True)]
    print(f"calls: legal_moves {calls[0]}, legal_move {calls[1]}, play_line moves {calls[2]}")
    for i, what in enumerate(("legal_moves", "legal_move", "play_line per move")):
        base, new = best["base"][i] / calls[i] * 1e6, best["new"][i] / calls[i] * 1e6
        print(f"{what:20s} base {base:6.2f} us  new {new:6.2f} us  new/base {new / base:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
