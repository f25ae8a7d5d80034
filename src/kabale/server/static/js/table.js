// Drawing the table from an observation: the layout (layout.js) turned into elements, each card
// with its accessible name, one tab stop per pile, and animations that start where each card
// really was. Twin cards (Spider with 1 or 2 suits, Double Klondike) are told apart by place:
// a card still at its pile and index stays itself, and only the cards that left their places
// are paired with the new ones, those from the move's source first.

import { cardElement, indexElement } from "./cards.js";
import { t } from "./i18n.js";
import { layout } from "./layout.js";
import { moveByText, parseMove } from "./moves.js";
import { cardName, foundationFor, KLONDIKE_SUITS, pileName } from "./names.js";

const EASE = "cubic-bezier(.25,.75,.35,1)";

function label(pile, obs) {
  const name = pileName(pile, obs);
  return name[0].toLocaleUpperCase() + name.slice(1);
}

/** One placed card: where it goes and what it shows. */
function item(pile, index, code, x, y, z, s = 1) {
  return { pile, index, code, x, y, z, s };
}

function columnItems(obs, L, out) {
  obs.columns.forEach((col, c) => {
    const { x, y, ys } = L.cols[c];
    col.forEach((code, i) => out.push({ ...item(String(c + 1), i, code, x, y + ys[i], 10 + i),
      locked: i < obs.down[c] && code !== "??" }));
  });
}

function stockItems(obs, L, out) {
  const f = L.facts, st = L.stock;
  const n = f.klondike ? Math.min(obs.stock, 3) : f.deals;
  for (let i = 0; i < n; i++) {
    const k = f.klondike ? i * 0.6 : i;   // a thin edge for depth; Spider: one per deal left
    out.push(item("d", i, "??", st.x + k * st.dx + (f.klondike ? k : 0), st.y + k * st.dy, 2 + i));
  }
}

function wasteItems(obs, L, out) {
  if (!L.waste) return;
  const w = L.waste;
  const shown = Math.min(obs.waste.length, L.facts.draw3 ? 3 : 2);
  const start = obs.waste.length - shown;
  for (let k = 0; k < shown; k++) {
    const fanned = L.facts.draw3 ? k : 0;
    out.push(item("w", start + k, obs.waste[start + k], w.x + fanned * w.fanX,
      w.y + fanned * w.fanY, 3 + k));
  }
}

function foundationItems(obs, L, out) {
  const byCard = L.facts.byCard;
  L.found.forEach((p, i) => {
    const pile = obs.foundations[i] || [];
    // A removed Spider run shows its King (first); a Klondike foundation its top card.
    pile.forEach((code, k) => out.push(item(`f${i + 1}`, k, code, p.x, p.y,
      byCard ? 3 + k : 3 + pile.length - k + i, p.s)));
  });
}

function place(el, x, y, z, s, L) {
  el.style.left = `${x}px`;
  el.style.top = `${y}px`;
  el.style.zIndex = String(z);
  if (s !== 1) {
    el.style.width = `${L.cw * s}px`;
    el.style.height = `${L.ch * s}px`;
    el.style.setProperty("--idx-font", `${L.m.font * s}px`);
    el.style.setProperty("--idx-pad", `${L.m.pad * s}px`);
  }
}

function slotFor(pile, box, L, obs) {
  const el = document.createElement("div");
  el.className = "slot";
  el.dataset.pile = pile;
  const s = box.s || 1;
  place(el, box.x, box.y, 0, s, L);
  if (/^f\d+$/.test(pile) && L.facts.klondike) {
    el.classList.add("suit-slot");
    el.append(indexElement(`A${KLONDIKE_SUITS[(Number(pile.slice(1)) - 1) % 4]}`, "mark"));
  }
  if (pile === "d") el.classList.add("stock-slot");
  // Removed Spider runs fanned on one side: one outline for the whole fan.
  if (box.fan && pile !== "f1") el.classList.add("ghost");
  return el;
}

function stockLabel(obs, L) {
  if (!L.facts.klondike) return t("a11y.stock.spider", { n: L.facts.deals });
  if (obs.stock) return t("a11y.stock.klondike", { n: obs.stock });
  return obs.waste.length && obs.passes_left !== 0 ? t("a11y.stock.turn") : t("a11y.stock.spent");
}

function badgeFor(obs, L) {
  const b = document.createElement("span");
  b.className = "badge";
  b.setAttribute("aria-hidden", "true");
  b.dataset.pile = "d";
  const passes = obs.passes_left === null || obs.passes_left === undefined ? ""
    : ` ↻${obs.passes_left}`;
  b.textContent = L.facts.klondike ? `${obs.stock}${passes}` : String(L.facts.deals);
  const st = L.stock;
  b.style.left = `${st.x + L.cw / 2}px`;
  b.style.top = `${st.y + L.ch - 2}px`;
  return b;
}

