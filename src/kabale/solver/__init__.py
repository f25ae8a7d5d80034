"""Decide games with full information: ``solve(game)`` -> :class:`Result`.

The search itself runs in the Cython kernels (``_klondike.pyx``, ``_spider.pyx``), whose
module docstrings list every search-space reduction with the argument that keeps verdicts
right. This package converts core's State to the kernels' packed form, turns the kernels'
winning line back into notation, and replays it through core before reporting it: a line
the rules refuse raises ``SolverBugError`` and is never returned.
"""

from __future__ import annotations

from .result import Result, SolverBugError, release_memory, solve

__all__ = ["Result", "SolverBugError", "release_memory", "solve"]
