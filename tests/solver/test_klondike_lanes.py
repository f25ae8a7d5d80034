"""Klondike's draw-one relaxation on real deals, and its two lanes (run_klondike)."""

from __future__ import annotations

import random
import threading

import pytest
from test_verdicts import decided, klondike_position, wins

from kabale import Game, parse_variant
from kabale.solver import klondike, solve
from kabale.solver._klondike import Halt


def test_draw_one_relaxation_on_a_lost_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw-3 deal 451 is lost drawing one card too, which takes far fewer positions to
    prove; the kernel switches to the relaxation and back, and solve uses it (on one core,
    where it runs in the same lane as the exhaustive search)."""
    monkeypatch.setattr(klondike, "cores", lambda: 1)
    game = Game.new("klondike:draw=3,open=true", 451)
    kernel = klondike.kernel_for(game, 16)
    kernel.relax(True)
    assert kernel.run(0, 0.0)[0] == 0
    relaxed = kernel.nodes
    kernel.relax(False)
    assert kernel.run(0, 0.0)[0] == 0
    assert relaxed * 10 < kernel.nodes - relaxed, (relaxed, kernel.nodes)
    with_relaxation = solve(game, max_seconds=None)
    monkeypatch.setattr(klondike, "RELAXED", 0)
    without = solve(game, max_seconds=None)
    assert with_relaxation.status == without.status == "unsolvable"
    assert with_relaxation.nodes < without.nodes, (with_relaxation.nodes, without.nodes)


@pytest.mark.parametrize(("seed", "loses"), [(451, True), (2, False)])
def test_relaxation_forecast(seed: int, loses: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The relaxation runs only after its forecast (the relaxation without cards brought
    back) proves the forecast lost: on draw-3 deal 451 (lost drawing one card too) both
    run and prove it lost; on deal 2 (won) the forecast wins and the relaxation is left
    out. Either way the kernel is back on the variant's rules."""
    calls: list[bool] = []
    real_drive = klondike.drive

    def recorded(kernel: klondike.KlondikeKernel, *args: object) -> tuple[str, object]:
        calls.append(kernel.back)
        return real_drive(kernel, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(klondike, "drive", recorded)
    kernel = klondike.kernel_for(Game.new("klondike:draw=3,open=true", seed), 16)
    assert klondike.relaxation_loses(kernel, 0.0, 0, 0.0, klondike.FORECAST,
                                     klondike.RELAXED) is loses
    assert calls == ([False, True] if loses else [False])
    assert kernel.back
    assert kernel.run(0, 0.0)[0] == (0 if loses else 1)  # the variant's verdict, as before


def test_klondikes_second_lane_decides_on_its_own() -> None:
    """Draw-3 deal 451 is lost drawing one card too: the second lane's relaxation proves
    it. Deal 2 is won: its forecast wins, so the relaxation is left out and the shuffled
    exhaustive search wins, with a line core plays to a win."""
    lost = Game.new("klondike:draw=3,open=true", 451)
    assert klondike.second_lane(lost, 0, 0, 16, Halt())[0] == "unsolvable"
    won = Game.new("klondike:draw=3,open=true", 2)
    status, line, _ = klondike.second_lane(won, 0, 0, 16, Halt())
    assert status == "solved" and wins(won, line)


def test_klondike_on_two_lanes_gives_the_verdicts_of_one(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new("klondike:draw=3,open=true", 451)
    monkeypatch.setattr(klondike, "cores", lambda: 2)
    two = solve(game, max_seconds=None)
    monkeypatch.setattr(klondike, "cores", lambda: 1)
    one = solve(game, max_seconds=None)
    assert two.status == one.status == "unsolvable"


def shared_search(game: Game, helper_nodes: int = 0) -> tuple[klondike.Pair, int, int]:
    """The first lane's exhaustive search and a helper on one table at once (Pair), with no
    limit but the helper's node limit: (pair, owner's status, helper's status). The owner
    pauses at its first look at the clock and adopts the helper, as run_klondike's first
    lane does after its head start; one that decides before that leaves the helper alone."""
    owner, helper = klondike.kernel_for(game, 16), klondike.kernel_for(game, 16)
    pair = klondike.Pair()
    helped: list[int] = []
    thread = threading.Thread(
        target=lambda: helped.append(pair.helper_search(helper, 0, helper_nodes)[0]))
    thread.start()  # it waits for the owner to publish its table
    status, _ = owner.run(0, 0.0, 0, True, 1e-9)
    if status == klondike.PAUSED:
        pair.adopt(owner)
        status = pair.owner_resume(owner)[0]
    else:
        pair.publish(None)
    thread.join()
    return pair, status, helped[0]


def test_a_shared_table_proves_a_loss_only_when_both_searches_ended_exhausted() -> None:
    """Draw-3 deal 451 is lost. Owner and helper search it on one table: the owner ends 0,
    the helper leaves that verdict to it (-1). When the helper stops at a node limit
    instead, positions it entered may not have been searched whole, so the owner's run
    proves nothing either: -1."""
    game = Game.new("klondike:draw=3,open=true", 451)
    pair, owner, helper = shared_search(game)
    assert pair.helper_joined and (owner, helper) == (0, -1)
    pair, owner, helper = shared_search(game, helper_nodes=2_000)
    assert pair.helper_joined and (owner, helper) == (-1, -1)


@pytest.mark.parametrize("name", ["klondike:draw=3,open=true", "klondike:open=true"])
def test_shared_table_verdicts_agree_with_brute_force(name: str) -> None:
    """On positions small enough to explore whole (test_verdicts), the pair's verdict is the
    brute force's: won when either search wins, lost only when the owner ends 0."""
    for game, truth in decided(parse_variant(name), klondike_position, "shared " + name):
        _, owner, helper = shared_search(game)
        assert (1 in (owner, helper)) == truth, (name, game.state)
        assert (owner == 0) == (not truth), (name, game.state)


@pytest.mark.parametrize("name", ["klondike:draw=3,open=true", "klondike:draw=3,passes=3",
                                  "klondike:empty=any,draw=3"])
def test_dead_foundation_moves_left_out(name: str) -> None:
    """Rule 9's test f2t_goes_on drops a foundation-to-tableau move only when the position
    after it has no move at all (checked by making each move and generating), and it does
    drop some, on positions with foundations part built."""
    from kabale.solver._klondike import f2t_audit

    variant = parse_variant(name)
    rng = random.Random(name)
    audited = dropped = 0
    for _ in range(400):
        game = Game.from_position(variant, klondike_position(variant, rng))
        for f, t, kept, moves in f2t_audit(klondike.kernel_for(game, 8)):
            assert kept or moves == 0, (game.state, f, t)
            audited += 1
            dropped += not kept
    assert audited > 400 and dropped > 20, (audited, dropped)
