// Playing with the keyboard alone, without notation. Every pile is one Tab stop; the arrow
// keys move a visible focus between piles (left, right, and up or down between the top row and
// the columns) and between the face-up cards of a column; Enter or Space picks up the focused
// card (with the cards on it) and, on another pile, puts it down; Escape puts it back.

const KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];

function pileOf(el) { return el.closest(".pile"); }

function stops(table) {
  return [...table.querySelectorAll(".pile")].filter((g) => g.querySelector("[tabindex]"));
}

function anchorRect(g) { return g.querySelector(".slot").getBoundingClientRect(); }

/** Move the pile's tab stop to `el` and focus it. */
export function focusEl(el) {
  const g = pileOf(el);
  for (const other of g.querySelectorAll('[tabindex="0"]')) other.tabIndex = -1;
  el.tabIndex = 0;
  el.focus();
}

function nearestPile(table, from, dir) {
  const r = anchorRect(from);
  let best = null, bestScore = Infinity;
  for (const g of stops(table)) {
    if (g === from) continue;
    const q = anchorRect(g);
    const dx = q.left - r.left, dy = q.top - r.top;
    let score;
    if (dir === "ArrowRight" && dx > 1) score = dx + 3 * Math.abs(dy);
    else if (dir === "ArrowLeft" && dx < -1) score = -dx + 3 * Math.abs(dy);
    else if (dir === "ArrowDown" && dy > 1) score = dy + 3 * Math.abs(dx);
    else if (dir === "ArrowUp" && dy < -1) score = -dy + 3 * Math.abs(dx);
    else continue;
    if (score < bestScore) { best = g; bestScore = score; }
  }
  return best;
}

function step(table, el, key) {
  const g = pileOf(el);
  const inPile = [...g.querySelectorAll("[tabindex]")];
  const i = inPile.indexOf(el);
  if (key === "Home" || key === "End") {
    const all = stops(table);
    const g2 = key === "Home" ? all[0] : all[all.length - 1];
    return g2.querySelector('[tabindex="0"]') || g2.querySelector("[tabindex]");
  }
  if (key === "ArrowUp" && i > 0) return inPile[i - 1];
  if (key === "ArrowDown" && i < inPile.length - 1) return inPile[i + 1];
  const g2 = nearestPile(table, g, key);
  if (!g2) return null;
  return g2.querySelector('[tabindex="0"]') || g2.querySelector("[tabindex]");
}

/** Keyboard play on `table`. hooks.activate(el) handles Enter/Space on a card or pile,
 *  hooks.cancel() Escape. */
export function enableKeyboard(table, hooks) {
  table.addEventListener("keydown", (e) => {
    const el = e.target;
    if (!(el instanceof HTMLElement) || !table.contains(el) || !el.hasAttribute("tabindex")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (KEYS.includes(e.key)) {
      e.preventDefault();
      e.stopPropagation();
      const next = step(table, el, e.key);
      if (next) focusEl(next);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      hooks.activate(el);
    } else if (e.key === "Escape") {
      e.stopPropagation();
      hooks.cancel();
    }
  });
}
