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
