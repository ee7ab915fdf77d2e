"""A long import streams: its memory stays flat whatever the file's size, it stays all or
nothing (one transaction), and while it writes, another quizapp's busy notice says how far
it is.

Real processes and files: `quizapp import` runs in a child that reports its own peak RSS
(its VmHWM); the files are generated once per module, two sizes (4× apart).
Before the import streamed, a file was parsed whole into pydantic models: a 59 MB export
peaked at 1.54 GB, the 20 MB one here at several hundred MB.
"""

from __future__ import annotations

import json
import os
import platform
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.backends import rows
from tests.reliability.conftest import quizapp
from tests.reliability.test_atomic_files import synced_copy, synced_db  # noqa: F401 - a fixture

# On PostgreSQL too: the import streams into the server in one transaction, and another
# client's busy notice hears how far it is through the server (quizapp.store.pg).
pytestmark = pytest.mark.both_backends

LIMIT_MB = 200
PER_ITEM = 100  # reviews per item in the generated files

# `quizapp import` in this process, then its peak resident size (KiB). The high-water mark
# of this program's own memory (VmHWM, reset by exec): getrusage's ru_maxrss also keeps
# what the process had before exec — the size of the pytest worker that forked it — and
# said 276 MB for both files when that worker had grown (it is printed too, for the record).
MEASURED = """
import resource, runpy, sys
sys.argv = ["quizapp", "--lang", "en", "--db", sys.argv[1], "import", sys.argv[2]]
code = 0
try:
    runpy.run_module("quizapp", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    code = exc.code
with open("/proc/self/status", encoding="ascii") as status:
    hwm = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print("MAXRSS", hwm, code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)
"""

_SNAPSHOT = ('{"state": 1, "step": 0, "stability": null, "difficulty": null, "due": "2026-01-01T00:00:00", '
             '"last_review": null, "reps": 0, "lapses": 0, "leech": false, "suspended": false}')


def write_export(path: Path, known: list[str], unknown_items: int) -> int:
    """An export with PER_ITEM reviews for every item of the database (`known`) and as many
    more items it does not have (parsed and checked like the others, then skipped): the
    file grows, what is written does not. Returns the number of reviews the import adds."""
    ref = 0
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"format":"quizapp-export","version":2,"exported_at":"2026-06-01T00:00:00+00:00",\n'
                  '"settings":{},\n"items":[')
        ids = known + [f"unknown-{n}" for n in range(unknown_items)]
        for n, item_id in enumerate(ids):
            reviews = []
            for k in range(PER_ITEM):
                ref += 1
                reviews.append(f'{{"ref":{ref},"mode":"study","rating":{1 + k % 4},'
                               f'"reviewed_at":"2026-01-{1 + k % 28:02d}T{k % 24:02d}:00:{k % 60:02d}.{n:06d}+00:00",'
                               f'"duration_ms":{1000 + k},"score":null,"answer":null,"prev_card":{_SNAPSHOT}}}')
            out.write(("\n" if n == 0 else ",\n") + json.dumps(
                {"id": item_id, "kind": "qa", "source_no": None, "question": "q", "retired": False, "card": None,
                 "reviews": []})[:-3] + "[" + ",".join(reviews) + "]}")
        out.write('],\n"drill_attempts":[],\n"mock_interviews":[]}\n')
    return len(known) * PER_ITEM


@pytest.fixture(scope="module")
def exports(tmp_path_factory, synced_db):  # noqa: F811
    folder = tmp_path_factory.mktemp("exports")
    conn = sqlite3.connect(synced_db)
    try:
        known = [row[0] for row in conn.execute("SELECT items.id FROM items JOIN cards ON cards.item_id = items.id")]
    finally:
        conn.close()
    small, large = folder / "small.json", folder / "large.json"
    added = write_export(small, known, 0)
    assert write_export(large, known, 3 * len(known)) == added
    assert large.stat().st_size > 3.5 * small.stat().st_size
    return small, large, added


def _reviews(db: Path | str) -> int:
    return rows(db, "SELECT count(*) FROM reviews")[0][0]


