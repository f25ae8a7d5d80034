// Card art: one hidden SVG sprite of symbols (suits, the 52 faces, the back), drawn here so no
// image is shipped and nothing needs a data: URL. Colours come from CSS (`currentColor`), so
// the two- or four-colour deck is a class on the page. Each card element carries its corner
// index (rank and suit) as real elements, sized by the layout to stay readable when covered.

import { courtArt } from "./court.js";

const SVGNS = "http://www.w3.org/2000/svg";
export const SUIT_PATHS = {
  S: "M50 6C36 26 8 40 8 62c0 14 11 23 23 23 8 0 14-4 17-9l-6 18h16l-6-18c3 5 9 9 17 9 "
    + "12 0 23-9 23-23C92 40 64 26 50 6z",
  H: "M50 92C34 76 6 58 6 32 6 16 18 6 31 6c9 0 16 5 19 13 3-8 10-13 19-13 13 0 25 10 25 26 "
    + "0 26-28 44-44 60z",
  D: "M50 4 86 50 50 96 14 50z",
  C: "M50 6a19 19 0 0 0-16 29 19 19 0 1 0 8 34l-6 25h28l-6-25a19 19 0 1 0 8-34A19 19 0 0 0 50 6z",
};
export const RANK_TEXT = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
export const BACKS = ["blue", "red", "green", "black", "purple", "teal", "royal"];
const BACK_COLOURS = { blue: "#1f4f8f", red: "#9b1c2e", green: "#17603f", black: "#23232b",
  purple: "#5b2a86", teal: "#0f6b73", royal: "#16264f" };
/** The lines of a back's pattern: gold on the dark ones, white on the others. */
const GOLD = new Set(["black", "royal"]);

// Pip centres on a 200 x 280 card for ranks 2..10 (kept clear of the corner index).
const L = 66, M = 100, R = 134;
const PIPS = {
  2: [[M, 78], [M, 202]],
  3: [[M, 78], [M, 140], [M, 202]],
  4: [[L, 78], [R, 78], [L, 202], [R, 202]],
  5: [[L, 78], [R, 78], [M, 140], [L, 202], [R, 202]],
  6: [[L, 78], [R, 78], [L, 140], [R, 140], [L, 202], [R, 202]],
  7: [[L, 78], [R, 78], [M, 109], [L, 140], [R, 140], [L, 202], [R, 202]],
  8: [[L, 78], [R, 78], [M, 109], [L, 140], [R, 140], [M, 171], [L, 202], [R, 202]],
  9: [[L, 78], [R, 78], [L, 119], [R, 119], [M, 140], [L, 161], [R, 161], [L, 202], [R, 202]],
  10: [[L, 78], [R, 78], [M, 99], [L, 119], [R, 119], [L, 161], [R, 161], [M, 181], [L, 202],
    [R, 202]],
};
const RANKS = "A23456789TJQK";

/** An SVG snippet drawing suit symbol `suit` centred at (x, y), `size` units tall. */
export function pip(suit, x, y, size, flip = false) {
  const s = size / 100;
  const rot = flip ? `rotate(180 ${x} ${y}) ` : "";
  return `<use href="#s-${suit}" width="100" height="100"`
    + ` transform="${rot}translate(${x - size / 2} ${y - size / 2}) scale(${s})"/>`;
}

function centre(rank, suit) {
  if (rank === "A") {
    const big = suit === "S" ? 110 : 84;
    return pip(suit, 100, 140, big)
      + (suit === "S" ? `<circle cx="100" cy="140" r="70" fill="none" stroke="currentColor"`
        + ` stroke-width="2" opacity=".35"/>` : "");
  }
  if ("JQK".includes(rank)) return courtArt(rank, suit);
  const n = rank === "T" ? 10 : Number(rank);
  return PIPS[n].map(([x, y]) => pip(suit, x, y, 36, y > 150)).join("");
}

/** The face of a card without its top-left index (that one is HTML, see cardElement). */
function faceSymbol(code) {
  const rank = code[0], suit = code[1];
  const text = RANK_TEXT[rank] || rank;
  // The bottom-right index, upside down as on a real card (decoration: the top one informs).
  const corner = `<g transform="rotate(180 100 140)"><text x="24" y="44" font-size="38"`
    + ` text-anchor="middle" font-weight="700" fill="currentColor"`
    + ` font-family="'DejaVu Sans Condensed', 'Arial Narrow', sans-serif"`
    + `${text.length > 1 ? ' letter-spacing="-3"' : ""}>${text}</text>${pip(suit, 24, 66, 24)}</g>`;
  return `<symbol id="f-${code}" viewBox="0 0 200 280">${centre(rank, suit)}${corner}</symbol>`;
}

