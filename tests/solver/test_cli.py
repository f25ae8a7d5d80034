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
    assert set(data) == {"deal_id", "status", "moves", "nodes", "seconds", "moves_found"}
    assert data["deal_id"] == "klondike:draw=3,open=true#2"
    assert data["status"] in ("solved", "unsolvable", "unknown")


@pytest.mark.parametrize("variant", ["klondike:draw=3,open=true", "spiderette:suits=1"])
def test_game_log_replays_through_play_text(variant: str) -> None:
    seed = first_solved_seed(variant)
    log = kabale("solve", variant, "--seed", str(seed), "--max-seconds", "2")
    assert log.returncode == 0, log.stderr
    lines = log.stdout.splitlines()
    assert lines[0] == f"{variant}#{seed}"
    assert lines[1].startswith(f"; solved in {len(lines) - 2} moves after ")  # status line
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
    args = solve_args("klondike:draw=3", "--deal", str(path), "--json", "--max-seconds", "2")
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
    (["solve", "klondike", "--seed", "1", "--max-seconds", "nan"], "max-seconds"),
    (["solve", "klondike", "--seed", "1", "--max-seconds", "inf"], "max-seconds"),
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


def test_a_deal_file_keeps_its_variant_and_a_mismatch_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    dealt = kabale("deal", "klondike:draw=3", "--seed", "4", "--format", "solvitaire")
    assert dealt.returncode == 0
    path.write_text(dealt.stdout)
    solved = kabale("solve", "--deal", str(path), "--json", "--max-nodes", "1000")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["deal_id"].startswith("klondike:draw=3#=")
    wrong = kabale("solve", "klondike", "--deal", str(path), "--max-nodes", "1000")
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert len(wrong.stderr.splitlines()) == 1 and "Traceback" not in wrong.stderr
    assert "klondike:draw=3" in wrong.stderr and str(path) in wrong.stderr
    same = kabale("solve", "klondike-3", "--deal", str(path), "--json", "--max-nodes", "1000")
    assert same.returncode == 0, same.stderr


MALFORMED_DEALS: list[bytes] = [
    b"", b"null", b"[]", b'"klondike"', b"{}", b"\xff\xfe{}", b"[" * 100_000,
    b'{"tableau piles": ' + b"[" * 3000 + b"]" * 3000 + b"}",
    b'{"tableau piles": [["' + "³S".encode() + b'"]]}', b'{"tableau piles": [[1, 2]]}',
    b'{"tableau piles": [["AS"]], "stock": ' + b"9" * 5000 + b"}",
    b'{"tableau piles": [["AS"]], "kabale variant": 5}',
    b'{"tableau piles": [["AS"]], "kabale variant": "golf"}',
    b'{"tableau piles": [[]], "foundations": [[]]}',
    b'{"tableau piles": [["AS"], ["2S"]], "foundations": [["KS"]]}',
    b'{"tableau piles": [[], [], [], [], [], [], [], [], [], []], "foundations": [["AS"]]}',
    b'{"tableau piles": [["ks", "qs"]]}', b'{"tableau piles": [["' + b"A" * 10000 + b'"]]}',
]


def test_malformed_deal_files_exit_2_with_one_line(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    paths = []
    for index, content in enumerate(MALFORMED_DEALS):
        paths.append(tmp_path / f"deal{index}.json")
        paths[-1].write_bytes(content)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(
            lambda path: kabale("solve", "--deal", str(path), "--max-nodes", "100"), paths))
    for path, result in zip(paths, results, strict=True):
        content = path.read_bytes()[:60]
        assert result.returncode == 2, (content, result.returncode, result.stderr[-300:])
        assert len(result.stderr.splitlines()) == 1, (content, result.stderr[-300:])
        assert "Traceback" not in result.stderr and str(path) in result.stderr, content


@pytest.mark.slow
@pytest.mark.parametrize(("signum", "status", "name"),
                         [(2, 130, "Ctrl-C"), (15, 143, "SIGTERM")])
def test_ctrl_c_stops_a_solve_long_before_its_time_limit(signum: int, status: int,
                                                        name: str) -> None:
    """Ctrl-C (SIGINT) or SIGTERM ends ``kabale solve`` on a hard deal at once, saying so on
    stderr with exit status 130 or 143 (it used to exit 0 with nothing printed): the search
    looks for signals where it looks at the clock. Draw-3 deal 109 takes 147M positions (35 s
    on two busy cores) to prove lost, and the limit is far beyond that: a solve that ignored
    the signal would print that verdict, one that stopped cannot."""
    import time

    proc = subprocess.Popen([sys.executable, "-m", "kabale", "solve", "klondike:draw=3",
                             "--seed", "109", "--max-seconds", "600"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2.0)  # imported and searching
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signum)
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"kabale solve did not stop within 120 s of {name}") from None
    assert out == "", "the search ran on after the signal, to its verdict"
    assert proc.returncode == status, err
    assert err == (f"kabale solve: stopped by {name}; nothing is saved (a verdict is printed "
                   "only when the search ends)\n")


def test_solve_says_it_read_the_cards_a_player_cannot_see() -> None:
    hidden = kabale("solve", "klondike", "--seed", "3", "--max-nodes", "2000")
    assert hidden.returncode == 0, hidden.stderr
    # 21 face-down cards and the 24 of the stock: full information, no player's view
    assert hidden.stdout.splitlines()[1].endswith(
        ", reading the 45 face-down and stock cards a player cannot see")
    shown = kabale("solve", "thoughtful", "--seed", "3", "--max-nodes", "2000")
    assert "reading" not in shown.stdout
    assert shown.stdout.splitlines()[0] == "klondike:open=true#3"
