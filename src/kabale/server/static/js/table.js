// Drawing the table from an observation: geometry (sizes that follow the window, fanned
// columns that compress when long) and the card elements, with short FLIP animations.

import { backImage, cardImage } from "./cards.js";
import { familyOf } from "./moves.js";

const KLONDIKE_SUITS = "SHDC";

/** Sizes for this table width and observation. */
export function geometry(table, obs) {
  const ncols = obs.columns.length;
  const width = table.clientWidth;
  const gap = Math.max(4, Math.min(16, width * 0.012));
  const cw = Math.min(118, (width - gap * (ncols + 1)) / ncols);
  const ch = cw * 1.4;
  const step = cw + gap;
  const left = (width - (ncols * step - gap)) / 2;
  const colTop = gap * 2 + ch + Math.min(14, cw * 0.12);
  const footer = document.querySelector("footer");
  const top = table.getBoundingClientRect().top + window.scrollY;
  const viewH = Math.max(window.innerHeight - top - (footer ? footer.offsetHeight : 0) - 2, ch * 3);
  return { ncols, width, gap, cw, ch, step, left, colTop, viewH, x: (i) => left + i * step };
}

function runsTotal(obs) {
  let cards = obs.stock;
  for (const c of obs.columns) cards += c.length;
  for (const f of obs.foundations) cards += f.length;
  return Math.round(cards / 13);
}

/** Where the stock, waste and foundation slots go in the top row. */
function topRow(obs, g) {
  const family = familyOf(obs.variant);
  const nf = family === "klondike" ? obs.foundations.length : runsTotal(obs);
  const firstFree = family === "klondike" ? 3 : 2;
  const room = (g.ncols - firstFree) * g.step;
  // Too many foundations for the room (Double Klondike): draw them smaller, not overlapped.
  const scale = Math.min(1, room / (nf * g.step));
  const fstep = g.step * scale;
  const right = g.x(g.ncols - 1) + g.cw - g.cw * scale;
  const found = [];
  for (let i = 0; i < nf; i++) found.push(right - (nf - 1 - i) * fstep);
  return { stock: g.x(0), waste: g.x(1), found, nf, scale };
}

function el(cls, x, y, z) {
  const div = document.createElement("div");
  div.className = cls;
  div.style.left = `${x}px`;
  div.style.top = `${y}px`;
  if (z !== undefined) div.style.zIndex = String(z);
  return div;
}

function card(code, x, y, z, pile, index) {
  const div = el(code === "??" ? "card back" : "card", x, y, z);
  div.style.backgroundImage = code === "??" ? backImage() : cardImage(code);
  div.dataset.pile = pile;
  div.dataset.index = String(index);
  if (code !== "??") {
    div.dataset.code = code;
    div.setAttribute("aria-label", code);
  }
  return div;
}

function slot(x, y, pile, label) {
  const div = el("slot", x, y, 0);
  div.dataset.pile = pile;
  if (label) div.dataset.label = label;
  return div;
}

/** Vertical offsets of each card in a column, squeezed to fit the height available. */
export function fan(down, count, g) {
  let fd = g.ch * 0.12, fu = g.ch * 0.27;
  const room = g.viewH - g.colTop - g.ch - g.gap;
  const need = down * fd + Math.max(0, count - down - 1) * fu;
  if (need > room && need > 0) {
    const s = Math.max(room / need, 0.0);
    fd = Math.max(fd * s, g.ch * 0.04);
    fu = Math.max(fu * s, g.ch * 0.17);
  }
  const ys = [];
  let y = 0;
  for (let i = 0; i < count; i++) {
    ys.push(y);
    y += i < down ? fd : fu;
  }
  return ys;
}

function drawStock(table, obs, g, row) {
  const family = familyOf(obs.variant);
  const y = g.gap;
  table.append(slot(row.stock, y, "d"));
  let badge;
  if (family === "klondike") {
    if (obs.stock > 0) table.append(card("??", row.stock, y, 2, "d", 0));
    const passes = obs.passes_left === null ? "∞" : obs.passes_left;
    const limited = obs.passes_left === null ? "" : ` · ↻${passes}`;
    badge = obs.stock > 0 ? `${obs.stock}${limited}` : `↻ ${passes}`;
    const label = obs.stock > 0 ? `stock: ${obs.stock} cards, passes left ${passes}`
      : `stock empty: click to turn the waste over (${passes} passes left)`;
    table.lastChild.setAttribute("aria-label", label);
    table.lastChild.title = label;
  } else {
    const per = family === "spider" ? 10 : 7;
    const deals = Math.ceil(obs.stock / per);
    for (let i = 0; i < deals; i++) {
      table.append(card("??", row.stock + i * g.cw * 0.1, y, 2 + i, "d", i));
    }
    badge = `${deals} deal${deals === 1 ? "" : "s"}`;
    if (table.lastChild) table.lastChild.title = `${badge} left (${obs.stock} cards)`;
  }
  const b = el("badge", row.stock, y + g.ch - 4, 50);
  b.textContent = badge;
  b.dataset.pile = "d";
  table.append(b);
}

