"""Atomic files: a full disk or a crash while writing leaves the previous file as it was.

The "full disk" is a file-size limit of one 512-byte block (RLIMIT_FSIZE, SIGXFSZ ignored
so the write fails with EFBIG instead of killing the process). The crash is SIGKILL.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.backends import rows
from tests.reliability.conftest import add_reviews, quizapp

# SQLite only, but for the killed import: these are about the files quizapp writes
# (exports, backups), whichever database they come from.


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_block_limit() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))


def _spawn(*args: str, limited: bool = False) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "quizapp", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=one_block_limit if limited else None)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture(scope="module")
def synced_db(tmp_path_factory) -> Path:
    """A database made and synced by the CLI, once per module (two processes of ~2 s CPU
    each); each test gets its own copy."""
    path = tmp_path_factory.mktemp("synced") / "q.db"
    assert quizapp("--db", str(path), "db", "upgrade").returncode == 0
    assert quizapp("--db", str(path), "stats").returncode == 0  # syncs the content
    assert not Path(f"{path}-wal").exists()  # the file alone is the whole database
    return path


def synced_copy(backend: str, holder, synced_db: Path, path: Path) -> Path | str:
    """A database as `synced_db` is (migrated, the content synced): a copy of the file, or a
    PostgreSQL database synced once per test process and copied from it."""
    if backend == "sqlite":
        shutil.copyfile(synced_db, path)
        return path
    from quizapp.srs.bootstrap import prepare
    from tests.backends import prepared_db

    return prepared_db(backend, holder, path, ("cli-synced",), lambda target: prepare(target).db.close())


@pytest.fixture
def db(synced_db, tmp_path) -> Path:
    path = tmp_path / "q.db"
    shutil.copyfile(synced_db, path)
    return path


@pytest.mark.parametrize("fmt", ["json", "csv", "apkg"])
def test_export_under_a_one_block_file_size_limit_leaves_the_previous_file(db, tmp_path, fmt):
    out = tmp_path / f"export.{fmt}"
    assert quizapp("--db", str(db), "export", "--format", fmt, "-o", str(out)).returncode == 0
    before = digest(out)
    assert out.stat().st_size > 512
    # Another quizapp has the database open, so its -shm exists: the limited process needs
    # to write nothing but the export.
    holder = sqlite3.connect(db)
    holder.execute("SELECT count(*) FROM items").fetchone()
    try:
        proc = _spawn("--lang", "en", "--db", str(db), "export", "--format", fmt, "-o", str(out), limited=True)
        _, err = proc.communicate(timeout=120)
    finally:
        holder.close()
    assert proc.returncode == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "cannot write" in err and "previous file is unchanged" in err, err
    assert digest(out) == before
    assert leftovers(tmp_path) == []


def test_backup_under_a_file_size_limit_leaves_no_partial_backup(db, tmp_path):
    holder = sqlite3.connect(db)
    holder.execute("SELECT count(*) FROM items").fetchone()
    try:
        proc = _spawn("--db", str(db), "db", "backup", limited=True)
        _, err = proc.communicate(timeout=120)
    finally:
        holder.close()
    assert proc.returncode == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert [p.name for p in tmp_path.iterdir() if ".backup-" in p.name] == []
    assert leftovers(tmp_path) == []


def _kill_when(proc: subprocess.Popen[str], ready, timeout: float = 60) -> bool:
    """SIGKILL `proc` as soon as `ready()` holds; False if it finished first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        if ready():
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            return True
        time.sleep(0.005)
    raise AssertionError("the condition never held")


def test_kill_9_during_export_leaves_the_previous_file(db, tmp_path):
    add_reviews(db, 60_000)  # an export that takes a moment to write
    out = tmp_path / "export.json"
    out.write_text('{"previous": "export"}\n', encoding="utf-8")
    before = digest(out)
    proc = _spawn("--db", str(db), "export", "--format", "json", "-o", str(out))
    killed = _kill_when(proc, lambda: any(p.stat().st_size > 0 for p in tmp_path.glob(".export.json.*.tmp")))
    assert killed, "the export finished before it could be killed"
    assert digest(out) == before


def _reviews(db: Path | str) -> int:
    return rows(db, "SELECT count(*) FROM reviews")[0][0]


@pytest.fixture(scope="module")
def big_export(tmp_path_factory, synced_db) -> Path:
    folder = tmp_path_factory.mktemp("big")
    source = folder / "source.db"
    shutil.copyfile(synced_db, source)
    add_reviews(source, 20_000)
    export = folder / "big.json"
    assert quizapp("--db", str(source), "export", "--format", "json", "-o", str(export)).returncode == 0
    assert sum(len(i["reviews"]) for i in json.loads(export.read_text(encoding="utf-8"))["items"]) == 20_000
    return export


# The import's one transaction is the database's: on PostgreSQL too (the other tests here
# are about the files quizapp writes, whatever the database).
@pytest.mark.both_backends
@pytest.mark.parametrize("delay", [0.3, 0.8, 1.3])
def test_kill_9_during_import_is_all_or_nothing(tmp_path, big_export, synced_db, delay, backend, pg_servers):
    target = synced_copy(backend, pg_servers, synced_db, tmp_path / "target.db")
    proc = _spawn("--db", str(target), "import", str(big_export))
    time.sleep(delay)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert _reviews(target) in (0, 20_000)
    assert quizapp("--db", str(target), "db", "check").returncode == 0  # the file is sound (the full check)


def test_a_writer_failing_half_way_leaves_the_old_file_and_no_temp(tmp_path):
    from quizapp.atomic import atomic_write

    target = tmp_path / "report.md"
    target.write_text("old report\n", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_write(target) as fh:
        fh.write("half a new rep")
        raise RuntimeError("disk gone")
    assert target.read_text(encoding="utf-8") == "old report\n"
    assert leftovers(tmp_path) == []
