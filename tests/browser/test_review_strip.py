"""The page's look back grades the moves: a strip coloured by grade, the accuracy, a step to
any move and the better move shown on the table (issue 49)."""

from __future__ import annotations

import random
import re

import pytest
from helpers import body, new_page, open_game
from liveserver import LiveServer
from playwright.sync_api import Browser, expect
from positions import store_game

import kabale
from kabale.advisor.effort import effort_for
from kabale.advisor.review import grade_move
from kabale.server.advice import position_seed

GRADES = ("g-best", "g-good", "g-inaccuracy", "g-mistake", "g-blunder", "g-forced")


def random_game(moves: int) -> kabale.Game:
    """Deal 3 of Klondike after ``moves`` random moves (seeded)."""
    game = kabale.Game.new("klondike", 3)
    rng = random.Random(3)
    for _ in range(moves):
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.slow  # the review is worked out while the page waits (about 10 s here)
def test_a_given_up_game_s_moves_are_graded_in_the_look_back(server: LiveServer,
                                                             browser: Browser) -> None:
    # A stored game (a fixed id, so the review's seed is fixed): the page must show the grades
    # the library gives it.
    game = random_game(40)
    store_game(server.db, "strip-1", game)
    expected = kabale.review(game, "quick", position_seed(game), with_deal=True)
    grades = [f"g-{d.grade}" for d in expected.decisions]
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?game=strip-1")
    page.click("#btn-new")
    page.click("#btn-resign")
    page.click("#ask-buttons button.primary")
    page.click("#btn-look-back")
    cells = page.locator("#grades-strip li button")
    expect(cells).to_have_count(40, timeout=120_000)
    expect(page.locator("#grades-summary")).to_contain_text(
        f"Accuracy {expected.accuracy:.1f} of 100")
    assert [cells.nth(i).get_attribute("class") for i in range(40)] == grades
    assert page.locator("#review-moves li[class*='g-']").count() == 40
    # Step to a move that was not the best: the position it was chosen in, the words about
    # it, then the better move played on the table instead.
    worse = next(d for d in expected.decisions if d.grade not in ("best", "forced"))
    cells.nth(worse.index).click()
    expect(page.locator("#review-step")).to_contain_text(
        "The deal" if worse.index == 0 else f"After move {worse.index} of 40")
    # in words, not notation (issue 48)
    expect(page.locator("#grades-note")).to_contain_text(f"Move {worse.index + 1}, ")
    expect(page.locator("#grades-note")).to_contain_text("Better was ")
    note = page.locator("#grades-note").inner_text()
    assert not re.search(r"[0-9wf]>|>[0-9f]|\bd\b", note), note
    page.click("#grades-better")
    expect(page.locator("#review-step")).to_contain_text(f"Move {worse.index + 1} played as ")
    step = page.locator("#review-step").inner_text()
    assert not re.search(r"[0-9wf]>|>[0-9f]", step), step
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


@pytest.mark.slow  # a review of a long Spider game is started, then left
def test_closing_the_look_back_stops_the_review_being_worked_out(server: LiveServer,
                                                                 browser: Browser) -> None:
    # a two-suit Spider game of 120 random moves: its review takes seconds, and the page
    # closes it at its first report of progress
    game = kabale.Game.new("spider:suits=2", 3)
    rng = random.Random(3)
    for _ in range(120):
        game.play(rng.choice(game.legal_moves()))
    store_game(server.db, "strip-2", game)
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?game=strip-2")
    page.click("#btn-new")
    page.click("#btn-resign")
    page.click("#ask-buttons button.primary")
    with page.expect_response(lambda r: r.url.endswith("/analysis")
                              and r.request.method == "POST") as started:
        page.click("#btn-look-back")
    assert started.value.status == 202 and started.value.json()["state"] == "running"
    with page.expect_request(lambda r: r.method == "DELETE" and r.url.endswith("/help")) \
            as cancel:
        page.click("#review-close")
    answer = cancel.value.response()
    assert answer is not None and answer.status == 200 and answer.json()["cancelled"] >= 1
    polled = page.request.get(f"{server.url}/api/games/strip-2/analysis").json()
    assert polled["state"] == "failed" and polled["code"] == "cancelled", polled
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_coach_mode_asks_before_a_mistake_and_counts_as_help(server: LiveServer,
                                                            browser: Browser) -> None:
    # A position of a stored game (a fixed id, so the advisor's seed is fixed) and a move the
    # coach grades a mistake or worse there, found as the server will find it along a game
    # of random moves (seeded).
    level = effort_for(kabale.Game.new("klondike").variant, "quick")
    game = random_game(0)
    rng = random.Random(3)
    found = None
    while found is None:
        assert game.moves_made < 300, "no move along this game is a mistake"
        move = rng.choice(game.legal_moves())
        graded = grade_move(game, move, level, position_seed(game))
        if graded.grade in ("mistake", "blunder"):
            found = graded
        else:
            game.play(move)
    store_game(server.db, "coach-1", game)
    at = game.moves_made
    context, page = new_page(browser, 1200, 820, {"coach": True})
    open_game(page, f"{server.url}/?game=coach-1")
    page.keyboard.type(found.move)
    page.keyboard.press("Enter")
    expect(page.locator("#ask-text")).to_contain_text(
        f"Sure? {found.move} looks like a {found.grade}")
    expect(page.locator("#ask-text")).to_contain_text(f"{found.best} keeps")
    page.click("#ask-buttons button:not(.primary)")   # cancel: the move is not played
    assert body(page)["observation"]["moves_made"] == at
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert body(page)["assisted"] is True   # asking the coach is help
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


LINE_WORDS = {
    "en": ("A winning line from where you stopped: {n} moves "
           "(the solver's search found one of {found} moves; detours removed)"),
    "da": ("En vej til sejr fra der, hvor du stoppede: {n} træk "
           "(løserens søgning fandt en på {found} træk; omveje fjernet)"),
    "nb": ("En vei til seier fra der du stoppet: {n} trekk "
           "(løserens søk fant en på {found} trekk; omveier fjernet)"),
}


def test_the_look_back_says_how_long_the_search_s_line_was_before_stripping(
        server: LiveServer, browser: Browser) -> None:
    # One-suit Spider, deal 1, given up after one move: still winnable, and the search's
    # winning line is longer than the line shown, stripped of its detours (issue 51).
    game = kabale.Game.new("spider:suits=1", 1)
    game.play(game.legal_moves()[0])
    store_game(server.db, "found-1", game)
    for lang, words in LINE_WORDS.items():
        context, page = new_page(browser, 1200, 820, {"lang": lang})
        open_game(page, f"{server.url}/?game=found-1")
        if lang == "en":   # the first look: give the game up
            page.click("#btn-new")
            page.click("#btn-resign")
            page.click("#ask-buttons button.primary")
        with page.expect_response(lambda r: r.url.endswith("/postmortem"),
                                  timeout=120_000) as answer:
            page.click("#btn-look-back")
        pm = answer.value.json()["postmortem"]
        shown, found = len(pm["line_before"]), pm["line_found"]
        assert pm["lost_at"] is None and 0 < shown < found, (shown, found)
        expect(page.locator("#review-line li")).to_have_count(shown)
        expect(page.locator("#review-line-title")).to_have_text(
            words.format(n=shown, found=found))
        page.click("#review-close")
        assert not page.errors  # type: ignore[attr-defined]
        context.close()
