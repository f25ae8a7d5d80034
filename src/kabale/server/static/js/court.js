// Court cards: a framed, double-headed figure as on a real pack (the upper half drawn once and
// turned about the centre), told apart by the headwear: the King's crown and beard, the
// Queen's coronet and long hair with a flower, the Jack's cap with a feather and his halberd.
// The robe takes the suit's colour (currentColor), so four-colour decks colour them too.

import { pip } from "./cards.js";

const GOLD = "#d9a92e", GOLD_DARK = "#9a7414", SKIN = "#f5d6b4", INK = "#3b2a1e";

function head(hair) {
  return `<path d="M93 102h14v12H93z" fill="${SKIN}"/>`
    + hair
    + `<ellipse cx="100" cy="88" rx="14" ry="16" fill="${SKIN}" stroke="${INK}" stroke-width="1.5"/>`
    + `<circle cx="94.5" cy="86" r="1.8" fill="${INK}"/><circle cx="105.5" cy="86" r="1.8"`
    + ` fill="${INK}"/><path d="M96 96q4 3 8 0" fill="none" stroke="${INK}" stroke-width="1.5"/>`;
}

function robe(suit) {
  return `<path d="M46 140c2-16 16-26 36-28h36c20 2 34 12 36 28z" fill="currentColor"/>`
    + `<path d="M72 113q28 16 56 0v7q-28 16-56 0z" fill="${GOLD}" stroke="${GOLD_DARK}"`
    + ` stroke-width="1"/>`
    + `<path d="M60 140 70 122M140 140 130 122" stroke="${GOLD}" stroke-width="3"/>`
    + `<circle cx="100" cy="131" r="8" fill="#fffdf8"/>${pip(suit, 100, 131, 11)}`;
}

const HEADWEAR = {
  K: `<path d="M83 76 81 56l9 9 10-15 10 15 9-9-2 20z" fill="${GOLD}" stroke="${GOLD_DARK}"`
    + ` stroke-width="1.5"/><circle cx="100" cy="66" r="2.6" fill="#c0182c"/>`
    + `<circle cx="88" cy="70" r="2" fill="#1f4f8f"/><circle cx="112" cy="70" r="2" fill="#1f4f8f"/>`,
  Q: `<path d="M86 76q14-18 28 0l-3-9-5 4-6-9-6 9-5-4z" fill="${GOLD}" stroke="${GOLD_DARK}"`
    + ` stroke-width="1.5"/><circle cx="100" cy="63" r="2.6" fill="#1f4f8f"/>`,
  J: `<path d="M84 78q-2-14 16-16 14 0 18 12l4 3H84z" fill="currentColor" stroke="${INK}"`
    + ` stroke-width="1.2"/><path d="M116 70q10-16 22-14-8 4-18 16z" fill="${GOLD}"`
    + ` stroke="${GOLD_DARK}" stroke-width="1"/>`,
};

const HAIR = {
  K: `<path d="M86 92q0 22 14 24 14-2 14-24-6 12-14 12t-14-12z" fill="#e9e4d8" stroke="${INK}"`
    + ` stroke-width="1"/>`,
  Q: `<path d="M84 84q-4 26 6 32h20q10-6 6-32-16-10-32 0z" fill="#b5651d" stroke="${INK}"`
    + ` stroke-width="1"/>`,
  J: `<path d="M86 84q-2 14 4 18h20q6-4 4-18-14-6-28 0z" fill="#7a4a22" stroke="${INK}"`
    + ` stroke-width="1"/>`,
};

const ATTRIBUTE = {
  K: `<path d="M140 62v64" stroke="#8a8f99" stroke-width="4"/><path d="M132 118h16"`
    + ` stroke="${GOLD_DARK}" stroke-width="4"/><circle cx="140" cy="60" r="3" fill="${GOLD}"/>`,
  Q: `<path d="M62 128q2-20 0-34" stroke="#2f7d32" stroke-width="2.5" fill="none"/>`
    + `<circle cx="62" cy="90" r="7" fill="#e86a92" stroke="${INK}" stroke-width="1"/>`
    + `<circle cx="62" cy="90" r="2.5" fill="${GOLD}"/>`,
  J: `<path d="M138 60v72" stroke="#7a4a22" stroke-width="3"/><path d="M138 60l10 8-10 6z"`
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
