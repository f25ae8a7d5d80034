"""``kabale solve`` end to end: JSON output, game logs replayed by ``kabale play --text``,
Solvitaire deal files, and one-line errors with exit status 2."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kabale import Game, KabaleError
from kabale.solver import cli as solver_cli
from kabale.storage.solvitaire import dumps, from_solvitaire


def kabale(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kabale", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def first_solved_seed(variant: str) -> int:
    for seed in range(1, 50):
        out = kabale("solve", variant, "--seed", str(seed), "--max-seconds", "1", "--json")
        if json.loads(out.stdout)["status"] == "solved":
            return seed
    raise AssertionError(f"no deal of {variant} among seeds 1-49 solved")


def test_json_output_has_the_documented_keys() -> None:
    out = kabale("solve", "klondike:draw=3,open=true", "--seed", "2", "--json",
                 "--max-seconds", "2")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"deal_id", "status", "moves", "nodes", "seconds"}
    assert data["deal_id"] == "klondike:draw=3,open=true#2"
    assert data["status"] in ("solved", "unsolvable", "unknown")


@pytest.mark.parametrize("variant", ["klondike:draw=3,open=true", "spiderette:suits=1"])
def test_game_log_replays_through_play_text(variant: str) -> None:
    seed = first_solved_seed(variant)
    log = kabale("solve", variant, "--seed", str(seed), "--max-seconds", "2")
    assert log.returncode == 0, log.stderr
    lines = log.stdout.split()
    assert lines[0] == f"{variant}#{seed}"
    replay = kabale("play", "--text", stdin=log.stdout)
    assert replay.returncode == 0, replay.stdout[-500:]
    headers = [line for line in replay.stdout.splitlines() if line.startswith(f"{variant}#")]
    assert headers[-1].endswith("won")
    assert not any(h.endswith("won") for h in headers[:-1])


def test_unknown_verdict_prints_a_comment_the_replayer_skips() -> None:
    out = kabale("solve", "spider", "--seed", "1", "--max-nodes", "1")
    assert out.returncode == 0
    assert out.stdout.splitlines() == ["spider#1", out.stdout.splitlines()[1]]
    assert out.stdout.splitlines()[1].startswith("; unknown")


def solve_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    solver_cli.configure(parser)
    return parser.parse_args(argv)


def test_deal_file_in_solvitaire_format(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new("klondike:draw=3", seed=4)
    path = tmp_path / "deal.json"
    path.write_text(dumps(game))
    args = solve_args("klondike:draw=3,open=true", "--deal", str(path), "--json",
                      "--max-seconds", "2")
    assert solver_cli.main(args, read_deal=from_solvitaire) == 0
    data = json.loads(capsys.readouterr().out)
    assert Game.from_deal_id(data["deal_id"]).state.columns == game.state.columns


def test_deal_file_variant_is_inferred(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new("spider:suits=2", seed=4)
    path = tmp_path / "deal.json"
    path.write_text(dumps(game))
    args = solve_args("--deal", str(path), "--json", "--max-nodes", "10")
    assert solver_cli.main(args, read_deal=from_solvitaire) == 0
    assert json.loads(capsys.readouterr().out)["deal_id"].startswith("spider:suits=2#=")


def test_deal_without_a_reader_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(dumps(Game.new("klondike", seed=1)))
    with pytest.raises(KabaleError, match="--deal"):
        solver_cli.main(solve_args("--deal", str(path)))


@pytest.mark.parametrize("args, fragment", [
    (["solve", "klondike"], "--seed"),
    (["solve"], "VARIANT"),
    (["solve", "nosuchgame", "--seed", "1"], "nosuchgame"),
    (["solve", "klondike", "--seed", "1", "--max-seconds", "-2"], "max-seconds"),
])
def test_bad_input_exits_2_with_one_line(args: list[str], fragment: str) -> None:
    out = kabale(*args)
    assert out.returncode == 2
    assert fragment in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_unreadable_deal_file_names_the_file() -> None:
    with pytest.raises(KabaleError, match="/nonexistent/deal.json"):
        solver_cli.main(solve_args("--deal", "/nonexistent/deal.json"),
                        read_deal=from_solvitaire)
