"""``kabale solve``: decide a deal with full information and print the line or the verdict.

    kabale solve VARIANT --seed N [--max-seconds S] [--max-nodes N] [--json]
    kabale solve [VARIANT] --deal FILE        (Solvitaire JSON; FILE '-' reads stdin)

Without ``--json`` a solved deal prints as a game log (the deal id, then one move per line)
that ``kabale play --text`` replays from a pipe; other verdicts print the deal id and a
``;`` comment line, which the replayer skips.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..core import Game, KabaleError
from ..core.notation import format_game_log
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


def _infer_variant(data: object) -> str:
    """The variant a Solvitaire deal without a named variant most likely is."""
    piles = data.get("tableau piles") if isinstance(data, dict) else None
    if not isinstance(piles, list):
        raise KabaleError("a Solvitaire deal is a JSON object with a 'tableau piles' list")
    if len(piles) == 10:
        suits = {str(c)[-1].upper() for p in piles if isinstance(p, list) for c in p}
        return f"spider:suits={len(suits) if len(suits) in (1, 2) else 4}"
    return "klondike:decks=2" if len(piles) == 9 else "klondike"


DealReader = Callable[[str, dict[str, Any]], Game]


def load_game(args: argparse.Namespace, read_deal: DealReader | None = None) -> Game:
    """The game the arguments name; KabaleError (one line) when they do not name one.

    ``read_deal`` turns a variant and a Solvitaire object into a Game; the solver room may
    import only core, so the caller (kabale.cli) passes ``storage.solvitaire.from_solvitaire``.
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
        except json.JSONDecodeError as error:
            raise KabaleError(f"--deal {args.deal!r} is not JSON: {error}") from None
        return read_deal(args.variant or _infer_variant(data), data)
    if args.variant is None:
        raise KabaleError("solve needs a VARIANT and --seed N, or --deal FILE")
    if args.seed is None:
        raise KabaleError(f"solve {args.variant}: give the deal number with --seed N")
    return Game.new(args.variant, args.seed)


def main(args: argparse.Namespace, read_deal: DealReader | None = None) -> int:
    """Run ``kabale solve``; returns the exit status (0 for every verdict). ``read_deal``
    reads ``--deal`` files (see :func:`load_game`)."""
    game = load_game(args, read_deal)
    if args.max_seconds is not None and args.max_seconds <= 0:
        raise KabaleError(f"bad --max-seconds {args.max_seconds!r}: a positive number")
    result = solve(game, max_seconds=args.max_seconds, max_nodes=args.max_nodes,
                   max_memory_mb=args.max_memory_mb)
    if args.json:
        print(json.dumps(result.to_dict(game.deal_id)))
    else:
        if result.status == "solved":
            print(format_game_log(game.deal_id, result.moves), end="")
        else:
            print(f"{game.deal_id}\n; {result.status} after {result.nodes} positions, "
                  f"{result.seconds:.3f} s")
    return 0
