"""Animations from the true source: a card flies from where it really was, twin cards too (Spider
with one suit, Double Klondike); a dealing animation; the speed setting. Each animation is
paused at its first frame and the card's place then is read from its geometry."""

from __future__ import annotations

import pytest
from helpers import new_page, open_game
from liveserver import LiveServer
from playwright.sync_api import Browser, Page

#: After the next answer from the server, the first frame of the card now on top of `pile`.
# slow: run by `python -m pytest -m slow` (.ci/run), not the README's pass
pytestmark = pytest.mark.slow

PROBE_JS = """([moves, pile]) => { window.__probe = new Promise((done) => {
  const look = () => {
    if (window.kabale.body().observation.moves_made !== moves) return requestAnimationFrame(look);
    const els = [...document.querySelectorAll(`#table .card[data-pile="${pile}"]`)];
    const el = els.sort((a, b) => a.dataset.index - b.dataset.index).pop();
    const anims = el.getAnimations();
    const frames = anims.map((a) => { a.pause(); a.currentTime = 0; return a.effect.getTiming(); });
    const r = el.getBoundingClientRect();
    anims.forEach((a) => a.finish());
    done({ x: r.left, y: r.top, durations: frames.map((f) => f.duration), code: el.dataset.code });
  };
  look();
}); }"""


def column_x(page: Page, column: int) -> float:
    x: float = page.evaluate(
        f"document.querySelector('#table .slot[data-pile=\"{column}\"]').getBoundingClientRect()"
        ".left")
    return x


def first_frame(page: Page, move: str, moves_after: int, target: str) -> dict[str, object]:
    page.evaluate(PROBE_JS, [moves_after, target])
    page.keyboard.type(move)
    page.keyboard.press("Enter")
    frame: dict[str, object] = page.evaluate("window.__probe")
    return frame


@pytest.mark.parametrize(("deal", "move", "code", "source", "twin", "target"), [
    # Spider, one suit: 3S from column 9 onto 4S in column 7; column 8 also shows a 3S.
    ("spider%3Asuits%3D1%231", "9>7", "3S", 9, 8, "7"),
    # Double Klondike: QD from column 5 onto KS in column 9; column 1 also shows a QD.
    ("klondike%3Adecks%3D2%2310", "5>9", "QD", 5, 1, "9"),
])
def test_twin_cards_fly_from_where_they_were(server: LiveServer, browser: Browser, deal: str,
                                             move: str, code: str, source: int, twin: int,
                                             target: str) -> None:
    context, page = new_page(browser, 1366, 657, {"speed": "slow"})
    open_game(page, f"{server.url}/?deal={deal}")
    tops = [c[-1] for c in page.evaluate("window.kabale.body().observation.columns")]
    assert tops[source - 1] == code == tops[twin - 1]
    src, other = column_x(page, source), column_x(page, twin)
    frame = first_frame(page, move, 1, target)
    assert frame["code"] == code
    assert abs(frame["x"] - src) < 2, (frame, src, other)           # from its own column
    assert frame["durations"] == [450]                              # "slow"
    context.close()


def test_dealing_animation_and_speed_setting(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657, {"speed": "normal"})
    page.goto(f"{server.url}/?deal=klondike%237")
    deal = page.evaluate("""() => new Promise((done) => {
      const look = () => {
        const cards = [...document.querySelectorAll('#table .card:not([data-pile="d"])')];
        if (!window.kabale.body() || !cards.length) return requestAnimationFrame(look);
        const stock = document.querySelector('#table .slot[data-pile="d"]').getBoundingClientRect();
        const out = cards.map((el) => {
          const a = el.getAnimations()[0];
          if (!a) return null;
          a.pause(); a.currentTime = a.effect.getTiming().delay;
          const r = el.getBoundingClientRect();
          return { pile: el.dataset.pile, index: Number(el.dataset.index),
                   delay: a.effect.getTiming().delay, dx: r.left - stock.left,
                   dy: r.top - stock.top };
        });
        document.getAnimations().forEach((a) => a.finish());
        done(out);
      };
      look();
    })""")
    assert len(deal) == 28 and all(deal)
    assert all(abs(d["dx"]) < 2 and abs(d["dy"]) < 2 for d in deal)   # each starts at the stock
    order = sorted(deal, key=lambda d: (d["index"], int(d["pile"])))   # dealt row by row
    delays = [d["delay"] for d in order]
    assert delays == sorted(delays) and delays[-1] > delays[0]
    page.wait_for_selector("body[data-ready='1']")
    # The speed setting: fast moves take 120 ms, and "off" draws without any animation.
    page.click("#btn-settings")
    page.select_option("#set-speed", "fast")
    page.keyboard.press("Escape")
    page.locator("#table").click(position={"x": 5, "y": 600})
    frame = first_frame(page, "5>6", 1, "6")
    assert frame["durations"] == [120]
    page.click("#btn-settings")
    page.select_option("#set-speed", "off")
    page.keyboard.press("Escape")
    page.locator("#table").click(position={"x": 5, "y": 600})
    frame = first_frame(page, "1>f", 2, "f2")
    assert frame["durations"] == [] and frame["code"] == "AH"
    assert page.evaluate("JSON.parse(localStorage.getItem('kabale.settings')).speed") == "off"
    context.close()
