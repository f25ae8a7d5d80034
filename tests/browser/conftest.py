"""Fixtures: the real server as a subprocess and headless Debian chromium via Playwright."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from liveserver import LiveServer  # noqa: E402

#: The browser, found as .ci/run finds it: $KABALE_CHROMIUM, else chromium on PATH (Debian's;
#: Playwright's own browser download does not work here).
CHROMIUM = os.environ.get("KABALE_CHROMIUM") or shutil.which("chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "browser"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # The advisor pinned at its quick level (the default; a server setting), so that hints,
    # the meter and the demo's bot answer fast enough for the tests whatever the default.
    live = LiveServer(tmp_path_factory.mktemp("web") / "games.db", None, "--effort",
                      "quick").start()
    yield live
    live.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if CHROMIUM is None:
        pytest.fail("no chromium for the browser tests: install it (Debian: apt-get install "
                    "chromium) or set KABALE_CHROMIUM to a Chromium executable")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 820}, locale="en-GB")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    # The page's Content-Security-Policy refuses inline script and style attributes; Chromium
    # reports each refusal on the console.
    tab.on("console", lambda msg: errors.append(msg.text)
           if "Content Security Policy" in msg.text else None)
    yield tab
    context.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture
def shots() -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT
