"""What is at the store path, decided without changing anything there.

Parlor only ever writes to a store path that is a regular file holding a Parlor database, or
that does not exist yet (then it creates one). Anything else found there — another program's
SQLite database, a text file, a directory, a device, a symbolic link — belongs to someone else
and is left exactly as it is: Parlor then runs without keeping data and says why. Only a file
that is recognisably a Parlor database (its SQLite `application_id`, or for databases written
before Parlor set one, its schema version and tables) may be moved aside when it is damaged.

`inspect(path)` is shared by the store (before it opens anything) and by `parlor doctor`, so the
doctor reports exactly what the store will do. `snapshot(path)` opens a read-only copy so that
checks leave no `-wal`/`-shm` files behind.
"""

from __future__ import annotations

import enum
import os
import shutil
import sqlite3
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

SQLITE_MAGIC = b"SQLite format 3\x00"
# `PRAGMA application_id` of a Parlor database ("Prlr"): set by schema migration 2.
APPLICATION_ID = 0x50726C72
# Every table a Parlor schema has had; a legacy database (no application id) must have the first
# three and nothing outside this set.
PARLOR_TABLES = frozenset({"stats", "settings", "autosave", "damaged_autosave"})
LEGACY_TABLES = frozenset({"stats", "settings", "autosave"})
SIDECARS = ("-wal", "-shm", "-journal")


def lenient_text(raw: bytes) -> str:
    """SQLite text as `str`, invalid UTF-8 replaced: a damaged file's messages and values (even
    `PRAGMA quick_check`'s report) must never raise `UnicodeDecodeError` while being read."""
    return raw.decode("utf-8", "replace")


class Kind(enum.Enum):
    NEW = "new"  # nothing there (or an empty file): Parlor creates its database
    PARLOR = "parlor"  # a Parlor database: opened (and moved aside only if damaged)
    FOREIGN = "foreign"  # not Parlor's: never touched
    UNREACHABLE = "unreachable"  # the operating system refuses the path: nothing to do


@dataclass(frozen=True)
class Verdict:
    """What `inspect` found: the kind and, for every kind but PARLOR/NEW, why in one line."""

    kind: Kind
    reason: str = ""
    version: int = 0  # schema version read from a PARLOR database's header (0 if unknown)

    @property
    def usable(self) -> bool:
        return self.kind in (Kind.NEW, Kind.PARLOR)


def _os_reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    return str(exc) or type(exc).__name__


