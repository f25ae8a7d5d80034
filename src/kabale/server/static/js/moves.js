// Reading the server's move lists. The page never decides legality itself: every move it
// offers comes from the observation's "legal" list (canonical text), paired index by index
// with "moves" (the same moves written out explicitly, e.g. "3:2>7").

const MOVE_RE = /^(\d+|w|f\d*)(?::(\d+))?>(\d+|f\d*)$/;

/** {source, count, target} of an explicit move string, or null ("d" has source "d"). */
export function parseMove(text) {
  if (text === "d") return { source: "d", count: 0, target: "" };
  const m = MOVE_RE.exec(text);
  if (!m) return null;
  return { source: m[1], count: m[2] ? Number(m[2]) : 1, target: m[3] };
}

/** Every legal move as {text (canonical), explicit, source, count, target}. */
export function legalMoves(body) {
  const legal = body.observation.legal;
  const explicit = body.moves || legal;
  const out = [];
  legal.forEach((text, i) => {
    const parsed = parseMove(explicit[i] || text);
    if (parsed) out.push({ text, explicit: explicit[i] || text, ...parsed });
  });
  return out;
}

/** The family of a variant string: "klondike", "spider" or "spiderette". */
export function familyOf(variant) {
  return variant.split(":")[0];
}

/** {name: value} of the options a canonical variant string names (defaults are left out). */
export function optionsOf(variant) {
  const rest = variant.split(":")[1];
  const out = {};
  if (rest) for (const part of rest.split(",")) {
    const [k, v] = part.split("=");
    out[k] = v;
  }
  return out;
}

/** One option's value as written in the variant string, or undefined for the default. */
export function optionOf(variant, name) {
  return optionsOf(variant)[name];
}

/** The legal move with this text (canonical or explicit), or null. */
export function moveByText(body, text) {
  return legalMoves(body).find((m) => m.text === text || m.explicit === text) || null;
}

function topOf(pile) {
  return pile.length ? pile[pile.length - 1] : null;
}

/** Moves of exactly `count` cards from `source`, to any target. */
export function movesFrom(body, source, count) {
  return legalMoves(body).filter((m) => m.source === source && m.count === count);
}

/** The move from source to target moving `count` cards, if legal. */
export function findMove(body, source, count, target) {
  return legalMoves(body).find((m) => m.source === source && m.count === count
    && (m.target === target || (target === "f" && m.target.startsWith("f")))) || null;
}

/** The card a move would pick up (its lowest card), or null. */
export function movingCard(obs, move) {
  if (move.source === "w") return topOf(obs.waste);
  if (move.source.startsWith("f")) return topOf(obs.foundations[Number(move.source.slice(1)) - 1]);
  const col = obs.columns[Number(move.source) - 1];
  return col ? col[col.length - move.count] : null;
}

function score(obs, move) {
  if (move.target.startsWith("f")) return 1000;
  const target = obs.columns[Number(move.target) - 1];
  const top = topOf(target);
  if (!top) {
    // Emptying a column into another empty one gains nothing.
    const src = move.source.match(/^\d+$/) ? obs.columns[Number(move.source) - 1] : null;
    const wholeColumn = src && src.length === move.count;
    return wholeColumn ? -100 : 10;
  }
  let s = 100;
  const card = movingCard(obs, move);
  if (card && card[1] === top[1]) s += 50;              // same suit (Spider runs)
  if (move.source.match(/^\d+$/)) {
    const src = obs.columns[Number(move.source) - 1];
    const down = obs.down[Number(move.source) - 1];
    if (src.length - move.count === down && down > 0) s += 30; // uncovers a face-down card
  }
  return s - Number(move.target) * 0.01;                  // ties: leftmost
}

/** The best legal destination for the cards picked up (click-to-move), or null. */
export function bestMove(body, source, count) {
  const options = movesFrom(body, source, count);
  if (!options.length) return null;
  const obs = body.observation;
  return options.reduce((best, m) => (score(obs, m) > score(obs, best) ? m : best));
}
