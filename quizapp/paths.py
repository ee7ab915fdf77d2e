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


def user_decks_dir() -> Path:
    return user_data_dir() / "decks"


def log_dir() -> Path:
    path = user_data_dir() / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path
