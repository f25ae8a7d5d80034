"""The store's contract on both databases it runs on (issue 44 item 3): SQLite, and a real
PostgreSQL server (tests/conftest.py starts one). Every test here runs on each; a second
store on the same database stands for a second server process."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import kabale
from kabale.storage import helpstate
from kabale.storage.db import (
    SCHEMA_VERSION,
    GameNotFoundError,
    GameStore,
    NewerSchemaError,
    StaleGameError,
)
from kabale.storage.limits import bucket_name, forget_full, take
from kabale.storage.players import (
    TransferCodeError,
    delete_player,
    forget_idle_players,
    make_transfer_code,
    new_player,
    player_of_token,
    redeem_transfer_code,
)
from kabale.storage.secret import daily_was_shown, mark_daily_shown, server_secret

Opener = Callable[[], GameStore]


@pytest.fixture(params=["sqlite", "postgresql"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens a store on one database, as often as asked (each a 'process' of its own)."""
    opened: list[GameStore] = []
    if request.param == "sqlite":
        def make() -> GameStore:
            opened.append(GameStore(tmp_path / "k.db"))
            return opened[-1]
    else:
        from kabale.storage.pg import PgStore

        url = request.getfixturevalue("postgres_url")

        def make() -> GameStore:
            opened.append(PgStore(url, pool_size=3))
            return opened[-1]
    yield make
    for store in opened:
        store.close()


def test_games_round_trip_per_player(opener: Opener) -> None:
    store = opener()
    game = kabale.Game.new("spider:suits=2", seed=8)
    game.play(game.legal_moves()[0])
    store.add("g1", game, player="p-a", daily="2026-01-02", info={"winnable": True})
    assert store.save("g1", game, "playing", 12.25, rev=0) == 1
    again = opener().load("g1", player="p-a")
    assert again.game.to_json() == game.to_json()
    assert (again.status, again.elapsed, again.player, again.rev, again.daily, again.info) == (
        "playing", 12.25, "p-a", 1, "2026-01-02", {"winnable": True})
    with pytest.raises(GameNotFoundError) as theirs:
        store.load("g1", player="p-b")
    with pytest.raises(GameNotFoundError) as nothing:
        store.load("g2", player="p-b")
    assert str(theirs.value).replace("g1", "g2") == str(nothing.value)
    assert store.owner("g1") == ("p-a", 1) and store.owner("nope") is None


def test_a_stale_copy_is_never_written(opener: Opener) -> None:
    one, two = opener(), opener()
    game = kabale.Game.new("klondike", seed=1)
    one.add("g", game, player="p-a")
    copy = two.load("g")
    game.play(game.legal_moves()[0])
    one.save("g", game, "playing", 1.0, rev=0)
    with pytest.raises(StaleGameError):
        two.save("g", copy.game, "playing", 2.0, rev=copy.rev)
    with pytest.raises(StaleGameError):
        two.mark_assisted("g", rev=copy.rev)
    assert two.load("g").game.to_json() == game.to_json()


def test_statistics_and_ranks_are_per_player(opener: Opener) -> None:
    store = opener()
    for n, player in enumerate(["p-a", "p-a", "p-b"]):
        game = kabale.Game.new("klondike", seed=n)
        store.add(f"g{n}", game, player=player)
        store.save(f"g{n}", game, "lost", 5.0)
    assert store.stats("klondike", player="p-a")["played"] == 2
    assert store.stats("klondike", player="p-b")["played"] == 1
    assert store.variants_played("p-c") == [] and store.stats_all("p-c")["played"] == 0
    assert store.reset_stats(None, "p-a") == 2
    assert store.stats("klondike", player="p-b")["played"] == 1


def lost_position() -> kabale.Game:
    """Deal 12 of draw 3 with one pass: after drawing the stock through, nothing can move."""
    game = kabale.Game.from_deal_id("klondike:draw=3,passes=1#12")
    for _ in range(8):
        game.play("d")
    assert game.outcome == "lost" and game.can_undo
    return game


