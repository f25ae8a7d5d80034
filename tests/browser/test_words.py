"""Words, not ids: the games by the names their players use, refusals in words at the card,
Danish, Norwegian Bokmål and English chosen from the browser and switchable, no English left in
the first two, and a rules page per game in each language one click from the table."""

from __future__ import annotations

import re

import pytest
from helpers import moves_made, new_page, open_game, wait_moves
from liveserver import LiveServer
from playwright.sync_api import Browser, Page, expect

from kabale.core.refusal import REASONS

# slow: run by `python -m pytest -m slow` (.ci/run), not the README's pass
pytestmark = pytest.mark.slow

DEAL = "klondike%237"
#: the two of clubs dropped on the jack of spades, in Danish
REFUSED_DA = "Klør to kan ikke lægges på spar knægt: der kan kun lægges en rød tier."

#: Every text a player can read on the page: visible text, names, titles and placeholders.
PAGE_TEXT_JS = """() => {
  const bits = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    // Text marked as another language (the language menu's "English") is not the page's.
    const lang = n.parentElement.closest('[lang]').lang;
    if (!n.parentElement.closest('svg#card-sprite') && lang === document.documentElement.lang) {
      bits.push(n.textContent);
    }
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    bits.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '',
              el.getAttribute('placeholder') || '');
  }
  return bits.join('\\n');
}"""


def english_only_words(page: Page, lang: str) -> set[str]:
    """Words of four letters or more that the English table uses and the other one never does."""
    tables = page.evaluate("""async (lang) => {
      const flat = (t) => Object.values(t).flat().join(' ');
      const en = (await import('/static/js/messages/en.js')).default;
      const other = (await import(`/static/js/messages/${lang}.js`)).default;
      return [flat(en), flat(other)];
    }""", lang)
    # (a {name} to fill in is no word of the table's: a refusal's names are the rules')
    words = lambda text: {w.lower() for w in re.findall(  # noqa: E731
        r"[A-Za-z]{4,}", re.sub(r"\{\w+\}", " ", text))}
    return words(tables[0]) - words(tables[1])


def all_text(page: Page) -> str:
    """The page's text with each dialog opened in turn (new game, settings, statistics, rules)."""
    texts = [page.evaluate(PAGE_TEXT_JS)]
    for button, dialog in [("#btn-new", "#dlg-new"), ("#btn-settings", "#dlg-settings"),
                           ("#btn-stats", "#dlg-stats"), ("#btn-rules", "#dlg-rules")]:
        page.click(button)
        page.wait_for_selector(f"{dialog}[open]")
        texts.append(page.evaluate(PAGE_TEXT_JS))
        page.keyboard.press("Escape")
    return "\n".join(texts)


def test_the_three_tables_have_the_same_keys(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 800, 600)
    open_game(page, f"{server.url}/?deal={DEAL}")
    diff = page.evaluate("""async () => {
      const keys = async (l) => Object.keys((await import(`/static/js/messages/${l}.js`)).default);
      const en = new Set(await keys('en'));
      const out = {};
      for (const l of ['da', 'nb']) {
        const k = new Set(await keys(l));
        out[l] = [[...en].filter((x) => !k.has(x)), [...k].filter((x) => !en.has(x))];
      }
      return out;
    }""")
    assert diff == {"da": [[], []], "nb": [[], []]}
    context.close()


@pytest.mark.parametrize(("locale", "lang", "new_game", "name"), [
    ("da-DK", "da", "Nyt spil", "7-kabale · 1-korts vending"),
    ("nb-NO", "nb", "Nytt spill", "Kabal · trekk 1"),
    ("nn-NO", "nb", "Nytt spill", "Kabal · trekk 1"),
    ("en-US", "en", "New game", "Klondike · draw 1"),
    ("de-DE", "en", "New game", "Klondike · draw 1"),
])
def test_language_comes_from_the_browser(server: LiveServer, browser: Browser, locale: str,
                                         lang: str, new_game: str, name: str) -> None:
    context, page = new_page(browser, 1366, 657, locale=locale)
    open_game(page, f"{server.url}/?deal={DEAL}")
    assert page.evaluate("document.documentElement.lang") == lang
    expect(page.locator("#btn-new .txt")).to_have_text(new_game)
    expect(page.locator("#variant-name")).to_have_text(name)
    context.close()


