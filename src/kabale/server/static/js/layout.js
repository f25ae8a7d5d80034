// Table geometry, pure: from an observation, the table's size and the settings, where every
// pile and card goes. Two arrangements are tried and the one with the larger cards wins:
// "top" (stock and foundations in a row above the columns) and "side" (stock on one side,
// foundations on the other, the columns getting the whole height: short wide windows).
// A card size fits when every column (and the variant's design column, so that the size does
// not change in the middle of a game) fits the height with each covered face-up card showing
// at least its corner index: rank and suit.


export const ASPECT = 1.4;
const MAX_CW = 240;
/** The readable floor: no card is drawn narrower than this (a corner index of 9-11 px still
 *  fits it, stacked). Where the longest column does not fit the window's height at this size
 *  (a long 4-suit Spider column on a 640x360 phone), the table grows taller than the window
 *  and scrolls up and down (never sideways): cards stay readable, the fan overlaps no more. */
export const FLOOR_CW = 28;
const SIDE_BONUS = 1.06;   // "side" must win clearly: "top" is the layout players expect

/** The corner index's share of the card's width: in plain print, and at most in large print. */
const SHARE = 0.22, LARGE_SHARE = 0.34;

/** The corner index of a card `cw` wide: font size, padding, arrangement and the strip
 *  (from the card's top edge) that must stay visible for rank and suit to show. `large` is
 *  large print (true: the most it takes), or the index's share of the card's width. */
export function indexMetrics(cw, large = false, minFont = large ? 15 : 11) {
  const share = large === true ? LARGE_SHARE : large === false ? SHARE : large;
  let font = Math.max(cw * share, minFont);
  font = Math.min(font, cw * (0.42 + (share - SHARE) * (0.1 / (LARGE_SHARE - SHARE))));
  const pad = Math.max(1.5, cw * 0.045);
  const inline = pad + 2.15 * font <= cw * 0.97;   // "10" and its suit side by side
  if (!inline) font = Math.min(font, (cw - 2 * pad) / 1.3);
  const strip = inline ? pad + 1.05 * font + 2 : pad + 1.9 * font + 2;
  const width = inline ? pad + 2.15 * font : pad + 1.3 * font;
  return { font, pad, inline, strip, width };
}

/** Vertical step sizes for a card height and index metrics. */
function steps(ch, m) {
  const fuMin = m.strip + 1;
  const fdMin = Math.max(3, ch * 0.05);
  return { fdMin, fdPref: Math.max(fdMin, ch * 0.1), fuMin, fuPref: Math.max(fuMin, ch * 0.27) };
}

/** Offsets (from the column's top) of each card of a column of `n` cards whose bottom `down`
 *  are face down (shown with their index when `open`), squeezed into `room` pixels; null when
 *  even the tightest fan does not fit. */
export function fanOffsets(n, down, open, ch, m, room) {
  if (n === 0) return [];
  const s = steps(ch, m);
  let nd = 0, nu = 0;
  for (let i = 0; i < n - 1; i++) {
    if (i < down && !open) nd += 1; else nu += 1;
  }
  const need = room - ch;
  const min = nd * s.fdMin + nu * s.fuMin;
  const pref = nd * s.fdPref + nu * s.fuPref;
  if (min > need + 0.01) return null;
  const t = pref <= need ? 1 : (pref - min > 0 ? (need - min) / (pref - min) : 1);
  const fd = s.fdMin + t * (s.fdPref - s.fdMin), fu = s.fuMin + t * (s.fuPref - s.fuMin);
  const ys = [];
  let y = 0;
  for (let i = 0; i < n; i++) {
    ys.push(y);
    y += i < down && !open ? fd : fu;
  }
  return ys;
}

/** The longest column the variant is planned for (its size never changes below it). */
function designColumn(obs) {
  const family = obs.rules.family;
  const n = obs.columns.length;
  if (family === "klondike") return { n: n - 1 + 13, down: n - 1 };
  return { n: (family === "spider" ? 5 : 6) + 13, down: family === "spider" ? 5 : 6 };
}

function spiderRuns(obs) {
  let cards = obs.stock;
  for (const c of obs.columns) cards += c.length;
  for (const f of obs.foundations) cards += f.length;
  return Math.round(cards / 13);
}

