"""One server per database: operating-system locks on the database file itself and on a
file beside it.

Two servers on one database would each serve moves from their own cache of live games and
overwrite each other's. So a server takes its locks before it opens the database: one on the
database file itself, which the system keys by the file (device and inode), so that a second
server that reaches the same file by a symbolic link, a hard link or another spelling of the
path finds it taken; and one on ``DATABASE.lock`` beside the file the path resolves to, into
which the server writes its address, so that a second server can say where the first one is.
The system drops the locks when the process ends, however it ends (kill -9 too), so a stale
lock file never blocks a new server. Both files are created readable by their owner only.

`kabale serve` with several web workers takes the lock in its parent process and holds it
while the workers, its children, open the file without it (each reads a game's revision
before using its cached copy, storage.db): the one server is then a process tree, and
`kabale play` or another `kabale serve` on the same file is refused as before. A PostgreSQL
database takes no lock: any number of servers may share it.

On Windows, whose byte-range locks would also stop SQLite reading the locked bytes, only the
lock file is locked: a symbolic link is caught (the path is resolved), a hard link is not.

A database file with more than one hard link is refused outright, on every system: SQLite's
write-ahead log is named after the path the file is opened by, so a server started on one
name after a kill -9 of a server on another would not see the moves still in the other's log.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO

from kabale.core.errors import KabaleError
from kabale.storage.db import create_private_database, make_folder_for, make_private

#: Windows locks byte ranges and then refuses to read them to anyone else: lock one byte far
#: past the address written at the start, so that a second server can still read it.
_LOCKED_BYTE = 1 << 20
#: what _lock_file_itself answers when another process holds the database file's lock
_TAKEN = -1


class DatabaseInUseError(KabaleError):
    """Another kabale server holds the database."""


class DatabaseLinkedError(KabaleError):
    """The database file has several names (hard links), each with a log of its own."""


class ServerLock:
    """The lock of one database; :meth:`acquire`, then :meth:`announce` the URL once known."""

    def __init__(self, db_path: str | os.PathLike[str]) -> None:
        self.db_path = Path(db_path)
        # beside the file the path resolves to: every symbolic link to it shares this one
        real = Path(os.path.realpath(self.db_path))
        self.path = real.with_name(real.name + ".lock")
        self._file: IO[str] | None = None
        self._database: int | None = None  # a descriptor of the database file, locked

    def acquire(self) -> None:
        """Take the lock, or raise DatabaseInUseError naming the server that holds it. The
        database file is created (empty, mode 0600) if it does not exist yet."""
        make_folder_for(self.db_path)
        try:
            create_private_database(self.db_path)
            handle = os.fdopen(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600), "r+",
                               encoding="utf-8")
        except OSError as exc:
            raise KabaleError(f"cannot create the lock file {str(self.path)!r} beside the game "
                              f"database: {exc.strerror or exc}") from None
        make_private(self.path)
        make_private(self.db_path)
        try:
            taken = not _try_lock(handle)
            database = None if taken else _lock_file_itself(self.db_path)
        except BaseException:
            handle.close()
            raise
        if taken or database == _TAKEN:
            raise self._in_use(handle)
        self._file, self._database = handle, database
        self._refuse_other_names()

    def _refuse_other_names(self) -> None:
        """Refuse (and let go of the locks) a database file that has more than one name.
        SQLite keeps the write-ahead log beside the name the file was opened by: moves
        committed through one hard link sit in that link's ``-wal`` file until a checkpoint,
        and a server started on the other name after a kill -9 never sees them. Symbolic
        links are safe (SQLite resolves them), so only hard links are refused."""
        links = os.stat(self.db_path).st_nlink
        if links > 1:
            self.release()
            raise DatabaseLinkedError(
                f"the game database {str(self.db_path)!r} has {links} names (hard links): "
                "SQLite keeps its write-ahead log beside the name it is opened by, so moves "
                "made through one name can be lost through another; remove the other links "
                "or give a copy (sqlite3 .backup) as --db")

    def _in_use(self, handle: IO[str]) -> DatabaseInUseError:
        """The error naming the server that holds the lock; closes ``handle``."""
        handle.seek(0)
        holder = handle.read(4096).strip() or (
            "another kabale server (one that is starting, or one that reaches the same file "
            "by another name)")
        handle.close()
        return DatabaseInUseError(
            f"the game database {str(self.db_path)!r} is in use by {holder}; open that, "
            "stop it first, or give this one another --db")

    def announce(self, url: str) -> None:
        """Write this server's address (and process id) into the lock file."""
        assert self._file is not None, "announce() before acquire()"
        self._file.seek(0)
        self._file.truncate()
        self._file.write(f"the kabale server at {url} (process {os.getpid()})\n")
        self._file.flush()

    def release(self) -> None:
        """Let go of the locks (the files stay; only their locks matter). Called after the
        database is closed: closing the descriptor of the database file drops every POSIX
        lock this process holds on it, SQLite's own included."""
        if self._database is not None:
            os.close(self._database)  # the lock goes with it
            self._database = None
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

    def _lock_file_itself(path: Path) -> int | None:
        return None  # see the module docstring

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

    def _lock_file_itself(path: Path) -> int | None:
        """A descriptor of the database file holding an exclusive flock on it, or _TAKEN
        when another holds one. flock locks the open file (so the inode, whatever the name)
        and is apart from the POSIX record locks SQLite takes on the same file. (Closing the
        descriptor when the lock is taken is safe here: the database is not open yet.)"""
        descriptor = os.open(path, os.O_RDONLY)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(descriptor)
            return _TAKEN
        return descriptor
