"""``kabale hint`` and ``kabale autoplay``: the advisor from the shell.

    kabale hint [GAME_LOG] [--effort E] [--seed N] [--json]
    kabale autoplay VARIANT [--seeds A-B] [--effort E] [--seed N] [--scheme S] [--json]
    kabale review [GAME_LOG] [--effort E] [--seed N] [--json]

A game log is the deal id on its first line, then one move per line (blank lines and lines
starting with ``#`` or ``;`` are comments); ``kabale solve`` and ``kabale play --text`` write
and read the same form. The hint is the player's: it works from what the log has shown.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TextIO

from ..core import Game, KabaleError
from .bot import Bot, autoplay
from .chance import wilson
from .effort import LEVELS
from .hint import hint
from .review import review
from .seeds import parse_seeds


def configure_hint(parser: argparse.ArgumentParser) -> None:
    """Add ``hint``'s arguments to its sub-parser."""
    parser.add_argument("log", nargs="?", help="game log file (default: stdin)")
    _common(parser)


def configure_review(parser: argparse.ArgumentParser) -> None:
    """Add ``review``'s arguments to its sub-parser (effort quick by default)."""
    parser.add_argument("log", nargs="?", help="game log file (default: stdin)")
    _common(parser)
    parser.set_defaults(effort="quick")


def configure_autoplay(parser: argparse.ArgumentParser) -> None:
    """Add ``autoplay``'s arguments to its sub-parser."""
    parser.add_argument("variant", help="variant id, e.g. klondike:draw=3")
    parser.add_argument("--seeds", default="1", help="deal numbers: 1-100, or 3,17,20-25")
    parser.add_argument("--scheme", choices=["plans", "vote"], default="plans",
                        help="how the bot compares moves (plans)")
    _common(parser)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--effort", choices=LEVELS, default="normal", help="normal")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the sampled worlds (0); the same seed, same answer")
    parser.add_argument("--json", action="store_true", help="print JSON")


def read_log(stream: TextIO, name: str) -> Game:
    """The game a log describes, replayed through the checked path."""
    game = None
    for number, raw in enumerate(stream, 1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        try:
            if game is None:
                game = Game.from_deal_id(line)
            else:
                game.play(line)
        except KabaleError as error:
            raise KabaleError(f"{name} line {number}: {error}") from None
    if game is None:
        raise KabaleError(f"{name} holds no game log (a deal id, then one move per line)")
    return game


def _game_of(args: argparse.Namespace, stdin: TextIO) -> Game:
    """The game of the log named in ``args.log`` (stdin when None)."""
    if args.log is None:
        return read_log(stdin, "stdin")
    try:
        with open(args.log, encoding="utf-8") as handle:
            return read_log(handle, repr(args.log))
    except OSError as error:
        raise KabaleError(f"cannot read {args.log!r}: {error.strerror}") from None


def main_hint(args: argparse.Namespace, stdin: TextIO = sys.stdin,
              stdout: TextIO = sys.stdout) -> int:
    """``kabale hint``."""
    game = _game_of(args, stdin)
    advice = hint(game, effort=args.effort, seed=args.seed)
    if args.json:
        print(json.dumps(advice.to_dict()), file=stdout)
        return 0
    if advice.move is None:
        print(f"no hint: {advice.reason}", file=stdout)
        return 0
    print(f"{advice.move}  ({advice.reason}; won in {advice.chance:.0%} of the worlds tried)",
          file=stdout)
    for move, chance in advice.moves[1:6]:
        print(f"  or {move}  ({chance:.0%})", file=stdout)
    return 0


def main_autoplay(args: argparse.Namespace, stdout: TextIO = sys.stdout) -> int:
    """``kabale autoplay``: one line per deal, then the win rate with its interval."""
    seeds = parse_seeds(args.seeds)
    Game.new(args.variant, 0)  # a bad variant fails before any play
    wins = 0
    for seed in seeds:
        start = time.process_time()
        game = autoplay(args.variant, seed, Bot(args.effort, seed=args.seed + seed,
                                                scheme=args.scheme))
        seconds = time.process_time() - start
        result = {"won": "won", "lost": "lost"}.get(game.outcome, "gave up")
        wins += game.outcome == "won"
        if args.json:
            print(json.dumps({"deal_id": game.deal_id, "result": result,
                              "moves": game.moves_made, "seconds": round(seconds, 3)}),
                  file=stdout)
        else:
            print(f"{game.deal_id}  {result}  {game.moves_made} moves  {seconds:.2f} s",
                  file=stdout, flush=True)
    low, high = wilson(wins, len(seeds))
    summary = f"won {wins} of {len(seeds)} ({wins / len(seeds):.1%}, 95% {low:.1%}-{high:.1%})"
    print(json.dumps({"won": wins, "played": len(seeds), "low": round(low, 4),
                      "high": round(high, 4)}) if args.json else summary, file=stdout)
    return 0


def main_review(args: argparse.Namespace, stdin: TextIO = sys.stdin,
                stdout: TextIO = sys.stdout) -> int:
    """``kabale review``: every move graded from the player's view, the luck of the cards
    turned up, and (the log gives the deal id, so nothing is hidden from its reader) where
    the deal was lost. One line per move, then the totals; --json prints Review.to_dict()."""
    game = _game_of(args, stdin)
    found = review(game, effort=args.effort, seed=args.seed, with_deal=True)
    if args.json:
        print(json.dumps(found.to_dict()), file=stdout)
        return 0
    luck = {entry.index: entry.luck for entry in found.luck}
    for d in found.decisions:
        better = f"  better {d.best} ({d.best_value:.0%} against {d.chosen_value:.0%})" \
            if d.best != d.move and d.best_value is not None and \
            d.chosen_value is not None else ""
        card = f"  card {luck[d.index]:+.0%}" if d.index in luck else ""
        print(f"{d.index + 1:4d}. {d.move:<8} {d.grade:<10}{better}{card}", file=stdout)
    counts = ", ".join(f"{n} {g}" for g, n in found.counts.items() if n)
    print(f"accuracy {found.accuracy:.1f} ({counts}); luck {found.luck_total:+.2f}, "
          f"given away {found.given_away_total:.2f}", file=stdout)
    lost_at = (found.postmortem or {}).get("lost_at")
    if isinstance(lost_at, int):
        print(f"the deal stopped being winnable at move {lost_at + 1}", file=stdout)
    return 0
