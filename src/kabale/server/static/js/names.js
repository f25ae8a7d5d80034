// Words for what the page shows: cards, piles, games and moves, in the page's language.

import { cap, has, t } from "./i18n.js";
import { familyOf, optionsOf, parseMove } from "./moves.js";

export const KLONDIKE_SUITS = "SHDC";

/** "ten of hearts" / "hjerter ti" for "TH". */
export function cardName(code) {
  return t("card", { rank: t(`rank.${code[0]}`), suit: t(`suit.${code[1]}`) });
}

/** The name of a pile in a sentence: "column 3", "the waste", "the hearts foundation". */
export function pileName(pile, obs) {
  if (/^\d+$/.test(pile)) return t("pile.column", { n: pile });
  if (pile === "w") return t("pile.waste");
  if (pile === "d") return t("pile.stock");
  if (pile === "f") return t("pile.foundation");
  if (obs.rules.foundation_rule === "runs") {
    return t("pile.runs");
  }
  const i = Number(pile.slice(1)) - 1;
  return t("pile.foundation_of", { suit: t(`suit.${KLONDIKE_SUITS[i % 4]}`) });
}

/** The game's own name: "Klondike", "7-kabale", "Edderkopkabale"... */
export function familyName(family, options = {}) {
  if (family === "klondike" && options.decks === "2") return t("name.klondike.double");
  return t(`name.${family}`);
}

/** A variant in words, never its id: "Klondike · draw 3 · 3 passes · Vegas". */
export function variantName(variant) {
  const family = familyOf(variant);
  const options = optionsOf(variant);
  const parts = [familyName(family, options)];
  if (family === "klondike") parts.push(t(`vn.draw.${options.draw || "1"}`));
  else parts.push(t(`vn.suits.${options.suits || "4"}`));
  for (const [name, value] of Object.entries(options)) {
    if (name === "draw" || name === "suits" || name === "decks") continue;
    const key = `vn.${name}.${value}`;
    parts.push(has(key) ? t(key) : `${name}=${value}`);
  }
  return parts.join(t("name.sep"));
}

/** Label of an option in the new-game dialog, and of one of its values. */
export function optionLabel(name) { return has(`opt.${name}`) ? t(`opt.${name}`) : name; }
export function valueLabel(name, value) {
  const key = `opt.${name}.${value}`;
  return has(key) ? t(key) : String(value);
}

function topOf(pile) { return pile.length ? pile[pile.length - 1] : null; }

/** The Klondike foundation (1-based) that takes card `code` next, or null. */
export function foundationFor(obs, code) {
  const ranks = "A23456789TJQK";
  for (let i = 0; i < obs.foundations.length; i++) {
    const pile = obs.foundations[i];
    if (KLONDIKE_SUITS[i % 4] === code[1] && pile.length === ranks.indexOf(code[0])) return i + 1;
  }
  return null;
}

/** The cards a move lifts, as words: "nine of hearts and 2 cards on it". */
export function liftedWords(code, count) {
  const card = cardName(code);
  return count > 1 ? t("say.with", { card, n: count - 1 }) : card;
}

function whereTo(obs, target, code) {
  if (target === "f") {
    const f = obs.rules.has_waste ? foundationFor(obs, code) : null;
    return pileName(f ? `f${f}` : "f", obs);
  }
  if (!/^\d+$/.test(target)) return pileName(target, obs);
  const top = topOf(obs.columns[Number(target) - 1]);
  return top ? t("pile.onto_card", { card: cardName(top), n: target })
    : t("pile.empty_column", { n: target });
}

/** The count of an explicit or canonical move in `obs` (from the column's run otherwise). */
function countOf(body, text) {
  const i = (body.observation.legal || []).indexOf(text);
  const explicit = i >= 0 && body.moves ? body.moves[i] : text;
  const m = parseMove(explicit);
  return m ? m.count : 1;
}

/** What a move does, said before it is made: `body` is the position it is played from. */
export function moveWords(body, text) {
  const obs = body.observation;
  if (text === "d") return t("say.stock_action");
  const m = parseMove(text);
  if (!m) return text;
  const count = countOf(body, text);
  let code = null;
  if (m.source === "w") code = topOf(obs.waste);
  else if (m.source.startsWith("f")) code = topOf(obs.foundations[Number(m.source.slice(1)) - 1]);
  else {
    const col = obs.columns[Number(m.source) - 1];
    code = col[col.length - count];
  }
  if (!code || code === "??") return text;
  const from = m.source.startsWith("f") ? pileName("f", obs) : pileName(m.source, obs);
  return cap(t("say.move", { what: liftedWords(code, count), from, to: whereTo(obs, m.target, code) }));
}

/** The stock action in words, from the positions before and after it. */
function stockWords(before, after) {
  if (!before.rules.has_waste) {
    return t("say.deal", { n: before.stock - after.stock });
  }
  if (before.stock === 0) {
    const left = after.passes_left;
    return left === null ? t("say.turn") : t("say.turn.passes", { n: left });
  }
  const drawn = after.waste.slice(before.waste.length).map(cardName);
  const top = drawn[drawn.length - 1] || "";
  return cap(t("say.draw", { n: drawn.length, cards: drawn.join(", "), top }));
}

/** What happened besides the move itself: cards turned up, runs removed. */
function consequences(before, after) {
  const out = [];
  after.columns.forEach((col, c) => {
    const was = before.columns[c];
    const i = col.length - 1;
    if (i >= 0 && was[i] === "??" && col[i] !== "??" && i < was.length) {
      out.push(t("say.flip", { card: cardName(col[i]), n: c + 1 }));
    }
  });
  if (after.rules.foundation_rule === "runs" && after.foundations.length > before.foundations.length) {
    for (const run of after.foundations.slice(before.foundations.length)) {
      out.push(t("say.run", { suit: t(`suit.${run[0][1]}`) }));
    }
  }
  return out;
}

/** The announcement of a move just made (`before` the body it was played from). */
export function announceMove(beforeBody, afterObs, text) {
  const before = beforeBody.observation;
  const main = text === "d" ? cap(stockWords(before, afterObs)) : moveWords(beforeBody, text);
  return [main, ...consequences(before, afterObs)].join(" ");
}

/** A move of a finished game in words, from what it moved (the server's facts: docs/api.md,
 *  the post-mortem): "the nine of hearts onto the ten of spades" (`cap`: "The nine..."). */
export function factWords(f, capital = false) {
  const said = (text) => (capital ? cap(text) : text);
  if (!f) return "";
  if (f.stock === "draw") return said(t("moved.draw", { cards: f.cards.map(cardName).join(", ") }));
  if (f.stock === "turn" || f.stock === "deal") return said(t(`moved.${f.stock}`));
  const card = cardName(f.card);
  const what = f.count > 1 ? t("moved.run", { card, n: f.count - 1 }) : t("moved.card", { card });
  if (f.onto) return said(t("moved.onto", { what, card: cardName(f.onto) }));
  return said(t(f.to === "f" ? "moved.home" : "moved.empty", { what }));
}
