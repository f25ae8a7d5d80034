"""The README's and docs/api.md's examples are tests, the README's two commands stay at the
top, and every link of the docs leads to a file (and heading) that a clone or sdist holds."""

from __future__ import annotations

import doctest
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", [README, ROOT / "docs" / "api.md"], ids=lambda p: p.name)
def test_examples_run(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0


def test_readme_starts_with_install_and_test_commands() -> None:
    head = README.read_text().split("## ")[0]
    assert "git clone " in head
    assert "pip install . && kabale play" in head
    assert "python -m pytest" in head
    for package in ("build-essential", "python3-dev", "python3-venv", "git"):
        assert package in head, package


def readme_test_command() -> str:
    """The README's test command: the line that runs pytest in its first code block."""
    block = README.read_text().split("```bash\n")[1].split("```")[0]
    (line,) = [line for line in block.splitlines()
                if "python -m pytest" in line and not line.startswith("#")]
    return line


def test_ci_runs_the_readmes_fast_pass_then_the_slow_rest() -> None:
    """The README's pass leaves the slow tests out (a few minutes on two cores); .ci/run runs
    that command word for word, then the slow tests, so that together they are every test."""
    command = readme_test_command()
    assert command.endswith('python -m pytest -m "not slow"'), command
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert command in ci
    assert ci[ci.index(command) + 1] == "python -m pytest -m slow"


def test_the_long_description_links_only_to_absolute_addresses() -> None:
    """An index shows the long description away from the repository: a relative link or
    image there leads nowhere."""
    with open(ROOT / "pyproject.toml", "rb") as handle:
        readme = tomllib.load(handle)["project"]["readme"]
    page = ROOT / (readme if isinstance(readme, str) else readme["file"])
    text = page.read_text()
    relative = [t for t in LINK.findall(text) if not t.startswith(("https://", "http://"))]
    assert not relative and "<img" not in text, relative


def anchors(page: Path) -> set[str]:
    """The heading anchors GitHub makes for a markdown page."""
    found = set()
    for line in page.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_links_lead_inside_the_repository(page: Path) -> None:
    problems = []
    for target in LINK.findall(page.read_text()):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_relative_to(ROOT) or not file.exists():
            problems.append(f"{target}: no such file in the repository")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            problems.append(f"{target}: no heading #{anchor} in {file.name}")
    assert not problems, "\n".join(problems)


SOURCES = [path for path in sorted((ROOT / "src" / "kabale").rglob("*"))
           if path.suffix in (".py", ".pyx", ".pxi", ".pyi", ".js", ".html")]
MD_FILE = re.compile(r"[\w./-]+\.md\b")


def test_the_code_cites_only_docs_the_repository_holds() -> None:
    """help() shows docstrings to people with a clone or an install: a page they cite is one
    of docs/ (DESIGN.md and RULES.md, cited before, are in no clone)."""
    problems = []
    for path in SOURCES:
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for name in MD_FILE.findall(line):
                if name == "report.md" or (ROOT / name).is_file():  # report.md: an output
                    continue
                problems.append(f"{path.relative_to(ROOT)}:{number}: {name}")
    assert not problems, "\n".join(problems)


def test_the_advisors_docstrings_say_what_they_promise() -> None:
    import kabale

    for function in (kabale.hint, kabale.postmortem, kabale.win_chance, kabale.Game):
        doc = function.__doc__ or ""
        assert len(doc.strip().splitlines()) >= 3, f"{function.__name__}: {doc!r}"
    assert "docs/advisor.md" in (kabale.hint.__doc__ or "")