function stripFor(obs, L) {
  const s = L.strip;
  const box = document.createElement("div");
  box.className = "stock-strip";
  box.setAttribute("role", "img");
  const next = [...obs.stock_cards].reverse();
  box.setAttribute("aria-label", t("say.stock_list", { cards: next.map(cardName).join(", ") }));
  box.style.left = `${s.x}px`;
  box.style.top = `${s.y}px`;
  box.style.width = `${s.w}px`;
  next.forEach((code, i) => {
    const chip = indexElement(code, "chip");
    chip.dataset.suit = code[1];
    chip.style.left = `${(i % s.perRow) * (s.chipW + 2)}px`;
    chip.style.top = `${Math.floor(i / s.perRow) * (s.chipH + 2)}px`;
    box.append(chip);
  });
  return box;
}

/** The piles in visual reading order (Tab order follows it). */
function pileOrder(obs, L) {
  const piles = [{ pile: "d", x: L.stock.x, y: L.stock.y, box: L.stock }];
  if (L.waste) piles.push({ pile: "w", x: L.waste.x, y: L.waste.y, box: L.waste });
  L.found.forEach((p, i) => piles.push({ pile: `f${i + 1}`, x: p.x, y: p.y, box: p }));
  const cols = L.cols.map((c, i) => ({ pile: String(i + 1), x: c.x, y: c.y, box: c, column: true }));
  const row = (p) => (L.mode === "top" && p.column ? 1 : 0);
  return [...piles, ...cols].sort((a, b) => row(a) - row(b) || a.x - b.x || a.y - b.y);
}

function groupLabel(pile, obs, L) {
  if (/^\d+$/.test(pile)) {
    const c = Number(pile) - 1;
    const down = obs.columns[c].slice(0, obs.down[c]).filter((x) => x === "??").length;
    if (!obs.columns[c].length) return t("a11y.column.empty", { n: pile });
    return down ? t("a11y.column.down", { c: pile, n: down }) : t("a11y.pile.column", { n: pile });
  }
  if (pile === "d") return stockLabel(obs, L);
  if (pile === "w") return obs.waste.length ? label("w", obs) : t("a11y.waste.empty");
  if (!L.facts.byCard) return t("a11y.runs", { n: obs.foundations.length, total: L.facts.nf });
  return label(pile, obs);
}

function cardLabel(it, obs, top) {
  if (it.pile === "d") return null;
  const card = cardName(it.code);
  const pile = pileName(it.pile, obs);
  if (it.locked) return t("a11y.card.locked", { card, pile });
  return t(top ? "a11y.card.top" : "a11y.card", { card, pile });
}

/** Which element of a pile gets the pile's tab stop and which are reachable by arrows. */
function focusable(it, obs, isTop) {
  if (it.pile === "d") return isTop;
  if (it.code === "??") return false;
  if (/^\d+$/.test(it.pile)) return true;
  return isTop;
}

function build(table, obs, L, items) {
  const groups = new Map();
  for (const p of pileOrder(obs, L)) {
    const g = document.createElement("div");
    g.className = "pile";
    g.dataset.pile = p.pile;
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", groupLabel(p.pile, obs, L));
    if (p.pile === "d" || p.pile === "w" || p.pile.startsWith("f")) {
      g.append(slotFor(p.pile, p.box, L, obs));
    } else {
      g.append(slotFor(p.pile, { x: p.box.x, y: p.box.y, s: 1 }, L, obs));
    }
    groups.set(p.pile, g);
    table.append(g);
  }
  const lastOf = new Map();
  for (const it of items) lastOf.set(it.pile, it);
  for (const it of items) {
    const el = cardElement(it.code);
    el.dataset.pile = it.pile;
    el.dataset.index = String(it.index);
    if (it.locked) el.classList.add("locked");
    place(el, it.x, it.y, it.z, it.s, L);
    const isTop = lastOf.get(it.pile) === it;
    if (focusable(it, obs, isTop)) {
      el.tabIndex = -1;
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", it.pile === "d" ? stockLabel(obs, L) : cardLabel(it, obs, isTop));
    } else {
      el.setAttribute("aria-hidden", "true");
    }
    it.el = el;
    groups.get(it.pile).append(el);
  }
  for (const [pile, g] of groups) {
    const slot = g.querySelector(".slot");
    if (!lastOf.has(pile)) {
      slot.tabIndex = -1;
      slot.setAttribute("role", "button");
      slot.setAttribute("aria-label", pile === "d" ? stockLabel(obs, L) : groupLabel(pile, obs, L));
    } else {
      slot.setAttribute("aria-hidden", "true");
    }
  }
  table.append(badgeFor(obs, L));
  if (L.strip) table.append(stripFor(obs, L));
}

