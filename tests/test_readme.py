"""The README's API example is itself a test, and its two commands stay at the top."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_api_example_runs() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0


def test_readme_starts_with_install_and_test_commands() -> None:
    head = README.read_text().split("## ")[0]
    assert "pip install . && kabale play" in head
    assert "python -m pytest" in head
