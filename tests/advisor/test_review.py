"""review(): each decision graded from the player's view on paired worlds, luck apart."""

from __future__ import annotations

import json

import pytest
from advice_games import deal_of, played, twins

from kabale import Game, KabaleError, solve
from kabale.advisor import EFFORTS, knowledge, review
from kabale.advisor.effort import Effort, scaled
from kabale.advisor.postmortem import prefix
from kabale.advisor.review import (
    FORCED,
    GRADES,
    THRESHOLDS,
    _decision,
    _Values,
    grade,
    grade_move,
    move_accuracy,
)
from kabale.core import Move
from kabale.core.state import IN_STOCK, STOCK, Place


def small(family: str) -> Effort:
    """A tiny budget: the tests check what a review promises, not how well it judges."""
    return scaled(EFFORTS[family]["quick"], chance_samples=6, chance_nodes=400, reach=3,
                  exact_nodes=20_000)


def test_grades_follow_the_stated_thresholds() -> None:
    assert [name for name, _ in THRESHOLDS] == list(GRADES[:-1])
    assert grade(0.0) == "best"
    for (name, bound), after in zip(THRESHOLDS, GRADES[1:], strict=True):
        assert grade(bound) == name
        assert grade(bound + 0.001) == after
    assert grade(1.0) == "blunder"


def test_accuracy_falls_with_the_chance_given_away() -> None:
    assert move_accuracy(0.0) == 100.0
    figures = [move_accuracy(x / 20) for x in range(21)]
    assert figures == sorted(figures, reverse=True) and figures[-1] < figures[1] < 100
    assert 45 < move_accuracy(0.15) < 55
    assert move_accuracy(1.0) == 0.0


def test_a_lost_game_reviewed_json_safe_with_the_true_deal() -> None:
    game = played("klondike", 3, 80)
    seen: list[tuple[int, int]] = []
    found = review(game, small("klondike"), seed=5, progress=lambda d, t: seen.append((d, t)),
                   with_deal=True)
    data = found.to_dict()
    assert json.loads(json.dumps(data, allow_nan=False)) == data
    assert len(found.decisions) == game.moves_made
    assert seen[-1] == (game.moves_made + 1, game.moves_made + 1) and len(seen) == len(
        found.decisions) + 1
    assert sum(found.counts.values()) == game.moves_made
    assert set(found.counts) == {*GRADES, FORCED}
    graded = [d for d in found.decisions if d.grade != FORCED]
    assert graded, "a random game has choices"
    for d in graded:
        assert d.given_away == pytest.approx(d.best_value - d.chosen_value)
        assert d.grade == grade(d.given_away)
        assert (d.best == d.move) == (d.given_away == 0)
    assert 0 <= found.accuracy <= 100
    assert found.accuracy == pytest.approx(
        sum(move_accuracy(d.given_away) for d in graded) / len(graded))
    assert found.given_away_total == pytest.approx(sum(d.given_away for d in graded))
    assert found.luck_total == pytest.approx(sum(e.luck for e in found.luck))
    assert data["drift_total"] == round(found.drift_total, 4)
    assert all(found.decisions[e.index].reveals for e in found.luck)
    assert data["postmortem"] is not None and "lost_at" in data["postmortem"]
    for d in found.decisions:  # the better move's fate on the true deal, for the worst ones
        bad = d.grade in ("mistake", "blunder")
        assert (d.true_best is not None) == bad and (d.true_chosen is not None) == bad


def test_the_same_game_and_seed_give_the_same_review() -> None:
    game = played("klondike:draw=3", 4, 40)
    assert review(game, small("klondike"), 9).to_dict() == \
        review(game.copy(), small("klondike"), 9).to_dict()


def next_shown_twins(game: Game) -> list[Game]:
    """Games with ``game``'s history in which a card the player has never seen but would see
    next (the top face-down card of a column, or the top stock card) trades places with
    another unseen card of another kind: what a peek would notice soonest."""
    k = knowledge(game)
    index = {place: i for i, place in enumerate(game.rules.deal_places())}

    def slot(pile: str, i: int) -> int:
        return index[Place(IN_STOCK, i) if pile == STOCK else Place(int(pile) - 1, i)]

    unseen = list(k.unseen)
    tops = [spot for spot in unseen if (spot[0] == STOCK and spot[1] == len(k.stock) - 1) or
            (spot[0] != STOCK and spot[1] == k.down[int(spot[0]) - 1] - 1)]
    deck = deal_of(game)
    out = []
    for top in tops[:4]:
        a = slot(*top)
        b = next((slot(*spot) for spot in reversed(unseen) if deck[slot(*spot)] != deck[a]),
                 None)
        if b is None:
            continue
        swapped = list(deck)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        twin = Game.from_deck(game.variant, swapped)
        for move in game.history:
            twin.play(move)
        out.append(twin)
    return out


@pytest.mark.parametrize("variant, moves", [("klondike", 60), ("spider:suits=2", 40),
                                             ("spiderette", 40)])
