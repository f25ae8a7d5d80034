"""Words a player reads (issue 48): Danish joins its compounds ("7-kabale", "Edderkopkabale":
Danish spelling writes a compound as one word, with a hyphen after a numeral), an emptied
column is a column (not "tom bunke"), the grade speaks of the solver's tries (not its
"positions"), a hinted draw says itself once, and no table holds a server's raw refusal."""

from __future__ import annotations

from helpers import new_page, open_game
from liveserver import LiveServer
from playwright.sync_api import Browser, expect

TABLES_JS = """async () => {
  const out = {};
  for (const lang of ['en', 'da', 'nb']) {
    out[lang] = (await import(`/static/js/messages/${lang}.js`)).default;
  }
  return out;
}"""

NEVER = {"en": [" positions", "The server refused"],
         "da": ["tom bunke", "7 kabale", "dderkop kabale", " stillinger", "Serveren afviste"],
         "nb": ["tom bunke", " stillinger", "Serveren avviste"]}


def test_the_words_players_read(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657, {"lang": "da"})
    open_game(page, f"{server.url}/?deal=spider%3Asuits%3D2%2342")
    expect(page.locator("#variant-name")).to_have_text("Edderkopkabale · 2 kulører")
    tables = page.evaluate(TABLES_JS)
    for lang, words in NEVER.items():
        for key, text in tables[lang].items():
            if isinstance(text, str):
                assert not [w for w in words if w in text], (lang, key, text)
    assert tables["da"]["name.klondike"] == "7-kabale"
    assert tables["da"]["hint.reason.frees_column"] == "tømmer en kolonne"
    assert tables["en"]["hint.best_draw"] == "Hint: draw from the stock."
    assert set(tables["en"]) == set(tables["da"]) == set(tables["nb"])
    context.close()


VERDICTS_JS = """async () => {
  const { summary } = await import('/static/js/review.js');
  const moves = ['d', '3>7', 'd', 'd', 'd', '2>f'];
  return {
    unknown: summary({ winnable_at_start: null, lost_at: 4, proved: false, line_before: [] },
                     moves, 'A draw from the stock.'),
    unknownOnly: summary({ winnable_at_start: null, lost_at: null, proved: false,
                           line_before: [] }, moves),
    lost: summary({ winnable_at_start: true, lost_at: 4, proved: true, line_before: ['d'] },
                  moves, 'A draw from the stock.'),
  };
}"""


def test_look_back_verdicts_never_contradict(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?deal=klondike%237")
    said = page.evaluate(VERDICTS_JS)
    # Undecided: one sentence, the loss only as a condition, never beside "could not tell"
    assert said["unknown"] == ("The solver could not tell whether this deal could be won; if "
                               "it could, the win was gone after move 5 at the latest: A draw "
                               "from the stock.")
    assert said["unknownOnly"] == "The solver could not tell whether this deal could be won."
    assert said["lost"] == ("With every card known, this deal could be won. The win was lost "
                            "with move 5: A draw from the stock.")
    context.close()


def test_only_the_chosen_language_is_loaded(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657, {"lang": "da"})
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url.rsplit("/", 1)[-1]))
    open_game(page, f"{server.url}/?deal=klondike%237")
    expect(page.locator("#btn-new .txt")).to_have_text("Nyt spil")
    messages = sorted(name for name in fetched if name.endswith(".js") and
                      name.split(".")[0] in {"en", "da", "nb", "rules-en", "rules-da", "rules-nb"})
    assert messages == ["da.js", "rules-da.js"], messages
    # Switching the language loads the other table then
    page.click("#btn-settings")
    page.select_option("#set-lang", "en")
    expect(page.locator("#btn-new .txt")).to_have_text("New game")
    context.close()


def test_the_page_registers_its_service_worker(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?deal=klondike%237")
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == f"{server.url}/"
    page.reload()                                   # through the worker: the page still plays
    page.wait_for_selector("body[data-ready='1']")
    page.keyboard.type("d")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.kabale.body().observation.moves_made >= 1")
    context.close()
