"""Shared steps of the browser tests: open the page with given settings, wait for it, read it."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

#: Page geometry, measured in the page: what does not fit, and covered corner indices.
GEOMETRY_JS = """() => {
  const W = innerWidth, H = innerHeight, doc = document.scrollingElement;
  const outside = [], hidden = [];
  const cards = [...document.querySelectorAll('#table .card')];
  const box = (el) => el.getBoundingClientRect();
  for (const c of cards) {
    const r = box(c);
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
      outside.push(`${c.dataset.pile}/${c.dataset.index} at ${r.left|0},${r.top|0}`
                   + ` to ${r.right|0},${r.bottom|0}`);
    }
  }
  // A fanned card shows its rank and suit when no later card of its pile covers them.
  const piles = new Map();
  for (const c of cards) {
    if (!c.dataset.code || !/^(\\d+|w)$/.test(c.dataset.pile)) continue;
    if (!piles.has(c.dataset.pile)) piles.set(c.dataset.pile, []);
    piles.get(c.dataset.pile).push(c);
  }
  let checked = 0;
  for (const [pile, list] of piles) {
    list.sort((a, b) => a.dataset.index - b.dataset.index);
    const all = [...document.querySelectorAll(`#table .card[data-pile="${pile}"]`)];
    for (const c of list) {
      const parts = [c.querySelector('.idx .rk'), c.querySelector('.idx .st')].map(box);
      const own = box(c);
      for (const p of parts) {
        if (p.width < 2 || p.height < 2 || p.left < own.left - 0.5 || p.right > own.right + 0.5
            || p.top < own.top - 0.5 || p.bottom > own.bottom + 0.5) {
          hidden.push(`${pile}/${c.dataset.index} index outside its card`);
        }
      }
      for (const o of all) {
        if (Number(o.style.zIndex) <= Number(c.style.zIndex)) continue;
        const q = box(o);
        for (const p of parts) {
          const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
          const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
          if (w > 0.5 && h > 0.5) {
            hidden.push(`${pile}/${c.dataset.index} ${c.dataset.code} under ${o.dataset.index}`);
          }
        }
      }
      checked += 1;
    }
  }
  return { scrollW: doc.scrollWidth, scrollH: doc.scrollHeight, W, H, outside, hidden, checked,
           cards: cards.length, cw: document.getElementById('table').geometry.cw,
           mode: document.getElementById('table').geometry.mode };
}"""


def new_page(browser: Browser, width: int, height: int, settings: dict[str, Any] | None = None,
             locale: str = "en-GB", touch: bool = False) -> tuple[BrowserContext, Page]:
    """A fresh context and page; `settings` are stored before the page loads."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale,
                                  has_touch=touch, is_mobile=False)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    wanted = {"speed": "off", **(settings or {})}
    page.add_init_script(
        f"if (!localStorage.getItem('kabale.settings'))"
        f" localStorage.setItem('kabale.settings', {json.dumps(json.dumps(wanted))})")
    return context, page


def open_game(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    settle(page)


def settle(page: Page) -> None:
    """Wait until no card is still flying (the animations have run out)."""
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")


def body(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate("window.kabale.body()")
    return data


def moves_made(page: Page) -> int:
    return int(body(page)["observation"]["moves_made"])


def wait_moves(page: Page, n: int) -> None:
    page.wait_for_function("n => window.kabale?.body()?.observation?.moves_made === n", arg=n)


def geometry(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate(GEOMETRY_JS)
    return data
