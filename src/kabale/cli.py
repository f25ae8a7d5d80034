"""The ``kabale`` command (and ``python -m kabale``): thin glue over the library.

Exit codes: 0 ok, 2 bad usage or input (one line on stderr, never a traceback), 1 a command
that needs the compiled kernels where kabale was built without them (one line saying what to
install), 130 stopped by Ctrl-C (SIGINT), 143 stopped by SIGTERM: a stopped command says on
stderr what it saved and where.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
from collections.abc import Sequence
from types import FrameType
from typing import NoReturn, TextIO

from . import __version__
from .core import Game, KabaleError
from .core.persist import state_to_dict
from .core.variants import describe_variants

#: The compiled modules (setup.py's KERNELS): a build without a C compiler lacks them.
KERNELS = ("kabale.solver._klondike", "kabale.solver._spider", "kabale.env._klondike_batch")
TEXT_HELP = "moves in notation (3>7, 3:2>7, w>f, d), u undo, r redo, ? legal moves, q quit"


class UsageError(Exception):
    """Bad command-line usage; printed as one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit 2 (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see '{self.prog} --help')")


def build_parser(command: str | None = None) -> Parser:
    """The argument parser of every subcommand, with the options of the solver's commands
    (solve, hint, autoplay, analyze, report) only for ``command`` (or all of them for
    "all"): the other commands never import the solver, and ``solve`` never imports the
    advisor."""
    parser = Parser(prog="kabale", description="Spider, Spiderette and Klondike patience.")
    parser.add_argument("--version", action="version", version=f"kabale {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    sub.add_parser("variants", help="list variant ids, options and aliases")

    deal = sub.add_parser("deal", help="print a deal (every card; face-down ones in lower case)")
    deal.add_argument("variant", help="variant id, e.g. klondike:draw=3 (see 'kabale variants')")
    deal.add_argument("--seed", type=int,
                      help="deal number (default: a random one, printed with the deal)")
    form = deal.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="the whole deal as JSON")
    form.add_argument("--format", choices=["text", "json", "solvitaire"], default="text",
                      help="a table (text, the default), JSON, or Solvitaire's deal JSON")

    play = sub.add_parser("play", help="play in the browser (or --text in the terminal)")
    play.add_argument("variant", nargs="?",
                      help="variant id to start with (default: the page's choice)")
    play.add_argument("--seed", type=int,
                      help="deal number to start with (with VARIANT, or Klondike)")
    play.add_argument("--port", type=int,
                      help="port on 127.0.0.1 (default: 8765, or a free one if it is taken; "
                           "0: a free one)")
    play.add_argument("--no-browser", action="store_true",
                      help="print the address but do not open a browser")
    play.add_argument("--db", help="SQLite file for games and statistics (or KABALE_DB)")
    play.add_argument("--effort", choices=["quick", "normal", "strong"], default="quick",
                      help="how hard the page's hints, win chance and bot think (quick: "
                           "they answer while the player waits)")
    play.add_argument("--advice-engine", choices=["local", "dask"],
                      help="where hints and the other help run: local worker processes "
                           "(default), or a Dask scheduler's workers (or KABALE_ADVICE_ENGINE)")
    play.add_argument("--scheduler", metavar="ADDRESS",
                      help="the Dask scheduler, e.g. tcp://10.0.0.5:8786 (or "
                           "KABALE_ADVICE_SCHEDULER); implies --advice-engine dask")
    play.add_argument("--text", action="store_true",
                      help=f"play in the terminal reading stdin: {TEXT_HELP}")

    from .server import serve  # stdlib only at import

    serve.configure(sub.add_parser("serve", help="host kabale for many players (docs/deploy.md)"))
    solve = sub.add_parser("solve", help="decide a deal with full information")
    hint = sub.add_parser("hint", help="the best move of a game log, from the player's view")
    autoplay = sub.add_parser("autoplay", help="the bot plays deals; prints each result")
    review = sub.add_parser("review", help="a game log's moves graded, luck apart from skill")
    analyze = sub.add_parser("analyze", help="win rates over many deals, resumable, in SQLite")
    report = sub.add_parser("report", help="markdown tables and PNG plots of the analyses")
    if command in ("solve", "all"):
        from .solver import cli as solver_cli

        solver_cli.configure(solve)
    if command in ("hint", "autoplay", "review", "all"):
        from .advisor import cli as advisor_cli

        advisor_cli.configure_hint(hint)
        advisor_cli.configure_autoplay(autoplay)
        advisor_cli.configure_review(review)
    if command in ("analyze", "report", "all"):
        from .analysis import cli as analysis_cli

        analysis_cli.configure_analyze(analyze)
        analysis_cli.configure_report(report)
    return parser