def test_a_loss_counts_when_it_happens_and_an_undo_takes_it_back(opener: Opener) -> None:
    # Issue 48: a lost game was counted only when the next game started (given up then).
    store = opener()
    game = lost_position()
    variant = str(game.variant)
    store.add("g", game, player="p-a")
    store.save("g", game, "playing", 30.0)
    stats = store.stats(variant, player="p-a")
    assert (stats["played"], stats["won"]) == (1, 0)
    assert stats["recent"][0]["result"] == "lost" and stats["recent"][0]["moves"] == 8
    assert store.variants_played("p-a") == [variant]
    assert store.stats_all("p-a")["played"] == 1
    assert store.load("g").status == "playing"      # still undoable: not given up
    game.undo()
    store.save("g", game, "playing", 31.0)
    assert store.stats(variant, player="p-a")["played"] == 0
    game.redo()
    store.save("g", game, "playing", 32.0)
    store.save("g", game, "lost", 33.0)             # given up: counted once, still lost
    stats = store.stats(variant, player="p-a")
    assert (stats["played"], stats["recent"][0]["result"]) == (1, "lost")


def test_forgetting_statistics_forgets_a_loss_still_on_the_table(opener: Opener) -> None:
    store = opener()
    game = lost_position()
    store.add("g", game, player="p-a")
    store.save("g", game, "playing", 30.0)
    assert store.reset_stats(str(game.variant), "p-a") == 0    # the game itself is kept
    assert store.stats(str(game.variant), player="p-a")["played"] == 0
    assert store.load("g").game.moves_made == 8
    store.save("g", game, "lost", 31.0)
    assert store.stats(str(game.variant), player="p-a")["played"] == 1


def test_players_tokens_transfer_and_delete(opener: Opener) -> None:
    store = opener()
    player, token = new_player(store)
    assert player_of_token(opener(), token) == player
    assert player_of_token(store, token + "x") is None
    code, _ = make_transfer_code(store, player)
    other, second = redeem_transfer_code(opener(), code)
    assert other == player and player_of_token(store, second) == player
    with pytest.raises(TransferCodeError):
        redeem_transfer_code(store, code)
    store.add("g", kabale.Game.new("klondike", seed=2), player=player)
    mark_daily_shown(store, "klondike", "2026-01-02", player)
    assert daily_was_shown(store, "klondike", "2026-01-02", player)
    assert not daily_was_shown(store, "klondike", "2026-01-02", "p-else")
    removed = delete_player(store, player)
    assert removed["games"] == 1 and removed["player_tokens"] == 2 and removed["players"] == 1
    assert player_of_token(store, token) is None
    assert not daily_was_shown(store, "klondike", "2026-01-02", player)


def test_a_secret_is_made_once_and_kept(opener: Opener) -> None:
    first = server_secret(opener(), "daily")
    assert len(first) == 32 and server_secret(opener(), "daily") == first


def test_two_processes_taking_turns_keep_every_move(opener: Opener) -> None:
    stores = [opener(), opener()]
    reference = kabale.Game.new("klondike", seed=9)
    stores[0].add("g", kabale.Game.new("klondike", seed=9), player="p-a")
    for turn in range(20):
        store = stores[turn % 2]
        stored = store.load("g", player="p-a")
        assert stored.game.to_json() == reference.to_json()
        move = reference.legal_moves()[turn % len(reference.legal_moves())]
        stored.game.play(move.explicit())
        reference.play(move)
        store.save("g", stored.game, "playing", float(turn), rev=stored.rev)
    final = stores[0].load("g")
    assert final.game.moves_made == 20 and final.rev == 20


def test_the_schema_version_is_kept_and_a_newer_one_refused(opener: Opener,
                                                            request: pytest.FixtureRequest,
                                                            tmp_path: Path) -> None:
    store = opener()
    if isinstance(store, GameStore) and type(store) is GameStore:
        import sqlite3

        with sqlite3.connect(tmp_path / "k.db") as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
            conn.execute("PRAGMA user_version=7")
    else:
        with store._tx() as conn:
            assert conn.execute("SELECT version FROM kabale_schema").fetchone()[0] == \
                SCHEMA_VERSION
            conn.execute("UPDATE kabale_schema SET version=7")
    with pytest.raises(NewerSchemaError, match="schema version 7, newer than this kabale"):
        opener()


def test_idle_players_are_forgotten_and_seen_ones_kept(opener: Opener) -> None:
    store = opener()
    old, old_token = new_player(store, now=1_000.0)
    fresh, fresh_token = new_player(store, now=1_000.0)
    store.add("g", kabale.Game.new("klondike", seed=2), player=old)
    day = 24 * 3600.0
    assert player_of_token(store, fresh_token, now=1_000.0 + 300 * day) == fresh  # seen now
    assert forget_idle_players(store, 200 * day, now=1_000.0 + 300 * day) == 1
    assert player_of_token(store, old_token) is None and store.owner("g") is None
    assert player_of_token(store, fresh_token) == fresh
    assert store.stats_all("local")["played"] == 0  # the local player stays


