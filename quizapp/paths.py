"""User folders (platformdirs): database, logs, user decks, exports."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "quizapp"


def user_data_dir() -> Path:
    override = os.environ.get("QUIZAPP_DATA_DIR")
    path = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_db_path() -> Path:
    """$QUIZAPP_DB, else quizapp.db in the user data folder. Here, not in quizapp.store,
    so that finding the path imports no SQLAlchemy before the first frame."""
    env = os.environ.get("QUIZAPP_DB")
    if env:
        return Path(env).expanduser()
    return user_data_dir() / "quizapp.db"


# A database on a PostgreSQL server (quizapp.store.pg) instead of a file.
SERVER_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")


def is_server_url(value: object) -> bool:
    """Whether `value` (a --db or $QUIZAPP_DB) names a PostgreSQL database, not a file."""
    return isinstance(value, str) and value.startswith(SERVER_SCHEMES)


def default_db_location() -> Path | str:
    """$QUIZAPP_DB (a file, or a postgresql:// URL kept as text), else the default file."""
    env = os.environ.get("QUIZAPP_DB")
    if env and is_server_url(env):
        return env
    return default_db_path()


def db_location(value: str | Path | None) -> Path | str:
    """A --db value (a file path or a server URL), else the default location."""
    if value is None or value == "":
        return default_db_location()
    if is_server_url(value):
        return str(value)
    return Path(value).expanduser()


def user_decks_dir() -> Path:
    return user_data_dir() / "decks"


def log_dir() -> Path:
    path = user_data_dir() / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path
