"""Why a database cannot be used. Light on purpose: the CLI imports it on every start."""

BUSY_MESSAGE = "the database is busy (another quizapp is writing)"


class DatabaseError(Exception):
    """A database that cannot be used; the message is one line for the user."""


class NotAQuizappDatabase(DatabaseError):
    pass


class SchemaTooNew(DatabaseError):
    pass


class DatabaseLocked(DatabaseError):
    pass


class DatabaseBusy(DatabaseLocked):
    """Another quizapp held the write lock for longer than the busy timeout; nothing was written."""


class DatabaseDamaged(DatabaseError):
    """SQLite found a damaged page while reading (found when read: no start scans the whole file)."""


def is_damage(exc: BaseException) -> bool:
    """A `sqlite3` error that means the file itself is damaged (not a lock, not a foreign file)."""
    import sqlite3

    return (isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError)
            and "malformed" in str(exc))


def damaged(path: object, detail: object) -> DatabaseDamaged:
    first = " ".join(str(detail).split())[:160]  # one line
    return DatabaseDamaged(f"{path} is damaged ({first}); run `quizapp db check` for details")


def reading_error(path: object, exc: Exception) -> DatabaseError:
    """The one-line error for a `sqlite3` failure while reading a database file's header.

    A lock, an I/O error or a folder we may not use is not the file's fault; any other
    `sqlite3.DatabaseError` means the file is not (or no longer) a quizapp database.
    """
    import sqlite3

    if isinstance(exc, sqlite3.OperationalError):
        if "locked" in str(exc):
            return DatabaseLocked(f"{path} is locked by another program; close it and try again")
        return DatabaseError(f"cannot read {path} ({exc})")
    if is_damage(exc):
        return damaged(path, exc)
    return NotAQuizappDatabase(f"{path} is not a quizapp database ({exc})")


class ChangedElsewhere(Exception):
    """A row changed since it was read (another window or process wrote it first).

    Raised by compare-and-swap writes (`UPDATE … WHERE id = ? AND version = ?` matching no
    row); the transaction is rolled back, so nothing was saved. Screens show it as a notice.
    """
