"""Deals the page can ask for besides a plain random one: winnable, graded and daily deals.

- Winnable: a deal that the solver has won with every card known.
- Graded: a winnable deal of one of four grades, easy, medium, hard, expert, by one measure
  for every variant: the positions the solver's deterministic one-lane search
  (``solver.batch.solve_states``, the search behind the advisor) visits before it wins the
  deal, within ``GRADE_NODES`` of its family. The grades are that count's quarters among the
  variant's winnable deals: the cut points (``grades.json``, made by ``tools/grade_cuts.py``
  from deals 1..N of every variant the solver tells apart) are its 25th, 50th and 75th
  percentiles. A deal the search does not win within the budget is neither winnable nor
  graded here. The count depends only on the deal and the budget, so anyone can check a
  grade, and it is cheap enough to find graded deals among random deal numbers from 2^64
  while the player waits (a shipped list of deal numbers would let anyone match the face-up
  cards against it).
- Daily: the day's deal of a variant, the same for every player of one server (the players
  whose games one database holds) and unknowable to them until the day is over
  (:func:`daily_seed`): its number comes from the day's key, an HMAC of the date under a
  secret kept in the server's database (storage.secret), and is published with that key, its
  proof, once the day has passed (:func:`past_daily`). Days are UTC days (:func:`utc_today`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from kabale.core.deal import deck_for, random_seed
from kabale.core.errors import KabaleError
from kabale.core.game import Game, rules_for
from kabale.core.variants import Variant, parse_variant

GRADES = ("easy", "medium", "hard", "expert")
#: the search's budget per deal (positions) for grading and for "winnable"
GRADE_NODES = {"klondike": 1_000_000, "spiderette": 2_000_000, "spider": 2_000_000}
#: options that do not change the solver's search (it sees every card; scores do not matter)
UNGRADED_OPTIONS = ("open", "scoring")
#: how long a request may look for a deal among random deal numbers (interactive use only)
SEARCH_SECONDS = 2.0
#: a grade needs cut points from at least this many winnable deals
MIN_SAMPLE = 20
CUTS_FILE = Path(__file__).with_name("grades.json")
FIRST_DAY = dt.date(2000, 1, 1)


class NoDealFoundError(KabaleError):
    """No deal of the kind asked for was found within the search's time."""


class DayNotOverError(KabaleError):
    """A past daily deal was asked for a day that is not over yet (UTC)."""


@dataclass(frozen=True)
class DealInfo:
    """What the page may show about how a deal was chosen: ``winnable`` (the solver won it),
    ``grade`` and ``measure`` (positions to the win, see the module docstring) with the
    grade's ``band`` of measures, and ``daily`` (the date of a daily deal)."""

    winnable: bool = False
    grade: str | None = None
    measure: int | None = None
    band: tuple[int, int | None] | None = None
    daily: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON object stored with the game and sent to the page."""
        return {"winnable": self.winnable, "grade": self.grade, "measure": self.measure,
                "band": list(self.band) if self.band else None, "daily": self.daily}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DealInfo:
        """Read back what :meth:`to_dict` stored (unknown keys are ignored)."""
        band = data.get("band")
        return cls(bool(data.get("winnable")), data.get("grade"), data.get("measure"),
                   (band[0], band[1]) if band else None, data.get("daily"))


def grading_key(variant: Variant) -> str:
    """The variant as the solver sees it: without the options it ignores."""
    options = {k: v for k, v in variant.options.items() if k not in UNGRADED_OPTIONS}
    return str(Variant(variant.family, options))


@cache
def cut_points() -> dict[str, dict[str, Any]]:
    """The shipped cut points: grading key -> {"cuts": [q25, q50, q75], "solved", "deals"}."""
    data: dict[str, dict[str, Any]] = json.loads(CUTS_FILE.read_text(encoding="utf-8"))
    return data["variants"]


def measure(variant: Variant, seed: int) -> int | None:
    """Positions the one-lane search visits to win deal ``seed`` with every card known, or
    None when it does not win it within the family's budget (lost, or undecided)."""
    # Imported here: the server imports this module for DealInfo even in a kabale built
    # without the solver's kernels, where only the routes that search refuse.
    from kabale.solver.batch import solve_states

    state = rules_for(variant).layout(deck_for(variant, seed))
    (verdict,) = solve_states(variant, [state], GRADE_NODES[variant.family])
    return verdict.nodes if verdict.status == "solved" else None


