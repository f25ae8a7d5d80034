"""Smoke test of an installed kabale (a wheel or an sdist in a fresh venv), run from outside
the source tree: the command, the rules, the compiled solver, the advisor and the web game.

    VENV/bin/python .ci/smoke.py               (from any directory but the repository's)
    VENV/bin/python .ci/smoke.py --no-kernels  (kabale built without a C compiler: the game
                                                plays over HTTP, a hint answers 503 with one
                                                clear line, kabale solve says it in one line)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

BIN = Path(sys.executable).parent


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run the installed ``kabale`` command."""
    return subprocess.run([str(BIN / "kabale"), *args], input=stdin, capture_output=True,
                          text=True, timeout=120)


def kabale(*args: str, stdin: str = "") -> str:
    """Run the installed ``kabale`` command; its stdout (a failure stops the smoke test)."""
    done = run(*args, stdin=stdin)
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


def post(url: str, data: dict[str, object]) -> tuple[int, dict[str, object]]:
    """POST ``data`` as JSON: the status and the JSON answer, an error status included."""
    request = urllib.request.Request(url, data=json.dumps(data).encode(),
                                     headers={"Content-Type": "application/json"},
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def web_game(kernels: bool = True) -> None:
    """Serve the page with ``kabale play``, deal and play over HTTP, ask for a hint."""
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [str(BIN / "kabale"), "play", "--no-browser", "--db", str(Path(folder) / "k.db")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            assert server.stdout is not None
            said = ""
            for _ in range(3):  # without the kernels, a warning comes first
                said = server.stdout.readline()
                found = re.search(r"http://127\.0\.0\.1:\d+/", said)
                if found is not None:
                    break
            check(found is not None, f"kabale play prints its address: {said.strip()!r}")
            assert found is not None
            url = found.group(0)
            with urllib.request.urlopen(url, timeout=10) as page:
                check(b"<script" in page.read(), "the page is served")
            status, body = post(url + "api/games", {"variant": "klondike", "seed": 7})
            observation = body.get("observation")
            check(status == 201 and isinstance(observation, dict)
                  and observation["legal"][0] == "1>f", "POST /api/games deals deal 7")
            game = f"{url}api/games/{body['id']}"
            status, body = post(game + "/moves", {"move": "7>4"})
            check(status == 200, "POST /api/games/ID/moves plays 7>4")
            status, body = post(game + "/hint", {})
            if kernels:
                hint = body.get("hint")
                check(status == 200 and isinstance(hint, dict) and hint.get("move") is not None,
                      f"POST .../hint: {hint}")
            else:
                error = str(body.get("error", ""))
                check(status == 503 and body.get("code") == "no_solver"
                      and len(error.splitlines()) == 1 and "python3-dev" in error,
                      f"POST .../hint without the kernels: 503, {error!r}")
        finally:
            server.terminate()
            server.wait(timeout=10)


def without_kernels() -> None:
    """kabale built without a C compiler: installed, plays, and says what the solver needs."""
    import kabale as package

    where = Path(str(package.__file__)).resolve()
    check("site-packages" in where.parts, f"kabale is imported from the install ({where})")
    check(not list(where.parent.rglob("*.so")), "no compiled kernel is installed")
    check(kabale("deal", "klondike", "--seed", "3").startswith("klondike#3"), "kabale deal")
    for args in (["solve", "klondike", "--seed", "1"], ["hint"]):
        done = run(*args, stdin="klondike#7\n")
        lines = done.stderr.splitlines()
        check(done.returncode == 1 and done.stdout == "" and len(lines) == 1
              and "not compiled" in lines[0] and "python3-dev" in lines[0],
              f"kabale {args[0]} without the kernels: exit 1, one line: {done.stderr.strip()!r}")
    web_game(kernels=False)


if __name__ == "__main__":
    if sys.argv[1:] == ["--no-kernels"]:
        without_kernels()
    else:
        installed()
        commands()
        api()
        web_game()
    print("smoke: all ok")