def test_the_daily_board_reads_the_same_on_both(opener: Opener) -> None:
    import datetime as dt

    from kabale.storage.leaderboard import daily_board
    from kabale.storage.players import set_nickname

    store = opener()
    (ann, _), (bob, _) = new_player(store), new_player(store)
    set_nickname(store, ann, "Ann")
    for game_id, player, moves, seconds in (("a", ann, 3, 50.0), ("b", bob, 2, 80.0)):
        game = kabale.Game.new("klondike", seed=3)
        for _ in range(moves):
            game.play(game.legal_moves()[0])
        store.add(game_id, game, player=player, daily="2026-12-07")
        store.save(game_id, game, "won", seconds)
    board = daily_board(opener(), "klondike", dt.date(2026, 12, 7), ann)
    assert [(e["rank"], e["nickname"], e["moves"]) for e in board["entries"]] == [
        (1, None, 2), (2, "Ann", 3)]
    assert board["me"]["rank"] == 2


def test_an_unreachable_postgresql_is_named_without_its_password() -> None:
    import socket

    from kabale.core.errors import KabaleError
    from kabale.storage.pg import PgStore

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens there once closed
    with pytest.raises(KabaleError) as error:
        PgStore(f"postgresql://kabale:hunter2@127.0.0.1:{port}/site")
    assert f"cannot open game database postgresql://127.0.0.1:{port}/site: " in str(error.value)
    assert "hunter2" not in str(error.value) and "\n" not in str(error.value)


def test_a_rate_limit_bucket_is_shared_by_every_process(opener: Opener) -> None:
    """Two stores (two server processes) take from one bucket of 3 a minute: 3 requests at
    once pass whichever process takes them, the 4th waits the 20 s until one is back; a
    refused request takes nothing, and a bucket of no limit never refuses."""
    one, two = opener(), opener()
    now = 1_000_000.0
    assert [take(store, [("b", 3)], now) for store in (one, two, one)] == [0.0, 0.0, 0.0]
    assert take(two, [("b", 3)], now) == pytest.approx(20.0)
    assert take(one, [("b", 3)], now + 5) == pytest.approx(15.0)  # the refusal took nothing
    assert take(two, [("b", 3)], now + 20) == 0.0
    assert take(one, [("b", 3), ("other", 100)], now + 20) == pytest.approx(20.0)
    assert take(one, [("other", 100), ("free", 0)], now + 20) == 0.0  # 'other' was taken from
    assert take(two, [("b", 3)], now + 1000) == 0.0  # full again long after
    assert forget_full(one, now + 1000) == 1  # only 'other' was full again: 'b' just taken
    assert forget_full(two, now + 2000) == 1


def test_racing_processes_never_take_more_than_the_bucket_holds(opener: Opener) -> None:
    """Eight threads over two stores take from one bucket of 10 at the same moment, 40
    times in all: exactly 10 pass (the database orders the takes)."""
    from concurrent.futures import ThreadPoolExecutor

    stores = [opener(), opener()]
    name = bucket_name(b"k" * 32, "moves", "p:token")
    with ThreadPoolExecutor(8) as pool:
        waits = list(pool.map(lambda i: take(stores[i % 2], [(name, 10)], 5_000.0), range(40)))
    assert sum(wait == 0.0 for wait in waits) == 10
    assert all(wait == pytest.approx(6.0) for wait in waits if wait)


def test_a_schema_3_database_is_upgraded_to_4_with_its_games(opener: Opener,
                                                            tmp_path: Path) -> None:
    """A database as kabale of schema 3 left it (no rate_limits) is upgraded on opening:
    its games are kept and the limits work."""
    store = opener()
    store.add("g", kabale.Game.new("klondike", seed=3), player="p-a")
    if type(store) is GameStore:
        import sqlite3

        store.close()
        with sqlite3.connect(tmp_path / "k.db") as conn:
            conn.execute("DROP TABLE rate_limits")
            conn.execute("PRAGMA user_version=3")
    else:
        with store._tx() as conn:
            conn.execute("DROP TABLE rate_limits")
            conn.execute("UPDATE kabale_schema SET version=3")
    again = opener()
    assert again.load("g", player="p-a").game.deal_id == "klondike#3"
    assert take(again, [("b", 1)], 10.0) == 0.0
    assert take(again, [("b", 1)], 10.0) == pytest.approx(60.0)
    with again._reading() as conn:
        version = (conn.execute("PRAGMA user_version") if type(again) is GameStore
                   else conn.execute("SELECT version FROM kabale_schema")).fetchone()[0]
    assert version == SCHEMA_VERSION == 6
    if type(again) is not GameStore:  # no disk flush for a bucket: a crash only refills them
        with again._reading() as conn:
            assert conn.execute("SELECT relpersistence FROM pg_class WHERE"
                                " relname='rate_limits'").fetchone()[0] == "u"


