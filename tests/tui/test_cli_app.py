"""`quizapp` without a command: bad databases are refused before the TUI starts."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from quizapp.cli.app_cmd import START_SCREENS, add_app_arguments, preflight, run_app
from quizapp.tui.app import START_MODES

REPO = Path(__file__).resolve().parents[2]


def args(**values) -> argparse.Namespace:
    base = {"db": None, "lang": None, "content": [], "start": None}
    base.update(values)
    return argparse.Namespace(**base)


def test_start_choices_match_the_app():
    assert START_SCREENS == START_MODES
    parser = argparse.ArgumentParser()
    add_app_arguments(parser)
    assert parser.parse_args(["--start", "browse"]).start == "browse"


def test_not_a_database_is_one_line_and_exit_2(tmp_path, capsys):
    bogus = tmp_path / "notes.db"
    bogus.write_text("these are my notes, not a database\n")
    assert run_app(args(db=str(bogus), lang="en")) == 2
    err = capsys.readouterr().err
    assert err.startswith("quizapp: ") and err.count("\n") == 1
    assert bogus.read_text() == "these are my notes, not a database\n"  # untouched


def test_foreign_sqlite_file_is_refused(tmp_path):
    import sqlite3

    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE stuff (x)")
    conn.commit()
    conn.close()
    assert "not a quizapp database" in preflight(other, [])


def test_missing_content_folder_is_refused(tmp_path):
    assert "does not exist" in preflight(tmp_path / "new.db", [tmp_path / "nowhere"])


def test_a_fresh_path_passes(tmp_path):
    assert preflight(tmp_path / "sub" / "new.db", [], explicit=False) is None  # the default place is created
    assert "does not exist" in preflight(tmp_path / "typo" / "new.db", [])  # an explicit --db is not


def test_cli_refuses_before_taking_the_terminal(tmp_path):
    bogus = tmp_path / "x.db"
    bogus.write_bytes(b"\x00garbage" * 10)
    env = dict(os.environ, PYTHONPATH=str(REPO), QUIZAPP_DATA_DIR=str(tmp_path / "data"))
    result = subprocess.run(
        [sys.executable, "-m", "quizapp", "--lang", "en", "--db", str(bogus)],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path,
    )
    assert result.returncode == 2
    assert result.stdout == ""  # no escape sequences: the TUI never started
    assert result.stderr.startswith("quizapp: ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("bad", [["--start", "nowhere"], ["--lang", "fr"]])
def test_bad_options_exit_2(tmp_path, bad):
    env = dict(os.environ, PYTHONPATH=str(REPO), QUIZAPP_DATA_DIR=str(tmp_path / "data"))
    result = subprocess.run(
        [sys.executable, "-m", "quizapp", *bad], capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path
    )
    assert result.returncode == 2
    assert result.stdout == ""