/** Facts about the observation that the layout needs. */
function facts(obs) {
  const family = obs.rules.family;
  const klondike = family === "klondike";
  const byCard = obs.rules.foundation_rule === "cards";
  return {
    family, klondike, byCard,
    ncols: obs.columns.length,
    nf: byCard ? obs.foundations.length : spiderRuns(obs),
    draw3: obs.rules.draw === 3,
    // Thoughtful, or a finished game's deal turned face up (the post-mortem's review)
    open: obs.face_up === true || obs.rules.shows_every_card,
    deals: klondike ? 0 : Math.ceil(obs.stock / (family === "spider" ? 10 : 7)),
    stockCards: obs.stock_cards || null,
  };
}

function gapFor(cw) { return Math.max(3, Math.min(14, cw * 0.09)); }

/** The Thoughtful stock strip: small chips (rank and suit) of every stock card. */
function stripBox(f, m, x, y, w) {
  if (!f.stockCards) return null;
  const chipW = m.width + 6, chipH = m.font * 1.15 + 6;
  const perRow = Math.max(1, Math.floor(w / (chipW + 2)));
  const rows = Math.max(1, Math.ceil(f.stockCards.length / perRow));
  return { x, y, w, chipW, chipH, perRow, rows, h: rows * (chipH + 2) };
}

function placeColumns(obs, f, g, left, top, bottom) {
  const room = bottom - top;
  const cols = [];
  for (let c = 0; c < f.ncols; c++) {
    const ys = fanOffsets(obs.columns[c].length, obs.down[c], f.open, g.ch, g.m, room);
    if (!ys) return null;
    cols.push({ x: left + c * (g.cw + g.gap), y: top, ys });
  }
  const d = designColumn(obs);
  if (!fanOffsets(d.n, d.down, f.open, g.ch, g.m, room)) return null;
  return cols;
}

/** Foundations in a row ending at `right`, scaled down (never below 55%) to fit `room`. */
function foundationRow(f, g, right, room, y) {
  const natural = f.nf * (g.cw + g.gap) - g.gap;
  const s = Math.min(1, (room + g.gap) / (f.nf * (g.cw + g.gap)));
  if (natural > room && s < 0.55) return null;
  const step = (g.cw + g.gap) * s;
  return Array.from({ length: f.nf }, (_, i) => ({
    x: right - (f.nf - i) * step + g.gap * s, y, s, fan: 0,
  }));
}

function topArrangement(obs, f, W, H, cw, large, minFont) {
  const g = { cw, ch: cw * ASPECT, gap: gapFor(cw), m: indexMetrics(cw, large, minFont) };
  const pad = g.gap;
  const span = f.ncols * cw + (f.ncols - 1) * g.gap;
  if (span + 2 * pad > W) return null;
  const left = (W - span) / 2, right = left + span;
  const x = (i) => left + i * (cw + g.gap);
  const fanX = g.m.width + 2;
  const stock = { x: x(0), y: pad, w: cw, dx: f.klondike ? 0 : cw * 0.1, dy: 0 };
  if (!f.klondike) stock.w = cw + Math.max(0, f.deals - 1) * stock.dx;
  let waste = null, used = stock.x + stock.w;
  if (f.klondike) {
    waste = { x: x(1), y: pad, w: cw + (f.draw3 ? 2 * fanX : 0), fanX: f.draw3 ? fanX : 0, fanY: 0 };
    used = waste.x + waste.w;
  }
  const found = foundationRow(f, g, right, right - used - g.gap, pad);
  if (!found) return null;
  let top = pad + g.ch + g.gap;
  const strip = stripBox(f, g.m, left, top - g.gap * 0.4, span);
  if (strip) top += strip.h + g.gap * 0.4;
  const cols = placeColumns(obs, f, g, left, top, H - pad);
  if (!cols) return null;
  return { mode: "top", ...g, stock, waste, found, strip, cols, width: W, height: H };
}

