"""Decide games with full information: ``solve(game)`` -> :class:`Result`.

The search itself runs in the Cython kernels (``_klondike.pyx``, ``_spider.pyx``), whose
module docstrings list every search-space reduction (Spider's with its argument; Klondike's
arguments are in docs/solver.md). This package converts core's State to the kernels' packed
form, turns the kernels' winning line back into notation, and replays it through core before
reporting it: a line the rules refuse raises ``SolverBugError`` and is never returned.
"""

from __future__ import annotations

from .result import Result, SolverBugError, release_memory, solve

#: What a missing kernel says: kabale was built without a C compiler (setup.py).
NOT_COMPILED = ("kabale's solver is not compiled (kabale was installed without a C compiler "
                "or Python's headers): install them (Debian, Ubuntu: apt-get install "
                "build-essential python3-dev), then reinstall kabale with pip install "
                "--force-reinstall --no-cache-dir")

try:
    from . import _klondike, _spider  # noqa: F401  (the compiled kernels)
except ModuleNotFoundError as error:
    if error.name not in (f"{__name__}._klondike", f"{__name__}._spider"):
        raise
    raise ModuleNotFoundError(NOT_COMPILED, name=error.name) from None

__all__ = ["Result", "SolverBugError", "release_memory", "solve"]
