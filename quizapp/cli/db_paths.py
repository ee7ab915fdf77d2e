"""Where the database is, and every reason that path cannot be used — as one line.

Checked before SQLite ever sees the path, so a refused path never gets a -wal/-shm file
created beside it: a folder, a missing parent folder of an explicit `--db` (a typo must
not silently create folders; the default location is created), a folder we may not write
to for a new database, a read-only database for a command that writes.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quizapp.cli.errors import UsageError


def _explicit(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "db", None)) or bool(os.environ.get("QUIZAPP_DB"))


def path_problem(path: Path, explicit: bool, writing: bool) -> UsageError | None:
    """Why `path` cannot be used (`str()` of it in English), or None (creating the default
    folder if needed)."""
    from quizapp.cli.errors import UsageError

    if path.is_dir():
        return UsageError(key="cli.error.db_is_folder", path=path)
    parent = path.parent
    if not parent.exists():
        if explicit:
            return UsageError(key="cli.error.db_no_folder", folder=parent)
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return UsageError(key="cli.error.db_cannot_create_folder", folder=parent, reason=exc.strerror or exc)
    if not parent.is_dir():
        return UsageError(key="cli.error.db_parent_not_folder", folder=parent)
    if not path.exists():
        if not os.access(parent, os.W_OK | os.X_OK):
            return UsageError(key="cli.error.db_create_denied", folder=parent)
        return None
    if not os.access(path, os.R_OK):
        return UsageError(key="cli.error.db_read_denied", path=path)
    if writing and not (os.access(path, os.W_OK) and os.access(parent, os.W_OK | os.X_OK)):
        return UsageError(key="cli.error.db_read_only", path=path)
    return None


def db_path(args: argparse.Namespace, writing: bool = True) -> Path:
    """The database file of a command; UsageError (exit 2, one line) if it is unusable, or
    if the database is on a PostgreSQL server (a command that works on a file only)."""
    where = db_location(args, writing)
    if isinstance(where, str):
        from quizapp.cli.errors import UsageError

        raise UsageError(key="cli.error.db_file_only")
    return where


def db_location(args: argparse.Namespace, writing: bool = True) -> Path | str:
    """The database of a command: a checked file path (UsageError, one line, if it is
    unusable), or a `postgresql://` URL as given (libpq reads it)."""
    from quizapp.paths import db_location as location
    from quizapp.paths import is_server_url

    where = location(getattr(args, "db", None) or None)
    if is_server_url(where):
        return str(where)
    path = Path(where)
    problem = path_problem(path, _explicit(args), writing)
    if problem is not None:
        raise problem
    return path
