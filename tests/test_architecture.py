"""The shape of the code: one-way imports between rooms, ruff clean, mypy --strict on core."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "kabale"

#: room -> the other kabale rooms it may import (DESIGN.md §1: arrows point down only).
ALLOWED = {
    "core": set(),
    "solver": {"core"},
    "storage": {"core"},
    "advisor": {"core", "solver"},
    "analysis": {"core", "solver", "advisor", "storage"},
    "env": {"core", "advisor"},
    "server": {"core", "solver", "advisor", "storage"},
}
#: a third-party package -> the rooms that may import it (Dask's client: the analysis's
#: engine, and the server's help jobs on the same engine, docs/api.md "Help as jobs")
THIRD_PARTY_ONLY_IN = {"starlette": {"server"}, "uvicorn": {"server"}, "gymnasium": {"env"},
                       "dask": {"analysis"}, "distributed": {"analysis", "server"},
                       "ray": {"analysis"}, "matplotlib": {"analysis"},
                       "psycopg": {"storage"}, "psycopg_pool": {"storage"}}


def _imports(path: Path) -> list[tuple[int, str]]:
    """Absolute module names imported by a file (relative imports resolved)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = path.relative_to(ROOT / "src").with_suffix("").parts[:-1]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[: len(package) - node.level + 1])
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names.append((node.lineno, module))
    return names


def _room_files(room: str) -> list[Path]:
    return sorted(p for p in (PACKAGE / room).rglob("*.py"))


@pytest.mark.parametrize("room", sorted(ALLOWED))
def test_rooms_import_only_rooms_below_them(room: str) -> None:
    problems = []
    for path in _room_files(room):
        for line, module in _imports(path):
            parts = module.split(".")
            if parts[0] == "kabale" and len(parts) > 1:
                other = parts[1]
                if other != room and other not in ALLOWED[room]:
                    problems.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
            owners = THIRD_PARTY_ONLY_IN.get(parts[0])
            if owners is not None and room not in owners:
                problems.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not problems, "\n".join(problems)


def test_core_uses_only_the_standard_library() -> None:
    problems = []
    for path in _room_files("core"):
        for line, module in _imports(path):
            top = module.split(".")[0]
            if top != "kabale" and top not in sys.stdlib_module_names:
                problems.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not problems, "\n".join(problems)


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    assert found, f"{name} is not installed next to {sys.executable}; install the test extras"
    return found


def test_ruff_is_clean() -> None:
    result = subprocess.run([_tool("ruff"), "check", "."], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_core() -> None:
    result = subprocess.run([_tool("mypy"), "--strict", "src/kabale/core"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT / "src").with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_import_cycles_between_modules() -> None:
    """Imports inside functions count too: a cycle hidden in a local import is still one."""
    files = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(path) for path in files}
    graph: dict[str, set[str]] = {}
    for path in files:
        name = _module_name(path)
        targets = set()
        for _, module in _imports(path):
            while module and module not in modules:
                module = module.rpartition(".")[0]
            if module and module != name and not name.startswith(module + "."):
                targets.add(module)  # a package's own __init__ is no cycle of its modules
        graph[name] = targets
    cycles = []

    def visit(node: str, trail: list[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt in trail:
                cycles.append(" -> ".join([*trail[trail.index(nxt):], nxt]))
            elif nxt not in done:
                visit(nxt, [*trail, nxt])
        done.add(node)

    done: set[str] = set()
    for start in sorted(graph):
        if start not in done:
            visit(start, [start])
    assert not cycles, "\n".join(sorted(set(cycles)))
