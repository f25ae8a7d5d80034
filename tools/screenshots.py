"""Take the README screenshots (docs/spider.png, docs/klondike.png, docs/phone.png) with headless
chromium.

Starts the real server (``python -m kabale play``) on a scratch database, plays a few moves of
a fixed deal through the page's own move box, and saves the page. Run:
``.venv/bin/python tools/screenshots.py [--out docs]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

#: as the browser tests and .ci/run find it: $KABALE_CHROMIUM, else chromium on PATH
CHROMIUM = os.environ.get("KABALE_CHROMIUM") or shutil.which("chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
#: (file, variant, seed, moves to play (each time pick_move's), window size, settings)
SHOTS = [
    ("spider.png", "spider:suits=2", 42, 16, (1366, 768), {"lang": "en"}),
    ("klondike.png", "klondike", 7, 14, (1366, 768), {"lang": "en"}),
    ("phone.png", "klondike:draw=3", 7, 10, (390, 844), {"lang": "da", "four": True}),
]


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "kabale", "play", "--no-browser", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        if found:
            return proc, found.group(0)
    raise SystemExit(f"server did not start (exit {proc.wait()})")


def pick_move(body: dict[str, Any]) -> str:
    """A sensible move for a demo: to a foundation, else one that uncovers a card, else d."""
    obs = body["observation"]
    pairs = list(zip(obs["legal"], body["moves"], strict=True))
    for text, _ in pairs:
        if text.endswith(">f"):
            return text
    for text, explicit in pairs:
        found = re.match(r"^(\d+):(\d+)>\d+$", explicit)
        if found:
            col = int(found.group(1)) - 1
            if len(obs["columns"][col]) - int(found.group(2)) == obs["down"][col] > 0:
                return text
    for text, explicit in pairs:  # Spider: build runs of one suit before dealing
        found = re.match(r"^(\d+):(\d+)>(\d+)$", explicit)
        if found and obs["columns"][int(found.group(3)) - 1]:
            col = obs["columns"][int(found.group(1)) - 1]
            target = obs["columns"][int(found.group(3)) - 1][-1]
            if col[-int(found.group(2))][1] == target[1] and len(col) > int(found.group(2)):
                return text
    return "d" if "d" in obs["legal"] else obs["legal"][0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if CHROMIUM is None:
        print("screenshots: no chromium: install it (Debian: apt-get install chromium) or set "
              "KABALE_CHROMIUM", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp) / "shots.db")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for name, variant, seed, moves, (width, height), settings in SHOTS:
                    page = browser.new_page(viewport={"width": width, "height": height})
                    stored = json.dumps(json.dumps({"speed": "off", **settings}))
                    page.add_init_script(f"localStorage.setItem('kabale.settings', {stored})")
                    deal = f"{variant}#{seed}"
                    page.goto(f"{url}/?deal={deal.replace('#', '%23').replace(':', '%3A')}")
                    page.wait_for_selector("body[data-ready='1']")
                    for _ in range(moves):
                        body = page.evaluate("window.kabale.body()")
                        done = body["observation"]["moves_made"]
                        page.evaluate("document.getElementById('move-form')"
                                      ".classList.add('open')")
                        page.fill("#move-input", pick_move(body))
                        page.press("#move-input", "Enter")
                        page.wait_for_function(
                            "n => window.kabale.body().observation.moves_made > n", arg=done)
                    page.evaluate("document.getElementById('move-form').classList.remove('open');"
                                  " document.activeElement.blur()")
                    page.wait_for_timeout(300)
                    page.screenshot(path=str(out / name))
                    print(f"wrote {out / name}")
                    page.close()
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