def _measured_import(db: Path | str, export: Path) -> tuple[float, str]:
    done = subprocess.run([sys.executable, "-c", MEASURED, str(db), str(export)], capture_output=True, text=True,
                          timeout=600)
    last = done.stdout.strip().splitlines()[-1].split()
    assert last[0] == "MAXRSS" and last[2] in ("0", "None"), (done.stdout, done.stderr)
    return int(last[1]) / 1024, done.stdout


# SQLite only: the streamed reader (whose memory this measures) is the same code on either
# backend, and the two imports cost ~100 s on PostgreSQL; the killed import below streams
# the same large file into the server.
@pytest.mark.sqlite_only
@pytest.mark.skipif(platform.system() != "Linux", reason="reads /proc/self/status")
def test_memory_stays_flat_whatever_the_file_size(tmp_path, synced_db, exports, backend, pg_servers):  # noqa: F811
    small, large, added = exports
    peaks = {}
    for export in (small, large):
        db = synced_copy(backend, pg_servers, synced_db, tmp_path / f"{export.stem}.db")
        peaks[export.stem], out = _measured_import(db, export)
        assert f"{added} reviews added" in out, out
        assert _reviews(db) == added
    assert max(peaks.values()) <= LIMIT_MB, peaks
    # 4× the file, about the same memory: nothing grows with it.
    assert peaks["large"] - peaks["small"] <= 25, peaks


def _progress(db: Path | str) -> int | None:
    if isinstance(db, str):
        from quizapp.store.pg import importing_on_server

        return importing_on_server(db)
    try:
        return json.loads(Path(f"{db}.importing").read_text(encoding="utf-8"))["percent"]
    except (OSError, ValueError, KeyError):
        return None


def test_killed_mid_write_leaves_the_collection_as_it_was_and_others_hear_how_far(tmp_path, synced_db, exports,  # noqa: F811
                                                                                  monkeypatch, backend, pg_servers):
    small, large, added = exports
    db = synced_copy(backend, pg_servers, synced_db, tmp_path / "target.db")
    proc = subprocess.Popen([sys.executable, "-m", "quizapp", "--lang", "en", "--db", str(db), "import", str(large)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        while (_progress(db) or 0) < 1:  # inside the write transaction: reviews are being written
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the import never started writing"
            time.sleep(0.01)
        # Another quizapp's write meanwhile: busy, and it says what is going on.
        monkeypatch.setenv("QUIZAPP_BUSY_TIMEOUT_MS", "50")
        from sqlalchemy import text

        from quizapp.store.database import open_database
        from quizapp.store.errors import DatabaseBusy

        other = open_database(db)
        try:
            with pytest.raises(DatabaseBusy) as busy, other.session() as session, session.begin():
                session.execute(text("UPDATE settings SET value = value WHERE 0"))
        finally:
            other.close()
        assert busy.value.importing is not None and 1 <= busy.value.importing <= 100
        assert "another quizapp is importing" in str(busy.value) and "% done" in str(busy.value)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert _reviews(db) == 0  # all or nothing: nothing
    assert quizapp("--db", str(db), "db", "check").returncode == 0
    # The progress file of the killed import names a dead process: ignored, then replaced.
    # (On PostgreSQL the progress went with the killed process's connection, which the
    # server ends as it sees the socket close.)
    from quizapp.store.import_progress import importing

    if isinstance(db, Path):
        assert importing(db) is None
    else:
        deadline = time.monotonic() + 60
        while _progress(db) is not None:
            assert time.monotonic() < deadline, "the killed import's progress outlived it"
            time.sleep(0.05)
    # The same reviews again, from the small file: the large one only makes the kill land
    # mid-write, and parsing its extra items again cost about 2 s.
    again = quizapp("--lang", "en", "--db", str(db), "import", str(small))
    assert again.returncode == 0 and f"{added} reviews added" in again.stdout, again.stderr
    assert _reviews(db) == added and not Path(f"{db}.importing").exists()
