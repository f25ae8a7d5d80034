"""``kabale solve``: decide a deal with full information and print the line or the verdict.

    kabale solve VARIANT --seed N [--max-seconds S] [--max-nodes N] [--json]
    kabale solve [VARIANT] --deal FILE        (Solvitaire JSON; FILE '-' reads stdin)

Without ``--json`` every verdict prints the deal id, then a ``;`` comment line with the
status, positions and seconds (the replayer skips it); a solved deal then gives its line, one
move per line, so the output is a game log that ``kabale play --text`` replays from a pipe.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from typing import Any

from ..core import Game, KabaleError
from . import solve


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``solve``'s arguments to its sub-parser."""
    parser.add_argument("variant", nargs="?", help="variant id, e.g. klondike:draw=3,open=true")
    parser.add_argument("--seed", type=int, help="deal number")
    parser.add_argument("--deal", metavar="FILE", help="a deal in Solvitaire JSON ('-': stdin)")
    parser.add_argument("--max-seconds", type=float, default=10.0, help="time limit (10)")
    parser.add_argument("--max-nodes", type=int, help="limit on searched positions")
    parser.add_argument("--max-memory-mb", type=int, default=512,
                        help="memory for the search (512)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


DealReader = Callable[[str | None, Any], Game]


def load_game(args: argparse.Namespace, read_deal: DealReader | None = None) -> Game:
    """The game the arguments name; KabaleError (one line) when they do not name one.

    ``read_deal`` turns a variant (None: the deal's own) and a Solvitaire object into a
    Game; the solver room may import only core, so the caller (kabale.cli) passes
    ``storage.solvitaire.from_solvitaire``.
    """
    if args.deal is not None:
        if read_deal is None:
            raise KabaleError("--deal is read by the kabale command (kabale.cli passes the "
                              "Solvitaire reader); run 'kabale solve --deal FILE'")
        if args.seed is not None:
            raise KabaleError("give either --seed or --deal, not both")
        try:
            if args.deal == "-":
                text = sys.stdin.read()
            else:
                with open(args.deal, encoding="utf-8") as handle:
                    text = handle.read()
            data = json.loads(text)
        except OSError as error:
            raise KabaleError(f"cannot read --deal {args.deal!r}: {error.strerror}") from None
        except UnicodeDecodeError:
            raise KabaleError(f"--deal {args.deal!r} is not UTF-8 text") from None
        except RecursionError:
            raise KabaleError(f"--deal {args.deal!r} is JSON nested too deeply") from None
        except ValueError as error:  # JSONDecodeError, or a number of thousands of digits
            raise KabaleError(f"--deal {args.deal!r} is not JSON: {error}") from None
        try:
            return read_deal(args.variant, data)
        except KabaleError as error:
            raise KabaleError(f"--deal {args.deal!r}: {error}") from None
    if args.variant is None:
        raise KabaleError("solve needs a VARIANT and --seed N, or --deal FILE")
    if args.seed is None:
        raise KabaleError(f"solve {args.variant}: give the deal number with --seed N")
    return Game.new(args.variant, args.seed)


def main(args: argparse.Namespace, read_deal: DealReader | None = None) -> int:
    """Run ``kabale solve``; returns the exit status (0 for every verdict). ``read_deal``
    reads ``--deal`` files (see :func:`load_game`)."""
    game = load_game(args, read_deal)
    seconds = args.max_seconds
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        raise KabaleError(f"bad --max-seconds {seconds!r}: a positive finite number of seconds")
    result = solve(game, max_seconds=args.max_seconds, max_nodes=args.max_nodes,
                   max_memory_mb=args.max_memory_mb)
    if args.json:
        print(json.dumps(result.to_dict(game.deal_id)))
    else:
        line = f" in {len(result.moves)} moves" if result.status == "solved" else ""
        status = (f"; {result.status}{line} after {result.nodes} positions, "
                  f"{result.seconds:.3f} s")
        print("\n".join([game.deal_id, status, *result.moves]))  # a game log with a comment
    return 0
