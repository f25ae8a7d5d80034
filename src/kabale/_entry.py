"""The ``kabale`` command's first step (and ``python -m kabale``'s): Ctrl-C while kabale is
still being imported stops it with the same one line and status as later, not a traceback.

``import kabale`` costs next to nothing (its names are imported on first use), so this
module runs within a few milliseconds of the interpreter's start and catches the rest.
"""

from __future__ import annotations

import sys


def main() -> int:
    """Import the command line, then run it; 130 and one line on Ctrl-C during the import."""
    try:
        from kabale.cli import main as command_line
    except KeyboardInterrupt:
        command = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else ""
        print(f"kabale {command}: stopped by Ctrl-C while starting; nothing was done",
              file=sys.stderr, flush=True)
        return 130
    return command_line()