def test_cards_never_seen_do_not_change_the_review(variant: str, moves: int) -> None:
    game = played(variant, 2, moves)
    family = game.variant.family
    expected = review(game, small(family), 1, with_deal=False).to_dict()
    others = twins(game, 2) + next_shown_twins(game)
    assert len(others) >= 4
    for twin in others:
        assert review(twin, small(family), 1, with_deal=False).to_dict() == expected


def test_a_won_game_has_nothing_left_to_lose() -> None:
    for seed in range(1, 30):  # every card known: one world, the true one
        game = Game.new("thoughtful", seed)
        result = solve(game, max_seconds=None, max_nodes=200_000)
        if result.status == "solved":
            break
    assert result.status == "solved"
    for move in result.moves:
        game.play(move)
    assert game.outcome == "won"
    found = review(game, small("klondike"), 0)
    assert found.outcome == "won" and found.end == 1.0 and found.deal_id == game.deal_id
    assert found.postmortem is not None and found.postmortem["lost_at"] is None
    assert found.counts["blunder"] == found.counts["mistake"] == 0


@pytest.mark.parametrize("variant", ["spider:suits=1", "spiderette:suits=2"])
def test_the_spider_family_over_with_the_deal(variant: str) -> None:
    game = played(variant, 7, 60)
    game.reveal()  # given up: the deal may be read
    found = review(game, small(game.variant.family), 3, with_deal=True)
    data = found.to_dict()
    assert json.loads(json.dumps(data, allow_nan=False)) == data
    assert len(found.decisions) == game.moves_made
    deals = [d for d in found.decisions if d.move == "d"]
    assert all(d.reveals for d in deals)


def test_a_bad_seed_is_refused() -> None:
    with pytest.raises(KabaleError, match="seed"):
        review(Game.new("klondike", 1), small("klondike"), seed=-1)


def test_coach_s_grade_is_the_review_s_and_sees_no_hidden_card() -> None:
    game = played("klondike", 6, 30)
    level = small("klondike")
    decisions = review(game, level, 2, with_deal=False).decisions
    for i in (5, 17, 29):
        before = prefix(game, i)
        got = grade_move(before, game.history[i], level, 2)
        assert got == decisions[i]
        for twin in twins(before, 2):
            assert grade_move(twin, game.history[i], level, 2) == got
    with pytest.raises(KabaleError, match="not a move"):
        grade_move(game, "1>1", level)


def _found(worlds: dict[str, list[float]], open_worlds: dict[str, list[bool]] | None = None,
           exact: bool = False) -> tuple[dict[str, Move], _Values]:
    moves = {text: Move(*text.split(">")) for text in worlds}
    got = {moves[t]: w for t, w in worlds.items()}
    shut = {moves[t]: w for t, w in (open_worlds or {}).items()}
    return moves, _Values({m: sum(w) / len(w) for m, w in got.items()},
                          {m: m for m in got}, dict.fromkeys(got, False), got, exact, shut)


def test_a_gap_within_chance_grades_nothing() -> None:
    # one world of 128 between the moves: within chance, so no real choice
    moves, found = _found({"1>2": [1.0] + [0.0] * 127, "3>4": [0.0] * 128})
    d = _decision(0, moves["3>4"], found)
    assert d.grade == FORCED and d.given_away == 0.0
    # the same gap when the worlds are every one there is: a real gap
    moves, found = _found({"1>2": [1.0] + [0.0] * 127, "3>4": [0.0] * 128}, exact=True)
    assert _decision(0, moves["3>4"], found).grade == "good"
    # 20 worlds of 128 the best wins and the move played loses: a blunder of 20/128
    best = [1.0] * 20 + [0.0] * 108
    moves, found = _found({"1>2": best, "3>4": [0.0] * 128, "5>6": [0.0] + best[:-1]})
    d = _decision(0, moves["3>4"], found)
    assert d.grade == "blunder" and d.best == str(moves["1>2"])
    assert abs(d.given_away - 20 / 128) < 1e-9
    # a move only a world away from that best is graded best, the best being no better
    d = _decision(0, moves["5>6"], found)
    assert d.grade == "best" and d.best == str(moves["5>6"]) and d.given_away == 0.0


def test_a_world_left_open_after_the_last_spider_deal_grades_nothing() -> None:
    won = [1.0] * 16
    open_ = [0.3] * 16  # undecided: half the progress
    moves, found = _found({"1>2": won, "3>4": open_},
                          {"1>2": [False] * 16, "3>4": [True] * 16})
    assert _decision(0, moves["3>4"], found).grade == FORCED
    lost = [0.0] * 8 + open_[8:]
    moves, found = _found({"1>2": won, "3>4": lost},
                          {"1>2": [False] * 16, "3>4": [False] * 8 + [True] * 8})
    d = _decision(0, moves["3>4"], found)
    assert d.grade == "blunder" and d.given_away == 0.5  # the 8 proved lost of 16
