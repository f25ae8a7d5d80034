// Settings kept between visits (localStorage): language, card back, felt, left-handed layout,
// four colours, large print, animation speed, card sounds (off by default), timer, and the
// win-chance meter (off by default: it is a spoiler), and coach mode (off by default: before a
// move graded mistake or worse the page asks "sure?"; a game played so counts as helped).

import { BACKS, installSprite } from "./cards.js";

const KEY = "kabale.settings";
export const SPEEDS = { off: 0, fast: 120, normal: 230, slow: 450 };
export const FELTS = ["dark", "light", "blue", "wine", "slate"];

function defaults() {
  const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
  return { lang: "auto", back: "blue", felt: "dark", leftHanded: false, four: false,
    large: false, speed: reduced ? "off" : "normal", sound: false, timer: true, chance: false,
    coach: false, autoMove: false };
}

/** The saved settings over the defaults; unknown or bad values fall back to the default. */
export function loadSettings() {
  const base = defaults();
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch { saved = {}; }
  if (saved.animations === false && !saved.speed) saved.speed = "off";  // the old setting
  const out = { ...base };
  for (const [k, v] of Object.entries(saved)) {
    if (k in base && typeof v === typeof base[k]) out[k] = v;
  }
  if (!(out.speed in SPEEDS)) out.speed = base.speed;
  if (!BACKS.includes(out.back)) out.back = base.back;
  if (!FELTS.includes(out.felt)) out.felt = base.felt;
  return out;
}

export function saveSettings(settings) {
  localStorage.setItem(KEY, JSON.stringify(settings));
  // Kept with the player too, so that they go along to another device (a transfer code on
  // a hosted kabale); before a player's first game there is nobody to keep them for.
  fetch("/api/player/settings", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ settings }) }).catch(() => {});
}

/** Make the page look as the settings say (classes on body, the card back in the sprite). */
export function applySettings(settings) {
  const body = document.body.classList;
  for (const felt of FELTS) body.toggle(`felt-${felt}`, felt !== "dark" && settings.felt === felt);
  body.toggle("four-colour", settings.four);
  body.toggle("large-print", settings.large);
  body.toggle("left-handed", settings.leftHanded);
  body.toggle("no-anim", SPEEDS[settings.speed] === 0);
  installSprite(settings.back);
}

/** Animation length in ms for the settings (0: none). */
export function animMs(settings) { return SPEEDS[settings.speed] || 0; }

/** True when nothing should fly about: the system asks for reduced motion, or animations are
 *  off in the settings. */
export function stillMotion(settings) {
  return animMs(settings) === 0 || matchMedia("(prefers-reduced-motion: reduce)").matches;
}
