"""The page's look back grades the moves: a strip coloured by grade, the accuracy, a step to
any move and the better move shown on the table (issue 49)."""

from __future__ import annotations

from helpers import body, new_page, open_game, wait_moves
from liveserver import LiveServer
from playwright.sync_api import Browser, expect
from positions import store_game

import kabale
from kabale.advisor.effort import effort_for
from kabale.advisor.review import grade_move
from kabale.server.advice import position_seed

GRADES = ("g-best", "g-good", "g-inaccuracy", "g-mistake", "g-blunder", "g-forced")


def test_a_lost_game_s_moves_are_graded_in_the_look_back(server: LiveServer,
                                                         browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    # Drawing the whole stock of a one-pass game without playing a card from it: most of
    # those draws give chance away (test_help: this deal's win is lost at the fifth).
    open_game(page, f"{server.url}/?deal=klondike%3Apasses%3D1%2311")
    for n in range(1, 25):
        page.keyboard.type("d")
        page.keyboard.press("Enter")
        wait_moves(page, n)
    page.click("#btn-new")
    page.click("#btn-resign")
    page.click("#ask-buttons button.primary")
    page.click("#btn-look-back")
    cells = page.locator("#grades-strip li button")
    expect(cells).to_have_count(24, timeout=120_000)
    expect(page.locator("#grades-summary")).to_contain_text("Accuracy")
    classes = [cells.nth(i).get_attribute("class") for i in range(24)]
    assert all(c in GRADES for c in classes), classes
    assert page.locator("#review-moves li[class*='g-']").count() == 24
    # Step to a move that was not the best: the position it was chosen in, the words about
    # it, then the better move played on the table instead.
    worse = next(i for i, c in enumerate(classes) if c not in ("g-best", "g-forced"))
    cells.nth(worse).click()
    expect(page.locator("#review-step")).to_contain_text(
        "The deal" if worse == 0 else f"After move {worse} of 24")
    expect(page.locator("#grades-note")).to_contain_text(f"Move {worse + 1}, d:")
    expect(page.locator("#grades-note")).to_contain_text("Better was")
    page.click("#grades-better")
    expect(page.locator("#review-step")).to_contain_text(f"Move {worse + 1} played as")
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_coach_mode_asks_before_a_mistake_and_counts_as_help(server: LiveServer,
                                                            browser: Browser) -> None:
    # A position of a stored game (a fixed id, so the advisor's seed is fixed) where the
    # coach grades a draw a mistake or worse, found as the server will find it.
    level = effort_for(kabale.Game.new("klondike").variant, "quick")
    game = kabale.Game.from_deal_id("klondike:passes=1#11")
    while True:
        assert game.moves_made < 24, "no draw of this game is a mistake"
        found = grade_move(game, "d", level, position_seed("coach-1", game))
        if found.grade in ("mistake", "blunder"):
            break
        game.play("d")
    store_game(server.db, "coach-1", game)
    at = game.moves_made
    context, page = new_page(browser, 1200, 820, {"coach": True})
    open_game(page, f"{server.url}/?game=coach-1")
    page.keyboard.type("d")
    page.keyboard.press("Enter")
    expect(page.locator("#ask-text")).to_contain_text(f"Sure? d looks like a {found.grade}")
    expect(page.locator("#ask-text")).to_contain_text(f"{found.best} keeps")
    page.click("#ask-buttons button:not(.primary)")   # cancel: the move is not played
    assert body(page)["observation"]["moves_made"] == at
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert body(page)["assisted"] is True   # asking the coach is help
    assert not page.errors  # type: ignore[attr-defined]
    context.close()
