"""Players of a hosted server: anonymous, known by a random token the browser keeps.

A player is a random id. The browser holds a token (32 random bytes, URL-safe) in a cookie;
the database keeps only its SHA-256, so a copy of the database (a backup, a leak) gives
nobody a way to act as a player. A player may hold several tokens (one per device): a
one-time transfer code, made on one device and typed on another, gives the second device a
token of its own for the same player. The code, too, is kept only as its SHA-256, lives
:data:`TRANSFER_SECONDS`, and works once.

Deleting a player removes every row of theirs: games, tokens, codes, the daily deals they
were shown, and the player row with its nickname.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import string
import time
from typing import TYPE_CHECKING

from kabale.core.errors import KabaleError
from kabale.storage.migrate import LOCAL_PLAYER

if TYPE_CHECKING:
    from kabale.storage.db import GameStore

TRANSFER_SECONDS = 15 * 60
#: a transfer code: 12 letters and digits without look-alikes, shown as XXXX-XXXX-XXXX
CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "01IO")
CODE_LENGTH = 12
NICKNAME_MAX = 24
SETTINGS_MAX = 30
#: how often a player's ``seen`` time is written (seconds)
SEEN_EVERY = 24 * 3600
#: a player not seen this long is forgotten by forget_idle_players (the cookie's life)
IDLE_SECONDS = 400 * 24 * 3600


class TransferCodeError(KabaleError):
    """A transfer code that is unknown, used already or expired."""


def digest(secret: str) -> str:
    """The hex SHA-256 of a token or code: all the database keeps of it."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_player(store: GameStore, now: float | None = None) -> tuple[str, str]:
    """Make a player with one token; returns (player id, token). Only the token's digest is
    stored: the token itself goes to the browser and nowhere else."""
    now = time.time() if now is None else now
    player, token = "p-" + secrets.token_urlsafe(12), secrets.token_urlsafe(32)
    with store._tx() as conn:
        conn.execute("INSERT INTO players (id, created, seen) VALUES (?, ?, ?)",
                     (player, now, now))
        conn.execute("INSERT INTO player_tokens (hash, player, created) VALUES (?, ?, ?)",
                     (digest(token), player, now))
    return player, token


def player_of_token(store: GameStore, token: str | None, now: float | None = None
                    ) -> str | None:
    """The player whose token this is, or None (no token, unknown, or deleted). The
    player's ``seen`` time is brought up to date once a day (it decides when an idle
    player is forgotten: :func:`forget_idle_players`)."""
    if not token or len(token) > 100:
        return None
    now = time.time() if now is None else now
    with store._reading() as conn:
        row = conn.execute("SELECT t.player, p.seen FROM player_tokens t JOIN players p"
                           " ON p.id = t.player WHERE t.hash=?", (digest(token),)).fetchone()
    if row is None:
        return None
    if row[1] < now - SEEN_EVERY:
        with store._tx() as conn:
            conn.execute("UPDATE players SET seen=? WHERE id=?", (now, row[0]))
    return str(row[0])


def forget_idle_players(store: GameStore, idle_seconds: float = IDLE_SECONDS,
                        now: float | None = None) -> int:
    """Delete every player not seen for ``idle_seconds`` (default: the cookie's life, 400
    days), with all their rows (:func:`delete_player`); the local player is kept. Returns
    how many were deleted. For a site's nightly job (docs/deploy.md)."""
    now = time.time() if now is None else now
    with store._reading() as conn:
        idle = [str(r[0]) for r in conn.execute(
            "SELECT id FROM players WHERE seen < ? AND id <> ?",
            (now - idle_seconds, LOCAL_PLAYER)).fetchall()]
    for player in idle:
        delete_player(store, player)
    return len(idle)


def make_transfer_code(store: GameStore, player: str, now: float | None = None
                       ) -> tuple[str, float]:
    """A new one-time code that gives another device ``player``; returns (code, expiry
    time). Earlier codes of the player stop working (one at a time)."""
    now = time.time() if now is None else now
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    expires = now + TRANSFER_SECONDS
    with store._tx() as conn:
        conn.execute("DELETE FROM transfer_codes WHERE player=? OR expires<?", (player, now))
        conn.execute("INSERT INTO transfer_codes (hash, player, expires) VALUES (?, ?, ?)",
                     (digest(code), player, expires))
    return "-".join(code[i:i + 4] for i in range(0, CODE_LENGTH, 4)), expires


def normal_code(text: str) -> str:
    """A transfer code as typed (any case, dashes and spaces) in its stored form."""
    return "".join(c for c in text.upper() if c not in "- ")