function drawWaste(table, obs, g, row) {
  const y = g.gap;
  table.append(slot(row.waste, y, "w"));
  const draw3 = /draw=3/.test(obs.variant);
  const shown = obs.waste.slice(-(draw3 ? 3 : 2));
  const start = obs.waste.length - shown.length;
  shown.forEach((code, i) => {
    const dx = draw3 ? i * g.cw * 0.24 : 0;
    table.append(card(code, row.waste + dx, y, 3 + i, "w", start + i));
  });
}

function drawFoundations(table, obs, g, row) {
  const y = g.gap;
  const klondike = familyOf(obs.variant) === "klondike";
  const sized = (node) => {
    if (row.scale < 1) {
      node.style.width = `${g.cw * row.scale}px`;
      node.style.height = `${g.ch * row.scale}px`;
    }
    table.append(node);
  };
  for (let i = 0; i < row.nf; i++) {
    const label = klondike ? KLONDIKE_SUITS[i % 4] : "";
    sized(slot(row.found[i], y, `f${i + 1}`, label));
    const pile = obs.foundations[i] || [];
    if (!pile.length) continue;
    // Spider runs are shown by their King; Klondike foundations by their top card.
    const code = klondike ? pile[pile.length - 1] : pile[0];
    if (klondike && pile.length > 1) sized(card(pile[pile.length - 2], row.found[i], y, 3,
      `f${i + 1}`, pile.length - 2));
    sized(card(code, row.found[i], y, 4 + i, `f${i + 1}`, pile.length - 1));
  }
}

function drawColumns(table, obs, g) {
  let bottom = 0;
  obs.columns.forEach((col, c) => {
    const x = g.x(c);
    table.append(slot(x, g.colTop, String(c + 1)));
    const ys = fan(obs.down[c], col.length, g);
    col.forEach((code, i) => {
      table.append(card(code, x, g.colTop + ys[i], 10 + i, String(c + 1), i));
    });
    bottom = Math.max(bottom, g.colTop + (ys.length ? ys[ys.length - 1] : 0) + g.ch);
  });
  return bottom;
}

function snapshot(table) {
  const seen = new Map();
  for (const node of table.querySelectorAll(".card[data-code]")) {
    const r = node.getBoundingClientRect();
    const list = seen.get(node.dataset.code) || [];
    list.push({ pile: node.dataset.pile, index: node.dataset.index, x: r.left, y: r.top });
    seen.set(node.dataset.code, list);
  }
  const stock = table.querySelector('.slot[data-pile="d"]');
  return { seen, stock: stock ? stock.getBoundingClientRect() : null };
}

function animate(table, before, ms, fromStock) {
  for (const node of table.querySelectorAll(".card[data-code]")) {
    const list = before.seen.get(node.dataset.code);
    let from = null;
    if (list && list.length) {
      let k = list.findIndex((o) => o.pile === node.dataset.pile && o.index === node.dataset.index);
      if (k < 0) k = list.findIndex((o) => o.pile !== node.dataset.pile);
      if (k < 0) k = 0;
      from = list.splice(k, 1)[0];
    } else if (fromStock && before.stock) {
      from = { x: before.stock.left, y: before.stock.top };
    } else {
      node.classList.add("flip");
      continue;
    }
    if (!from) continue;
    const r = node.getBoundingClientRect();
    const dx = from.x - r.left, dy = from.y - r.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    node.style.transition = "none";
    node.style.transform = `translate(${dx}px, ${dy}px)`;
    node.classList.add("moving");
    requestAnimationFrame(() => requestAnimationFrame(() => {
      node.style.transition = `transform ${ms}ms ease-out`;
      node.style.transform = "";
      setTimeout(() => node.classList.remove("moving"), ms + 20);
    }));
  }
}

/** Redraw the whole table for `obs`; animate (ms > 0) cards that moved since last time.
 *  `fromStock`: new face-up cards came from the stock (a draw or a deal), else were turned. */
export function render(table, obs, ms = 0, fromStock = false) {
  const before = ms > 0 ? snapshot(table) : null;
  const g = geometry(table, obs);
  table.style.setProperty("--cw", `${g.cw}px`);
  table.style.setProperty("--ch", `${g.ch}px`);
  table.replaceChildren();
  const row = topRow(obs, g);
  drawStock(table, obs, g, row);
  if (familyOf(obs.variant) === "klondike") drawWaste(table, obs, g, row);
  drawFoundations(table, obs, g, row);
  const bottom = drawColumns(table, obs, g);
  table.style.height = `${Math.max(bottom + g.gap, g.viewH)}px`;
  if (before) animate(table, before, ms, fromStock);
  table.geometry = g;
  return g;
}

/** Drop targets: each column (full height below its top) and the foundation row as "f". */
export function targets(table, obs) {
  const g = table.geometry;
  const box = table.getBoundingClientRect();
  const out = obs.columns.map((_, c) => ({
    target: String(c + 1),
    left: box.left + g.x(c) - g.gap / 2, right: box.left + g.x(c) + g.cw + g.gap / 2,
    top: box.top + g.colTop - g.gap, bottom: box.bottom + 4000,
  }));
  const slots = [...table.querySelectorAll('.slot[data-pile^="f"]')];
  if (slots.length && familyOf(obs.variant) === "klondike") {
    const rs = slots.map((s) => s.getBoundingClientRect());
    out.push({ target: "f", left: Math.min(...rs.map((r) => r.left)),
      right: Math.max(...rs.map((r) => r.right)), top: rs[0].top - g.gap, bottom: rs[0].bottom });
  }
  return out;
}
