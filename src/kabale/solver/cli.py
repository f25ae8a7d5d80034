"""``kabale solve``: decide a deal with full information and print the line or the verdict.

    kabale solve VARIANT --seed N [--max-seconds S] [--max-nodes N] [--json]
    kabale solve [VARIANT] --deal FILE        (Solvitaire JSON; FILE '-' reads stdin)

Without ``--json`` every verdict prints the deal id, then a ``;`` comment line with the
status, positions and seconds, and how many cards the solver read that a player cannot see
(the replayer skips it); a solved deal then gives its line, one move per line, so the output
is a game log that ``kabale play --text`` replays from a pipe. ``--max-nodes`` alone sets no
time limit: its answer is the same on any machine.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..core import Game, KabaleError
from . import Result, solve
from .lines import strip_line, strips

#: ``kabale solve``'s time limit when neither --max-seconds nor --max-nodes is given
DEFAULT_SECONDS = 10.0


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``solve``'s arguments to its sub-parser."""
    parser.add_argument("variant", nargs="?", help="variant id, e.g. klondike:draw=3,open=true")
    parser.add_argument("--seed", type=int, help="deal number")
    parser.add_argument("--deal", metavar="FILE", help="a deal in Solvitaire JSON ('-': stdin)")
    parser.add_argument("--max-seconds", type=float,
                        help="time limit (default: 10, or none when --max-nodes is given)")
    parser.add_argument("--max-nodes", type=int,
                        help="limit on searched positions: the same verdict, line and count "
                             "on any machine (with no --max-seconds)")
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
    if seconds is None and args.max_nodes is None:
        seconds = DEFAULT_SECONDS
    # a budget in positions alone has no clock: a clock would cut it at a different point on
    # a slower or busier machine, and the verdict would no longer repeat everywhere
    result = solve(game, max_seconds=seconds, max_nodes=args.max_nodes,
                   max_memory_mb=args.max_memory_mb)
    if result.status == "solved" and strips(game):
        # a line a person can follow: stripped of the search's detours, replayed to a win
        result = replace(result, moves=strip_line(game, result.moves).moves)
    if args.json:
        print(json.dumps(result.to_dict(game.deal_id)))
    else:
        print("\n".join([game.deal_id, status_line(game, result), *result.moves]))
    return 0


def status_line(game: Game, result: Result) -> str:
    """The game log's ``;`` comment: status, moves, positions, seconds, the length of the
    line the search found where stripping its detours shortened it, and how many cards the
    solver read that no player could have seen (full information)."""
    line = f" in {len(result.moves)} moves" if result.status == "solved" else ""
    found = f" (the search's line of {result.found} moves, its detours stripped)" \
        if result.status == "solved" and result.found > len(result.moves) else ""
    hidden = unseen_cards(game)
    read = f", reading the {hidden} face-down and stock cards a player cannot see" \
        if hidden else ""
    return (f"; {result.status}{line} after {result.nodes} positions, {result.seconds:.3f} s"
            f"{found}{read}")


def unseen_cards(game: Game) -> int:
    """How many cards of the position a player cannot see: the face-down ones and the
    stock, none in an open variant (Thoughtful: every card dealt face up)."""
    if game.rules.shows_every_card:
        return 0
    return sum(game.state.down) + len(game.state.stock)
