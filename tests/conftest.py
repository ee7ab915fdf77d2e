"""Every test runs with its own user data folder and database, never the user's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def isolated_user_dirs(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(home))
    monkeypatch.setenv("QUIZAPP_DB", str(home / "quizapp.db"))
    return home
