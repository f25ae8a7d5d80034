// Pointer drag and drop (mouse, pen and touch through Pointer Events).
// The caller supplies: pickup(cardEl) -> {source, count, els} | null,
// dropAt(info, rect, x, y) -> Promise<boolean> (true: the move was made), click(cardEl, event)
// for every click, however quickly it follows the last (no double-click of its own).

const THRESHOLD = 5;

export function enableDrag(table, hooks) {
  let drag = null;
  let suppressClick = false;

  table.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || drag) return;
    const cardEl = e.target.closest(".card");
    if (!cardEl) return;
    const info = hooks.pickup(cardEl);
    if (!info) return;
    drag = { info, x0: e.clientX, y0: e.clientY, id: e.pointerId, moved: false };
    cardEl.setPointerCapture?.(e.pointerId);
  });

  table.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x0, dy = e.clientY - drag.y0;
    if (!drag.moved && Math.hypot(dx, dy) < THRESHOLD) return;
    if (!drag.moved) {
      drag.moved = true;
      drag.info.els.forEach((el, i) => {
        el.classList.add("dragging");
        el.dataset.z = el.style.zIndex;
        el.style.zIndex = String(1000 + i);
        el.style.transition = "none";
      });
    }
    for (const el of drag.info.els) el.style.transform = `translate(${dx}px, ${dy}px)`;
    e.preventDefault();
  });

  async function finish(e, cancelled) {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    const rect = d.info.els[0].getBoundingClientRect();
    const ok = !cancelled && await hooks.dropAt(d.info, rect, e.clientX, e.clientY);
    if (!ok) snapBack(d.info.els);
  }

  table.addEventListener("pointerup", (e) => finish(e, false));
  table.addEventListener("pointercancel", (e) => finish(e, true));
  table.addEventListener("click", (e) => {
    if (suppressClick) return;
    const cardEl = e.target.closest(".card, .slot, .badge");
    if (cardEl) hooks.click(cardEl, e);
  });
}

/** Animate dragged cards back to where they were. */
export function snapBack(els) {
  for (const el of els) {
    if (!el.isConnected) continue;
    el.style.transition = "transform 160ms ease-out";
    el.style.transform = "";
    el.classList.add("snapping");
    setTimeout(() => {
      el.classList.remove("dragging", "snapping");
      el.style.zIndex = el.dataset.z || "";
    }, 170);
  }
}

/** The target whose box overlaps `rect` most (or contains the pointer), or null. */
export function bestTarget(targets, rect, x, y) {
  let best = null, bestArea = 0;
  for (const t of targets) {
    const w = Math.min(rect.right, t.right) - Math.max(rect.left, t.left);
    const h = Math.min(rect.bottom, t.bottom) - Math.max(rect.top, t.top);
    const area = w > 0 && h > 0 ? w * h : 0;
    if (area > bestArea) { best = t; bestArea = area; }
  }
  if (!best) best = targets.find((t) => x >= t.left && x <= t.right && y >= t.top
    && y <= t.bottom) || null;
  return best;
}
