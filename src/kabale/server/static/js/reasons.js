// Why a move the player tried is refused, in words, from what the player sees. Legality is
// never decided here (the server's list of legal moves does that); this only explains a move
// that is not on that list, as core's explain() does, in the page's language.

import { cap, t } from "./i18n.js";
import { cardName } from "./names.js";

const RANKS = "A23456789TJQK";
const red = (code) => code[1] === "H" || code[1] === "D";
const rankOf = (code) => RANKS.indexOf(code[0]);

function isRun(cards, spider) {
  for (let i = 1; i < cards.length; i++) {
    const a = cards[i - 1], b = cards[i];
    if (rankOf(a) !== rankOf(b) + 1) return false;
    if (spider ? a[1] !== b[1] : red(a) === red(b)) return false;
  }
  return true;
}

function stockReason(obs) {
  if (obs.rules.has_waste) {
    return obs.stock || obs.waste.length ? t("reason.no_passes") : t("reason.stock_empty");
  }
  return obs.stock === 0 ? t("reason.no_deals") : t("reason.deal_empty");
}

/** The cards `count` lifted from `source`, or a reason they cannot be lifted. */
function lifted(obs, source, count, target) {
  if (source === "w") return { cards: obs.waste.slice(-1) };
  if (source.startsWith("f")) {
    if (obs.rules.has_waste && !obs.rules.foundation_to_column) return { reason: t("reason.no_back") };
    const pile = obs.foundations[Number(source.slice(1)) - 1] || [];
    return { cards: pile.slice(-1) };
  }
  const c = Number(source) - 1;
  const col = obs.columns[c] || [];
  const first = col.length - count;
  if (first < obs.down[c]) {
    const code = col[Math.max(first, 0)];
    return { reason: code && code !== "??" ? cap(t("reason.locked", { card: cardName(code) }))
      : t("reason.face_down") };
  }
  if (target.startsWith("f") && count > 1) return { reason: t("reason.one_to_foundation") };
  const cards = col.slice(first);
  const spider = obs.rules.build_rule === "any_suit";
  if (!isRun(cards, spider)) {
    return { reason: spider ? t("reason.not_run_suit", { n: count }) : t("reason.not_run_alt") };
  }
  return { cards };
}

function foundationReason(obs, head) {
  if (obs.rules.foundation_rule === "runs") {
    return t("reason.spider_foundation");
  }
  const r = rankOf(head);
  if (r === 0) return t("reason.not_allowed");
  return cap(t("reason.foundation_needs", { card: cardName(head), prev: cardName(RANKS[r - 1] + head[1]) }));
}

function columnReason(obs, head, target) {
  const col = obs.columns[Number(target) - 1] || [];
  const klondike = obs.rules.build_rule === "alternate_colours";
  if (!col.length) {
    return obs.rules.empty_column === "king" && head[0] !== "K"
      ? t("reason.king_only") : t("reason.not_allowed");
  }
  const r = rankOf(head);
  if (r === 12) return t("reason.king_space");
  const next = RANKS[r + 1];
  const needs = klondike
    ? t("a_colour_rank", { colour: t(red(head) ? "colour.black" : "colour.red"), rank: t(`rank_noun.${next}`) })
    : t(`a_rank.${next}`);
  return cap(t(klondike ? "reason.needs_colour" : "reason.needs_rank", { card: cardName(head), needs }));
}

/** Why moving `count` cards from `source` to `target` ("3", "f", "f2", "d") is refused. */
export function explain(body, source, count, target) {
  const obs = body.observation;
  if (body.status !== "playing" || obs.outcome !== "playing") return t("reason.game_over");
  if (source === "d") return stockReason(obs);
  const got = lifted(obs, source, count, target);
  if (got.reason) return got.reason;
  const head = got.cards[0];
  if (!head) return t("reason.not_allowed");
  if (target.startsWith("f")) return foundationReason(obs, head);
  return columnReason(obs, head, target);
}