def test_a_schema_4_database_is_upgraded_to_5_with_its_games_and_limits(
        opener: Opener, tmp_path: Path) -> None:
    """A database as kabale of schema 4 left it (no help control) is upgraded on opening:
    its games and rate-limit buckets are kept, and the help control works on it."""
    store = opener()
    store.add("g", kabale.Game.new("klondike", seed=3), player="p-a")
    assert take(store, [("b", 1)], 10.0) == 0.0
    if type(store) is GameStore:
        import sqlite3

        store.close()
        with sqlite3.connect(tmp_path / "k.db") as conn:
            for table in ("help_marks", "help_reviews"):
                conn.execute(f"DROP TABLE {table}")
            conn.execute("ALTER TABLE games DROP COLUMN help_until")
            conn.execute("PRAGMA user_version=4")
    else:
        with store._tx() as conn:
            for table in ("help_marks", "help_reviews"):
                conn.execute(f"DROP TABLE {table}")
            conn.execute("ALTER TABLE games DROP COLUMN help_until")
            conn.execute("UPDATE kabale_schema SET version=4")
    again = opener()
    assert again.load("g", player="p-a").game.deal_id == "klondike#3"
    assert take(again, [("b", 1)], 10.0) == pytest.approx(60.0)  # the bucket was kept
    assert helpstate.owner_help(again, "g") == ("p-a", 0, 0.0)
    with again._reading() as conn:
        version = (conn.execute("PRAGMA user_version") if type(again) is GameStore
                   else conn.execute("SELECT version FROM kabale_schema")).fetchone()[0]
    assert version == SCHEMA_VERSION == 6


def test_the_help_control_is_shared_by_every_process(opener: Opener) -> None:
    """What one process writes of the help (a game's help in flight, a cancellation, a
    review's progress and result) another one reads; a review is claimed once."""
    one, two = opener(), opener()
    one.add("g", kabale.Game.new("klondike", seed=3), player="p-a")
    who = helpstate.who_of(b"k" * 32, "p-a")
    assert who != helpstate.who_of(b"j" * 32, "p-a") and "p-a" not in who
    helpstate.help_asked(one, "g", 130.0)
    helpstate.help_asked(one, "g", 120.0)  # an earlier deadline changes nothing
    assert helpstate.owner_help(two, "g") == ("p-a", 0, 130.0)
    helpstate.help_over(two, "g", 120.0)  # a later deadline was written since: kept
    assert helpstate.owner_help(one, "g") == ("p-a", 0, 130.0)
    helpstate.help_over(two, "g", 130.0)
    assert helpstate.owner_help(one, "g") == ("p-a", 0, 0.0)
    assert one.owner("g") == ("p-a", 0)  # the revision is not raised
    mark = helpstate.Mark(who, "g", helpstate.position_digest("1>2"), "left", "moved",
                          "proc-two", 100.0)
    helpstate.add_mark(two, mark)
    helpstate.add_mark(two, helpstate.Mark(who, "", None, "gone", "deleted", "proc-one", 101.0))
    assert helpstate.marks_since(one, [who], 100.0, "proc-one") == [mark]
    assert helpstate.marks_since(one, [who], 100.5, "proc-one") == []
    assert helpstate.marks_since(one, ["someone"], 0.0) == []
    # a review: claimed once, its progress and result read by the other process
    assert helpstate.claim_review(one, "g", who, 5, until=1e12)
    assert not helpstate.claim_review(two, "g", who, 5, until=1e12)
    assert helpstate.running_reviews(two, who) == ["g"]
    helpstate.review_progress(one, "g", 2, 5)
    assert helpstate.read_review(two, "g", now=200.0) == {
        "state": "running", "done": 2, "total": 5, "review": None, "error": None,
        "code": None}
    assert helpstate.review_asked(one, "g") >= 200.0
    helpstate.review_ended(one, "g", {"accuracy": 0.5})
    assert helpstate.read_review(two, "g")["review"] == {"accuracy": 0.5}
    assert not helpstate.claim_review(two, "g", who, 5, until=1e12)  # done: kept
    helpstate.review_ended(one, "g", error="late", code="cancelled")  # done stays done
    assert helpstate.read_review(two, "g")["state"] == "done"
    # a failed one is claimed afresh; one whose process stopped reads as lost
    helpstate.claim_review(one, "h", who, 3, until=1e12)
    helpstate.review_ended(one, "h", error="stopped", code="cancelled")
    assert helpstate.read_review(two, "h")["code"] == "cancelled"
    assert helpstate.claim_review(two, "h", who, 3, until=50.0, now=40.0)
    assert helpstate.read_review(one, "h", now=60.0)["code"] == "worker_lost"
    assert helpstate.claim_review(one, "h", who, 3, until=1e12)
    assert helpstate.forget_reviews(two, who) == 2
    assert helpstate.read_review(one, "g") is None
    assert helpstate.forget_old(one, now=100.0 + helpstate.MARKS_KEPT + 0.5) == 1


