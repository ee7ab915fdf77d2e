"""An upgrade never runs while another process has the database open.

An older quizapp still running (here: another process holding an open WAL connection, as
any quizapp does while it runs) would meet the new schema with its old queries. A new
quizapp that finds the database in need of an upgrade and open elsewhere refuses with one
line and exit 2, leaving it untouched; once the other is closed, the upgrade runs.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.reliability.conftest import quizapp

# SQLite only: old schemas exist only as SQLite files (on PostgreSQL revision 0001 makes
# the head schema), and "open elsewhere" is SQLite's WAL reader lock.

OLD = "0006"

HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
conn.execute("PRAGMA journal_mode=WAL")
conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
print("open", flush=True)
sys.stdin.readline()
conn.close()
"""


def revision(db: Path) -> str:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    finally:
        conn.close()


def test_no_upgrade_under_another_process(tmp_path):
    from quizapp.store.database import migrate
    from quizapp.store.preflight import head_revision

    db = tmp_path / "old.db"
    migrate(db, OLD)
    assert revision(db) == OLD
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        refused = quizapp("--db", str(db), "stats")
        assert refused.returncode == 2, refused.stderr
        assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
        assert "open" in refused.stderr and "upgrade" in refused.stderr
        assert revision(db) == OLD  # untouched
        assert not list(tmp_path.glob("*pre-upgrade*"))  # not even a backup was made
    finally:
        holder.communicate("close\n", timeout=30)
    upgraded = quizapp("--db", str(db), "stats")
    assert upgraded.returncode == 0, upgraded.stderr
    assert revision(db) == head_revision()
