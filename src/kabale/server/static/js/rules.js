// The rules of each game in the page's language, drawn from the message tables: used by the
// rules dialog at the table and by the stand-alone page rules.html.

import { blocks, t } from "./i18n.js";
import { familyName } from "./names.js";

export const GAMES = ["klondike", "spider", "spiderette"];

/** Fill `box` with the rules of `family` (headings, paragraphs, lists) and how to play here. */
export function renderRules(box, family, { level = 3 } = {}) {
  box.replaceChildren();
  let list = null;
  for (const block of [...blocks(`rules.${family}`), ...blocks("rules.playing")]) {
    if (block.startsWith("## ")) {
      list = null;
      const head = document.createElement(`h${level}`);
      head.textContent = block.slice(3);
      box.append(head);
    } else if (block.startsWith("- ")) {
      if (!list) {
        list = document.createElement("ul");
        box.append(list);
      }
      const li = document.createElement("li");
      li.textContent = block.slice(2);
      list.append(li);
    } else {
      list = null;
      const p = document.createElement("p");
      p.textContent = block;
      box.append(p);
    }
  }
  return box;
}

/** The address of the stand-alone rules page of `family` in language `lang`. */
export function rulesUrl(family, lang) {
  return `/static/rules.html?game=${encodeURIComponent(family)}&lang=${encodeURIComponent(lang)}`;
}

/** Tabs to switch between the games' rules inside `nav`; `pick(family)` shows one. */
export function rulesTabs(nav, current, pick) {
  nav.replaceChildren();
  for (const family of GAMES) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = familyName(family);
    b.setAttribute("aria-pressed", String(family === current));
    b.addEventListener("click", () => pick(family));
    nav.append(b);
  }
  nav.setAttribute("aria-label", t("rules.choose"));
}
