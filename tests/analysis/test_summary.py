"""Win rates and their intervals: Wilson's interval with undecided deals counted both ways."""

from __future__ import annotations

import pytest

from kabale.analysis import interval, summarize, summarize_all
from kabale.analysis.summary import seed_ranges
from kabale.storage.results import Row


@pytest.mark.parametrize(("wins", "deals", "low", "high"), [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I:
    # the Wilson score interval of his examples
    (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718)])
def test_the_interval_without_undecided_deals_is_wilsons(wins: int, deals: int, low: float,
                                                         high: float) -> None:
    assert interval(wins, 0, deals) == pytest.approx((low, high), abs=5e-5)


def test_undecided_deals_count_lost_at_the_low_end_and_won_at_the_high_end() -> None:
    # 66 won, 15 undecided of 263: the low end is 66/263's, the high end 81/263's
    low, high = interval(66, 15, 263)
    assert low == pytest.approx(interval(66, 0, 263)[0])
    assert high == pytest.approx(0.3662, abs=5e-5)
    assert low < 66 / 263 < 81 / 263 < high


def row(seed: int, result: str, player: str = "solver", variant: str = "klondike") -> Row:
    return Row(variant, seed, player, "nodes=10", result, 0, 10, 0.5, "0.1.0")


def test_a_summary_counts_every_result_and_rates_the_decided_deals() -> None:
    rows = [row(1, "solved"), row(2, "solved"), row(3, "unsolvable"), row(5, "unknown"),
            row(4, "solved")]
    s = summarize(rows)
    assert (s.deals, s.wins, s.losses, s.undecided) == (5, 3, 1, 1)
    assert s.counts == {"solved": 3, "unsolvable": 1, "unknown": 1}
    assert s.rate == pytest.approx(0.75)
    assert (s.low, s.high) == interval(3, 1, 5)
    assert s.seconds == pytest.approx(2.5) and s.seeds == (1, 2, 3, 4, 5)
    assert "won 75.00% (95% " in s.line() and "undecided counted both ways" in s.line()
    assert s.to_dict()["seeds"] == "1-5"


def test_a_bot_that_gave_up_lost() -> None:
    s = summarize([row(1, "won", "bot"), row(2, "gave up", "bot"), row(3, "lost", "bot")])
    assert (s.wins, s.losses, s.undecided, s.rate) == (1, 2, 0, pytest.approx(1 / 3))


def test_nothing_decided_has_no_rate_and_the_widest_interval_its_deals_allow() -> None:
    s = summarize([row(1, "unknown"), row(2, "unknown")])
    assert s.rate is None and s.low == 0.0 and s.high == 1.0
    assert "no deal decided" in s.line()


def test_rows_are_grouped_by_variant_player_and_budget() -> None:
    groups = summarize_all([row(1, "solved"), row(1, "won", "bot"), row(2, "lost", "bot"),
                            row(1, "solved", variant="spider")])
    assert [(g.variant, g.player, g.deals) for g in groups] == [
        ("klondike", "bot", 2), ("klondike", "solver", 1), ("spider", "solver", 1)]


def test_seed_ranges_write_what_parse_seeds_reads() -> None:
    from kabale.advisor.cli import parse_seeds

    seeds = [9, 1, 2, 3, 5, 7, 8, 3]
    text = seed_ranges(seeds)
    assert text == "1-3,5,7-9"
    assert parse_seeds(text) == sorted(set(seeds))