function sideFoundations(f, g, x0, H) {
  const pad = g.gap;
  const avail = H - 2 * pad;
  if (!f.byCard) {
    // Removed Spider runs: a fan of Kings, one index strip apart, in as few columns as fit.
    for (let k = 1; k <= f.nf; k++) {
      const rows = Math.ceil(f.nf / k);
      const fan = g.m.strip + 1;
      if (g.ch + (rows - 1) * fan <= avail) {
        const out = [];
        for (let i = 0; i < f.nf; i++) {
          out.push({ x: x0 + Math.floor(i / rows) * (g.cw + g.gap), y: pad + (i % rows) * fan,
            s: 1, fan });
        }
        return { found: out, w: k * (g.cw + g.gap) - g.gap };
      }
    }
    return null;
  }
  const options = f.nf === 4 ? [1, 2] : [2, 4];
  for (const k of options) {
    const rows = Math.ceil(f.nf / k);
    const s = Math.min(1, (avail + g.gap) / (rows * (g.ch + g.gap)));
    if (s < 0.7 && k !== options[options.length - 1]) continue;
    if (s < 0.5) return null;
    const out = [];
    for (let i = 0; i < f.nf; i++) {
      const col = Math.floor(i / rows), row = i % rows;
      out.push({ x: x0 + col * (g.cw + g.gap) * s, y: pad + row * (g.ch + g.gap) * s, s, fan: 0 });
    }
    return { found: out, w: k * (g.cw + g.gap) * s - g.gap * s };
  }
  return null;
}

function sideArrangement(obs, f, W, H, cw, large, minFont) {
  const g = { cw, ch: cw * ASPECT, gap: gapFor(cw), m: indexMetrics(cw, large, minFont) };
  const pad = g.gap;
  const fanY = g.m.strip + 1;
  const stock = { x: pad, y: pad, w: cw, dx: 0, dy: f.klondike ? 0 : Math.min(5, g.ch * 0.05) };
  let waste = null, stockH = g.ch + Math.max(0, f.deals - 1) * stock.dy;
  if (f.klondike) {
    waste = { x: pad, y: pad + g.ch + g.gap, w: cw, fanX: 0, fanY: f.draw3 ? fanY : 0 };
    stockH = g.ch * 2 + g.gap + (f.draw3 ? 2 * fanY : 0);
  }
  if (stockH + 2 * pad > H) return null;
  const side = sideFoundations(f, g, 0, H);
  if (!side) return null;
  const span = f.ncols * cw + (f.ncols - 1) * g.gap;
  const need = pad + cw + 2 * g.gap + span + 2 * g.gap + side.w + pad;
  if (need > W) return null;
  const extra = (W - need) / 2;
  const left = pad + cw + 2 * g.gap + extra;
  const fx = left + span + 2 * g.gap + extra;
  for (const p of side.found) p.x += fx;
  let top = pad;
  const strip = stripBox(f, g.m, left, top, span);
  if (strip) top += strip.h + g.gap * 0.5;
  const cols = placeColumns(obs, f, g, left, top, H - pad);
  if (!cols) return null;
  return { mode: "side", ...g, stock, waste, found: side.found, strip, cols, width: W, height: H };
}

/** Largest card width (to half a pixel) for which `arrange` finds a layout, and that layout. */
function largest(arrange, lo, hi) {
  let best = arrange(lo);
  if (!best) return null;
  while (hi - lo > 0.5) {
    const mid = (lo + hi) / 2;
    const found = arrange(mid);
    if (found) { best = found; lo = mid; } else hi = mid;
  }
  return best;
}

/** Mirror the stock side and the foundation side (left-handed play: the stock on the right). */
function mirror(L) {
  const flip = (box, w) => { box.x = L.width - box.x - w; };
  flip(L.stock, L.stock.w);
  if (L.waste) flip(L.waste, L.waste.w);
  for (const p of L.found) flip(p, L.cw * p.s);
  // The block of columns keeps its order (column 1 on the left) and swaps sides as a whole.
  const left = L.cols[0].x, span = L.cols[L.cols.length - 1].x + L.cw - left;
  const delta = L.width - left - span - left;
  for (const c of L.cols) c.x += delta;
  if (L.strip) L.strip.x += delta;
  L.mirrored = true;
  return L;
}

