"""The language of the command line's own texts, as the TUI chooses its language: `--lang`,
else the language stored in Settings, else Chinese (`DEFAULT_LANGUAGE`).

The stored language is read only when a text needs it (a command's output, an error line,
`--help`): one query with plain sqlite3, read-only, no waiting on a lock, and no file or
folder created; a database that is missing, new, busy or not ours gives the default.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from quizapp.i18n import DEFAULT_LANGUAGE, LANGUAGES


def argv_option(argv: Sequence[str], option: str) -> str | None:
    """The value of `option X` / `option=X` in `argv` (the last one, as argparse takes it;
    nothing after `--`), or None."""
    value = None
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == option and index + 1 < len(argv):
            value = argv[index + 1]
        elif arg.startswith(option + "="):
            value = arg.removeprefix(option + "=")
    return value


def _db_path(db: str | None) -> Path | str:
    """Where the database is (quizapp.paths.default_db_path without creating the folder);
    a postgresql:// URL as given."""
    from quizapp.paths import is_server_url

    if db:
        return db if is_server_url(db) else Path(db).expanduser()
    env = os.environ.get("QUIZAPP_DB")
    if env:
        return env if is_server_url(env) else Path(env).expanduser()
    override = os.environ.get("QUIZAPP_DATA_DIR")
    if override:
        return Path(override) / "quizapp.db"
    import platformdirs

    return Path(platformdirs.user_data_dir("quizapp", appauthor=False)) / "quizapp.db"


def stored_language(path: Path | str) -> str | None:
    """The `language` setting stored in the database at `path`, or None (no file, no such
    row, not readable now; a PostgreSQL database: its Settings apply once it is open)."""
    import sqlite3

    from quizapp.store.preflight import connect_uri, readonly_uri

    if isinstance(path, str):
        return None
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return None
        conn = connect_uri(readonly_uri(path), 0)
        try:
            row = conn.execute("SELECT value FROM settings WHERE key = 'language'").fetchone()
        finally:
            conn.close()
        value = json.loads(row[0]) if row and isinstance(row[0], str) else None
    except (sqlite3.Error, OSError, ValueError):
        return None
    return value if value in LANGUAGES else None


@dataclass(frozen=True)
class LanguageSource:
    """The command line's language: `given` (--lang), else the one stored in the database
    `db` (--db, else $QUIZAPP_DB, else the default), else Chinese. Read once, when needed."""

    given: str | None = None
    db: str | None = None
    _resolved: list[str] = field(default_factory=list, compare=False, hash=False, repr=False)

    @classmethod
    def from_argv(cls, argv: Sequence[str]) -> LanguageSource:
        given = argv_option(argv, "--lang")
        return cls(given if given in LANGUAGES else None, argv_option(argv, "--db"))

    def __call__(self) -> str:
        if self.given is not None:
            return self.given
        if not self._resolved:
            self._resolved.append(stored_language(_db_path(self.db)) or DEFAULT_LANGUAGE)
        return self._resolved[0]


def command_language(args: object) -> str:
    """The language of a parsed command line: its --lang, else the stored one, else Chinese."""
    given = getattr(args, "lang", None)
    return given if given in LANGUAGES else LanguageSource(None, getattr(args, "db", None))()
