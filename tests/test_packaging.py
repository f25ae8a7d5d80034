"""kabale without its compiled kernels: a build without a C compiler says so in one line and
still installs the game; what needs the kernels says in one line what to install."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NO_CC = "no-such-cc"


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The real build without a compiler (pip wheel, setuptools, Cython, with CC naming no
    program), installed (pip install --target) where nothing else is: the wheel, the build's
    output and the folder kabale is installed in."""
    tmp = tmp_path_factory.mktemp("no-compiler")
    tree = tmp / "tree"
    tree.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(ROOT / "src", tree / "src",
                    ignore=shutil.ignore_patterns("*.so", "*.c", "*.egg-info", "__pycache__"))
    env = dict(os.environ, CC=str(tmp / NO_CC))
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
         "--no-index", "-w", str(tmp / "dist"), str(tree)],
        capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (wheel,) = (tmp / "dist").glob("kabale-*.whl")
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target",
         str(tmp / "site"), str(wheel)], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr
    return wheel, result.stdout + result.stderr


def run_without_kernels(code: str, build: tuple[Path, str],
                        stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python that imports kabale from the compiler-less wheel's
    install (its dependencies from this venv), from a folder that holds no kabale."""
    site = build[0].parent.parent / "site"
    check = (f"import kabale, sys\nassert kabale.__file__.startswith({str(site)!r}), "
             f"kabale.__file__\n")
    return subprocess.run([sys.executable, "-c", check + code], capture_output=True, text=True,
                          input=stdin, timeout=120, cwd=site.parent,
                          env=dict(os.environ, PYTHONPATH=str(site)))


COMMANDS = [(["solve", "klondike", "--seed", "1"], ""),
            (["autoplay", "spider", "--seeds", "1"], ""),
            (["hint"], "klondike#7\n"),
            (["analyze", "klondike", "--seeds", "1-2", "--player", "bot", "--db", "a.db"],
             "")]


@pytest.mark.parametrize(("command", "stdin"), COMMANDS, ids=lambda c: c and c[0])
def test_commands_that_need_the_kernels_say_what_to_install(
        build: tuple[Path, str], command: list[str], stdin: str) -> None:
    result = run_without_kernels(f"from kabale.cli import main; sys.exit(main({command!r}))",
                                 build, stdin)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "build-essential python3-dev" in lines[0], result.stderr
    assert "solver is not compiled" in lines[0]
    assert result.stdout == ""


def test_analyze_with_the_random_player_needs_no_kernel(build: tuple[Path, str]) -> None:
    """The random player needs no solver: its analysis runs in a build without the kernels
    (it stopped with the solver's line, as the advisor's package imported the solver)."""
    result = run_without_kernels(
        "from kabale.cli import main; sys.exit(main(['analyze', 'klondike', '--seeds', '1-3', "
        "'--player', 'random', '--jobs', '1', '--db', 'a.db', '--json']))", build)
    assert result.returncode == 0, result.stderr
    assert "not compiled" not in result.stderr
    summary = json.loads(result.stdout.splitlines()[-1])["summary"]
    assert (summary["player"], summary["deals"]) == ("random", 3), result.stdout


@pytest.mark.parametrize("call", ["solve(game)", "hint(game)", "postmortem(game)",
                                  "win_chance(game)", "Bot()"])
def test_the_api_that_needs_the_kernels_says_what_to_install(
        build: tuple[Path, str], call: str) -> None:
    """A missing kernel is a ModuleNotFoundError that names it and says what to install (a
    plain ImportError blaming a circular import, before)."""
    result = run_without_kernels(
        "game = kabale.Game.new('klondike', seed=1)\n"
        "try:\n"
        f"    kabale.{call}\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error.name)\n"
        "    print(error.msg)\n", build)
    assert result.returncode == 0, result.stderr
    name, message = result.stdout.splitlines()
    assert name == "kabale.solver._klondike"
    assert "solver is not compiled" in message and "python3-dev" in message


def test_the_game_and_the_rules_work_without_the_kernels(build: tuple[Path, str]) -> None:
    result = run_without_kernels(
        "import io, kabale\n"
        "from kabale.cli import main, play_text\n"
        "assert main(['deal', 'spider', '--seed', '3']) == 0\n"
        "out = io.StringIO()\n"
        "assert play_text('klondike', 7, io.StringIO('7>4\\n'), out) == 0\n"
        "assert 'moves 1' in out.getvalue()\n"
        "from kabale.server.app import create_app\n"
        "import tempfile, os\n"
        "from starlette.testclient import TestClient\n"
        "client = TestClient(create_app(os.path.join(tempfile.mkdtemp(), 'k.db')),\n"
        "                    base_url='http://127.0.0.1:8000',\n"
        "                    headers={'Content-Type': 'application/json'})\n"
        "game = client.post('/api/games', json={'variant': 'klondike', 'seed': 7}).json()\n"
        "played = client.post(f\"/api/games/{game['id']}/moves\", json={'move': 'd'})\n"
        "assert played.status_code == 200, played.text\n"
        "for res in (client.post(f\"/api/games/{game['id']}/hint\"),\n"
        "            client.post('/api/games', json={'variant': 'klondike', 'winnable': True})):\n"
        "    assert res.status_code == 503 and res.json()['code'] == 'no_solver', res.text\n"
        "    assert 'python3-dev' in res.json()['error']\n"
        "try:\n"
        "    kabale.hint\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error.msg)\n", build)
    assert result.returncode == 0, result.stderr
    assert "solver is not compiled" in result.stdout and "python3-dev" in result.stdout


def test_the_env_works_without_its_batch_kernel(build: tuple[Path, str]) -> None:
    result = run_without_kernels(
        "import gymnasium, kabale.env\n"
        "env = gymnasium.make('kabale/Klondike-v0')\n"
        "env.reset(seed=1)\n"
        "try:\n"
        "    kabale.env.KlondikeVectorEnv\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error.msg)\n", build)
    assert result.returncode == 0, result.stderr
    assert "KlondikeVectorEnv is not compiled" in result.stdout
    assert "python3-dev" in result.stdout


def test_a_build_without_a_compiler_says_so_and_makes_a_wheel(build: tuple[Path, str]) -> None:
    wheel, output = build
    said = [line for line in output.splitlines()
            if "building without the solver's compiled kernels" in line]
    assert len(said) == 1 and NO_CC in said[0] and "python3-dev" in said[0], said
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "kabale/core/game.py" in names and "kabale/server/static/index.html" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert not [n for n in names if n.endswith((".pyx", ".pxi", ".c"))]  # the sdist has them


def test_the_sdist_builds_without_warnings_and_holds_sources_not_builds(
        tmp_path: Path) -> None:
    """python -m build --sdist as .ci/run builds it, from this tree (where the kernels were
    built in place, and the egg-info lists their generated C)."""
    result = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir",
         str(tmp_path), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    warnings = [line for line in (result.stdout + result.stderr).splitlines()
                if "warning" in line.lower()]
    assert not warnings, "\n".join(warnings)
    sys.path.insert(0, str(ROOT / ".ci"))
    try:
        from check_release import check_sdist
    finally:
        sys.path.remove(str(ROOT / ".ci"))
    (sdist,) = tmp_path.glob("kabale-*.tar.gz")
    assert check_sdist(sdist) == []
