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


def user_decks_dir() -> Path:
    return user_data_dir() / "decks"


def log_dir() -> Path:
    path = user_data_dir() / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path
