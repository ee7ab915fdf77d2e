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


def _explicit(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "db", None)) or bool(os.environ.get("QUIZAPP_DB"))


def path_problem(path: Path, explicit: bool, writing: bool) -> str | None:
    """Why `path` cannot be used, or None (creating the default folder if needed)."""
    if path.is_dir():
        return f"{path} is a folder, not a database file"
    parent = path.parent
    if not parent.exists():
        if explicit:
            return f"folder {parent} does not exist (create it first)"
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return f"cannot create {parent}: {exc.strerror or exc}"
    if not parent.is_dir():
        return f"{parent} is not a folder"
    if not path.exists():
        if not os.access(parent, os.W_OK | os.X_OK):
            return f"cannot create a database in {parent}: permission denied"
        return None
    if not os.access(path, os.R_OK):
        return f"cannot read {path}: permission denied"
    if writing and not (os.access(path, os.W_OK) and os.access(parent, os.W_OK | os.X_OK)):
        return f"{path} is read-only (this command writes; stats, export and db current can read it)"
    return None


def db_path(args: argparse.Namespace, writing: bool = True) -> Path:
    """The database path of a command; UsageError (exit 2, one line) if it is unusable."""
    from quizapp.cli.errors import UsageError
    from quizapp.paths import default_db_path

    path = Path(args.db).expanduser() if getattr(args, "db", None) else default_db_path()
    problem = path_problem(path, _explicit(args), writing)
    if problem is not None:
        raise UsageError(problem)
    return path
