// Why a move the player tried is refused, in the page's words. The rules decide why: the server
// answers a move that is not on the legal list with its refusal, a reason key and parameters
// (GET .../explain, docs/api.md; core/refusal.py), and this only looks the key up in the
// translation tables (`reason.<key>`) and words its parameters. No rule is restated here.

import { api } from "./api.js";
import { cap, t } from "./i18n.js";
import { cardName, familyName, pileName } from "./names.js";

/** A rank parameter (1 = ace .. 13 = king) as the tables' rank letter. */
const RANKS = "A23456789TJQK";

/** A foundation parameter ("f", "f2") in words. */
function foundationName(pile, obs) {
  if (pile === "f") return t("pile.foundation");
  return obs.rules.has_waste ? pileName(pile, obs) : t("pile.foundation_n", { n: pile.slice(1) });
}

/** The words of a refusal `reason` ({key, params}, docs/api.md) in the page's language, its
 *  cards by name; `obs` (the observation it was given in) names the piles. */
export function reasonWords(reason, obs) {
  const p = reason.params || {};
  const vars = { ...p };
  for (const name of ["card", "top", "prev"]) if (name in p) vars[name] = cardName(p[name]);
  if ("colour" in p) vars.colour = t(`colour.${p.colour}`);
  if ("rank" in p) {
    const rank = RANKS[p.rank - 1];
    vars.rank = t(`rank_noun.${rank}`);
    if ("colour" in p) vars.needs = t("a_colour_rank", { colour: vars.colour, rank: vars.rank });
    // "the {rank} of its suit": that card, when the refusal names the card of that suit
    if ("card" in p && !("prev" in p)) vars.prev = cardName(rank + p.card[1]);
  }
  if ("family" in p) vars.family = familyName(p.family);
  for (const name of ["foundation", "target"]) {
    if (name in p) vars[`${name}_name`] = foundationName(p[name], obs);
  }
  if ("up" in p) vars.n = p.up;   // the plural follows the face-up count
  return cap(t(`reason.${reason.key}`, vars));
}

/** Why the move `text` (notation) is refused in the game `body`, in words: the server's
 *  answer worded here. `typed`: the player wrote it, so text that is no move says so. */
export async function explainText(body, text, typed = false) {
  if (body.status !== "playing" || body.observation.outcome !== "playing") return t("reason.game_over");
  try {
    const got = await api.explain(body.id, text);
    // (a legal answer: the game moved on meanwhile, in another tab perhaps)
    return got.reason ? reasonWords(got.reason, body.observation) : t("reason.out_of_step");
  } catch (err) {
    if (err.status === 422) return typed ? t("reason.not_a_move", { text }) : t("reason.not_allowed");
    if (err.status === 0) return t("reason.offline");
    return t(err.status === 409 ? "reason.game_over" : "reason.not_allowed");
  }
}

/** Why moving `count` cards from pile `source` to `target` ("3", "f", "f2", "d") is refused,
 *  in words (a promise): the move in notation, asked of the server. */
export function explain(body, source, count, target) {
  if (source === "d") return explainText(body, "d");
  // The notation writes a count only from column to column: a run put on a foundation is no
  // move the server could be asked about, and the notation has that reason for it.
  if (target.startsWith("f") && count > 1) return Promise.resolve(t("reason.one_to_foundation"));
  const columns = /^\d+$/.test(source) && /^\d+$/.test(target);
  return explainText(body, columns ? `${source}:${count}>${target}` : `${source}>${target}`);
}
