"""`db backup` while another process writes: every backup is a state that existed.

The writer commits transactions that keep an invariant (the same number of rows in two
tables) and closes its connection after each one, so the -wal comes and goes: a backup
read without SQLite's locks (the old `immutable=1` read, taken when no -wal was present)
copied pages from before and after a commit and gave a file that fails `integrity_check`
or breaks the invariant."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.reliability.conftest import quizapp

# SQLite only: a backup of the database file while another process writes it (on
# PostgreSQL `db backup` is pg_dump's snapshot: tests/store/test_pg.py).

WRITER = textwrap.dedent("""
    import sqlite3, sys, os
    path, stop = sys.argv[1], sys.argv[2]
    n = 0
    while not os.path.exists(stop):
        conn = sqlite3.connect(path, timeout=30, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        blob = os.urandom(4000)
        conn.executemany("INSERT INTO side_a (b) VALUES (?)", [(blob,)] * 50)
        conn.executemany("INSERT INTO side_b (b) VALUES (?)", [(blob,)] * 50)
        conn.execute("DELETE FROM side_a WHERE rowid IN (SELECT rowid FROM side_a ORDER BY random() LIMIT 25)")
        conn.execute("DELETE FROM side_b WHERE rowid IN (SELECT rowid FROM side_b ORDER BY random() LIMIT 25)")
        conn.execute("COMMIT")
        conn.close()
        n += 1
        if n == 1:
            open(stop + ".started", "w").close()
""")


def test_backups_taken_during_writes_are_consistent_snapshots(isolated_user_dirs, tmp_path):
    db = isolated_user_dirs / "quizapp.db"
    assert quizapp("db", "upgrade").returncode == 0
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE side_a (b BLOB)")
    conn.execute("CREATE TABLE side_b (b BLOB)")
    conn.executemany("INSERT INTO side_a (b) VALUES (zeroblob(4000))", [()] * 3000)
    conn.executemany("INSERT INTO side_b (b) VALUES (zeroblob(4000))", [()] * 3000)
    conn.commit()
    conn.close()
    stop = tmp_path / "stop"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(stop)])
    try:
        started = Path(f"{stop}.started")
        while not started.exists():  # wait for the writer's first commit, not a fixed time
            assert writer.poll() is None, "the writer died"
            subprocess.run([sys.executable, "-c", "pass"], check=True)
        backups = []
        for _ in range(6):
            result = quizapp("db", "backup", "--json")
            assert result.returncode == 0, result.stderr
            backups.append(Path(json.loads(result.stdout)["backup"]))
    finally:
        stop.touch()
        writer.wait(timeout=120)
    for backup in backups:
        copy = sqlite3.connect(backup)
        try:
            assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok", backup
            a = copy.execute("SELECT count(*) FROM side_a").fetchone()[0]
            b = copy.execute("SELECT count(*) FROM side_b").fetchone()[0]
            assert a == b, f"{backup}: a state that never existed ({a} vs {b} rows)"
        finally:
            copy.close()


def test_a_read_only_inspection_is_a_snapshot_while_another_process_commits_and_closes(tmp_path):
    """The mechanism under the backup and `db check`: a connection opened by
    `connect_readonly` on a WAL file with no -wal beside it keeps reading one state while a
    writer commits and closes (its checkpoint rewrites the main file). An immutable read
    takes no lock and saw the new rows mid-transaction."""
    from quizapp.store.database import connect_readonly

    db = tmp_path / "plain.db"
    setup = sqlite3.connect(db)
    setup.execute("PRAGMA journal_mode=wal")
    setup.execute("CREATE TABLE t (x)")
    setup.executemany("INSERT INTO t VALUES (?)", [(n,) for n in range(100)])
    setup.commit()
    setup.close()
    assert not Path(f"{db}-wal").exists()
    reader = connect_readonly(db)
    try:
        reader.execute("BEGIN")
        before = reader.execute("SELECT count(*) FROM t").fetchone()[0]
        script = (f"import sqlite3; c = sqlite3.connect({str(db)!r}); "
                  "c.executemany('INSERT INTO t VALUES (?)', [(n,) for n in range(5000)]); c.commit(); c.close()")
        subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
        during = reader.execute("SELECT count(*) FROM t").fetchone()[0]
        reader.execute("COMMIT")
        after = reader.execute("SELECT count(*) FROM t").fetchone()[0]
    finally:
        reader.close()
    assert before == during == 100
    assert after == 5100
