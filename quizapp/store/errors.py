"""Why a database cannot be used. Light on purpose: the CLI imports it on every start."""


class DatabaseError(Exception):
    """A database that cannot be used; the message is one line for the user."""


class NotAQuizappDatabase(DatabaseError):
    pass


class SchemaTooNew(DatabaseError):
    pass


class DatabaseLocked(DatabaseError):
    pass
