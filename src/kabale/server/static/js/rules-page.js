// The stand-alone rules page: /static/rules.html?game=spider&lang=da (the language defaults to
// the saved setting, then the browser's).

import { LANGUAGES, language, languageName, loadLanguage, localize, pickLanguage, setLanguage,
  t } from "./i18n.js";
import { familyName } from "./names.js";
import { GAMES, renderRules, rulesTabs } from "./rules.js";
import { loadSettings } from "./settings.js";

const q = new URLSearchParams(location.search);
let family = GAMES.includes(q.get("game")) ? q.get("game") : "klondike";

function draw() {
  document.title = `${t("rules.title")}: ${familyName(family)}`;
  document.getElementById("rules-heading").textContent = `${t("rules.title")}: ${familyName(family)}`;
  rulesTabs(document.getElementById("rules-tabs"), family, (f) => {
    family = f;
    history.replaceState(null, "", `?game=${f}&lang=${language()}`);
    draw();
  });
  renderRules(document.getElementById("rules-body"), family, { level: 2 });
  const langs = document.getElementById("rules-langs");
  langs.replaceChildren();
  for (const lang of LANGUAGES) {
    const a = document.createElement("a");
    a.href = `?game=${family}&lang=${lang}`;
    a.lang = lang;
    a.hreflang = lang;
    a.textContent = languageName(lang);
    if (lang === language()) a.setAttribute("aria-current", "page");
    langs.append(a);
  }
  localize();
}


const lang = pickLanguage(q.get("lang") || loadSettings().lang);
loadLanguage(lang).then(() => {
  setLanguage(lang);
  draw();
});
