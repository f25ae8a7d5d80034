"""Card sounds instead of beeps (off by default), and the felts and card backs to choose from
(issue 48). The page's Web Audio is listened to through a stand-in AudioContext that records
what each sound is made of: noise through a filter is a card, an oscillator a tone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import new_page, open_game, wait_moves
from liveserver import LiveServer
from playwright.sync_api import Browser, Page, expect

SHOTS = Path("/work/notes/shots")

#: A stand-in AudioContext: every node made is counted, with its filter types.
LISTEN = """
window.__audio = { contexts: 0, sources: 0, oscillators: 0, filters: [] };
(() => {
  const param = () => ({ value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {},
                         linearRampToValueAtTime() {} });
  const node = (extra = {}) => ({ connect: (next) => next, start() {}, stop() {}, ...extra });
  class Listening {
    constructor() { window.__audio.contexts += 1; this.currentTime = 0;
      this.sampleRate = 8000; this.state = 'running'; this.destination = node(); }
    resume() { return Promise.resolve(); }
    createBuffer(ch, n) { const data = new Float32Array(n); return { getChannelData: () => data }; }
    createBufferSource() { window.__audio.sources += 1; return node({ buffer: null }); }
    createBiquadFilter() {
      const f = node({ frequency: param(), Q: param(), type: '' });
      window.__audio.filters.push(f);
      return f;
    }
    createGain() { return node({ gain: param() }); }
    createOscillator() { window.__audio.oscillators += 1;
      return node({ frequency: param(), type: '' }); }
  }
  window.AudioContext = Listening;
  window.webkitAudioContext = Listening;
})();
"""


def heard(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate(
        "() => ({ ...window.__audio, filters: window.__audio.filters.map((f) => f.type) })")
    return data


def typed(page: Page, move: str, n: int) -> None:
    page.keyboard.type(move)
    page.keyboard.press("Enter")
    wait_moves(page, n)


def listening_page(browser: Browser, settings: dict[str, Any]) -> Page:
    _, page = new_page(browser, 1200, 820, settings)
    page.add_init_script(LISTEN)
    return page


def test_no_sound_unless_turned_on(server: LiveServer, browser: Browser) -> None:
    page = listening_page(browser, {})
    open_game(page, f"{server.url}/?deal=klondike%237")
    typed(page, "1>f", 1)
    typed(page, "7>f", 2)
    assert heard(page)["contexts"] == 0
    page.context.close()


def test_moves_snap_flips_and_deals_riffle_and_nothing_beeps(server: LiveServer,
                                                            browser: Browser) -> None:
    page = listening_page(browser, {"sound": True})
    # klondike#7: the ace of hearts heads column 1; column 7 ends in the ace of diamonds,
    # on a face-down card
    open_game(page, f"{server.url}/?deal=klondike%237")
    dealt = heard(page)
    assert dealt["sources"] >= 20 and set(dealt["filters"]) == {"bandpass"}   # a shuffle
    base = dealt["sources"]
    typed(page, "1>f", 1)
    one = heard(page)
    assert one["sources"] == base + 1 and one["filters"][base:] == ["bandpass"]  # laid down
    typed(page, "7>f", 2)
    two = heard(page)
    assert two["sources"] == base + 3                                   # laid down, a flip
    assert two["filters"][base + 1:] == ["bandpass", "highpass"]
    page.keyboard.type("9>f")                   # no such column: refused with a dull tap
    page.keyboard.press("Enter")
    expect(page.locator("#bubble")).to_be_visible()
    assert heard(page)["filters"][-1] == "lowpass"
    page.click("#btn-new")
    page.click("#new-go")
    page.wait_for_function("() => window.kabale.body().observation.moves_made === 0")
    riffled = heard(page)
    assert riffled["sources"] - (base + 4) >= 20            # a new deal: a shuffle of snaps
    assert riffled["oscillators"] == 0                      # no beep anywhere
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_spider_deal_riffles(server: LiveServer, browser: Browser) -> None:
    page = listening_page(browser, {"sound": True})
    open_game(page, f"{server.url}/?deal=spider%3Asuits%3D1%233")
    base = heard(page)["sources"]
    typed(page, "d", 1)
    dealt = heard(page)
    assert dealt["sources"] == base + 10 and dealt["oscillators"] == 0   # a row of ten
    page.context.close()


FELTS = {"dark": "rgb(42, 128, 88)", "light": "rgb(217, 232, 213)",
         "blue": "rgb(47, 95, 143)", "wine": "rgb(126, 47, 61)", "slate": "rgb(85, 96, 106)"}
BACKS = {"blue": "#1f4f8f", "red": "#9b1c2e", "green": "#17603f", "black": "#23232b",
         "purple": "#5b2a86", "teal": "#0f6b73", "royal": "#16264f"}


@pytest.mark.parametrize("lang", ["en", "da", "nb"])
def test_felts_and_backs_are_settings_in_words(server: LiveServer, browser: Browser,
                                               lang: str) -> None:
    _, page = new_page(browser, 1200, 820, {"lang": lang})
    open_game(page, f"{server.url}/?deal=klondike%237")
    page.click("#btn-settings")
    felts = page.eval_on_selector_all("#set-felt option", "os => os.map(o => [o.value, o.text])")
    backs = page.eval_on_selector_all("#set-back option", "os => os.map(o => [o.value, o.text])")
    assert [v for v, _ in felts] == list(FELTS) and [v for v, _ in backs] == list(BACKS)
    for options in (felts, backs):
        names = [text for _, text in options]
        assert len(set(names)) == len(names) and all(names), names
    labels = [text for _, text in felts + backs]
    if lang != "en":   # the tables' words, not the page's English fallback
        assert "wine red" not in labels and "navy and gold" not in labels, labels
    for felt, colour in FELTS.items():
        for back, fill in BACKS.items():
            if back != "royal" and felt != "wine":
                continue
            page.select_option("#set-felt", felt)      # a change applies at once
            page.select_option("#set-back", back)
            assert page.evaluate("getComputedStyle(document.body).getPropertyValue('--felt-1')"
                                 ).strip().lower() == rgb_hex(colour)
            assert page.evaluate("document.querySelector('#back-slot rect:nth-child(2)')"
                                 ".getAttribute('fill')") == fill
    page.keyboard.press("Escape")
    if lang == "en":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "h48-felt-slate-back-royal.png"))
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def rgb_hex(text: str) -> str:
    parts = [int(p) for p in text[4:-1].split(",")]
    return "#" + "".join(f"{p:02x}" for p in parts)
