"""Smoke test of an installed kabale (a wheel or an sdist in a fresh venv), run from outside
the source tree: the command, the rules, the compiled solver, the advisor and the web game.

    VENV/bin/python .ci/smoke.py      (from any directory but the repository's)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

BIN = Path(sys.executable).parent


def kabale(*args: str, stdin: str = "") -> str:
    """Run the installed ``kabale`` command; its stdout (a failure stops the smoke test)."""
    done = subprocess.run([str(BIN / "kabale"), *args], input=stdin, capture_output=True,
                          text=True, timeout=120)
    if done.returncode != 0:
        sys.exit(f"smoke: kabale {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done.stdout


def check(ok: bool, what: str) -> None:
    if not ok:
        sys.exit(f"smoke: {what}")
    print(f"smoke: ok: {what}")


def installed() -> None:
    import kabale
    from kabale.solver import _klondike, _spider

    where = Path(kabale.__file__).resolve()
    check("site-packages" in where.parts, f"kabale is imported from the install ({where})")
    check(all(Path(m.__file__).suffix in (".so", ".pyd") for m in (_klondike, _spider)),
          "the solver's kernels are compiled")
    check(kabale_version() == f"kabale {kabale.__version__}", "kabale --version")


def kabale_version() -> str:
    return kabale("--version").strip()


def commands() -> None:
    check("spiderette" in kabale("variants"), "kabale variants")
    check(kabale("deal", "klondike", "--seed", "3").startswith("klondike#3"), "kabale deal")
    log = kabale("solve", "thoughtful", "--seed", "1")
    check(log.splitlines()[1].startswith("; solved in "), "kabale solve")
    replay = kabale("play", "--text", stdin=log)
    check(re.search(r"moves \d+ +won", replay) is not None, "the solver's line replays to a win")
    hint = kabale("hint", "--effort", "quick", stdin="klondike#7\n7>4\n")
    check(bool(re.match(r"\S+ +\(", hint)), "kabale hint")


def api() -> None:
    import kabale

    game = kabale.Game.new("spider:suits=2", seed=42)
    check(game.observe()["columns"][0][0] == "??", "the observation hides face-down cards")
    check(kabale.hint(game, effort="quick", seed=1).move is not None, "kabale.hint")


def web_game() -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [str(BIN / "kabale"), "play", "--no-browser", "--db", str(Path(folder) / "k.db")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            assert server.stdout is not None
            found = re.search(r"http://127\.0\.0\.1:\d+/", server.stdout.readline())
            check(found is not None, "kabale play prints its address")
            assert found is not None
            url = found.group(0)
            with urllib.request.urlopen(url, timeout=10) as page:
                check(b"<script" in page.read(), "the page is served")
            request = urllib.request.Request(
                url + "api/games", data=json.dumps({"variant": "klondike", "seed": 7}).encode(),
                headers={"Content-Type": "application/json"}, method="POST")
            with urllib.request.urlopen(request, timeout=10) as answer:
                body = json.load(answer)
            check(body["observation"]["legal"][0] == "1>f", "POST /api/games deals deal 7")
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    installed()
    commands()
    api()
    web_game()
    print("smoke: all ok")
