"""The pre-flight check before the first frame: one cheap query, nothing heavy imported."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from quizapp.store.database import head_revision, open_database
from quizapp.store.errors import NotAQuizappDatabase, SchemaTooNew
from quizapp.store.preflight import known_revisions, stored_revision


def test_revisions_read_from_the_files_match_alembic():
    assert head_revision() in known_revisions() and "0001" in known_revisions()


def test_new_garbage_foreign_newer_and_head_files(tmp_path):
    assert stored_revision(tmp_path / "missing.db") is None
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 10)
    with pytest.raises(NotAQuizappDatabase):
        stored_revision(garbage)
    foreign = tmp_path / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.close()
    with pytest.raises(NotAQuizappDatabase):
        stored_revision(foreign)
    ours = tmp_path / "ours.db"
    open_database(ours).close()
    assert stored_revision(ours) == head_revision()
    conn = sqlite3.connect(ours)
    conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.commit()
    conn.close()
    with pytest.raises(SchemaTooNew):
        stored_revision(ours)


def test_first_frame_imports_nothing_heavy(tmp_path):
    """What runs before Home's first frame: the CLI parser, the pre-flight check, the app module."""
    db = tmp_path / "q.db"
    open_database(db).close()
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from quizapp.cli.main import build_parser\n"
        "build_parser()\n"
        "from quizapp.cli.app_cmd import preflight\n"
        f"assert preflight(Path({str(db)!r}), []) is None\n"
        "import quizapp.tui.app\n"
        "from quizapp.tui.screens.home import HomeScreen\n"
        "heavy = {'sqlalchemy', 'alembic', 'numpy', 'fsrs', 'pydantic', 'yaml'}\n"
        "print(sorted(heavy & {name.split('.')[0] for name in sys.modules}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
