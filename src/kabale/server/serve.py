"""`kabale serve`: kabale hosted for many players (issue 44; docs/deploy.md).

Beside `kabale play` (one person, a loopback address, one process), this binds any address,
answers only to the host names it is given, knows each player by a cookie (server.site), and
can run several uvicorn web workers sharing one SQLite file in WAL mode. Settings come from
flags, else from ``KABALE_*`` environment variables (see :data:`ENVIRONMENT`), else
defaults.

One SQLite file, several workers: the parent process takes the database's single-server
lock (storage.lock) and holds it while its workers run, so `kabale play` or another
`kabale serve` on the same file is still refused, while the workers, its children, share
the file. Each worker caches live games but checks a game's revision before every request
(server.games.GameService.fetch), and every write is made only over the revision it read,
so a move through one worker is seen by the next request through another, and two moves
that race are never both written over one position.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import sys
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

from kabale.core.errors import KabaleError

#: the environment variable of each setting (a flag, when given, wins)
ENVIRONMENT = {
    "db": "KABALE_DB", "host": "KABALE_HOST", "port": "KABALE_PORT",
    "allowed_hosts": "KABALE_ALLOWED_HOSTS", "origins": "KABALE_ORIGINS",
    "public_origin": "KABALE_PUBLIC_ORIGIN", "workers": "KABALE_WORKERS",
    "advice_workers": "KABALE_ADVICE_WORKERS", "limits": "KABALE_LIMITS",
    "effort": "KABALE_EFFORT", "forwarded_allow_ips": "KABALE_FORWARDED_ALLOW_IPS",
}
#: the operator's token (``GET /api/help``'s engine counters): from the environment only, for
#: a flag's value is in every process listing
OPERATOR_TOKEN_ENV = "KABALE_OPERATOR_TOKEN"
#: the fewest characters an operator token may have (a guessable one is refused at start)
OPERATOR_TOKEN_MIN = 20
#: how the workers (other processes) learn the settings
_HANDOVER = "KABALE_SERVE_SETTINGS"
LIMIT_NAMES = ("games", "moves", "help", "transfer", "per_address")
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


@dataclass(slots=True)
class Settings:
    """Everything `kabale serve` needs, checked (:func:`settings`)."""

    db: str
    host: str = "127.0.0.1"
    port: int = 8000
    allowed_hosts: list[str] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)
    public_origin: str | None = None
    workers: int = 1
    advice_workers: int = 2
    limits: dict[str, int] = field(default_factory=dict)
    effort: str = "quick"
    forwarded_allow_ips: str = "127.0.0.1"
    operator_token: str | None = None


def configure(parser: argparse.ArgumentParser) -> None:
    """The flags of `kabale serve` (each also read from its KABALE_* variable)."""
    add = parser.add_argument
    add("--db", help="database: a SQLite file path or sqlite:///PATH (KABALE_DB)")
    add("--host", help="address to bind, e.g. 0.0.0.0 (default 127.0.0.1; KABALE_HOST)")
    add("--port", type=int, help="port (default 8000; KABALE_PORT)")
    add("--allowed-host", action="append", dest="allowed_hosts", metavar="NAME",
        help="a host name players reach this server by (repeat; KABALE_ALLOWED_HOSTS=a,b)")
    add("--origin", action="append", dest="origins", metavar="ORIGIN",
        help="another origin whose pages may call the API (repeat; KABALE_ORIGINS)")
    add("--public-origin", help="the address players open, e.g. https://cards.example "
        "(cookies are Secure when https; KABALE_PUBLIC_ORIGIN)")
    add("--workers", type=int, help="web worker processes (default 1; KABALE_WORKERS)")
    add("--advice-workers", type=int,
        help="hint/chance/bot processes per web worker (default 2; KABALE_ADVICE_WORKERS)")
    add("--limits", help="requests per minute per player, e.g. games=30,moves=600,help=60,"
        "transfer=10,per_address=5 (an address: per_address times a player's; KABALE_LIMITS)")
    add("--effort", choices=["quick", "normal", "strong"], help="the advisor's effort")
    add("--forwarded-allow-ips", help="proxies whose X-Forwarded-For is trusted "
        "(default 127.0.0.1; KABALE_FORWARDED_ALLOW_IPS)")


def _pick(args: argparse.Namespace, name: str, environ: dict[str, str]) -> Any:
    value = getattr(args, name, None)
    if value is None or value == []:
        value = environ.get(ENVIRONMENT[name]) or None
    return value


def _whole(value: Any, name: str, low: int, high: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise KabaleError(f"bad {name} {value!r}: a whole number {low}..{high}") from None
    if not low <= number <= high:
        raise KabaleError(f"bad {name} {value!r}: a whole number {low}..{high}")
    return number


def _list(value: Any) -> list[str]:
    items = value if isinstance(value, list) else str(value or "").split(",")
    return [item.strip() for item in items if item.strip()]


def parse_limits(text: str | None) -> dict[str, int]:
    """``games=30,moves=600`` as a dict; KabaleError naming the bad part and what is valid."""
    limits: dict[str, int] = {}
    for part in _list(text):
        name, sep, number = part.partition("=")
        if not sep or name.strip() not in LIMIT_NAMES:
            raise KabaleError(f"bad --limits part {part!r}: give NAME=N with NAME one of "
                              f"{', '.join(LIMIT_NAMES)}")
        limits[name.strip()] = _whole(number.strip(), f"--limits {name.strip()}", 0, 10**6)
    return limits


def check_origin(value: str, name: str) -> str:
    """An origin ``scheme://host[:port]`` without a path; KabaleError otherwise."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/") \
            or parts.query or parts.fragment:
        raise KabaleError(f"bad {name} {value!r}: an origin like https://cards.example "
                          "(scheme and host, no path)")
    return f"{parts.scheme}://{parts.netloc.lower()}"


