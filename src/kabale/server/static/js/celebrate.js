// The celebration of a win: the cards leap off the foundations one after another and bounce
// across the window, each leaving a trail of itself, as in the old desktop game, until a click,
// a key or LENGTH_MS ends it. With reduced motion (the system's setting, or the page's
// animations off) nothing moves: the foundations' top cards stand fanned in the middle, lit.

import { cardElement } from "./cards.js";

const LENGTH_MS = 14000;
const TRAIL = 600;        // the most trail cards kept on screen
const GRAVITY = 2600;     // px/s²
const AT_ONCE = 3;        // cards in the air at a time
const LAUNCH_MS = 450;

/** The foundation cards on the table, the top of each pile first, in turns across piles. */
function foundationCards(table) {
  const piles = new Map();
  for (const el of table.querySelectorAll('.card[data-pile^="f"][data-code]')) {
    if (!piles.has(el.dataset.pile)) piles.set(el.dataset.pile, []);
    piles.get(el.dataset.pile).push(el);
  }
  const lists = [...piles.values()].map((els) => els.sort((a, b) => b.dataset.index - a.dataset.index));
  const out = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) {
    for (const l of lists) if (i < l.length) out.push(l[i]);
  }
  return out;
}

function stamp(layer, code, rect, x, y) {
  const el = cardElement(code);
  el.classList.add("party-card");
  el.style.width = `${rect.width}px`;
  el.style.height = `${rect.height}px`;
  el.style.transform = `translate(${x}px, ${y}px)`;
  layer.append(el);
  return el;
}

function still(layer, sources) {
  layer.classList.add("still");
  const tops = sources.slice(0, 8);
  tops.forEach((src, i) => {
    const r = src.getBoundingClientRect();
    const x = innerWidth / 2 - r.width / 2 + (i - (tops.length - 1) / 2) * r.width * 0.45;
    const el = stamp(layer, src.dataset.code, r, x, innerHeight * 0.55 - r.height / 2);
    el.classList.add("lit");
  });
}

function bounce(layer, sources, done) {
  const flying = [];
  let next = 0, lastLaunch = -Infinity, last = performance.now();
  const trail = [];
  const launch = (now) => {
    const src = sources[next % sources.length];
    next += 1;
    lastLaunch = now;
    const r = src.getBoundingClientRect();
    const side = r.left + r.width / 2 < innerWidth / 2 ? 1 : -1;
    flying.push({ code: src.dataset.code, rect: r, x: r.left, y: r.top,
      vx: side * (220 + ((next * 97) % 260)), vy: -((next * 53) % 500) });
  };
  const frame = (now) => {
    if (layer.dataset.stopped) return;
    const dt = Math.min((now - last) / 1000, 0.05);
    last = now;
    if (flying.length < AT_ONCE && now - lastLaunch > LAUNCH_MS) launch(now);
    for (const c of flying) {
      c.vy += GRAVITY * dt;
      c.x += c.vx * dt;
      c.y += c.vy * dt;
      const floor = innerHeight - c.rect.height;
      if (c.y > floor) { c.y = floor; c.vy = -c.vy * 0.72; }
      trail.push(stamp(layer, c.code, c.rect, c.x, c.y));
    }
    while (trail.length > TRAIL) trail.shift().remove();
    for (let i = flying.length - 1; i >= 0; i--) {
      const c = flying[i];
      if (c.x < -c.rect.width || c.x > innerWidth) flying.splice(i, 1);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return setTimeout(done, LENGTH_MS);
}

/** Celebrate the win on the table; returns the function that ends it early. */
export function celebrate(table, obs, { still: calm }) {
  const layer = document.createElement("div");
  layer.id = "party";
  layer.className = "party";
  layer.setAttribute("aria-hidden", "true");
  document.body.append(layer);
  const sources = foundationCards(table);
  let timer = 0;
  const stop = () => {
    layer.dataset.stopped = "1";
    clearTimeout(timer);
    layer.remove();
    removeEventListener("pointerdown", stop, true);
    removeEventListener("keydown", stop, true);
  };
  if (!sources.length) return stop;
  if (calm) still(layer, sources);
  else {
    timer = bounce(layer, sources, stop);
    addEventListener("pointerdown", stop, true);
    addEventListener("keydown", stop, true);
  }
  return stop;
}
