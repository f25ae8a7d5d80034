"""The kernels' integer status codes have one name each (solver/status.py), agree with the
DEFs the compiled kernels are built from, and map to the verdict words callers see."""

from __future__ import annotations

import re
from pathlib import Path

from kabale.solver.status import KernelCode, PhaseCode, Status, verdict

SOLVER = Path(__file__).resolve().parents[2] / "src" / "kabale" / "solver"


def defs(name: str) -> dict[str, int]:
    text = (SOLVER / name).read_text()
    return {k: int(v) for k, v in re.findall(r"^DEF (\w+) = (-?\d+)\b", text, re.M)}


def test_kernel_codes_are_the_klondike_kernels_defs() -> None:
    d = defs("_klondike_types.pxi")
    assert (d["SOLVED"], d["LOST"], d["LIMIT"], d["MEMORY"], d["PAUSED"], d["INTERRUPTED"]) == (
        KernelCode.SOLVED, KernelCode.UNSOLVABLE, KernelCode.LIMIT, KernelCode.MEMORY,
        KernelCode.PAUSED, KernelCode.INTERRUPTED)


def test_phase_codes_are_the_phase_searchs_defs() -> None:
    d = defs("_spider_phase.pxi")
    assert (d["FOUND"], d["FAILED"], d["STOPPED"]) == (
        PhaseCode.SOLVED, PhaseCode.NO_WIN, PhaseCode.STOPPED)
    assert PhaseCode.UNSOLVABLE not in d.values()  # only the Python rounds return it


def test_only_a_whole_search_without_a_win_is_unsolvable() -> None:
    assert verdict(1) is Status.SOLVED and verdict(0) is Status.UNSOLVABLE
    assert {verdict(c) for c in (-1, -2, -3, -4)} == {Status.UNKNOWN}
    # the beam's 0 proves nothing: a phase searched within its budget
    assert PhaseCode(0).status is Status.UNKNOWN
    assert PhaseCode.UNSOLVABLE.status is Status.UNSOLVABLE
    assert PhaseCode.SOLVED.status is Status.SOLVED and PhaseCode.STOPPED.status is Status.UNKNOWN