function best(obs, f, width, height, large, minFont) {
  const hi = Math.min(MAX_CW, width / f.ncols);
  const top = largest((cw) => topArrangement(obs, f, width, height, cw, large, minFont), 8, hi);
  const side = largest((cw) => sideArrangement(obs, f, width, height, cw, large, minFont), 8, hi);
  if (side && (!top || side.cw > top.cw * SIDE_BONUS)) return side;
  return top;
}

const ARRANGE = { top: topArrangement, side: sideArrangement };

/** Cards at the floor in a table taller than `height`: the least height at which the "top"
 *  arrangement fits `width` (null when even the floor is too wide for the window). */
function tall(obs, f, width, height) {
  const cw = Math.min(FLOOR_CW, MAX_CW);
  const at = (h) => topArrangement(obs, f, width, h, cw, false, 9);
  if (!at(1e5)) return null;
  let lo = height, hi = 1e5;
  while (hi - lo > 1) {
    const mid = (lo + hi) / 2;
    if (at(mid)) hi = mid; else lo = mid;
  }
  const L = at(Math.ceil(hi));
  L.tall = true;
  return L;
}

/** The whole layout for `obs` in a table of `width` x `height` pixels. Long columns in a short
 *  window first lower the minimum index font, then give up large print, before the cards
 *  become so small that the index would take them over. */
export function layout(obs, width, height, { large = false, leftHanded = false, keep = null } = {}) {
  const f = facts(obs);
  // The size a game was drawn at is kept while it still fits (the table does not jump when a
  // column grows past the planned one and shrinks back): only a new window, a new game or a
  // column that no longer fits changes it. `keep` is the last layout of this game and window.
  let L = keep ? again(obs, f, width, height, keep) : null;
  if (!L) L = fresh(obs, f, width, height, large);
  L.facts = f;
  return leftHanded ? mirror(L) : L;
}

function again(obs, f, width, height, keep) {
  if (keep.tall) return tall(obs, f, width, height);
  const L = ARRANGE[keep.mode](obs, f, width, height, keep.cw, keep.big, keep.minFont);
  if (L) Object.assign(L, { big: keep.big, minFont: keep.minFont });
  return L;
}

/** The layout of a game just dealt (or of a window that changed). Large print takes the
 *  largest corner index that leaves the cards as wide as plain print has them: a bigger index
 *  needs a taller strip of each covered card, so on a laptop, where the planned longest column
 *  fills the height, the full large index shrank Klondike's cards from 110 to 85 px. Where the
 *  width bounds the cards (a phone) the index grows freely; where the height does, it grows as
 *  far as the plan leaves room. */
function fresh(obs, f, width, height, large) {
  const plain = fit(obs, f, width, height, false);
  if (!large || plain.tall) return plain;
  // the same arrangement at the same card width, with the index at `share` of it
  const at = (share, minFont) => {
    const L = ARRANGE[plain.mode](obs, f, width, height, plain.cw, share, minFont);
    return L ? Object.assign(L, { big: share, minFont }) : null;
  };
  for (const minFont of [15, 12]) {
    let found = at(LARGE_SHARE, minFont);
    if (found) return found;
    let lo = SHARE, hi = LARGE_SHARE;
    found = at(lo, minFont);
    if (!found) continue;
    while (hi - lo > 0.005) {
      const mid = (lo + hi) / 2;
      const L = at(mid, minFont);
      if (L) { found = L; lo = mid; } else hi = mid;
    }
    return found;
  }
  return plain;
}

/** The largest cards for `large` print (true, or false: plain), the minimum index font
 *  lowered (and large print given up) before the cards fall under the readable floor. */
function fit(obs, f, width, height, large) {
  const tries = [[large, large ? 15 : 11], [large, large ? 12 : 9]];
  if (large) tries.push([false, 11], [false, 9]);
  let L = null;
  for (const [big, minFont] of tries) {
    const found = best(obs, f, width, height, big, minFont);
    if (found && (!L || found.cw > L.cw)) L = Object.assign(found, { big, minFont });
    if (L && L.cw >= 3.6 * minFont) break;
  }
  if (L && L.cw >= FLOOR_CW) return L;
  const high = tall(obs, f, width, height);
  if (high) return high;
  if (L) return L;
  // a window too narrow even for the floor: the smallest cards, overflowing
  return topArrangement(obs, f, Math.max(width, f.ncols * 12), 1e6, 8, false, 9);
}
