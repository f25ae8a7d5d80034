"""Spider's dead ends called (issue 48): with the stock empty and only moves that shuffle a
card back and forth, the page says that no move can turn a card up or complete a run, and
offers to end the game as lost; "Keep playing" lets the player go on without asking again."""

from __future__ import annotations

from helpers import body, new_page, open_game, wait_moves
from liveserver import LiveServer
from playwright.sync_api import Browser, expect
from positions import store_game

import kabale
from kabale.core.cards import Card
from kabale.core.state import State
from kabale.core.variants import parse_variant

#: (face down, face up) per column, all spades: the four can only go from one five to the
#: other and back; nothing can land on a card above a face-down one.
COLUMNS = [("4", "5 4"), ("A", "5"), ("A 3", "K"), ("3 6", "K"), ("6 7", "J"), ("7 9", "J"),
           ("9 T", "8"), ("T Q", "8"), ("Q", "2"), ("", "2")]


def dead_end() -> kabale.Game:
    def cards(text: str) -> tuple[Card, ...]:
        return tuple(Card.parse(x + "S") for x in text.split())

    run = cards("K Q J T 9 8 7 6 5 4 3 2 A")
    state = State(columns=tuple(cards(f"{d} {u}") for d, u in COLUMNS),
                  down=tuple(len(d.split()) for d, _ in COLUMNS), stock=(), waste=(),
                  foundations=(run,) * 6)
    return kabale.Game.from_position(parse_variant("spider:suits=1"), state)


def test_a_dead_end_is_called_and_can_be_ended(server: LiveServer, browser: Browser) -> None:
    gid = store_game(server.db, "dead-end", dead_end())
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?game={gid}")
    expect(page.locator("#banner-text")).to_contain_text("No move can turn up a card")
    # the same table with a six where a king was: the run 5-4 can go there and turn a card
    assert page.evaluate("""async () => {
      const { deadEnd } = await import('/static/js/deadend.js');
      const obs = window.kabale.body().observation;
      const live = { ...obs, columns: obs.columns.map((c, i) => (i === 2 ? [...c.slice(0, -1),
        '6S'] : c)) };
      return [deadEnd(obs), deadEnd(live)];
    }""") == [True, False]
    page.locator("#btn-end-game").click()
    expect(page.locator("#banner-text")).to_have_text("This game was given up.")
    assert body(page)["status"] == "lost"
    context.close()


def test_keep_playing_is_not_asked_again(server: LiveServer, browser: Browser) -> None:
    gid = store_game(server.db, "dead-end-2", dead_end())
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?game={gid}")
    page.get_by_role("button", name="Keep playing").click()
    expect(page.locator("#banner")).to_be_hidden()
    page.keyboard.type("1>2")
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    page.evaluate("window.kabale.idle()")
    expect(page.locator("#banner")).to_be_hidden()
    assert body(page)["status"] == "playing"
    page.keyboard.press("h")                       # the hint proposes no shuffling move
    expect(page.locator("#bubble")).to_contain_text("No move is worth making")
    assert page.locator("#table .hint").count() == 0 and body(page)["assisted"] is False
    context.close()
