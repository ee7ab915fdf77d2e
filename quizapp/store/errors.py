"""Why a database cannot be used. Light on purpose: the CLI imports it on every start."""

from quizapp.i18n.localized_error import LocalizedError


class DatabaseError(LocalizedError):
    """A database that cannot be used; the message is one line for the user (a catalogue
    key, `store.*`, for the common ones: the CLI shows them in the language of `--lang`)."""


class NotAQuizappDatabase(DatabaseError):
    pass


class SchemaTooNew(DatabaseError):
    pass


class DatabaseLocked(DatabaseError):
    pass


class DatabaseBusy(DatabaseLocked):
    """Another quizapp held the write lock for longer than the busy timeout; nothing was written.

    `importing`: how far that other quizapp's import is (percent), when it is one."""

    importing: int | None = None


def busy_error(path: object) -> DatabaseBusy:
    """DatabaseBusy, saying how far another quizapp's import is when one holds the lock
    (quizapp.store.import_progress)."""
    from pathlib import Path

    from quizapp.store.import_progress import importing

    percent = importing(Path(str(path)))
    if percent is None:
        return DatabaseBusy(key="store.busy")
    error = DatabaseBusy(key="store.busy_importing", percent=percent)
    error.importing = percent
    return error


class ConnectionLost(DatabaseError):
    """The database server dropped the connection (a restart, a network cut) or cannot be
    reached; nothing of the transaction was saved. The next transaction connects again."""


class StorageFull(DatabaseError):
    """A write found no room: the disk is full or the file size limit (ulimit -f) is
    reached. Nothing was written (the transaction rolled back); the same write can be
    tried again once there is room."""


def storage_problem(path: object, exc: BaseException) -> StorageFull | None:
    """The real cause of a failed write, when it is a lack of room, or None.

    SQLite reports a full disk as SQLITE_FULL, but a write past the file size limit (EFBIG)
    only as "disk I/O error"; the limit and the free space are asked directly."""
    import os
    import sqlite3

    if not isinstance(exc, sqlite3.OperationalError):
        return None
    name = getattr(exc, "sqlite_errorname", "")
    if name == "SQLITE_FULL" or "disk is full" in str(exc):
        return StorageFull(key="store.disk_full", path=path)
    if not name.startswith("SQLITE_IOERR") and "disk I/O error" not in str(exc):
        return None
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        if soft != resource.RLIM_INFINITY:
            return StorageFull(f"{path} reached the file size limit ({soft} bytes, `ulimit -f`); "
                               "raise it (quizapp tries again)")
    except (ImportError, OSError, ValueError):
        pass
    try:
        folder = os.path.dirname(os.path.abspath(str(path)))
        stats = os.statvfs(folder)
        if stats.f_bavail * stats.f_frsize < 1 << 20:  # under 1 MiB left: that is the cause
            return StorageFull(key="store.disk_full", path=path)
    except OSError:
        pass
    return None


class DatabaseDamaged(DatabaseError):
    """SQLite found a damaged page while reading (found when read: no start scans the whole file)."""


def is_damage(exc: BaseException) -> bool:
    """A `sqlite3` error that means the file itself is damaged (not a lock, not a foreign file)."""
    import sqlite3

    return (isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError)
            and "malformed" in str(exc))


def damaged(path: object, detail: object) -> DatabaseDamaged:
    first = " ".join(str(detail).split())[:160]  # one line
    return DatabaseDamaged(key="store.damaged", path=path, detail=first)


def reading_error(path: object, exc: Exception) -> DatabaseError:
    """The one-line error for a `sqlite3` failure while reading a database file's header.

    A lock, an I/O error or a folder we may not use is not the file's fault; any other
    `sqlite3.DatabaseError` means the file is not (or no longer) a quizapp database.
    """
    import sqlite3

    if isinstance(exc, sqlite3.OperationalError):
        if "locked" in str(exc):
            return DatabaseLocked(key="store.locked", path=path)
        return DatabaseError(key="store.cannot_read", path=path, detail=exc)
    if is_damage(exc):
        return damaged(path, exc)
    return NotAQuizappDatabase(key="store.not_quizapp_detail", path=path, detail=exc)


class ChangedElsewhere(Exception):
    """A row changed since it was read (another window or process wrote it first).

    Raised by compare-and-swap writes (`UPDATE … WHERE id = ? AND version = ?` matching no
    row); the transaction is rolled back, so nothing was saved. Screens show it as a notice.
    """


class StaleCard(ChangedElsewhere):
    """The card changed since it was shown (another window answered it); nothing was saved."""

    def __init__(self, item_id: object) -> None:
        super().__init__(f"card {item_id} changed elsewhere since it was shown; nothing was saved")
