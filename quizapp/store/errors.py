"""Why a database cannot be used. Light on purpose: the CLI imports it on every start."""


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


class ChangedElsewhere(Exception):
    """A row changed since it was read (another window or process wrote it first).

    Raised by compare-and-swap writes (`UPDATE … WHERE id = ? AND version = ?` matching no
    row); the transaction is rolled back, so nothing was saved. Screens show it as a notice.
    """