#: what a command stopped before its end has saved (the analysis and the server print
#: their own line, as only they know what reached the disk)
SAVED = {"solve": "nothing is saved (a verdict is printed only when the search ends)",
         "deal": "nothing is saved", "variants": "nothing is saved",
         "hint": "nothing is saved", "autoplay": "the deals printed above are all it played"}


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread as Ctrl-C raises KeyboardInterrupt: the same
    clean-up runs (pool workers stopped, the database closed), then exit status 143."""


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise Terminated()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    command = arguments[0] if arguments else None
    if argv is None:  # the kabale command itself, not a caller's test: SIGTERM stops cleanly
        signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        args = build_parser(command).parse_args(arguments)
        return run(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except KabaleError as error:
        print(f"kabale: {error}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as error:
        if error.name not in KERNELS:
            raise
        print(error.msg, file=sys.stderr)  # it names kabale and what to install
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt as stop:
        return stopped(command, isinstance(stop, Terminated))


def stopped(command: str | None, terminated: bool) -> int:
    """Say on stderr that ``command`` was stopped and what it saved; the exit status 143
    after SIGTERM, 130 after Ctrl-C (128 + the signal's number, as a shell reports it)."""
    how = "SIGTERM" if terminated else "Ctrl-C"
    saved = SAVED.get(command or "", "")
    with contextlib.suppress(OSError, ValueError):  # stderr closed: the status still says it
        print(f"kabale {command or ''}: stopped by {how}" + (f"; {saved}" if saved else ""),
              file=sys.stderr, flush=True)
    return 128 + (signal.SIGTERM if terminated else signal.SIGINT)


def run(args: argparse.Namespace) -> int:
    """Dispatch a parsed command."""
    if args.command == "variants":
        print("\n".join(variant_lines()))
        return 0
    if args.command == "deal":
        return print_deal(args)
    if args.command == "play":
        if args.text:
            return play_text(args.variant, args.seed, sys.stdin, sys.stdout)
        if args.variant is not None:
            Game.new(args.variant, 0)  # validate before starting a server
        from .server import launch

        return launch.main(args.variant, args.seed, args.port, not args.no_browser, args.db,
                           args.effort, args.advice_engine, args.scheduler)
    if args.command == "serve":
        from .server import serve

        return serve.main(args)
    if args.command in ("analyze", "report"):
        from .analysis import cli as analysis_cli

        if args.command == "analyze":
            return analysis_cli.main_analyze(args)
        return analysis_cli.main_report(args)
    if args.command in ("hint", "autoplay", "review"):
        from .advisor import cli as advisor_cli

        if args.command == "review":
            return advisor_cli.main_review(args)
        if args.command == "hint":
            return advisor_cli.main_hint(args)
        return advisor_cli.main_autoplay(args)
    from .solver import cli as solver_cli
    from .storage.solvitaire import from_solvitaire

    return solver_cli.main(args, read_deal=from_solvitaire)


#: what an option's values mean where the value alone does not say it
OPTION_NOTES = {"passes": "0: unlimited passes through the stock"}


def variant_lines() -> list[str]:
    """``kabale variants``: core's list, each option line followed by its note if any."""
    lines = []
    for line in describe_variants():
        name = line.strip().partition("=")[0]
        note = OPTION_NOTES.get(name) if line.startswith("    ") and "=" in line else None
        lines.append(f"{line}  ({note})" if note else line)
    return lines


def print_deal(args: argparse.Namespace) -> int:
    """``kabale deal``: the deal as a table, JSON, or Solvitaire's JSON."""
    game = Game.new(args.variant, args.seed)
    if args.format == "solvitaire":
        from .storage.solvitaire import to_solvitaire

        print(json.dumps(to_solvitaire(game)))
    elif args.json or args.format == "json":
        print(json.dumps({"deal_id": game.deal_id, "variant": str(game.variant),
                          "seed": game.seed, "position": state_to_dict(game.state)}))
    else:
        print(open_table(game))
    return 0


def open_table(game: Game) -> str:
    """The text table with every card shown (face-down ones in lower case) and the deal id:
    ``kabale deal`` is a dealer, it hides nothing."""
    from .core.observe import render_table

    obs = game.observe()
    obs["deal_id"] = game.deal_id
    state = game.state
    obs["columns"] = [[str(c) for c in pile] for pile in state.columns]
    obs["stock_cards"] = [str(c) for c in state.stock]
    return render_table(obs)


def play_text(variant: str | None, seed: int | None, stdin: TextIO, stdout: TextIO) -> int:
    """Play in the terminal: one command per line from ``stdin``, the table after each move.

    A line holding a deal id (``VARIANT#N``) before the first move starts that deal, so a game
    log (deal id, then one move per line) replays from a file or a pipe. Blank lines and
    lines starting with ``#`` or ``;`` are comments. Reading a pipe, the first refused move
    ends the run with status 2 (the reason on stderr).
    """
    interactive = stdin.isatty()
    wait_for_deal_id = not (variant or seed is not None or interactive)
    game = None if wait_for_deal_id else Game.new(variant or "klondike", seed)

    def show(text: str) -> None:
        print(text, file=stdout, flush=True)

    if game is not None:
        show(str(game))
    if interactive:
        show(TEXT_HELP)
    for raw in stdin:
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        try:
            if "#" in line and (game is None or game.moves_made == 0):
                game = Game.from_deal_id(line)
                show(str(game))
                continue
            if game is None:
                game = Game.new("klondike")
                show(str(game))
            if line == "q":
                break
            if line == "?":
                show(" ".join(str(m) for m in game.legal_moves()) or "(no legal moves)")
                continue
            if line == "u":
                show(f"undo {game.undo()}")
            elif line == "r":
                show(f"redo {game.redo()}")
            else:
                known = game.deal_known
                game.play(line)
                if not known and game.deal_known:  # the end reveals it: the whole id
                    show(f"the deal was {game.deal_id}")
            show(str(game))
        except KabaleError as error:
            print(f"kabale: {error}", file=sys.stderr, flush=True)
            if not interactive:
                return 2
    return 0
