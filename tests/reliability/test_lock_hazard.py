"""A process that has the database open never opens the file with Python I/O.

POSIX locks belong to a (process, file) pair: closing any descriptor on the database file
drops every lock the process holds on it, including the SHARED lock each WAL-mode
connection keeps for as long as it is open. Saving your own card (`n`/`e` in Study and
Browse) syncs the deck in the TUI's process, and that open used to read the file's header
with `open()`: afterwards another process closing its last connection thought it was the
last one and deleted the -wal and -shm under the TUI, whose next answers went to a deleted
file. The header is now SQLite's to read (quizapp.store.preflight).

(The write lock itself lives in the -shm, which was never opened that way; what is lost is
the database file's SHARED lock, seen here with F_GETLK from another process.)
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tui.conftest import FIXTURE_CONTENT, make_db
from tests.tui.test_sigkill import child_env

# SQLite only: POSIX locks on the database file and its -wal.

# A TUI's process, in short: the database open, an answer saved; then the card-save path
# (card_editing.store_card, as the Study screen's `n` runs it) and one more answer.
HOLDER = """
import sqlite3, sys
from pathlib import Path
import quizapp.srs.bootstrap as bootstrap
bootstrap.content_dir = lambda: Path(sys.argv[2])
from quizapp.srs import card_editing, user_cards
from quizapp.srs.service import StudyService
prepared = bootstrap.prepare(sys.argv[1])
service = StudyService(prepared.db)
cards = [row[0] for row in sqlite3.connect(sys.argv[1]).execute("SELECT id FROM cards ORDER BY id LIMIT 2")]
service.answer(cards[0], 3, mode="study")
print("answered", flush=True)
sys.stdin.readline()
card_editing.store_card(user_cards.variant_of_item(prepared.content.qa[0]), sys.argv[1])
print("card saved", flush=True)
sys.stdin.readline()
try:
    service.answer(cards[1], 3, mode="study")
    print("saved", flush=True)
except Exception as exc:
    print(type(exc).__name__, str(exc).splitlines()[0], flush=True)
prepared.db.close()
"""

# SQLite's unix VFS: a SHARED lock is a read lock on these bytes of the database file.
_SHARED_FIRST, _SHARED_SIZE = 0x40000000 + 2, 510


def shared_lock_held(db: Path) -> bool:
    """Whether another process holds SQLite's SHARED lock on `db` (F_GETLK takes none)."""
    fd = os.open(db, os.O_RDONLY)  # this test process has no connection: closing it is harmless
    try:
        query = struct.pack("hhqqixxxx", fcntl.F_WRLCK, os.SEEK_SET, _SHARED_FIRST, _SHARED_SIZE, 0)
        return struct.unpack("hhqqixxxx", fcntl.fcntl(fd, fcntl.F_GETLK, query))[0] != fcntl.F_UNLCK
    finally:
        os.close(fd)


@pytest.fixture
def clock():
    from quizapp.srs.clock import FixedClock
    from tests.tui.conftest import START

    return FixedClock(current=START)


@pytest.fixture(autouse=True)
def frozen(monkeypatch):
    monkeypatch.setattr("quizapp.srs.bootstrap.content_dir", lambda: FIXTURE_CONTENT)


def test_saving_a_card_keeps_the_processs_locks_and_the_wal(tmp_path, clock):
    db = make_db(tmp_path / "held.db", clock)
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), str(FIXTURE_CONTENT)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(tmp_path / "data"))
    assert proc.stdout is not None and proc.stdin is not None
    try:
        assert proc.stdout.readline().strip() == "answered", proc.stderr.read() if proc.stderr else ""
        assert shared_lock_held(db)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "card saved", proc.stderr.read() if proc.stderr else ""
        assert shared_lock_held(db), "the card-save path dropped the process's SQLite lock on the database"
        # Another quizapp comes and goes: it must see it is not the last one.
        other = sqlite3.connect(db)
        assert other.execute("SELECT count(*) FROM reviews").fetchone()[0] == 1
        other.close()
        assert Path(f"{db}-wal").exists(), "the -wal was deleted under the running process"
        out, err = proc.communicate("go\n", timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert out.strip() == "saved", (out, err)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert conn.execute("SELECT count(*) FROM reviews").fetchone()[0] == 2
    finally:
        conn.close()


@pytest.mark.parametrize("suffix", ["", "-wal"])
def test_the_database_is_never_an_export_target_or_an_import_source(tmp_path, clock, suffix):
    """`export -o DB` would write over the database (through Python I/O, while its engine is
    open); `import DB` would read it with open(). Both are one line, exit 2, before anything."""
    from tests.reliability.conftest import quizapp

    db = make_db(tmp_path / "own.db", clock)
    holder = sqlite3.connect(db)  # keeps a -wal beside it
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("CREATE TABLE IF NOT EXISTS keep (x)")
    holder.commit()
    try:
        target = Path(f"{db}{suffix}")
        assert target.exists()
        before = target.read_bytes() if not suffix else None
        for args in (["export", "--format", "json", "-o", str(target)], ["import", str(target)]):
            done = quizapp("--db", str(db), *args, env=child_env(tmp_path / "data"))
            assert done.returncode == 2, done
            assert "is the database itself" in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
        if before is not None:
            assert db.read_bytes() == before
    finally:
        holder.close()
