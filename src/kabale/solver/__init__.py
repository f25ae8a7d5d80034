"""Decide games with full information: ``solve(game)`` -> :class:`Result`.

The search itself runs in the Cython kernels (``_klondike.pyx``, ``_spider.pyx``), whose
module docstrings list every search-space reduction (Spider's with its argument; Klondike's
arguments are in docs/solver.md). This package converts core's State to the kernels' packed
form, turns the kernels' winning line back into notation, and replays it through core before
reporting it: a line the rules refuse raises ``SolverBugError`` and is never returned.
"""

from __future__ import annotations

from importlib import import_module

from .result import Result, SolverBugError, release_memory, solve

#: What a missing kernel says: kabale was built without a C compiler (setup.py).
NOT_COMPILED = ("kabale's solver is not compiled (kabale was installed without a C compiler "
                "or Python's headers): install them (Debian, Ubuntu: apt-get install "
                "build-essential python3-dev), then reinstall kabale with pip install "
                "--force-reinstall --no-cache-dir")

#: The compiled kernels' module names.
KERNELS = (f"{__name__}._klondike", f"{__name__}._spider")


def _load_kernels() -> None:
    """Import the kernels, or raise ModuleNotFoundError(NOT_COMPILED, name=the kernel): the
    one line that kabale's command, server and API show for a build without them.

    ``from . import _klondike`` is not used: with the kernel absent, it raises a plain
    ImportError that blames a circular import. ``import_module`` names the missing module.
    A kernel that is there but cannot be loaded (a build for another Python, say) raises an
    ImportError naming it too, and is reported the same way, with its reason."""
    for kernel in KERNELS:
        try:
            import_module(kernel)
        except ImportError as error:
            if error.name != kernel:
                raise
            reason = "" if isinstance(error, ModuleNotFoundError) else f" ({error})"
            raise ModuleNotFoundError(NOT_COMPILED + reason, name=kernel) from None


_load_kernels()

__all__ = ["Result", "SolverBugError", "release_memory", "solve"]