def percentile(values: list[int], share: float) -> int:
    """The value below which ``share`` of the sorted ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def cuts_of(measures: list[int]) -> list[int]:
    """The cut points of a sample of measures: its 25th, 50th and 75th percentiles."""
    return [percentile(measures, share) for share in (0.25, 0.5, 0.75)]


def bands(variant: Variant) -> dict[str, tuple[int, int | None]]:
    """Each grade's measures, (lowest, highest or None) for the variant; KabaleError when
    the variant has no cut points (too few of its deals are won to grade them)."""
    entry = cut_points().get(grading_key(variant))
    if entry is None or entry["solved"] < MIN_SAMPLE:
        won = f"{entry['solved']} of {entry['deals']}" if entry else "no sample of"
        raise KabaleError(f"no graded deals for {variant}: the solver wins {won} its deals "
                          f"within its budget, too few to grade; ask for a winnable deal")
    q25, q50, q75 = entry["cuts"]
    return {"easy": (0, q25), "medium": (q25 + 1, q50), "hard": (q50 + 1, q75),
            "expert": (q75 + 1, None)}


def grade_of(variant: Variant, nodes: int) -> tuple[str, tuple[int, int | None]] | None:
    """The grade of a winnable deal whose measure is ``nodes``, with its band (None when
    the variant is not graded)."""
    try:
        graded = bands(variant)
    except KabaleError:
        return None
    for grade, (low, high) in graded.items():
        if nodes >= low and (high is None or nodes <= high):
            return grade, (low, high)
    return None


def info_for(variant: Variant, nodes: int | None, daily: str | None = None) -> DealInfo:
    """The DealInfo of a deal whose measure is ``nodes`` (None: not won within budget)."""
    if nodes is None:
        return DealInfo(daily=daily)
    graded = grade_of(variant, nodes)
    grade, band = graded if graded else (None, None)
    return DealInfo(True, grade, nodes, band, daily)


def find_deal(variant: Variant, grade: str | None,
              seconds: float = SEARCH_SECONDS) -> tuple[int, DealInfo]:
    """A random deal number from 2^64 whose deal is winnable (and of ``grade`` if given),
    looked for for at most about ``seconds``; NoDealFoundError when none turned up."""
    wanted = bands(variant)[grade] if grade is not None else None
    deadline = time.monotonic() + seconds
    tried = 0
    while True:
        seed = random_seed()
        nodes = measure(variant, seed)
        tried += 1
        if nodes is not None and (wanted is None or (
                nodes >= wanted[0] and (wanted[1] is None or nodes <= wanted[1]))):
            return seed, info_for(variant, nodes)
        if time.monotonic() > deadline:
            kind = f"{grade} deal" if grade else "winnable deal"
            raise NoDealFoundError(f"no {kind} of {variant} turned up among {tried} random "
                                   f"deals in {seconds:g} s; ask again")


def check_grade(grade: object) -> str:
    """``grade`` if it is one of GRADES, else KabaleError naming the valid ones."""
    if grade not in GRADES:
        raise KabaleError(f"bad grade {grade!r}; valid: {', '.join(GRADES)}")
    return str(grade)


def utc_today() -> dt.date:
    """Today's date in UTC: the day a daily deal belongs to, on every server."""
    return dt.datetime.now(dt.UTC).date()


def parse_day(day: object) -> dt.date:
    """A date "YYYY-MM-DD" from FIRST_DAY on, else KabaleError."""
    if isinstance(day, str) and len(day) == 10:
        try:
            date = dt.date.fromisoformat(day)
        except ValueError:
            date = None
        if date is not None and date >= FIRST_DAY:
            return date
    raise KabaleError(f"bad date {day!r}: a date YYYY-MM-DD from {FIRST_DAY} on")


def check_day(day: object, today: dt.date) -> dt.date:
    """The date a daily-deal request names: True or today's "YYYY-MM-DD" (UTC), else
    KabaleError. Tomorrow's deal is not dealt before tomorrow (whoever played it a day early
    would know its cards on its day), and a past day's number is published (past_daily), so
    it is played by its deal id, as any deal whose number is known."""
    if day is True or day == today.isoformat():
        return today
    if isinstance(day, str):
        try:
            date = parse_day(day)
        except KabaleError:
            date = None
        if date is not None and date < today:
            raise KabaleError(f"bad daily {day!r}: that day is over and its deal's number is "
                              f"published (GET /api/daily/past); play it by its deal id")
    raise KabaleError(f"bad daily {day!r}: true or today's date, {today} (UTC)")


def day_key(secret: bytes, date: dt.date) -> str:
    """The day's key (hex): HMAC-SHA256 under the server's secret of ``"kabale daily
    YYYY-MM-DD"``. Published once the day is over; without the secret, no key of another day
    follows from it."""
    text = f"kabale daily {date.isoformat()}"
    return hmac.new(secret, text.encode(), hashlib.sha256).hexdigest()


def daily_seed(variant: Variant, date: dt.date, secret: bytes) -> int:
    """The day's deal number of a variant: the first 8 bytes (big endian) of the sha256 of
    ``"kabale daily VARIANT YYYY-MM-DD KEY"``, VARIANT in its canonical form
    (``kabale.core.variants``), KEY the day's key in hex (:func:`day_key`)."""
    text = f"kabale daily {variant} {date.isoformat()} {day_key(secret, date)}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def past_daily(variant: Variant, date: dt.date, secret: bytes,
               today: dt.date) -> dict[str, Any]:
    """A past day's daily deal with its proof: the number, the deal id and its hash (the
    ``deal_hash`` its games showed during the day), and the day's key that gives the number
    by the rule of :func:`daily_seed`. KabaleError while the day is not over (UTC)."""
    if date >= today:
        raise DayNotOverError(f"the day {date} is not over yet (today is {today}, UTC): its daily "
                          "deal's number is published once it is")
    seed = daily_seed(variant, date, secret)
    deal_id = f"{variant}#{seed}"
    return {"variant": str(variant), "date": date.isoformat(), "seed": seed,
            "deal_id": deal_id, "deal_hash": hashlib.sha256(deal_id.encode()).hexdigest(),
            "day_key": day_key(secret, date),
            "rule": "seed = first 8 bytes, big-endian, of sha256('kabale daily VARIANT "
                    "YYYY-MM-DD DAY_KEY')"}


def secret_game(variant: str | Variant, seed: int) -> Game:
    """Deal ``seed`` of ``variant`` with its number kept secret while it is played (the
    player did not choose it: a random, winnable, graded or daily deal)."""
    parsed = parse_variant(variant)
    start = rules_for(parsed).layout(deck_for(parsed, seed))
    return Game(parsed, start, f"{parsed}#{seed}", seed, deal_known=False)
