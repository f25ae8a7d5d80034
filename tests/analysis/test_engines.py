"""A small run on every engine gives the same rows: this process, a pool of two processes, a
real Dask LocalCluster, and Ray where it is installed (the cluster extra)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from kabale import KabaleError
from kabale.analysis import analyze, engines, job_for
from kabale.analysis.engines import engine_for
from kabale.storage.results import ResultStore

ENGINES = [("local", 1), ("local", 2), ("dask", 2)]
if importlib.util.find_spec("ray") is not None:
    ENGINES.append(("ray", 2))
JOBS = [(job_for("klondike:draw=3,open=true", "solver", nodes=100_000), range(1, 13)),
        (job_for("spiderette:foundations=cards", "solver", nodes=100_000), range(1, 5)),
        (job_for("spider:suits=2", "random"), range(1, 4))]


def rows_of(path: Path, engine: str, jobs: int) -> list[tuple[object, ...]]:
    store = ResultStore(path)
    out = []
    runner = engine_for(engine, jobs)  # one cluster for every job
    try:
        for job, seeds in JOBS:
            outcome = analyze(job, list(seeds), store, runner, progress=None)
            assert outcome.played == len(seeds)
            out += [(r.variant, r.seed, r.player, r.budget, r.result, r.moves, r.nodes)
                    for r in outcome.rows]
    finally:
        runner.close()
    return out


def test_every_engine_gives_the_same_rows(tmp_path: Path) -> None:
    results = {(engine, jobs): rows_of(tmp_path / f"{engine}{jobs}.db", engine, jobs)
               for engine, jobs in ENGINES}
    first = results[ENGINES[0]]
    assert len(first) == 19 and {r[4] for r in first} >= {"solved", "unsolvable", "unknown"}
    for key, rows in results.items():
        assert rows == first, key


def test_engines_refuse_what_they_cannot_do() -> None:
    with pytest.raises(KabaleError, match="unknown engine 'spark'"):
        engine_for("spark", 1)
    with pytest.raises(KabaleError, match="bad --jobs 0"):
        engine_for("local", 0)
    with pytest.raises(KabaleError, match="--scheduler is for the dask and ray engines"):
        engine_for("local", 1, "tcp://127.0.0.1:8786")


@pytest.mark.slow
def test_an_unreachable_dask_scheduler_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engines, "SCHEDULER_TIMEOUT", 2)
    with pytest.raises(KabaleError, match="cannot reach the Dask scheduler 'tcp://127.0.0.1:9'"):
        engine_for("dask", 1, "tcp://127.0.0.1:9")
