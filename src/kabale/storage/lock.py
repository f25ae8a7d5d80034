"""One server per database: an operating-system lock on a file beside the database.

Two servers on one database would each serve moves from their own cache of live games and
overwrite each other's. So a server takes ``DATABASE.lock`` before it opens the database, and
writes its address into it; a second server finds the lock taken and says where the first one
is. The system drops the lock when the process ends, however it ends (kill -9 too), so a
stale lock file never blocks a new server.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO

from kabale.core.errors import KabaleError
from kabale.storage.db import make_folder_for

#: Windows locks byte ranges and then refuses to read them to anyone else: lock one byte far
#: past the address written at the start, so that a second server can still read it.
_LOCKED_BYTE = 1 << 20


class DatabaseInUseError(KabaleError):
    """Another kabale server holds the database."""


class ServerLock:
    """The lock of one database; :meth:`acquire`, then :meth:`announce` the URL once known."""

    def __init__(self, db_path: str | os.PathLike[str]) -> None:
        self.db_path = Path(db_path)
        self.path = self.db_path.with_name(self.db_path.name + ".lock")
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock, or raise DatabaseInUseError naming the server that holds it."""
        make_folder_for(self.db_path)
        try:
            handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 (held until release)
        except OSError as exc:
            raise KabaleError(f"cannot create the lock file {str(self.path)!r} beside the game "
                              f"database: {exc.strerror or exc}") from None
        if not _try_lock(handle):
            handle.seek(0)
            holder = handle.read(4096).strip() or "a kabale server that is starting"
            handle.close()
            raise DatabaseInUseError(
                f"the game database {str(self.db_path)!r} is in use by {holder}; open that, "
                "stop it first, or give this one another --db")
        self._file = handle

    def announce(self, url: str) -> None:
        """Write this server's address (and process id) into the lock file."""
        assert self._file is not None, "announce() before acquire()"
        self._file.seek(0)
        self._file.truncate()
        self._file.write(f"the kabale server at {url} (process {os.getpid()})\n")
        self._file.flush()

    def release(self) -> None:
        """Let go of the lock (the file stays; only its lock matters)."""
        if self._file is not None:
            self._file.seek(0)
            self._file.truncate()
            _unlock(self._file)
            self._file.close()
            self._file = None


if sys.platform == "win32":
    import msvcrt

    def _try_lock(handle: IO[str]) -> bool:
        handle.seek(_LOCKED_BYTE)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(handle: IO[str]) -> None:
        handle.seek(_LOCKED_BYTE)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(handle: IO[str]) -> bool:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True

    def _unlock(handle: IO[str]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
