// The bar above the table: the game by its name, the deal (with tags for a daily, winnable or
// graded deal, a replay and help had), score (money in Vegas, with the running balance), moves
// and the time, which starts at the first move.

import { money, number, t } from "./i18n.js";
import { clock } from "./dialogs.js";
import { variantName } from "./names.js";
import { isVegas } from "./stats.js";

const $ = (id) => document.getElementById(id);

/** The deal as people read it: a short number (long ones cut in the middle), or the secret
 *  deal's fingerprint while its number is not shown. */
export function dealLabel(obs) {
  if (obs.deal_id) {
    const num = obs.deal_id.slice(obs.deal_id.lastIndexOf("#") + 1);
    if (!/^\d+$/.test(num)) return { text: "", title: "" };   // a hand-made deal or position
    const text = num.length > 10 ? `${num.slice(0, 4)}…${num.slice(-4)}` : num;
    return { text: `#${text}`, title: t("hud.deal.number.title", { number: num }) };
  }
  const hash = String(obs.deal_hash || "").slice(0, 8);
  return { text: t("hud.deal.secret", { hash: hash.slice(0, 6) }),
    title: t("hud.deal.secret.title", { hash }) };
}

/** The short tags of how the deal was chosen and whether the player had help. */
function tags(body) {
  const deal = body.deal || {};
  const out = [];
  if (deal.daily) out.push(t("tag.daily", { date: deal.daily }));
  if (deal.grade) out.push(t(`grade.${deal.grade}`));
  else if (deal.winnable) out.push(t("tag.winnable"));
  if (deal.replay_of) out.push(t("tag.replay"));
  if (body.assisted) out.push(t("tag.assisted"));
  return out;
}

/** How the deal was chosen, in sentences: the grade with its band (and its exact measure
 *  once the game is over: the server sends none during play, as it would narrow down the last
 *  face-down cards), winnable, daily. */
export function dealWords(body) {
  const deal = body.deal || {};
  const out = [];
  const known = deal.measure !== null && deal.measure !== undefined;
  if (deal.daily) out.push(t("deal.daily", { date: deal.daily }));
  if (deal.grade) {
    const [low, high] = deal.band;
    const words = { grade: t(`grade.${deal.grade}`), measure: known ? number(deal.measure) : "",
      low: number(low), high: high === null ? "" : number(high) };
    const key = (known ? "deal.grade" : "deal.grade_band") + (high === null ? "_top" : "");
    out.push(t(key, words));
  } else if (deal.winnable) {
    out.push(known ? t("deal.winnable", { measure: number(deal.measure) }) : t("deal.winnable_play"));
  }
  else if (deal.daily) out.push(t("deal.daily_ungraded"));
  if (deal.replay_of) out.push(t("deal.replay", { n: number(deal.from) }));
  if (body.assisted) out.push(t("deal.assisted"));
  return out.join(" ") || t("deal.plain");
}

/** Redraw the bar for `body`. */
export function hud(body, settings, balance, timerAt) {
  const obs = body.observation;
  const vegas = isVegas(obs.variant);
  $("variant-name").textContent = variantName(obs.variant);
  const deal = dealLabel(obs);
  $("deal-id").textContent = deal.text;
  $("deal-id").title = deal.title;
  $("score").textContent = vegas ? money(obs.score) : number(obs.score);
  $("balance-box").hidden = !vegas;
  if (vegas) {
    const playing = body.status === "playing" ? obs.score : 0;
    $("balance").textContent = money(balance + playing);
  }
  $("moves").textContent = number(obs.moves_made);
  const shown = tags(body);
  $("deal-tags").hidden = !shown.length;
  $("deal-tags").textContent = shown.join(" · ");
  $("deal-tags").title = shown.length ? dealWords(body) : "";
  $("btn-undo").disabled = !body.can_undo;
  $("btn-redo").disabled = !body.can_redo;
  document.body.dataset.family = obs.rules.family;
  document.body.dataset.status = body.status;
  tick(body, settings, timerAt);
}

/** The clock: the server's elapsed time plus the seconds since its last answer (at most 120,
 *  as the server counts idle time), running only from the first move of a game in play. */
export function tick(body, settings, timerAt) {
  $("timer-box").hidden = !settings.timer;
  if (!settings.timer) return;
  const obs = body.observation;
  const running = body.status === "playing" && obs.outcome === "playing" && obs.moves_made > 0;
  const extra = running ? Math.min((Date.now() - timerAt) / 1000, 120) : 0;
  $("timer").textContent = clock(body.elapsed + extra);
}
