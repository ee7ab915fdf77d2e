"""SQLite store: models, opening/upgrading the database, content sync. No UI imports."""

from quizapp.store.database import (
    Database,
    DatabaseError,
    DatabaseLocked,
    NotAQuizappDatabase,
    SchemaTooNew,
    default_db_path,
    open_database,
)

__all__ = [
    "Database",
    "DatabaseError",
    "DatabaseLocked",
    "NotAQuizappDatabase",
    "SchemaTooNew",
    "default_db_path",
    "open_database",
]