def _describe_mode(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _parent_problem(path: Path) -> str:
    """Why `path` cannot be created, or "" if its nearest existing ancestor is a writable folder."""
    parent = path.parent
    try:
        while True:
            try:
                info = parent.stat()
                break
            except (FileNotFoundError, NotADirectoryError):
                if parent == parent.parent:
                    return f"no folder above {path} exists"
                parent = parent.parent
    except (OSError, ValueError) as exc:
        return f"{parent} cannot be examined: {_os_reason(exc)}"
    if not stat.S_ISDIR(info.st_mode):
        return f"{parent} is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{parent} is not writable by this user"
    return ""


def inspect(path: Path) -> Verdict:
    """Classify the store path; never raises, never changes anything, never opens a non-file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        problem = _parent_problem(path)
        if problem:
            return Verdict(Kind.UNREACHABLE, f"{path} cannot be created: {problem}")
        return Verdict(Kind.NEW)
    except NotADirectoryError:
        problem = _parent_problem(path) or "a folder above it is a file"
        return Verdict(Kind.UNREACHABLE, f"{path} cannot be created: {problem}")
    except (OSError, ValueError) as exc:  # ENAMETOOLONG, ELOOP, EACCES, an embedded NUL, ...
        return Verdict(Kind.UNREACHABLE, f"the store path cannot be used: {_os_reason(exc)}")
    if stat.S_ISLNK(info.st_mode):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return Verdict(Kind.FOREIGN, f"{path} is a symbolic link (to {target}); Parlor only "
                       "uses a regular file it created itself")
    if not stat.S_ISREG(info.st_mode):
        return Verdict(Kind.FOREIGN, f"{path} is {_describe_mode(info.st_mode)}, not a Parlor "
                       "database")
    has_sidecar = any(os.path.lexists(f"{path}{s}") for s in ("-wal", "-journal"))
    if info.st_size == 0 and not has_sidecar:
        return Verdict(Kind.NEW)  # an empty file holds nothing to lose (a first start cut short)
    try:
        with open(path, "rb") as handle:
            header = handle.read(100)
    except OSError as exc:
        return Verdict(Kind.UNREACHABLE, f"{path} cannot be read: {_os_reason(exc)}")
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        if info.st_size == 0:
            return Verdict(Kind.NEW)
        return Verdict(Kind.FOREIGN, f"{path} is not an SQLite database (not Parlor's)")
    application_id = int.from_bytes(header[68:72], "big")
    version = int.from_bytes(header[60:64], "big")
    if application_id == APPLICATION_ID:
        return Verdict(Kind.PARLOR, version=version)
    if application_id not in (0, APPLICATION_ID):
        return Verdict(Kind.FOREIGN, f"{path} is another program's SQLite database "
                       f"(application id {application_id:#x})")
    return _inspect_contents(path)


def _inspect_contents(path: Path) -> Verdict:
    """The header alone cannot tell (no application id yet, or a log not yet checkpointed)."""
    try:
        with snapshot(path) as conn:
            application_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except (OSError, sqlite3.Error, UnicodeDecodeError) as exc:
        return Verdict(Kind.FOREIGN, f"{path} is an SQLite database that cannot be identified "
                       f"as Parlor's ({_os_reason(exc)})")
    if application_id == APPLICATION_ID:
        return Verdict(Kind.PARLOR, version=version)
    if application_id != 0:
        return Verdict(Kind.FOREIGN, f"{path} is another program's SQLite database "
                       f"(application id {application_id:#x})")
    if not tables and version == 0:
        return Verdict(Kind.NEW)  # an empty SQLite file: a first start cut short
    if version >= 1 and LEGACY_TABLES <= tables <= PARLOR_TABLES:
        return Verdict(Kind.PARLOR, version=version)
    shown = ", ".join(sorted(tables)[:5]) or "none"
    return Verdict(Kind.FOREIGN, f"{path} is an SQLite database of another program (schema "
                   f"version {version}, tables: {shown})")


@contextmanager
def snapshot(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection that creates no file next to `path`.

    Without a log beside it the file is opened `immutable` (SQLite then writes nothing at all);
    with one, the database and its log are copied to a temporary folder and the copy is opened,
    so that what a running Parlor has not yet checkpointed is seen too.
    """
    if not any(os.path.lexists(f"{path}{s}") for s in ("-wal", "-journal")):
        uri = f"file:{quote(str(Path(path).absolute()))}?mode=ro&immutable=1"
        conn = sqlite3.connect(uri, uri=True)
        conn.text_factory = lenient_text
        try:
            yield conn
        finally:
            conn.close()
        return
    with tempfile.TemporaryDirectory(prefix="parlor-check-") as tmp:
        copy = Path(tmp) / "copy.db"
        shutil.copyfile(path, copy)
        for suffix in ("-wal", "-journal"):
            if os.path.isfile(f"{path}{suffix}"):
                shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
        conn = sqlite3.connect(copy)
        conn.text_factory = lenient_text
        try:
            yield conn
        finally:
            conn.close()


class MoveFailed(Exception):
    """A damaged database could not be moved aside (nothing was changed)."""


def move_aside(path: Path) -> Path:
    """Rename a database and its `-wal`/`-shm`/`-journal` files to `NAME.corrupt-STAMP`.

    The log must go too: left behind, SQLite would replay it into the fresh database. All or
    nothing: if any rename fails, the ones done are undone and `MoveFailed` is raised.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    number = 1
    while os.path.lexists(target):
        number += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{number}")
    done: list[tuple[Path, Path]] = []
    try:
        for suffix in ("", *SIDECARS):
            source = Path(f"{path}{suffix}")
            if suffix and not os.path.lexists(source):
                continue
            destination = Path(f"{target}{suffix}")
            source.rename(destination)
            done.append((source, destination))
    except OSError as exc:
        for source, destination in reversed(done):
            try:
                destination.rename(source)
            except OSError:
                pass
        raise MoveFailed(f"cannot move {path} aside: {_os_reason(exc)}") from None
    return target
