"""kabale without its compiled kernels: a build without a C compiler says so in one line and
still installs the game; what needs the kernels says in one line what to install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ("kabale.solver._klondike", "kabale.solver._spider", "kabale.env._klondike_batch")


def run_without_kernels(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python in which the compiled kernels cannot be imported."""
    hide = "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in KERNELS)
    return subprocess.run([sys.executable, "-c", hide + code], capture_output=True, text=True,
                          timeout=120)


def test_commands_that_need_the_kernels_say_what_to_install() -> None:
    for command in (["solve", "klondike", "--seed", "1"], ["autoplay", "spider", "--seeds", "1"]):
        result = run_without_kernels(f"from kabale.cli import main; sys.exit(main({command!r}))")
        assert result.returncode == 1, result.stderr
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and "build-essential python3-dev" in lines[0], result.stderr
        assert result.stdout == ""


def test_the_game_and_the_rules_work_without_the_kernels() -> None:
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
        "    print(error.msg)\n")
    assert result.returncode == 0, result.stderr
    assert "solver is not compiled" in result.stdout and "python3-dev" in result.stdout


def test_the_env_works_without_its_batch_kernel() -> None:
    result = run_without_kernels(
        "import gymnasium, kabale.env\n"
        "env = gymnasium.make('kabale/Klondike-v0')\n"
        "env.reset(seed=1)\n"
        "try:\n"
        "    kabale.env.KlondikeVectorEnv\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error.msg)\n")
    assert result.returncode == 0, result.stderr
    assert "KlondikeVectorEnv is not compiled" in result.stdout
    assert "python3-dev" in result.stdout


def test_a_build_without_a_compiler_says_so_and_makes_a_wheel(tmp_path: Path) -> None:
    """The real build (pip wheel, setuptools, Cython), with CC naming no program."""
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(ROOT / "src", tree / "src",
                    ignore=shutil.ignore_patterns("*.so", "*.c", "*.egg-info", "__pycache__"))
    env = dict(os.environ, CC=str(tmp_path / "no-such-cc"))
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
         "--no-index", "-w", str(tmp_path / "dist"), str(tree)],
        capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    said = [line for line in (result.stdout + result.stderr).splitlines()
            if "building without the solver's compiled kernels" in line]
    assert len(said) == 1 and "no-such-cc" in said[0] and "python3-dev" in said[0], said
    (wheel,) = (tmp_path / "dist").glob("kabale-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "kabale/core/game.py" in names and "kabale/server/static/index.html" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