@pytest.mark.parametrize("lang", ["da", "nb"])
def test_no_english_left(server: LiveServer, browser: Browser, lang: str) -> None:
    context, page = new_page(browser, 1366, 657, {"lang": lang})
    open_game(page, f"{server.url}/?deal=klondike%3Adraw%3D3%2Cpasses%3D3%2Cscoring%3Dvegas%2342")
    page.click('#table .card[data-pile="d"][role="button"]')   # a move, so the echo speaks
    page.wait_for_function("() => window.kabale?.body()?.observation?.moves_made === 1")
    english = english_only_words(page, lang)
    assert {"klondike", "spider", "column", "stock", "undo", "foundation"} <= english
    text = all_text(page)
    page.goto(f"{server.url}/?deal=spider%3Asuits%3D2%2342")   # asks first: a game is running
    page.wait_for_selector("#dlg-ask[open]")
    text += page.evaluate(PAGE_TEXT_JS)
    page.locator("#ask-buttons button").first.click()
    page.wait_for_selector("body[data-ready='1']")
    text += all_text(page)
    left = sorted({w for w in re.findall(r"[A-Za-z]{4,}", text) if w.lower() in english})
    assert not left, f"English words on the {lang} page: {left}"
    context.close()


def test_language_can_be_switched_and_is_kept(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657, locale="en-GB")
    open_game(page, f"{server.url}/?deal={DEAL}")
    page.click("#btn-settings")
    page.select_option("#set-lang", "nb")
    expect(page.locator("#btn-new .txt")).to_have_text("Nytt spill")
    expect(page.locator("#settings-title")).to_have_text("Innstillinger")
    expect(page.locator('#table .card[data-code="8H"]')).to_have_attribute(
        "aria-label", "hjerter åtte, kolonne 5, øverste kort")
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#variant-name")).to_have_text("Kabal · trekk 1")
    context.close()


def test_games_are_named_as_players_call_them(server: LiveServer, browser: Browser) -> None:
    names = {"da": ["7-kabale", "Edderkopkabale", "Spiderette"],
             "nb": ["Kabal", "Edderkoppkabal", "Spiderette"],
             "en": ["Klondike", "Spider", "Spiderette"]}
    for lang, wanted in names.items():
        context, page = new_page(browser, 1366, 657, {"lang": lang})
        open_game(page, f"{server.url}/?deal={DEAL}")
        page.click("#btn-new")
        expect(page.locator(".game-name")).to_have_text(wanted)
        dialog = page.locator("#dlg-new").inner_text()
        assert not re.search(r"[a-z]+[:=][a-z0-9]|klondike-3|spider-\d", dialog), dialog
        context.close()
    context, page = new_page(browser, 1366, 657, {"lang": "da"})
    open_game(page, f"{server.url}/?deal=spider%3Asuits%3D2%2342")
    expect(page.locator("#variant-name")).to_have_text("Edderkopkabale · 2 kulører")
    open_game(page, f"{server.url}/?deal=klondike%3Adecks%3D2%2Cdraw%3D3%2Cscoring%3Dvegas%2342")
    expect(page.locator("#variant-name")).to_have_text("Dobbelt 7-kabale · 3-korts vending · Vegas")
    context.close()


def test_refusal_in_words_at_the_card(server: LiveServer, browser: Browser) -> None:
    """The page asks the server why (GET .../explain) and words its reason key."""
    context, page = new_page(browser, 1366, 657, {"lang": "da"})
    open_game(page, f"{server.url}/?deal={DEAL}")
    page.keyboard.type("4>2")          # the two of clubs onto the jack of spades
    page.keyboard.press("Enter")
    expect(page.locator("#bubble")).to_have_text(REFUSED_DA)
    page.keyboard.press("Escape")
    card = page.locator('#table .card[data-code="2C"]').bounding_box()
    src = card
    dst = page.locator('#table .card[data-code="JS"]').bounding_box()
    assert src and dst
    page.mouse.move(src["x"] + 10, src["y"] + 10)
    page.mouse.down()
    page.mouse.move(dst["x"] + 20, dst["y"] + 30, steps=6)
    page.mouse.up()
    expect(page.locator("#bubble")).to_have_text(REFUSED_DA)
    bubble = page.locator("#bubble").bounding_box()
    assert bubble and abs(bubble["x"] + bubble["width"] / 2 - (dst["x"] + 20)) < 200
    assert abs(bubble["y"] + bubble["height"] - dst["y"]) < 120   # just above the drop
    context.close()


