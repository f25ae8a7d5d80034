// Card art: each card is a small SVG (made here, no images shipped), used as a data URL.
// cardImage(code) -> CSS url(...) for "7H", "TS", ...; backImage() for a face-down card.

const RED = "#c0182c";
const BLACK = "#16161a";
const SUIT_PATHS = {
  S: "M50 6C36 26 8 40 8 62c0 14 11 23 23 23 8 0 14-4 17-9l-6 18h16l-6-18c3 5 9 9 17 9 "
    + "12 0 23-9 23-23C92 40 64 26 50 6z",
  H: "M50 92C34 76 6 58 6 32 6 16 18 6 31 6c9 0 16 5 19 13 3-8 10-13 19-13 13 0 25 10 25 26 "
    + "0 26-28 44-44 60z",
  D: "M50 4 86 50 50 96 14 50z",
  C: "M50 6a19 19 0 0 0-16 29 19 19 0 1 0 8 34l-6 25h28l-6-25a19 19 0 1 0 8-34A19 19 0 0 0 50 6z",
};
const RANK_TEXT = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
// Pip centres on a 200 x 280 card for ranks 2..10.
const L = 64, M = 100, R = 136;
const PIPS = {
  2: [[M, 66], [M, 214]],
  3: [[M, 66], [M, 140], [M, 214]],
  4: [[L, 66], [R, 66], [L, 214], [R, 214]],
  5: [[L, 66], [R, 66], [M, 140], [L, 214], [R, 214]],
  6: [[L, 66], [R, 66], [L, 140], [R, 140], [L, 214], [R, 214]],
  7: [[L, 66], [R, 66], [M, 103], [L, 140], [R, 140], [L, 214], [R, 214]],
  8: [[L, 66], [R, 66], [M, 103], [L, 140], [R, 140], [M, 177], [L, 214], [R, 214]],
  9: [[L, 66], [R, 66], [L, 115], [R, 115], [M, 140], [L, 165], [R, 165], [L, 214], [R, 214]],
  10: [[L, 66], [R, 66], [M, 91], [L, 115], [R, 115], [L, 165], [R, 165], [M, 189], [L, 214],
    [R, 214]],
};

const cache = new Map();

export function suitPath(suit, x, y, size, color, flip = false) {
  const s = size / 100;
  const rot = flip ? ` rotate(180 ${x} ${y})` : "";
  return `<path fill="${color}" transform="${rot} translate(${x - size / 2} ${y - size / 2})`
    + ` scale(${s})" d="${SUIT_PATHS[suit]}"/>`;
}

export function isRed(code) {
  return code[1] === "H" || code[1] === "D";
}

function corner(rank, suit, color) {
  const text = RANK_TEXT[rank] || rank;
  const size = text.length > 1 ? 34 : 40;
  return `<text x="22" y="44" font-size="${size}" text-anchor="middle" fill="${color}"`
    + ` font-family="Georgia, 'DejaVu Serif', serif" font-weight="700"`
    + `${text.length > 1 ? ' letter-spacing="-3"' : ""}>${text}</text>`
    + suitPath(suit, 22, 68, 26, color);
}

function centre(rank, suit, color) {
  if (rank === "A") return suitPath(suit, 100, 140, suit === "S" ? 96 : 72, color);
  const n = rank === "T" ? 10 : Number(rank);
  if (n >= 2 && n <= 10) {
    return PIPS[n].map(([x, y]) => suitPath(suit, x, y, 38, color, y > 150)).join("");
  }
  const tint = isRed(`x${suit}`) ? "#fbe3e3" : "#e3e8f5";
  return `<rect x="46" y="40" width="108" height="200" rx="8" fill="${tint}" stroke="${color}"`
    + ` stroke-width="3"/><rect x="53" y="47" width="94" height="186" rx="5" fill="none"`
    + ` stroke="#c9a227" stroke-width="3"/>`
    + `<text x="100" y="176" font-size="96" text-anchor="middle" fill="${color}"`
    + ` font-family="Georgia, 'DejaVu Serif', serif" font-weight="700">${rank}</text>`
    + suitPath(suit, 100, 74, 32, color) + suitPath(suit, 100, 210, 32, color, true);
}

/** The SVG text of a face-up card such as "7H". */
export function cardSVG(code) {
  const rank = code[0], suit = code[1];
  const color = isRed(code) ? RED : BLACK;
  const c = corner(rank, suit, color);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 280">`
    + `<rect x="1.5" y="1.5" width="197" height="277" rx="14" fill="#fffdf8" stroke="#8a8a8a"`
    + ` stroke-width="3"/>${c}<g transform="rotate(180 100 140)">${c}</g>`
    + `${centre(rank, suit, color)}</svg>`;
}

/** The SVG text of a card back: a lattice in a framed panel. */
export function backSVG(color = "#1f4f8f") {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 280">`
    + `<defs><pattern id="p" width="20" height="20" patternUnits="userSpaceOnUse">`
    + `<path d="M10 0 20 10 10 20 0 10z" fill="none" stroke="#ffffff" stroke-opacity=".35"`
    + ` stroke-width="2"/><circle cx="10" cy="10" r="2.2" fill="#ffffff" fill-opacity=".45"/>`
    + `</pattern></defs>`
    + `<rect x="1.5" y="1.5" width="197" height="277" rx="14" fill="#fffdf8" stroke="#8a8a8a"`
    + ` stroke-width="3"/><rect x="12" y="12" width="176" height="256" rx="8" fill="${color}"/>`
    + `<rect x="12" y="12" width="176" height="256" rx="8" fill="url(#p)"/>`
    + `<rect x="20" y="20" width="160" height="240" rx="6" fill="none" stroke="#ffffff"`
    + ` stroke-opacity=".6" stroke-width="2"/></svg>`;
}

function asUrl(svg) {
  return `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}")`;
}

/** CSS background value for a face-up card code (cached). */
export function cardImage(code) {
  let url = cache.get(code);
  if (!url) {
    url = asUrl(cardSVG(code));
    cache.set(code, url);
  }
  return url;
}

/** CSS background value for a face-down card (cached). */
export function backImage() {
  return cardImage.back || (cardImage.back = asUrl(backSVG()));
}