/** Give each pile one tab stop: the element focused last in it, else its top. */
function rove(table, keep) {
  for (const g of table.querySelectorAll(".pile")) {
    const els = [...g.querySelectorAll("[tabindex]")];
    if (!els.length) continue;
    const pick = (keep && keep.pile === g.dataset.pile
      && els.find((e) => e.dataset.index === keep.index && e.classList.contains(keep.cls)))
      || els[els.length - 1];
    pick.tabIndex = 0;
  }
}

function focusKey(table) {
  const a = document.activeElement;
  if (!a || !table.contains(a) || !a.dataset.pile) return null;
  return { pile: a.dataset.pile, index: a.dataset.index, cls: a.classList.contains("slot") ? "slot" : "card" };
}

function restoreFocus(table, key) {
  if (!key) return;
  const g = table.querySelector(`.pile[data-pile="${key.pile}"]`);
  if (!g) return;
  const target = g.querySelector('[tabindex="0"]');
  if (target) target.focus({ preventScroll: true });
}

// ---------------------------------------------------------------- animation

function pair(prev, next, prefer) {
  const byPlace = new Map(prev.map((p) => [`${p.pile}/${p.index}`, p]));
  const used = new Set();
  const from = new Map();
  for (const n of next) {
    const p = byPlace.get(`${n.pile}/${n.index}`);
    if (p && (p.code === n.code || p.code === "??" || n.code === "??")) {
      from.set(n, p);
      used.add(p);
    }
  }
  const left = prev.filter((p) => !used.has(p) && p.code !== "??");
  for (const n of next) {
    if (from.has(n) || n.code === "??") continue;
    const same = left.filter((p) => p.code === n.code);
    const p = same.find((q) => prefer && (q.pile === prefer || (prefer === "f" && q.pile[0] === "f")))
      || same[0];
    if (p) {
      from.set(n, p);
      left.splice(left.indexOf(p), 1);
    }
  }
  return from;
}

function fly(el, dx, dy, scale, ms, delay, z) {
  if (Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5 && scale === 1) return;
  const start = `translate(${dx}px, ${dy}px)${scale !== 1 ? ` scale(${scale})` : ""}`;
  const old = el.style.zIndex;
  if (z) el.style.zIndex = String(z);
  const anim = el.animate([{ transform: start }, { transform: "translate(0px, 0px)" }],
    { duration: ms, delay, easing: EASE, fill: "backwards" });
  anim.onfinish = anim.oncancel = () => { el.style.zIndex = old; };
}

function turn(el, ms) {
  el.animate([{ transform: "scaleX(0.05)" }, { transform: "scaleX(1)" }],
    { duration: ms * 0.8, easing: "ease-out" });
}

function animate(prev, next, stockLeft, L, ms, { prefer, deal }) {
  const stock = prev.stockBox || L.stock;
  if (deal) {
    const order = next.filter((n) => /^\d+$/.test(n.pile))
      .sort((a, b) => a.index - b.index || Number(a.pile) - Number(b.pile));
    const stagger = Math.min(ms * 0.12, 900 / Math.max(order.length, 1));
    order.forEach((n, k) => fly(n.el, stock.x - n.x, stock.y - n.y, 1, ms, k * stagger, 500 + k));
    return;
  }
  const from = pair(prev.items, next, prefer);
  let dealt = 0;
  for (const n of next) {
    const p = from.get(n);
    if (p) {
      if (p.code === "??" && n.code !== "??") turn(n.el, ms);
      else fly(n.el, p.x - n.x, p.y - n.y, p.s / n.s, ms, 0, 800 + n.z);
    } else if (n.code !== "??" && n.pile !== "d" && prev.stock > stockLeft) {
      fly(n.el, stock.x - n.x, stock.y - n.y, 1, ms, dealt * ms * 0.12, 800 + n.z);
      dealt += 1;
    }
  }
}

/** Redraw `table` for `obs`. Options: ms (animation length, 0 for none), prefer (the pile the
 *  moved cards came from, for twins), deal (fly every card in from the stock), large and
 *  leftHanded (settings). Returns the layout. */