@pytest.mark.parametrize(("lang", "family", "heading", "phrase"), [
    ("da", "klondike", "Regler: 7-kabale", "en rød syver på en sort otter"),
    ("nb", "spider", "Regler: Edderkoppkabal", "fem runder med ti"),
    ("en", "spiderette", "Rules: Spiderette", "a last deal of three cards onto columns 1 to 3"),
])
def test_rules_page_per_game_and_language(server: LiveServer, browser: Browser, lang: str,
                                          family: str, heading: str, phrase: str) -> None:
    context, page = new_page(browser, 1366, 657)
    page.goto(f"{server.url}/static/rules.html?game={family}&lang={lang}")
    expect(page.locator("#rules-heading")).to_have_text(heading)
    expect(page.locator("#rules-body")).to_contain_text(phrase)
    assert page.evaluate("document.documentElement.lang") == lang
    context.close()


def test_rules_one_click_from_the_table(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657, {"lang": "nb"})
    open_game(page, f"{server.url}/?deal=spider%3Asuits%3D2%2342")
    page.click("#btn-rules")
    expect(page.locator("#rules-title")).to_have_text("Regler: Edderkoppkabal")
    expect(page.locator("#rules-box")).to_contain_text("En tom kolonne tar ethvert kort")
    page.get_by_role("button", name="Kabal", exact=True).click()
    expect(page.locator("#rules-box")).to_contain_text("en rød sjuer på en svart åtter")
    with context.expect_page() as opened:
        page.click("#rules-link")
    rules = opened.value
    rules.wait_for_load_state()
    expect(rules.locator("#rules-heading")).to_have_text("Regler: Kabal")
    context.close()


def test_an_empty_stock_says_why_in_the_players_language(server: LiveServer,
                                                          browser: Browser) -> None:
    """A tap on the stock with no pass left: the server's reason (no_passes), in Norwegian."""
    context, page = new_page(browser, 1366, 657, {"lang": "nb"})
    open_game(page, f"{server.url}/?deal=klondike%3Adraw%3D3%2Cpasses%3D1%237")
    stock = page.locator('#table .pile[data-pile="d"] [tabindex]')
    for n in range(1, 9):                      # 24 cards, three a press
        stock.click()
        wait_moves(page, n)
    stock.click()
    expect(page.locator("#bubble")).to_have_text(
        "Ingen runder igjen: kastebunken kan ikke snus igjen.")
    page.evaluate("window.kabale.idle()")
    assert moves_made(page) == 8
    context.close()


#: a refusal's parameters by name, for wording every reason key (core/refusal.py)
SAMPLE = {"card": "9S", "top": "TH", "prev": "8S", "rank": 8, "colour": "red", "column": "3",
          "columns": 7, "foundation": "f2", "foundations": 4, "target": "f", "family": "spider",
          "n": 2, "up": 2}


@pytest.mark.parametrize("lang", ["en", "da", "nb"])
def test_every_refusal_has_words_in_every_language(server: LiveServer, browser: Browser,
                                                   lang: str) -> None:
    """Each reason key the rules can give, worded by reasons.js from the page's table: no
    key missing, no name left unfilled, and (but for a language's own) no English."""
    names = {key: {"rank" if name == "rank_name" else name
                   for name in re.findall(r"\{(\w+)\}", text)} for key, text in REASONS.items()}
    reasons = [{"key": key, "params": {name: SAMPLE[name] for name in names[key]}}
               for key in REASONS]
    context, page = new_page(browser, 1366, 657, {"lang": lang})
    open_game(page, f"{server.url}/?deal={DEAL}")
    words = page.evaluate("""async (reasons) => {
      const { reasonWords } = await import('/static/js/reasons.js');
      const obs = window.kabale.body().observation;
      return reasons.map((r) => reasonWords(r, obs));
    }""", reasons)
    assert len(words) == len(REASONS)
    for key, text in zip(REASONS, words, strict=True):
        assert text and "{" not in text and text[0].isupper(), (key, text)
    if lang != "en":
        english = english_only_words(page, lang)
        assert not [w for w in re.findall(r"[A-Za-z]{4,}", " ".join(words))
                    if w.lower() in english], words
    context.close()
