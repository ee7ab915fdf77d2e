"""`quizapp export` / `quizapp import` from the outside: real processes, real files."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.backends import fingerprint, new_db
from tests.cli_process import run_quizapp


def cli(*args: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return run_quizapp(args, capture_output=True, text=True, timeout=180, **kwargs)


@pytest.fixture(scope="module")
def exported(tmp_path_factory, module_backend, pg_servers) -> tuple[Path | str, Path]:
    """A database made by the CLI (a file, or a database on the PostgreSQL server) and its export."""
    folder = tmp_path_factory.mktemp("cli")
    db = new_db(module_backend, pg_servers, folder, "q.db")
    result = cli("--db", str(db), "export", "--format", "json", "-o", str(folder / "e.json"))
    assert result.returncode == 0, result.stderr
    return db, folder / "e.json"


def test_export_schema_is_json_schema(exported):
    result = cli("export", "--schema")
    assert result.returncode == 0
    schema = json.loads(result.stdout)
    assert schema["title"] == "Export" and "items" in schema["properties"]
    assert schema["properties"]["version"]["const"] == 2


def test_import_bad_rating_exit_2_located_and_database_unchanged(exported, tmp_path):
    db, export = exported
    data = json.loads(export.read_text(encoding="utf-8"))
    data["items"][0]["reviews"] = [{
        "ref": 1, "mode": "study", "rating": 5, "reviewed_at": "2026-01-01T00:00:00+00:00", "duration_ms": 10,
        "score": None, "answer": None, "prev_card": {**{k: data["items"][0]["card"][k] for k in (
            "state", "step", "stability", "difficulty", "reps", "lapses", "leech", "suspended")},
            "due": "2026-01-01T00:00:00", "last_review": None},
    }]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    before = fingerprint(db)
    result = cli("--lang", "en", "--db", str(db), "import", str(bad))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [f"quizapp: {bad}: items[0].reviews[0].rating: must be 1–4"]
    assert fingerprint(db) == before


@pytest.mark.parametrize("text", ["{not json", "[]", '{"format": "quizapp-export", "version": 1, "items": []}', ""])
def test_import_garbage_is_one_line_exit_2(exported, tmp_path, text):
    db, _ = exported
    bad = tmp_path / "garbage.json"
    bad.write_text(text, encoding="utf-8")
    result = cli("--db", str(db), "import", str(bad))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
