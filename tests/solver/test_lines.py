"""Winning lines a person can follow (issue 51): strip_line keeps a win, cuts planted
detours (a loop, a pair of moves that undo each other, a run carried in pieces), and gives
the same line every time."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kabale import Game, solve
from kabale.core import Move, State
from kabale.solver import SolverBugError
from kabale.solver.lines import position_key, short_line, strip_line


def won_line(variant: str, seed: int) -> tuple[Game, list[str]]:
    """A deal and a winning line for it (the solver's, loops cut, as kabale.solve gives
    it)."""
    game = Game.new(variant, seed)
    result = solve(game, max_seconds=None, max_nodes=300_000)
    assert result.status == "solved"
    return game, list(result.moves)


def positions(game: Game, moves: list[str]) -> list[State]:
    """The positions along ``moves`` (played on a copy: each move checked by the rules)."""
    copy = game.copy()
    states = [copy.state]
    for move in moves:
        copy.play(move)
        states.append(copy.state)
    return states


def wins(game: Game, moves: list[str]) -> bool:
    """Whether ``moves`` played on a copy of ``game`` win it (each move checked)."""
    copy = game.copy()
    for move in moves:
        copy.play(move)
    return copy.outcome == "won"


def undoing_move(game: Game, state: State) -> tuple[str, str] | None:
    """A column move in ``state`` that turns no card and lands on a card, with the move
    that takes it back, or None."""
    rules = game.rules
    for move in rules.legal_moves(state):
        if not (move.source.isdigit() and move.target.isdigit()):
            continue
        src, dst = int(move.source) - 1, int(move.target) - 1
        after = rules.apply(state, move)
        if after.down[src] != state.down[src] or not state.columns[dst] or \
                len(state.columns[src]) == move.count:
            continue
        back = Move(move.target, move.source, move.count)
        if back in rules.legal_moves(after) and \
                position_key(game, rules.apply(after, back)) == position_key(game, state):
            return move.explicit(), back.explicit()
    return None


@pytest.mark.parametrize(("variant", "seed"), [("spiderette:suits=1", 1), ("spiderette", 1),
                                               ("spider:suits=1", 3)])
def test_a_stripped_line_still_wins_and_is_no_longer(variant: str, seed: int) -> None:
    game = Game.new(variant, seed)
    result = solve(game, max_seconds=None, max_nodes=300_000)
    assert result.status == "solved"
    shown = strip_line(game, result.moves)
    assert wins(game, shown.moves)
    assert 0 < len(shown.moves) <= len(result.moves) <= result.found
    # no position twice on the line shown
    keys = [position_key(game, s) for s in positions(game, shown.moves)]
    assert len(set(keys)) == len(keys)


def test_spider_one_suit_line_of_944_moves_is_cut_to_a_few_hundred() -> None:
    """The search's line for spider:suits=1 #3 wanders (944 moves); the one shown does not."""
    game = Game.new("spider:suits=1", 3)
    result = solve(game, max_seconds=None, max_nodes=300_000)
    assert result.found > 900 and len(strip_line(game, result.moves).moves) < 200


def test_a_planted_loop_is_cut() -> None:
    game, line = won_line("spiderette", 1)
    states = positions(game, line)
    at = next(i for i in range(len(line)) if undoing_move(game, states[i]))
    there, back = undoing_move(game, states[at])  # type: ignore[misc]
    planted = [*line[:at], there, back, there, back, *line[at:]]
    assert wins(game, planted)
    stripped = strip_line(game, planted)
    assert stripped.found == len(line) + 4
    assert stripped.moves == strip_line(game, line).moves


def test_a_planted_pair_that_undoes_itself_around_another_move_is_dropped() -> None:
    game, line = won_line("spiderette", 1)
    states = positions(game, line)
    shown = strip_line(game, line).moves
    planted = 0
    for at in range(len(line)):
        if planted == 3:
            break
        pair = undoing_move(game, states[at])
        if pair is None or line[at] == "d":
            continue
        there, back = pair
        longer = [*line[:at], there, line[at], back, *line[at + 1:]]
        try:  # the line's move must still be legal with the pair's cards moved
            if not wins(game, longer):
                continue
        except ValueError:
            continue
        planted += 1
        stripped = strip_line(game, longer)
        assert stripped.found == len(line) + 2
        assert len(stripped.moves) <= len(shown) and wins(game, stripped.moves)
    assert planted == 3


