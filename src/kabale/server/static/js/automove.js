// The optional auto-move of safe cards to Klondike's foundations (a setting, off by default).

import { findMove } from "./moves.js";
import { KLONDIKE_SUITS } from "./names.js";

/** Klondike's optional auto-move: a card that no other card could ever need to sit on it
 *  goes to its foundation (an ace or a two; else a card of rank r once both foundations of the
 *  other colour reach r - 1). Only after the player's own moves, so an undo is not undone. */
export function safeMove(body) {
  const obs = body.observation;
  if (body.status !== "playing" || obs.rules.family !== "klondike") return null;
  const rank = (code) => "A23456789TJQK".indexOf(code[0]) + 1;
  const red = (suit) => suit === "H" || suit === "D";
  const homes = obs.foundations.map((pile, i) => ({ suit: KLONDIKE_SUITS[i % 4],
    top: pile.length ? rank(pile[pile.length - 1]) : 0 }));
  const safe = (code) => rank(code) <= 2 || homes.every((f) => red(f.suit) === red(code[1])
    || f.top >= rank(code) - 1);
  const tops = [["w", obs.waste[obs.waste.length - 1]],
    ...obs.columns.map((col, c) => [String(c + 1), col[col.length - 1]])];
  for (const [source, code] of tops) {
    if (!code || code === "??" || !safe(code)) continue;
    const m = findMove(body, source, 1, "f");
    if (m) return m.text;
  }
  return null;
}