def redeem_transfer_code(store: GameStore, code: str, now: float | None = None
                         ) -> tuple[str, str]:
    """Use a transfer code once: returns (player id, a new token for this device).
    TransferCodeError (naming nothing of the player) when it is unknown, used or expired."""
    now = time.time() if now is None else now
    wanted = normal_code(code)
    refusal = TransferCodeError("that transfer code is unknown, used already or expired; "
                                "make a new one on the other device")
    if len(wanted) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in wanted):
        raise refusal
    token = secrets.token_urlsafe(32)
    with store._tx() as conn:
        row = conn.execute("SELECT player, expires FROM transfer_codes WHERE hash=?",
                           (digest(wanted),)).fetchone()
        if row is None:
            raise refusal
        # Used once: of two servers redeeming it at once, only the one whose DELETE took
        # the row goes on (PostgreSQL's row lock makes the other's DELETE find nothing).
        if conn.execute("DELETE FROM transfer_codes WHERE hash=?",
                        (digest(wanted),)).rowcount != 1:
            raise refusal
        player = str(row[0])
        if row[1] < now or conn.execute("SELECT 1 FROM players WHERE id=?",
                                        (player,)).fetchone() is None:
            raise refusal
        conn.execute("INSERT INTO player_tokens (hash, player, created) VALUES (?, ?, ?)",
                     (digest(token), player, now))
    return player, token


def delete_player(store: GameStore, player: str) -> dict[str, int]:
    """Remove every row of ``player`` (see the module docstring); how many of each went."""
    removed: dict[str, int] = {}
    with store._tx() as conn:
        for table, column in (("games", "player"), ("player_tokens", "player"),
                              ("transfer_codes", "player"), ("shown_daily", "player"),
                              ("players", "id")):
            removed[table] = conn.execute(f"DELETE FROM {table} WHERE {column}=?",
                                          (player,)).rowcount
    return removed


def check_nickname(text: object) -> str:
    """A nickname as stored: 1..NICKNAME_MAX printable characters, no markup (< > & " '
    and control characters refused), spaces trimmed. KabaleError saying what is valid."""
    if not isinstance(text, str):
        raise KabaleError(f"nickname must be text, not {type(text).__name__}")
    name = " ".join(text.split())
    if not 1 <= len(name) <= NICKNAME_MAX:
        raise KabaleError(f"nickname must be 1 to {NICKNAME_MAX} characters, not {len(name)}")
    bad = sorted({c for c in name if not c.isprintable() or c in "<>&\"'`\\"})
    if bad:
        raise KabaleError(f"nickname may not hold {bad!r}: letters, digits, spaces and "
                          "punctuation other than < > & \" ' ` \\ are allowed")
    return name


def set_nickname(store: GameStore, player: str, name: str | None) -> None:
    """Set (or with None clear) the player's nickname on the leaderboards."""
    with store._tx() as conn:
        conn.execute("UPDATE players SET nickname=? WHERE id=?", (name, player))


def check_settings(value: object) -> dict[str, str | bool | int]:
    """The page's settings as stored: an object of at most SETTINGS_MAX entries, each a
    name of at most 20 letters and a true/false, a whole number or a text of at most 20
    characters. KabaleError saying what is wrong."""
    if not isinstance(value, dict) or len(value) > SETTINGS_MAX:
        raise KabaleError(f"settings must be an object of at most {SETTINGS_MAX} entries")
    for name, item in value.items():
        if not (isinstance(name, str) and name.isascii() and name.isalnum()
                and len(name) <= 20):
            raise KabaleError(f"bad setting name {name!r}: up to 20 letters and digits")
        good = (isinstance(item, bool) or (isinstance(item, int) and abs(item) < 10**6)
                or (isinstance(item, str) and len(item) <= 20 and item.isprintable()))
        if not good:
            raise KabaleError(f"bad value of setting {name!r}: true/false, a whole number or "
                              "a short text")
    return dict(value)


def set_settings(store: GameStore, player: str, settings: dict[str, str | bool | int]
                 ) -> None:
    """Keep the page's settings for the player (they travel with a transfer code)."""
    with store._tx() as conn:
        conn.execute("UPDATE players SET settings=? WHERE id=?",
                     (json.dumps(settings, sort_keys=True), player))


def player_info(store: GameStore, player: str) -> dict[str, object]:
    """What the player may read about themself: nickname, since when, how many games,
    the page's settings."""
    with store._reading() as conn:
        row = conn.execute("SELECT created, nickname, settings FROM players WHERE id=?",
                           (player,)).fetchone()
        games = conn.execute("SELECT COUNT(*) FROM games WHERE player=?",
                             (player,)).fetchone()[0]
    if row is None:
        return {"nickname": None, "created": None, "games": 0, "settings": {}}
    try:
        settings = json.loads(row[2])
    except ValueError:
        settings = {}
    return {"nickname": row[1], "created": row[0], "games": int(games),
            "settings": settings if isinstance(settings, dict) else {}}