def test_a_run_carried_in_pieces_over_an_empty_column_is_moved_once() -> None:
    game, line = won_line("spiderette:suits=1", 1)
    states = positions(game, line)
    rules = game.rules
    for at, text in enumerate(line):
        move = _find(rules.legal_moves(states[at]), text)
        state = states[at]
        if move.count < 2 or not (move.source.isdigit() and move.target.isdigit()) or \
                not state.columns[int(move.target) - 1]:
            continue
        empty = next((i for i, col in enumerate(state.columns) if not col), None)
        if empty is None:
            continue
        src, dst, hole = move.source, move.target, str(empty + 1)
        pieces = [f"{src}:1>{hole}", f"{src}:{move.count - 1}>{dst}", f"{hole}:1>{dst}"]
        planted = [*line[:at], *pieces, *line[at + 1:]]
        assert wins(game, planted)
        stripped = strip_line(game, planted)
        assert stripped.moves == strip_line(game, line).moves
        assert stripped.found == len(line) + 2
        return
    pytest.fail("no run move beside an empty column on the line")


def _find(legal: list[Move], text: str) -> Move:
    return next(m for m in legal if m.text == text or m.explicit() == text)


def test_stripping_is_deterministic() -> None:
    game, line = won_line("spider:suits=1", 3)
    first = strip_line(game, line).moves
    assert strip_line(game, list(line)).moves == first
    assert strip_line(game.copy(), line).moves == first


def test_a_line_that_does_not_win_is_refused() -> None:
    game, line = won_line("spiderette:suits=1", 1)
    with pytest.raises(SolverBugError, match="does not win"):
        strip_line(game, line[:-1])
    with pytest.raises(SolverBugError, match="refused"):
        strip_line(game, ["1:1>1", *line])


def test_kabale_solve_reports_the_line_found_and_the_line_shown() -> None:
    out = subprocess.run([sys.executable, "-m", "kabale", "solve", "spider:suits=1", "--seed",
                          "3", "--max-nodes", "300000"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    shown = len(lines) - 2
    assert lines[1].startswith(f"; solved in {shown} moves after ")
    assert "(the search's line of " in lines[1] and "its detours stripped)" in lines[1]
    data = json.loads(subprocess.run(
        [sys.executable, "-m", "kabale", "solve", "spider:suits=1", "--seed", "3",
         "--max-nodes", "300000", "--json"], capture_output=True, text=True,
        timeout=120).stdout)
    assert data["moves_found"] > len(data["moves"]) == shown


def test_short_line_finds_a_winning_line_and_repeats() -> None:
    """short_line, the yardstick: a beam that counts every move against a position."""
    game = Game.new("spider:suits=1", 3)
    tries = [(20, True, 1), (5, False, 0)]  # the first wins nothing here, the second does
    first = short_line(game, 100_000, tries=tries)
    assert first is not None and wins(game, first.moves)
    assert len(first.moves) <= first.found
    shown = strip_line(game, solve(game, max_seconds=None, max_nodes=300_000).moves)
    assert len(first.moves) < len(shown.moves)
    again = short_line(game, 100_000, tries=tries)
    assert again is not None and again.moves == first.moves


def test_counting_moves_against_a_position_shortens_the_beams_lines() -> None:
    """SpiderPhases.w_len: the same round with and without it (spider-4 #9100002: 382 moves
    found without, about 200 with)."""
    from kabale.solver._spider import SpiderPhases
    from kabale.solver.spider import BEAM_ROUNDS, SOLVED, kernel_args, phase_rounds

    game = Game.new("spider", 9100002)
    lengths = []
    for w_len in (0, 5):
        phases = SpiderPhases(*kernel_args(game), 64, 128)
        phases.w_len = w_len
        status, ops = phase_rounds(phases, (BEAM_ROUNDS["spider"][2],), 0.0, 2_000_000, True)
        assert status == SOLVED
        lengths.append(len(ops))
    assert lengths[1] < 0.7 * lengths[0]


def test_a_long_line_is_stripped_the_same_without_the_index(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines over INDEX_LIMIT moves play every move instead of looking positions up by all
    but two columns: the index only saves time, so both give the same line."""
    from kabale.solver import lines
    from kabale.solver.spider import run_spider

    game = Game.new("spider:suits=1", 3)
    status, line, _ = run_spider(game, 0.0, 300_000, 64)  # the search's line, 944 moves
    assert status == "solved" and len(line) > 900
    indexed = strip_line(game, line)
    assert len(indexed.moves) < 200
    monkeypatch.setattr(lines, "INDEX_LIMIT", 0)
    assert strip_line(game, line) == indexed
