"""The -wal is part of the database: a -wal deleted, replaced or truncated under a running
quizapp is found at the next answer, which is refused loudly, and writing stops.

A real process answers cards (StudyService.answer, the path every screen's answer takes)
while the test, another process, does to the -wal what a careless cleanup would.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tui.conftest import FIXTURE_CONTENT, make_db
from tests.tui.test_sigkill import child_env

# SQLite only: the -wal file.

# Answers a card, says so, waits for a line on stdin (the test's change to the -wal), then
# tries two more answers and prints how each went.
ANSWERER = """
import sqlite3, sys
from quizapp.srs.service import StudyService
from quizapp.store.database import open_database
db = open_database(sys.argv[1])
service = StudyService(db)
cards = [row[0] for row in sqlite3.connect(sys.argv[1]).execute("SELECT id FROM cards ORDER BY id LIMIT 3")]
service.answer(cards[0], 3, mode="study")
print("answered", flush=True)
sys.stdin.readline()
for card in cards[1:]:
    try:
        service.answer(card, 3, mode="study")
        print("saved", flush=True)
    except Exception as exc:
        print(type(exc).__name__, str(exc).splitlines()[0], flush=True)
"""


@pytest.fixture
def clock():
    from quizapp.srs.clock import FixedClock
    from tests.tui.conftest import START

    return FixedClock(current=START)


@pytest.fixture(autouse=True)
def frozen(monkeypatch):
    monkeypatch.setattr("quizapp.srs.bootstrap.content_dir", lambda: FIXTURE_CONTENT)


def delete(wal: Path) -> None:
    wal.unlink()


def replace_it(wal: Path) -> None:
    copy = wal.with_name("copy")
    shutil.copyfile(wal, copy)
    os.replace(copy, wal)


def truncate(wal: Path) -> None:
    os.truncate(wal, 0)


@pytest.mark.parametrize("damage", [delete, replace_it, truncate], ids=["deleted", "replaced", "truncated"])
def test_a_changed_wal_stops_writing_with_one_loud_line(tmp_path, clock, damage):
    db = make_db(tmp_path / "wal.db", clock)
    proc = subprocess.Popen([sys.executable, "-c", ANSWERER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=child_env(tmp_path / "data"))
    assert proc.stdout is not None and proc.stdin is not None
    assert proc.stdout.readline().strip() == "answered", proc.stderr.read() if proc.stderr else ""
    damage(Path(f"{db}-wal"))
    out, err = proc.communicate("go\n", timeout=120)
    lines = out.splitlines()
    assert len(lines) == 2, (out, err)
    for line in lines:  # both refused: the one that found it, and every write after
        assert line.startswith("WalLost") and "-wal" in line and "stopped writing" in line
    assert "Traceback" not in err
