"""Every test runs with its own user data folder and database, never the user's."""

from __future__ import annotations

import pytest
import textual._wait

# Pilot's `press` and `pause` wait until the app is idle by sleeping in 20 ms steps until a
# step used almost no CPU (textual/_wait.py): at least 40 ms a key, which made the TUI tests
# spend most of their time asleep. 4 ms steps with the same 5% idle threshold test the same
# condition, sooner. (Textual is pinned exactly; the assert names the constant if it moves.)
assert textual._wait.SLEEP_GRANULARITY == 1 / 50, "Textual's idle wait changed: re-check tests/conftest.py"
textual._wait.SLEEP_GRANULARITY = 1 / 250
textual._wait.SLEEP_IDLE = textual._wait.SLEEP_GRANULARITY / 20


@pytest.fixture(autouse=True)
def isolated_user_dirs(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(home))
    monkeypatch.setenv("QUIZAPP_DB", str(home / "quizapp.db"))
    return home
