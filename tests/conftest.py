"""Fixtures for every test folder: a real PostgreSQL server for the storage suite.

The server is started once per test session in a temporary directory, listening on a free
loopback port, from Debian's PostgreSQL programs (.ci/postgres.sh installs them); as root
it runs as the ``postgres`` user, which initdb requires. Each test that asks for
``postgres_url`` gets a database of its own on it.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator

import pytest


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or (
        [shutil.which(name)] if shutil.which(name) else [])
    if not found or found[-1] is None:
        pytest.fail(f"PostgreSQL's {name} is not installed: run .ci/postgres.sh")
    return str(found[-1])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a running PostgreSQL server's ``postgres`` database (trust auth)."""
    folder = tempfile.mkdtemp(prefix="kabale-pg-")
    data = os.path.join(folder, "data")
    run_as: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        run_as = ["runuser", "-u", "postgres", "--"]
    subprocess.run([*run_as, _bin("initdb"), "-D", data, "-A", "trust", "-U", "postgres",
                    "--no-sync"], check=True, capture_output=True)
    port = _free_port()
    options = (f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off "
               "-c synchronous_commit=off -c full_page_writes=off")
    subprocess.run([*run_as, _bin("pg_ctl"), "-D", data, "-l", os.path.join(folder, "log"),
                    "-o", options, "-w", "start"], check=True, capture_output=True)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*run_as, _bin("pg_ctl"), "-D", data, "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """The URL of a new, empty database on the session's PostgreSQL server."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return postgres_server.rsplit("/", 1)[0] + "/" + name
