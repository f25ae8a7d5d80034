"""Batch runs over many deals (docs/winrates.md, ``kabale analyze`` and ``kabale report``):
a player (the solver with full information, the bot, random moves) on every deal of a range,
on this machine or a Dask or Ray cluster, one row per deal in SQLite, win rates with 95%
intervals, markdown tables and plots."""

from .players import PLAYERS, Job, job_for
from .run import Outcome, analyze
from .summary import Summary, interval, summarize, summarize_all

__all__ = ["PLAYERS", "Job", "Outcome", "Summary", "analyze", "interval", "job_for",
           "summarize", "summarize_all"]