export function render(table, obs, opts = {}) {
  const { ms = 0, prefer = null, deal = false, large = false, leftHanded = false } = opts;
  const prev = table.drawn || null;
  const keep = focusKey(table);
  const W = table.clientWidth, H = table.clientHeight;
  const key = `${W}x${H}|${obs.variant}|${obs.deal_hash || obs.deal_id}|${large}|${leftHanded}`;
  // a game just dealt (a new one, or the same deal again) starts from a fresh size
  const last = !deal && table.geometry && table.geometry.key === key ? table.geometry : null;
  const L = layout(obs, W, H, { large, leftHanded, keep: last });
  L.key = key;
  // Below the readable floor the table is taller than the window: it scrolls up and down
  // (a vertical swipe then scrolls instead of dragging; a tap still plays).
  table.classList.toggle("tall", Boolean(L.tall));
  table.style.setProperty("--cw", `${L.cw}px`);
  table.style.setProperty("--ch", `${L.ch}px`);
  table.style.setProperty("--idx-font", `${L.m.font}px`);
  table.style.setProperty("--idx-pad", `${L.m.pad}px`);
  table.classList.toggle("idx-stacked", !L.m.inline);
  table.replaceChildren();
  const items = [];
  columnItems(obs, L, items);
  stockItems(obs, L, items);
  wasteItems(obs, L, items);
  foundationItems(obs, L, items);
  build(table, obs, L, items);
  rove(table, keep);
  restoreFocus(table, keep);
  if (table.lit && table.lit.obs !== obs) table.lit = null;   // a lit move is for one position
  applyLit(table, obs);
  if (ms > 0 && (prev || deal)) {
    animate(prev || { items: [], stock: 0 }, items, obs.stock, L, ms, { prefer, deal });
  }
  table.drawn = { items, stock: obs.stock, stockBox: L.stock };
  table.geometry = L;
  return L;
}

/** The pile a move's cards came from, for pairing twins: `undo` reverses the move. */
export function movedFrom(text, undo = false) {
  const m = parseMove(text || "");
  if (!m || m.source === "d") return null;
  return undo ? (m.target.startsWith("f") ? "f" : m.target) : m.source;
}

/** Drop targets in page coordinates: every column (down to the window's bottom) and, in
 *  Klondike, each foundation (its target is "f": the card's own foundation). */
export function targets(table, obs) {
  const L = table.geometry;
  const r = table.getBoundingClientRect();
  // a tall table (below the floor) may be scrolled: its content starts above its box
  const box = { left: r.left, top: r.top - table.scrollTop, bottom: r.bottom };
  const out = L.cols.map((c, i) => ({
    target: String(i + 1), left: box.left + c.x - L.gap / 2, right: box.left + c.x + L.cw + L.gap / 2,
    top: box.top + c.y - L.gap, bottom: box.bottom + 4000,
  }));
  if (obs.rules.has_waste) {
    for (const p of L.found) {
      out.push({ target: "f", left: box.left + p.x, right: box.left + p.x + L.cw * p.s,
        top: box.top + p.y - L.gap, bottom: box.top + p.y + L.ch * p.s });
    }
  }
  return out;
}

/** The elements a pile shows: its cards, bottom first (the slot when it is empty). */
export function pileElements(table, pile) {
  const els = [...table.querySelectorAll(`.card[data-pile="${pile}"]`)];
  return els.sort((a, b) => a.dataset.index - b.dataset.index);
}

function applyLit(table, obs) {
  const lit = table.lit;
  if (!lit) return;
  const light = (el, cls) => { if (el) el.classList.add(cls); };
  const slotOf = (pile) => table.querySelector(`.slot[data-pile="${pile}"]`);
  if (lit.source === "d") {
    const els = pileElements(table, "d");
    light(els[els.length - 1] || slotOf("d"), "hint");
    return;
  }
  const els = pileElements(table, lit.source);
  els.slice(-lit.count).forEach((el) => light(el, "hint"));
  let target = lit.target;
  if (target === "f") {
    const code = els.length >= lit.count ? els[els.length - lit.count].dataset.code : null;
    const f = code && foundationFor(obs, code);
    target = f ? `f${f}` : "f1";
  }
  const onto = pileElements(table, target);
  light(onto[onto.length - 1] || slotOf(target), "hint-target");
}

/** Light a legal move given in notation ("3>7", "w>f", "d"): the card(s) it lifts get the class
 *  "hint" and the pile it goes to (its top card, or its empty slot) "hint-target", until the
 *  returned function is called or the table shows another position (a redraw of the same
 *  position, after a resize, keeps it). Returns null when `text` is not legal in `body`. */
export function highlightMove(table, body, text) {
  const m = moveByText(body, text);
  if (!m) return null;
  const clear = () => {
    if (table.lit !== lit) return;
    table.lit = null;
    for (const el of table.querySelectorAll(".hint, .hint-target")) {
      el.classList.remove("hint", "hint-target");
    }
  };
  const lit = { source: m.source, count: m.count, target: m.target, obs: body.observation };
  table.lit = lit;
  applyLit(table, body.observation);
  return clear;
}