def database_path(url: str) -> str:
    """The database a --db value names: a postgresql:// URL as it is, else a SQLite file
    path; KabaleError for anything else."""
    if url.startswith(("postgresql://", "postgres://")):
        return url  # storage.pg
    if url.startswith("sqlite:///"):
        return url[len("sqlite://"):]
    if "://" in url:
        raise KabaleError(f"bad --db {url.split('://')[0]}://...: a SQLite file path, "
                          "sqlite:///PATH or postgresql://USER@HOST/DATABASE")
    return url


def check_operator_token(token: str | None) -> str | None:
    """``token`` if it is None or long enough and printable ASCII without spaces (it travels
    in an HTTP header); KabaleError naming the variable otherwise."""
    if token is None:
        return None
    if len(token) < OPERATOR_TOKEN_MIN or not (token.isascii() and token.isprintable()) \
            or " " in token:
        raise KabaleError(f"bad {OPERATOR_TOKEN_ENV}: at least {OPERATOR_TOKEN_MIN} printable "
                          "ASCII characters without spaces (e.g. from `openssl rand -hex 24`)")
    return token


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def settings(args: argparse.Namespace, environ: dict[str, str] | None = None) -> Settings:
    """The checked settings from flags, then KABALE_* variables, then defaults."""
    env = dict(os.environ if environ is None else environ)
    from kabale.storage.db import default_db_path

    db = _pick(args, "db", env)
    out = Settings(db=database_path(str(db)) if db else str(default_db_path()))
    out.host = str(_pick(args, "host", env) or out.host)
    port = _pick(args, "port", env)
    out.port = _whole(out.port if port is None else port, "--port", 0, 65535)
    workers = _pick(args, "workers", env)
    out.workers = _whole(1 if workers is None else workers, "--workers", 1, 64)
    advice = _pick(args, "advice_workers", env)
    out.advice_workers = _whole(2 if advice is None else advice, "--advice-workers", 1, 64)
    out.limits = parse_limits(_pick(args, "limits", env))
    out.effort = str(_pick(args, "effort", env) or "quick")
    if out.effort not in ("quick", "normal", "strong"):
        raise KabaleError(f"bad effort {out.effort!r}: quick, normal or strong")
    out.forwarded_allow_ips = str(_pick(args, "forwarded_allow_ips", env) or "127.0.0.1")
    out.operator_token = check_operator_token(env.get(OPERATOR_TOKEN_ENV) or None)
    public = _pick(args, "public_origin", env)
    out.public_origin = check_origin(str(public), "--public-origin") if public else None
    out.origins = [check_origin(o, "--origin") for o in _list(_pick(args, "origins", env))]
    hosts = [h.lower() for h in _list(_pick(args, "allowed_hosts", env))]
    if not hosts and out.public_origin:
        hosts = [urlsplit(out.public_origin).hostname or ""]
    if not hosts:
        if not is_loopback(out.host):
            raise KabaleError(f"kabale serve on {out.host} needs the host names players use: "
                              "give --allowed-host NAME (or --public-origin URL)")
        hosts = list(LOOPBACK_NAMES)
    out.allowed_hosts = hosts
    return out