def test_a_schema_5_database_is_upgraded_to_6_with_its_help_control(
        opener: Opener, tmp_path: Path) -> None:
    """A database as kabale of schema 5 left it (no jobs in flight table) is upgraded on
    opening: its games, marks and reviews are kept, and the jobs' bound works on it."""
    store = opener()
    store.add("g", kabale.Game.new("klondike", seed=3), player="p-a")
    helpstate.add_mark(store, helpstate.Mark("w", "g", None, "left", "moved", "o", 100.0))
    assert helpstate.claim_review(store, "g", "w", 5, until=1e12)
    if type(store) is GameStore:
        import sqlite3

        store.close()
        with sqlite3.connect(tmp_path / "k.db") as conn:
            conn.execute("DROP TABLE help_jobs")
            conn.execute("DROP TABLE help_answers")
            conn.execute("PRAGMA user_version=5")
    else:
        with store._tx() as conn:
            conn.execute("DROP TABLE help_jobs")
            conn.execute("DROP TABLE help_answers")
            conn.execute("UPDATE kabale_schema SET version=5")
    again = opener()
    assert again.load("g", player="p-a").game.deal_id == "klondike#3"
    assert [m.why for m in helpstate.marks_since(again, ["w"], 0.0)] == ["moved"]
    assert helpstate.running_reviews(again, "w") == ["g"]
    assert helpstate.take_job(again, "w", "j", "hint", "play", "g", "p", "o", 1e12, 3) == ""
    assert helpstate.jobs_in_flight(again, "w") == 1
    helpstate.keep_answer(again, "n", "hint", "{}", 1e12)
    assert helpstate.read_answer(again, "n") == "{}"
    with again._reading() as conn:
        version = (conn.execute("PRAGMA user_version") if type(again) is GameStore
                   else conn.execute("SELECT version FROM kabale_schema")).fetchone()[0]
    assert version == SCHEMA_VERSION == 6


def test_a_players_jobs_in_flight_are_bounded_in_every_process(opener: Opener) -> None:
    """The bound per player counts the jobs of every process together; the same job asked
    through two processes counts once; a row past its deadline counts for nothing."""
    one, two = opener(), opener()

    def take(store: GameStore, job: str, origin: str, kind: str = "hint", who: str = "w",
             now: float = 10.0, kind_most: int | None = None, expires: float = 100.0
             ) -> str:
        lane = "review" if kind == "review" else "play"
        return helpstate.take_job(store, who, job, kind, lane, "g", "p1", origin,
                                  expires=expires, most=3, most_of_kind=kind_most, now=now)

    assert take(one, "j1", "A") == ""
    assert take(two, "j2", "B") == ""
    assert take(two, "j1", "B") == ""  # j1 again, through B: the same job
    assert helpstate.jobs_in_flight(one, "w", now=10.0) == 2
    assert take(one, "r1", "A", "review", kind_most=1) == ""
    assert take(two, "j3", "B") == "all"  # j1, j2, r1 in flight
    assert take(two, "j1", "B") == ""  # one already counted is not refused
    assert take(two, "j3", "B", who="x") == ""  # another player's bound is their own
    helpstate.job_over(two, "w", "j2", "B")
    assert take(one, "r2", "A", "review", kind_most=1) == "kind"  # one review at a time
    assert take(one, "j3", "A") == ""
    assert take(two, "j4", "B") == "all"
    # j1 ends in A, but B still runs it: still counted
    helpstate.job_over(one, "w", "j1", "A")
    assert take(two, "j4", "B") == "all"
    helpstate.job_over(two, "w", "j1", "B")
    assert take(two, "j4", "B") == ""
    # a killed process's rows count until their deadline, then for nothing, and are swept
    assert take(two, "j5", "B", now=99.0) == "all"
    assert take(two, "j5", "B", now=100.5, expires=200.0) == ""
    assert helpstate.jobs_in_flight(one, "w", now=100.5) == 1
    assert helpstate.forget_old(one, now=100.5) >= 1
    with one._reading() as conn:
        left = conn.execute("SELECT who, job FROM help_jobs ORDER BY who, job").fetchall()
    assert [tuple(row) for row in left] == [("w", "j5")]


