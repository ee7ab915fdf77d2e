"""Every unusable database path is one line and exit 2, and leaves nothing beside the file."""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

import pytest

from tests.reliability.conftest import can_drop_root, quizapp

# SQLite only: unusable database *paths* (folders, permissions, damaged or foreign files).

COMMANDS = [
    ["stats"], ["db", "current"], ["db", "upgrade"], ["db", "backup"], ["db", "check"],
    ["export", "--format", "json", "-o", "OUT"], ["import", "IN"], ["optimize"], ["optimize", "--yes"],
    [],  # [] = the TUI
]


def one_line_refusal(result, *words: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0], lines[0]


def tui_refusal(result, *words: str) -> None:
    """The TUI found the problem after its first frame (damage is met when it is read):
    it restores the terminal, then the same one line and exit status 2."""
    assert result.returncode == 2, (result.stdout, result.stderr[-2000:])
    assert "Traceback" not in result.stderr
    after = result.stderr.rsplit("\x1b[?1049l", 1)[-1]  # what follows leaving the alternate screen
    lines = re.sub(r"\x1b\[[0-9;?<>=]*[A-Za-z]", "", after).strip().splitlines()
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0], lines[0]


def _args(command: list[str], tmp_path: Path) -> list[str]:
    export = tmp_path / "in.json"
    if not export.exists():
        export.write_text('{"format": "quizapp-export", "version": 2}', encoding="utf-8")
    return [str(tmp_path / "out.json") if a == "OUT" else str(export) if a == "IN" else a for a in command]


def beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name + "-"))


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "tui")
def test_db_is_a_folder(tmp_path, command):
    folder = tmp_path / "adir"
    folder.mkdir()
    one_line_refusal(quizapp("--db", str(folder), *_args(command, tmp_path)), "is a folder")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "tui")
def test_missing_parent_of_an_explicit_db_is_not_created(tmp_path, command):
    target = tmp_path / "typo" / "q.db"
    one_line_refusal(quizapp("--db", str(target), *_args(command, tmp_path)), "does not exist")
    assert not target.parent.exists()


def test_the_default_location_is_still_created(tmp_path):
    home = tmp_path / "fresh" / "data"
    env = {k: v for k, v in os.environ.items() if k != "QUIZAPP_DB"}
    env["QUIZAPP_DATA_DIR"] = str(home)
    result = quizapp("stats", env=env)
    assert result.returncode == 0, result.stderr
    assert (home / "quizapp.db").is_file()


@pytest.fixture
def locked_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    yield folder
    folder.chmod(0o755)
    for p in folder.iterdir():
        p.chmod(0o644)


@pytest.mark.skipif(not can_drop_root(), reason="running as root without setpriv: permissions are not enforced")
def test_new_database_in_an_unwritable_folder(locked_folder):
    locked_folder.chmod(0o555)
    target = locked_folder / "q.db"
    for command in (["stats"], ["db", "upgrade"], []):
        one_line_refusal(quizapp("--db", str(target), *command, unprivileged=True), "permission denied")
    assert list(locked_folder.iterdir()) == []


@pytest.mark.skipif(not can_drop_root(), reason="running as root without setpriv: permissions are not enforced")
def test_read_only_database_reads_work_and_writes_are_one_line(locked_folder, tmp_path):
    db = locked_folder / "q.db"
    assert quizapp("--db", str(db), "stats").returncode == 0
    assert quizapp("--db", str(db), "export", "--format", "json", "-o", str(tmp_path / "e.json")).returncode == 0
    db.chmod(0o444)
    locked_folder.chmod(0o555)
    before = db.read_bytes()
    for command in (["stats"], ["stats", "--json"], ["db", "current"], ["db", "check"],
                    ["export", "--format", "json", "-o", str(tmp_path / "ro.json")],
                    ["export", "--format", "csv", "-o", str(tmp_path / "ro.csv")]):
        result = quizapp("--db", str(db), *command, unprivileged=True)
        assert result.returncode == 0, (command, result.stderr)
    # Fitting only reads (it refuses here for want of reviews: exit 1, one line); saving writes.
    fitted = quizapp("--db", str(db), "optimize", unprivileged=True)
    assert fitted.returncode == 1 and len(fitted.stderr.strip().splitlines()) == 1, fitted.stderr
    assert "a fit needs 64" in fitted.stderr
    for command in (["import", str(tmp_path / "e.json")], ["db", "upgrade"], ["optimize", "--yes"], []):
        one_line_refusal(quizapp("--db", str(db), *command, unprivileged=True), "read-only")
    assert db.read_bytes() == before
    assert beside(db) == []


def _damaged(tmp_path: Path, table: str = "cards") -> Path:
    """A database whose `table` has a damaged root page: every command that reads it meets it
    (nothing scans the whole file on start; only `db check`, an upgrade or a backup do)."""
    db = tmp_path / "damaged.db"
    assert quizapp("--db", str(db), "stats").returncode == 0
    conn = sqlite3.connect(db)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    conn.close()
    with db.open("r+b") as fh:
        fh.seek(page_size * (root - 1))
        fh.write(b"\xde\xad" * (page_size // 2))
    assert beside(db) == []
    return db


def test_damaged_file_is_one_line_and_db_check_gives_details(tmp_path):
    db = _damaged(tmp_path)
    for command in (["stats"], ["export", "--format", "json", "-o", str(tmp_path / "x.json")]):
        one_line_refusal(quizapp("--db", str(db), *command), "damaged", "quizapp db check")
    tui_refusal(quizapp("--db", str(db)), "damaged", "quizapp db check")
    check = quizapp("--db", str(db), "db", "check")
    assert check.returncode == 1 and "Traceback" not in check.stderr
    assert "damaged" in check.stdout and len(check.stdout.splitlines()) >= 2
    assert beside(db) == []
    assert not (tmp_path / "x.json").exists()


def test_foreign_file_is_refused_and_nothing_is_left_beside_it(tmp_path):
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE stuff (x)")
    conn.commit()
    conn.close()
    text = tmp_path / "notes.txt"
    text.write_text("hello", encoding="utf-8")
    for path in (other, text):
        before = path.read_bytes()
        for command in (["stats"], ["db", "upgrade"], []):
            one_line_refusal(quizapp("--db", str(path), *command), "not a quizapp database")
        assert path.read_bytes() == before and beside(path) == []