def site_of(config: Settings) -> Any:
    """The server.site.Site of these settings."""
    from kabale.server.site import Limits, Site

    return Site(allowed_hosts=tuple(config.allowed_hosts), origins=tuple(config.origins),
                public_origin=config.public_origin, limits=Limits(**config.limits),
                operator_token=config.operator_token)


def worker_app() -> Any:
    """The app of one web worker (uvicorn's factory), from the settings the parent left in
    the environment; it shares the help's control with the others when there are several
    web workers or the database is PostgreSQL (other servers may share it)."""
    from kabale.server.app import create_app
    from kabale.storage.pg import is_postgres_url

    config = Settings(**json.loads(os.environ[_HANDOVER]))
    # several web processes on one database share the help's control (server.helpshare)
    return create_app(config.db, effort=config.effort,
                      site=site_of(config), advice_workers=config.advice_workers,
                      shared_help=config.workers > 1 or is_postgres_url(config.db))


def describe(config: Settings, port: int) -> list[str]:
    """The lines `kabale serve` prints: what it serves, where, and, when it listens beyond
    this machine without https in front, how to put it behind a TLS proxy."""
    shown = f"[{config.host}]" if ":" in config.host else config.host
    from kabale.storage.pg import is_postgres_url, redacted

    db = redacted(config.db) if is_postgres_url(config.db) else config.db
    lines = [f"kabale serve: http://{shown}:{port}/ for {', '.join(config.allowed_hosts)}"
             f"{' (public origin ' + config.public_origin + ')' if config.public_origin else ''}"
             f"; database {db}; {config.workers} web worker(s), "
             f"{config.advice_workers} advice worker(s) each; Ctrl+C stops"]
    https = bool(config.public_origin and config.public_origin.startswith("https://"))
    if not is_loopback(config.host) and not https:
        lines.append("kabale serve: without TLS player cookies travel in clear: put it behind "
                     "a reverse proxy with https (docs/deploy.md) and give --public-origin "
                     "https://NAME")
    return lines


def main(args: argparse.Namespace) -> int:
    """Serve until interrupted; KabaleError for bad settings, a database in use or one that
    cannot be opened, before anything is served."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from kabale.server.connections import KEEP_ALIVE_SECONDS, MAX_HEAD, DeadlineH11Protocol
    from kabale.storage.lock import ServerLock
    from kabale.storage.pg import is_postgres_url, open_store
    from kabale.storage.secret import server_secret

    config = settings(args)
    postgres = is_postgres_url(config.db)
    # One SQLite file: this process holds its lock while its workers (its children) use
    # it; anyone else is refused. PostgreSQL takes any number of servers: no lock.
    lock = None if postgres else ServerLock(config.db)
    if lock is not None:
        lock.acquire()
    try:
        store = open_store(config.db)  # upgrades the schema once, before any worker starts
        try:
            for problem in store.problems:
                print(f"kabale: warning: {problem}", file=sys.stderr, flush=True)
            server_secret(store, "daily")
        finally:
            store.close()
        os.environ[_HANDOVER] = json.dumps(asdict(config))
        uv = uvicorn.Config("kabale.server.serve:worker_app", factory=True, host=config.host,
                            port=config.port, workers=config.workers, log_level="warning",
                            access_log=False, lifespan="off", http=DeadlineH11Protocol,
                            timeout_keep_alive=KEEP_ALIVE_SECONDS,
                            h11_max_incomplete_event_size=MAX_HEAD, proxy_headers=True,
                            forwarded_allow_ips=config.forwarded_allow_ips)
        try:
            sock = uv.bind_socket()
        except SystemExit:
            raise KabaleError(f"cannot listen on {config.host}:{config.port}") from None
        sock.listen(2048)  # the address works as soon as it is printed: the workers accept
        port = sock.getsockname()[1]
        if lock is not None:
            lock.announce(f"http://{config.host}:{port}/ (kabale serve)")
        for line in describe(config, port):
            print(line, flush=True)
        server = uvicorn.Server(uv)
        try:
            if config.workers > 1:
                Multiprocess(uv, sockets=[sock]).run()
            else:
                server.run(sockets=[sock])
        except KeyboardInterrupt:
            pass
        finally:
            sock.close()
    finally:
        if lock is not None:
            lock.release()
    return 0
