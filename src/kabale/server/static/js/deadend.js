// Spider's dead ends, proved from what the player sees: with the stock empty, every position
// the face-up cards can reach is searched; when none of them turns a face-down card up or
// completes a run, no move can ever change the game again (the moves left only shuffle runs
// back and forth). The search reads only the face-up cards and the number of face-down ones
// in each column, so it tells the player nothing the table does not show.


const RANKS = "A23456789TJQK";
const LIMIT = 5000;    // positions searched at most; beyond it nothing is claimed

const rank = (code) => RANKS.indexOf(code[0]) + 1;

/** The index where the movable run at the end of `col` (face-up part `up`) starts. */
function runStart(up) {
  let i = up.length - 1;
  while (i > 0 && up[i - 1][1] === up[i][1] && rank(up[i - 1]) === rank(up[i]) + 1) i -= 1;
  return i;
}

/** True when the face-up cards `up` end in a whole king-to-ace run of one suit. */
function completes(up) {
  return up.length >= 13 && up.length - runStart(up) >= 13;
}

/** The positions one move away from `cols` ({up, down} per column), or "progress" when a move
 *  turns a card up or completes a run. */
function next(cols) {
  const out = [];
  for (let s = 0; s < cols.length; s++) {
    const src = cols[s];
    if (!src.up.length) continue;
    for (let i = runStart(src.up); i < src.up.length; i++) {
      const head = src.up[i];
      for (let d = 0; d < cols.length; d++) {
        if (d === s) continue;
        const dst = cols[d];
        const top = dst.up[dst.up.length - 1];
        const fits = dst.up.length ? rank(top) === rank(head) + 1 : dst.down === 0;
        if (!fits) continue;
        if (i === 0 && src.down > 0) return "progress";          // a card would turn up
        if (!dst.up.length && i === 0) continue;                 // a whole column moved over
        const moved = cols.map((c) => ({ up: c.up, down: c.down }));
        moved[s] = { up: src.up.slice(0, i), down: src.down };
        moved[d] = { up: [...dst.up, ...src.up.slice(i)], down: dst.down };
        if (completes(moved[d].up)) return "progress";
        out.push(moved);
      }
    }
  }
  return out;
}

/** True when `obs` (Spider or Spiderette, in play) is proved to be a dead end: the stock is
 *  empty, a card is still face down, and no reachable position turns one up or completes a
 *  run. False when it is not, or when the search ran past its limit. */
export function deadEnd(obs) {
  if (obs.rules.has_waste || obs.outcome !== "playing" || obs.stock > 0) return false;
  if (obs.rules.foundation_rule === "cards") return false;
  if (!obs.down.some((d) => d > 0)) return false;
  const start = obs.columns.map((col, c) => ({ up: col.slice(obs.down[c]), down: obs.down[c] }));
  const key = (cols) => cols.map((c) => `${c.down}:${c.up.join(",")}`).join("|");
  const seen = new Set([key(start)]);
  const todo = [start];
  while (todo.length) {
    const got = next(todo.pop());
    if (got === "progress") return false;
    for (const cols of got) {
      const k = key(cols);
      if (seen.has(k)) continue;
      if (seen.size >= LIMIT) return false;
      seen.add(k);
      todo.push(cols);
    }
  }
  return true;
}
