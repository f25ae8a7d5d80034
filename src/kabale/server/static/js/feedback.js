// Telling the player: a polite live region that announces every move to screen readers, a
// bubble at the card for refusals (also announced), and a short toast for other news.

const $ = (id) => document.getElementById(id);
let bubbleTimer = 0, toastTimer = 0;

/** Announce `text` to screen readers (and keep it as the page's last message). */
export function say(text) {
  const live = $("echo");
  live.textContent = "";
  // A fresh text node each time, so that the same words said twice are announced twice.
  requestAnimationFrame(() => { live.textContent = text; });
  live.dataset.last = text;
}

/** Show `text` in a bubble next to `anchor` (an element or a {x, y} page point): a warning,
 *  or with `kind` "tip" a piece of advice; it goes after `ms` milliseconds. */
export function bubble(text, anchor, { kind = "warn", ms = 3500, avoid = [] } = {}) {
  const box = $("bubble");
  box.textContent = text;
  box.classList.toggle("tip", kind === "tip");
  box.hidden = false;
  const r = anchor && anchor.getBoundingClientRect ? anchor.getBoundingClientRect()
    : { left: anchor ? anchor.x : innerWidth / 2, top: anchor ? anchor.y : innerHeight / 2,
      width: 0, height: 0 };
  const w = box.offsetWidth, h = box.offsetHeight;
  const x = Math.max(4, Math.min(r.left + r.width / 2 - w / 2, innerWidth - w - 4));
  const clampY = (y) => Math.max(4, Math.min(y, innerHeight - h - 4));
  // Above the anchor, else below it; a bubble that would cover a card it speaks of (a hint's
  // lit cards: `avoid`) goes to the window's bottom or top edge instead.
  const spots = [[x, r.top - h - 8 >= 4 ? r.top - h - 8 : r.top + Math.min(r.height, 60) + 8],
    [x, r.bottom + 8], [x, innerHeight - h - 4], [x, 4]].map(([a, b]) => [a, clampY(b)]);
  const covers = ([a, b]) => avoid.some((q) => a < q.right && a + w > q.left && b < q.bottom
    && b + h > q.top);
  const [left, y] = spots.find((spot) => !covers(spot)) || spots[0];
  box.style.left = `${left}px`;
  box.style.top = `${y}px`;
  clearTimeout(bubbleTimer);
  bubbleTimer = setTimeout(() => { box.hidden = true; }, ms);
  say(text);
}

export function hideBubble() { $("bubble").hidden = true; }

/** A short message at the bottom of the window (also announced). */
export function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 3000);
  say(text);
}
