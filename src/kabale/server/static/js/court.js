// Court cards: a framed, double-headed figure as on a real pack (the upper half drawn once and
// turned about the centre), told apart by the headwear: the King's crown and beard, the
// Queen's coronet and long hair with a flower, the Jack's cap with a feather and his halberd.
// The robe takes the suit's colour (currentColor), so four-colour decks colour them too.

import { pip } from "./cards.js";

const GOLD = "#d9a92e", GOLD_DARK = "#9a7414", SKIN = "#f5d6b4", INK = "#3b2a1e";

function head(hair) {
  return `<path d="M93 108h14v12H93z" fill="${SKIN}"/>`
    + hair
    + `<ellipse cx="100" cy="94" rx="17" ry="20" fill="${SKIN}" stroke="${INK}" stroke-width="1.5"/>`
    + `<circle cx="93.5" cy="91" r="2" fill="${INK}"/><circle cx="106.5" cy="91" r="2"`
    + ` fill="${INK}"/><path d="M100 93v5" stroke="${INK}" stroke-width="1.2"/>`
    + `<path d="M95 103q5 3 10 0" fill="none" stroke="${INK}" stroke-width="1.5"/>`;
}

function robe(suit) {
  return `<path d="M56 140c2-14 13-22 30-24h28c17 2 28 10 30 24z" fill="currentColor"/>`
    + `<path d="M76 118q24 12 48 0v6q-24 12-48 0z" fill="${GOLD}" stroke="${GOLD_DARK}"`
    + ` stroke-width="1"/>`
    + `<path d="M66 140 74 126M134 140 126 126" stroke="${GOLD}" stroke-width="3"/>`
    + `<circle cx="100" cy="133" r="7" fill="#fffdf8"/>${pip(suit, 100, 133, 10)}`;
}

const HEADWEAR = {
  K: `<path d="M81 80 79 57l10 10 11-17 11 17 10-10-2 23z" fill="${GOLD}" stroke="${GOLD_DARK}"`
    + ` stroke-width="1.5"/><circle cx="100" cy="68" r="3" fill="#c0182c"/>`
    + `<circle cx="87" cy="73" r="2.2" fill="#1f4f8f"/><circle cx="113" cy="73" r="2.2" fill="#1f4f8f"/>`,
  Q: `<path d="M84 81q16-19 32 0l-3-11-6 5-7-11-7 11-6-5z" fill="${GOLD}" stroke="${GOLD_DARK}"`
    + ` stroke-width="1.5"/><circle cx="100" cy="66" r="3" fill="#1f4f8f"/>`,
  J: `<path d="M82 82q-2-17 18-19 16 0 20 14l4 5H82z" fill="currentColor" stroke="${INK}"`
    + ` stroke-width="1.2"/><path d="M117 72q11-17 24-15-9 4-20 17z" fill="${GOLD}"`
    + ` stroke="${GOLD_DARK}" stroke-width="1"/>`,
};

const HAIR = {
  K: `<path d="M83 98q0 26 17 28 17-2 17-28-7 14-17 14t-17-14z" fill="#e9e4d8" stroke="${INK}"`
    + ` stroke-width="1"/>`,
  Q: `<path d="M80 90q-5 30 7 36h26q12-6 7-36-20-13-40 0z" fill="#b5651d" stroke="${INK}"`
    + ` stroke-width="1"/>`,
  J: `<path d="M82 90q-2 16 6 22h24q8-6 6-22-18-8-36 0z" fill="#7a4a22" stroke="${INK}"`
    + ` stroke-width="1"/>`,
};

const ATTRIBUTE = {
  K: `<path d="M142 64v66" stroke="#8a8f99" stroke-width="4"/><path d="M134 122h16"`
    + ` stroke="${GOLD_DARK}" stroke-width="4"/><circle cx="142" cy="62" r="3" fill="${GOLD}"/>`,
  Q: `<path d="M60 132q2-22 0-36" stroke="#2f7d32" stroke-width="2.5" fill="none"/>`
    + `<circle cx="60" cy="92" r="8" fill="#e86a92" stroke="${INK}" stroke-width="1"/>`
    + `<circle cx="60" cy="92" r="3" fill="${GOLD}"/>`,
  J: `<path d="M141 62v74" stroke="#7a4a22" stroke-width="3"/><path d="M141 62l11 8-11 7z"`
    + ` fill="#8a8f99" stroke="${INK}" stroke-width="1"/>`,
};

/** The centre of a court card `rank` (J, Q or K) of `suit`, on a 200 x 280 card. */
export function courtArt(rank, suit) {
  const half = `<g>${ATTRIBUTE[rank]}${robe(suit)}${head(HAIR[rank])}${HEADWEAR[rank]}</g>`;
  return `<rect x="36" y="50" width="128" height="180" rx="6" fill="currentColor"`
    + ` fill-opacity=".08" stroke="currentColor" stroke-width="2.5"/>`
    + `<rect x="42" y="56" width="116" height="168" rx="4" fill="none" stroke="${GOLD}"`
    + ` stroke-width="2"/>`
    + `<clipPath id="clip-${rank}${suit}"><rect x="42" y="56" width="116" height="84"/></clipPath>`
    + `<g clip-path="url(#clip-${rank}${suit})">${half}</g>`
    + `<g transform="rotate(180 100 140)"><g clip-path="url(#clip-${rank}${suit})">${half}</g></g>`
    + `<path d="M42 140h116" stroke="${GOLD_DARK}" stroke-width="1.5"/>`;
}
