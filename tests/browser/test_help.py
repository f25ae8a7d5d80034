"""The page helps the player, in Debian's chromium against the real server (its advisor at
effort "quick"): the hint lights a legal move, the win-chance meter, a winnable graded deal,
the daily deal in two browsers, the demo started and stopped, a lost game's post-mortem and
its replay, and the celebration of a win (still when motion is reduced)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers import body, new_page, open_game, settle, wait_moves
from liveserver import LiveServer
from playwright.sync_api import Browser, Page, expect
from positions import store_game

import kabale
from kabale.core.cards import Card, Suit
from kabale.core.state import State

#: the lit move as the page shows it: the lifted cards' pile and count, the target's pile
# slow: run by `python -m pytest -m slow` (.ci/run), not the README's pass
pytestmark = pytest.mark.slow

LIT_JS = """() => {
  const lit = [...document.querySelectorAll('#table .hint')];
  const onto = document.querySelector('#table .hint-target');
  return { source: lit.length ? lit[0].dataset.pile : null, count: lit.length,
           target: onto ? onto.dataset.pile : null };
}"""


def lit_move_is_legal(page: Page) -> str:
    """The legal move (explicit notation) that the lit cards and target make; fails if none."""
    lit: dict[str, Any] = page.evaluate(LIT_JS)
    data = body(page)
    for explicit in data["moves"]:
        if explicit == "d":
            if lit["source"] == "d":
                return explicit
            continue
        source, _, target = explicit.partition(">")
        source, _, count = source.partition(":")
        wanted_target = target if not target.startswith("f") else lit["target"]
        if (source, int(count or 1), wanted_target) == (lit["source"], lit["count"],
                                                        lit["target"]) and \
                (not target.startswith("f") or (lit["target"] or "").startswith("f")):
            return explicit
    raise AssertionError(f"the lit cards {lit} are no legal move of {data['moves']}")


def test_hint_lights_a_legal_move_and_h_again_the_next(server: LiveServer,
                                                       browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?deal=spider%3Asuits%3D2%2342")
    assert body(page)["assisted"] is False
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        page.keyboard.press("h")
    hint = answer.value.json()["hint"]
    page.wait_for_selector("#table .hint")
    first = lit_move_is_legal(page)
    assert first == body(page)["moves"][body(page)["observation"]["legal"].index(hint["move"])]
    expect(page.locator("#bubble")).to_contain_text("Hint:")
    expect(page.locator("#deal-tags")).to_contain_text("with help")
    assert body(page)["assisted"] is True
    if len(hint["moves"]) > 1:
        page.click("#btn-hint")       # again: the next best, no new request needed
        expect(page.locator("#bubble")).to_contain_text("Next best (2)")
        second = lit_move_is_legal(page)
        assert second != first
    # Playing a move puts the light out: a hint is for one position.
    page.keyboard.type(hint["move"])
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    assert page.locator("#table .hint").count() == 0
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_win_chance_meter_is_off_by_default_and_follows_each_move(server: LiveServer,
                                                                  browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?deal=klondike%237")
    expect(page.locator("#chance-box")).to_be_hidden()
    context.close()
    context, page = new_page(browser, 1200, 820, {"chance": True})
    open_game(page, f"{server.url}/?deal=klondike%237")
    meter = page.locator("#chance-bar")
    expect(page.locator("#chance-box")).to_be_visible()
    expect(page.locator("#chance-box")).not_to_have_class("chance stale")
    before = page.locator("#chance-box").get_attribute("title")
    value = int(meter.get_attribute("aria-valuenow") or -1)
    assert 0 <= value <= 100 and "95% interval" in (before or "")
    with page.expect_response(lambda r: r.url.endswith("/chance")) as asked:
        page.keyboard.type("d")
        page.keyboard.press("Enter")
        wait_moves(page, 1)   # the move is shown at once; the meter catches up after it
    chance = asked.value.json()["chance"]
    expect(page.locator("#chance-box")).not_to_have_class("chance stale")
    assert int(meter.get_attribute("aria-valuenow") or -1) == round(chance["value"] * 100)
    # The meter says whether the game can still be won: help (issue 44, the leaderboards).
    assert body(page)["assisted"] is True
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def pick_deal(page: Page, family: str, kind: str, grade: str = "") -> None:
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    page.check(f"#fam-{family}")
    page.check(f"#kind-{kind}")
    if grade:
        page.select_option("#new-grade", grade)
    page.click("#new-go")


def test_a_winnable_graded_deal_shows_its_band_then_its_measure(server: LiveServer,
                                                               browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?deal=klondike%237")
    pick_deal(page, "klondike", "winnable", "hard")
    page.wait_for_function("() => window.kabale?.body()?.deal?.grade === 'hard'")
    data = body(page)
    assert data["observation"]["deal_id"] is None and data["deal"]["winnable"] is True
    # In play only the grade's band: the exact measure would narrow down the hidden cards.
    low, high = data["deal"]["band"]
    assert data["deal"]["measure"] is None
    expect(page.locator("#deal-tags")).to_have_text("hard")
    expect(page.locator("#deal-id")).to_contain_text("Deal ")   # its number stays secret
    page.click("#deal-tags")
    expect(page.locator("#bubble")).to_contain_text(
        f"the solver needs {low:,} to {high:,} tries")
    # Given up, the game can no longer change: the measure shows.
    page.keyboard.type("d")
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    page.click("#btn-new")
    page.click("#btn-resign")
    page.click("#ask-buttons button.primary")
    page.wait_for_function("() => window.kabale?.body()?.status === 'lost'")
    measure = body(page)["deal"]["measure"]
    assert low <= measure <= high
    page.click("#deal-tags")
    expect(page.locator("#bubble")).to_contain_text(f"the solver needed {measure:,} tries")
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_looking_back_at_a_lost_position_gives_the_game_up_first(server: LiveServer,
                                                                 browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    # Deal 12 of draw 3 with one pass: after drawing the stock through, nothing can move.
    open_game(page, f"{server.url}/?deal=klondike%3Adraw%3D3%2Cpasses%3D1%2312")
    for n in range(1, 9):
        page.keyboard.type("d")
        page.keyboard.press("Enter")
        wait_moves(page, n)
    assert body(page)["observation"]["outcome"] == "lost" and body(page)["status"] == "playing"
    page.click("#btn-look-back")
    page.click("#ask-buttons button:not(.primary)")           # cancelled: still undoable
    assert body(page)["status"] == "playing" and body(page)["can_undo"]
    page.click("#btn-look-back")
    page.click("#ask-buttons button.primary")
    page.wait_for_selector("#review-moves li")
    data = body(page)
    assert data["status"] == "lost" and data["assisted"] is False
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_two_browsers_get_the_same_daily_deal(server: LiveServer, browser: Browser) -> None:
    seen = []
    for _ in range(2):
        context, page = new_page(browser, 1000, 760)
        open_game(page, f"{server.url}/?deal=klondike%237")
        pick_deal(page, "spiderette", "daily")
        page.wait_for_function("() => window.kabale?.body()?.deal?.daily !== null")
        expect(page.locator("#deal-tags")).to_contain_text("Daily")
        data = body(page)
        seen.append((data["observation"], data["id"]))
        assert not page.errors  # type: ignore[attr-defined]
        context.close()
    (one, id_one), (two, id_two) = seen
    assert id_one != id_two and one == two and one["deal_id"] is None
    assert one["variant"] == "spiderette"


def test_demo_plays_until_stopped(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?deal=klondike%2311")
    page.click("#btn-demo")
    expect(page.locator("#demo-bar")).to_be_visible()
    expect(page.locator("#btn-demo")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("() => window.kabale?.body()?.observation?.moves_made >= 3",
                           timeout=30000)
    page.click("#demo-stop")
    expect(page.locator("#demo-bar")).to_be_hidden()
    page.evaluate("window.kabale.idle()")
    stopped = body(page)["observation"]["moves_made"]
    page.wait_for_timeout(1500)
    assert body(page)["observation"]["moves_made"] == stopped   # nothing after the stop
    assert body(page)["assisted"] is True
    expect(page.locator("#btn-demo")).to_have_attribute("aria-pressed", "false")
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_a_lost_game_looks_back_and_replays_from_the_move_that_lost(
        server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    # Deal 11 of draw 1 with one pass is won with every card known; drawing the whole stock
    # without playing a card from it loses the win at the fifth draw.
    open_game(page, f"{server.url}/?deal=klondike%3Apasses%3D1%2311")
    for n in range(1, 25):
        page.keyboard.type("d")
        page.keyboard.press("Enter")
        wait_moves(page, n)
    page.click("#btn-new")           # giving up is offered where a new game is dealt
    page.click("#btn-resign")
    page.click("#ask-buttons button.primary")
    page.click("#btn-look-back")
    page.wait_for_selector("#review-moves li")
    expect(page.locator("#review-summary")).to_contain_text("this deal could be won")
    # the move that lost, in words (issue 48): the card it drew
    fifth = kabale.Game.from_deal_id("klondike:passes=1#11")
    for _ in range(5):
        fifth.play("d")
    drew = card_words(str(fifth.state.waste[-1]))
    expect(page.locator("#review-summary")).to_contain_text(
        f"lost with move 5: The {drew} drawn")
    lost = page.locator("#review-moves li.lost")
    expect(lost).to_have_count(1)
    assert lost.get_attribute("data-after") == "5"
    # every move listed in words, none in notation (issue 48: "17. w>3")
    listed = page.locator("#review-moves li button").all_inner_texts()
    assert len(listed) == 24 and listed[4] == f"5. The {drew} drawn", listed[:6]
    assert not any(re.search(r"[0-9wf]>|>[0-9f]|^\d+\. d$", item) for item in listed), listed
    # The deal face up, just before the move that lost: no card back on the table but the
    # stock's, and the stock's cards listed.
    expect(page.locator("#review-step")).to_have_text(
        f"After move 4 of 24, every card face up. Next: The {drew} drawn")
    settle(page)
    assert page.locator("#table .card.back:not([data-pile='d'])").count() == 0
    assert page.locator("#table .stock-strip .chip").count() == 20
    # The winning line, step by step.
    page.click("#review-show-line")
    expect(page.locator("#review-step")).to_contain_text("Winning line: move 1 of")
    page.click("#review-on")
    expect(page.locator("#review-step")).to_contain_text("Winning line: move 2 of")
    step = page.locator("#review-step").inner_text()
    assert "Next: " in step and not re.search(r"[0-9wf]>|>[0-9f]", step), step   # words
    line = page.locator("#review-line li button").all_inner_texts()
    assert line and not any(re.search(r"[0-9wf]>|>[0-9f]", item) for item in line), line
    assert all(" onto the " in item or " to " in item or item.endswith(" drawn")
               or "turned over" in item for item in line), line
    # Back to the game's moves, then replay from just before the fatal move.
    page.locator("#review-moves li.lost button").click()
    expect(page.locator("#review-step")).to_contain_text("After move 5 of 24, every card face up")
    page.click("#review-back")
    expect(page.locator("#review-step")).to_contain_text("After move 4 of 24, every card face up")
    page.click("#review-replay")
    page.wait_for_function("() => window.kabale?.body()?.deal?.replay_of")
    data = body(page)
    assert data["status"] == "playing" and data["assisted"] is True
    assert data["observation"]["moves_made"] == 4
    expect(page.locator("#review")).to_be_hidden()
    expect(page.locator("#deal-tags")).to_contain_text("replay")
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


RANK_WORDS = dict(zip("A23456789TJQK", ["ace", "two", "three", "four", "five", "six", "seven",
                                         "eight", "nine", "ten", "jack", "queen", "king"],
                      strict=True))
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def card_words(code: str) -> str:
    """A card as the English page names it: "nine of hearts"."""
    return f"{RANK_WORDS[code[0]]} of {SUIT_WORDS[code[1]]}"


def one_move_from_winning() -> kabale.Game:
    """Klondike with every card home but the King of spades, which lies in column 1."""
    piles = [tuple(Card(rank, suit) for rank in range(1, 14)) for suit in Suit]
    piles[Suit.SPADES] = piles[Suit.SPADES][:-1]
    state = State(columns=((Card(13, Suit.SPADES),),) + ((),) * 6, down=(0,) * 7, stock=(),
                  waste=(), foundations=tuple(piles))
    return kabale.Game.from_position("klondike", state)


def test_a_win_is_celebrated_and_ranked_and_still_when_motion_is_reduced(
        server: LiveServer, browser: Browser) -> None:
    for n, (speed, motion) in enumerate([("normal", "no-preference"), ("normal", "reduce")]):
        gid = store_game(server.db, f"party-{n}", one_move_from_winning())
        context, page = new_page(browser, 1100, 760, {"speed": speed})
        page.emulate_media(reduced_motion=motion)
        page.goto(f"{server.url}/?game={gid}")
        wait_moves(page, 1)   # every card face up: the page plays the last one itself
        expect(page.locator("#banner-text")).to_contain_text("You won!")
        expect(page.locator("#banner-text")).to_contain_text(" wins at Klondike" if n else
                                                             "Klondike")
        page.wait_for_selector("#party")
        if motion == "reduce":
            expect(page.locator("#party")).to_have_class("party still")
            count = page.locator("#party .party-card").count()
            page.wait_for_timeout(500)
            assert page.locator("#party .party-card").count() == count <= 8
        else:
            page.wait_for_function(
                "() => document.querySelectorAll('#party .party-card').length > 20")
            page.mouse.click(5, 700)   # a click ends it
            expect(page.locator("#party")).to_have_count(0)
        assert not page.errors  # type: ignore[attr-defined]
        context.close()