function backSymbol(name) {
  const colour = BACK_COLOURS[name] || BACK_COLOURS.blue;
  const line = GOLD.has(name) ? "#d9b44a" : "#ffffff";
  return `<symbol id="back" viewBox="0 0 200 280">`
    + `<rect x="0" y="0" width="200" height="280" rx="14" fill="#fbf8f0"/>`
    + `<rect x="10" y="10" width="180" height="260" rx="9" fill="${colour}"/>`
    + `<rect x="10" y="10" width="180" height="260" rx="9" fill="url(#back-lattice)"/>`
    + `<rect x="18" y="18" width="164" height="244" rx="6" fill="none" stroke="${line}"`
    + ` stroke-opacity=".65" stroke-width="2"/>`
    + `<circle cx="100" cy="140" r="30" fill="${colour}" stroke="${line}" stroke-width="3"/>`
    + `<path d="M100 118 120 140 100 162 80 140z" fill="${line}" fill-opacity=".8"/>`
    + `</symbol>`;
}

function lattice(name) {
  const line = GOLD.has(name) ? "#d9b44a" : "#ffffff";
  return `<pattern id="back-lattice" width="20" height="20" patternUnits="userSpaceOnUse">`
    + `<path d="M10 0 20 10 10 20 0 10z" fill="none" stroke="${line}" stroke-opacity=".35"`
    + ` stroke-width="2"/><circle cx="10" cy="10" r="2.2" fill="${line}" fill-opacity=".45"/>`
    + `</pattern>`;
}

/** Put the sprite in the page (once) or redraw its back for another card back. */
export function installSprite(back = "blue") {
  let sprite = document.getElementById("card-sprite");
  if (!sprite) {
    sprite = document.createElementNS(SVGNS, "svg");
    sprite.id = "card-sprite";
    sprite.setAttribute("aria-hidden", "true");
    sprite.setAttribute("width", "0");
    sprite.setAttribute("height", "0");
    sprite.classList.add("sprite");
    const suits = Object.entries(SUIT_PATHS).map(([s, d]) =>
      `<symbol id="s-${s}" viewBox="0 0 100 100"><path fill="currentColor" d="${d}"/></symbol>`);
    const faces = [];
    for (const suit of "SHDC") for (const rank of RANKS) faces.push(faceSymbol(rank + suit));
    sprite.innerHTML = `<defs><g id="back-defs"></g></defs>${suits.join("")}${faces.join("")}`
      + `<g id="back-slot"></g>`;
    document.body.prepend(sprite);
  }
  sprite.querySelector("#back-defs").innerHTML = lattice(back);
  sprite.querySelector("#back-slot").innerHTML = backSymbol(back);
}

function useSvg(id, cls, viewBox) {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("class", cls);
  svg.setAttribute("viewBox", viewBox);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVGNS, "use");
  use.setAttribute("href", `#${id}`);
  svg.append(use);
  return svg;
}

/** The corner index of `code`: the rank as text and the suit as a symbol. */
export function indexElement(code, cls = "idx") {
  const box = document.createElement("span");
  box.className = cls;
  box.setAttribute("aria-hidden", "true");
  const rank = document.createElement("span");
  rank.className = "rk";
  // Drawn by the style sheet (content: attr(data-rk)), not as text: the card's accessible name
  // says "ten of clubs", and a visible "10" in its text would not match it (axe's
  // label-content-name-mismatch); the corner is aria-hidden all the same.
  rank.dataset.rk = RANK_TEXT[code[0]] || code[0];
  box.append(rank, useSvg(`s-${code[1]}`, "st", "0 0 100 100"));
  return box;
}

/** A card element: face up ("7H") or face down ("??"). */
export function cardElement(code) {
  const el = document.createElement("div");
  el.className = "card";
  if (code === "??") {
    el.classList.add("back");
    el.append(useSvg("back", "art", "0 0 200 280"));
    return el;
  }
  el.dataset.code = code;
  el.dataset.suit = code[1];
  el.append(useSvg(`f-${code}`, "art", "0 0 200 280"), indexElement(code));
  return el;
}