def test_a_mark_frees_the_bound_of_the_jobs_it_stops(opener: Opener) -> None:
    """A cancellation mark deletes the rows of the jobs it stops, whichever process runs
    them: ``left`` a game's other positions (or all), ``started`` the player's help in play
    and reviews of other games, ``gone`` everything of the player's."""
    one, two = opener(), opener()
    rows = [("h1", "hint", "play", "g1", "p1"), ("h2", "hint", "play", "g1", "p2"),
            ("c1", "chance", "play", "g2", "p1"), ("r1", "review", "review", "g3", "p9"),
            ("m1", "postmortem", "heavy", "g4", "p9")]
    for job, kind, lane, game, pos in rows:
        assert helpstate.take_job(one, "w", job, kind, lane, game, pos, "A", 1e12, 9) == ""
    helpstate.take_job(one, "x", "h1", "hint", "play", "g1", "p2", "A", 1e12, 9)

    def jobs(who: str = "w") -> set[str]:
        with one._reading() as conn:
            return {r[0] for r in conn.execute("SELECT job FROM help_jobs WHERE who=?",
                                               (who,))}

    def mark(scope: str, game: str = "", pos: str | None = None) -> int:
        return helpstate.marked_jobs_over(
            two, helpstate.Mark("w", game, pos, scope, "why", "B", 1.0), ("play", "review"))

    assert mark("left", "g1", "p2") == 1 and jobs() == {"h2", "c1", "r1", "m1"}
    assert mark("started", "g1") == 2 and jobs() == {"h2", "m1"}
    assert mark("left", "g4", None) == 1 and jobs() == {"h2"}
    assert mark("gone") == 1 and jobs() == set() and jobs("x") == {"h1"}


def test_a_players_bound_holds_when_processes_ask_at_once(opener: Opener) -> None:
    """The count and the write are one transaction: four processes asking at once for
    eight different jobs of one player get exactly three counted."""
    import threading

    stores = [opener() for _ in range(4)]
    barrier = threading.Barrier(8)
    answers: list[str] = []

    def ask(i: int) -> None:
        barrier.wait()
        answers.append(helpstate.take_job(stores[i % 4], "w", f"j{i}", "hint", "play", "g",
                                          "p", f"origin{i % 4}", 1e12, 3))

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == ["", "", "", "all", "all", "all", "all", "all"]
    assert helpstate.jobs_in_flight(stores[0], "w") == 3


def test_answers_are_kept_for_every_process_until_they_expire(opener: Opener) -> None:
    one, two = opener(), opener()
    helpstate.keep_answer(one, "n1", "hint", '{"move": "3>f"}', expires=100.0)
    assert helpstate.read_answer(two, "n1", now=99.0) == '{"move": "3>f"}'
    assert helpstate.read_answer(two, "n2", now=99.0) is None
    helpstate.keep_answer(two, "n1", "hint", '{"move": "1>f"}', expires=200.0)  # again
    assert helpstate.read_answer(one, "n1", now=150.0) == '{"move": "1>f"}'
    assert helpstate.read_answer(one, "n1", now=200.5) is None
    assert helpstate.forget_old(one, now=200.5) == 1
    helpstate.keep_answer(two, "n1", "hint", "{}", expires=300.0)  # kept again after
    assert helpstate.read_answer(one, "n1", now=250.0) == "{}"
