"""SQLite store: models, opening/upgrading the database, content sync. No UI imports.

Names are resolved lazily so that `quizapp.store.errors` (imported by the CLI on every
start) does not pull in SQLAlchemy and Alembic.
"""

from __future__ import annotations

from typing import Any

_DATABASE_NAMES = {"Database", "default_db_path", "open_database"}
_ERROR_NAMES = {
    "ChangedElsewhere", "DatabaseBusy", "DatabaseDamaged", "DatabaseError", "DatabaseLocked", "NotAQuizappDatabase",
    "SchemaTooNew",
}

__all__ = sorted(_DATABASE_NAMES | _ERROR_NAMES)


def __getattr__(name: str) -> Any:
    if name in _ERROR_NAMES:
        from quizapp.store import errors

        return getattr(errors, name)
    if name in _DATABASE_NAMES:
        from quizapp.store import database

        return getattr(database, name)
    raise AttributeError(f"module 'quizapp.store' has no attribute {name!r}")
