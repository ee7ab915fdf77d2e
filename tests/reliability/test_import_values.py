"""Values an import or a deck can hold that once got through or crashed: a diagnosis that is
not a named mistake (it broke Stats for good), times outside what can be stored, an export
written under a clock that ran ahead, a byte-order mark, a key given twice, a bidi override."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.backends import execute
from tests.reliability.conftest import quizapp
from tests.reliability.test_deck_file_names import DECK

# What an import reads and refuses is the same whichever database it writes to; on
# PostgreSQL it must refuse as SQLite does, before or without a partial write.
pytestmark = pytest.mark.both_backends


# A new database's export, by backend: each test edits its own copy. (New databases of a
# backend export the same items and cards; one export per worker instead of one per test
# halves these tests' processes.)
_EXPORTS: dict[str, str] = {}


@pytest.fixture
def export(isolated_user_dirs, tmp_path, new_db, backend, monkeypatch) -> dict:
    monkeypatch.setenv("QUIZAPP_DB", str(new_db))  # the CLI's database (a file or a URL)
    if backend not in _EXPORTS:
        out = tmp_path / "e.json"
        assert quizapp("export", "--format", "json", "-o", str(out)).returncode == 0
        _EXPORTS[backend] = out.read_text(encoding="utf-8")
    return json.loads(_EXPORTS[backend])


def _attempt(diagnosis) -> dict:
    return {"ref": 1, "type": "softmax", "seed": 1, "difficulty": 1, "given": None, "answers": {"A": "1"},
            "verdict": {"score": 1.0}, "diagnosis": diagnosis, "score": 1.0, "duration_ms": 10,
            "created_at": "2026-01-01T00:00:00+00:00", "review_ref": None, "mock_ref": None}


def _import(data: dict, tmp_path: Path, raw: bytes | None = None):
    path = tmp_path / "in.json"
    path.write_bytes(raw if raw is not None else json.dumps(data).encode())
    return quizapp("import", str(path))


def _one_line(result, *words: str) -> None:
    assert result.returncode == 2, result.stdout
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert all(word in result.stderr for word in words), result.stderr


def test_a_diagnosis_that_is_not_a_named_mistake_is_refused(export, tmp_path):
    export["drill_attempts"] = [_attempt(["str"])]
    _one_line(_import(export, tmp_path), "drill_attempts[0].diagnosis[0]")


def test_a_well_formed_diagnosis_is_imported(export, tmp_path):
    named = {"part": "A", "mistake": "no_scaling", "message_zh": "没有除以 √d_k", "message_en": "no scaling"}
    export["drill_attempts"] = [_attempt([named])]
    result = _import(export, tmp_path)
    assert result.returncode == 0, result.stderr


def test_stats_and_db_check_survive_a_stored_diagnosis_of_another_shape(new_db, export, tmp_path):
    export["drill_attempts"] = [_attempt([])]
    assert _import(export, tmp_path).returncode == 0
    execute(new_db, """UPDATE drill_attempts SET diagnosis = '["str", 3, {"no": 1}]'""")
    stats = quizapp("stats", "--json")
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)
    check = quizapp("db", "check")
    assert check.returncode == 1
    assert "drill_attempts.diagnosis" in check.stdout and "not a named mistake" in check.stdout


@pytest.mark.parametrize("when", ["9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+01:00",
                                  "1900-01-01T00:00:00+00:00"])
@pytest.mark.parametrize("field", ["exported_at", "due", "reviewed_at"])
def test_out_of_range_times_are_one_line_exit_2(export, tmp_path, when, field):
    item = export["items"][0]
    if field == "exported_at":
        export["exported_at"] = when
    elif field == "due":
        item["card"] = {"state": 2, "step": None, "stability": 3.0, "difficulty": 5.0, "due": when,
                        "last_review": None, "reps": 1, "lapses": 0, "suspended": False, "leech": False}
    else:
        item["reviews"] = [{"ref": 1, "mode": "study", "rating": 3, "reviewed_at": when, "duration_ms": 10,
                            "score": None, "answer": None, "prev_card": {
                                "state": 1, "step": 0, "stability": None, "difficulty": None,
                                "due": "2026-01-01T00:00:00", "last_review": None, "reps": 0, "lapses": 0,
                                "leech": False, "suspended": False}}]
    _one_line(_import(export, tmp_path), "out of range")


def test_an_export_written_under_a_clock_30_days_ahead_imports_with_a_note(export, tmp_path):
    ahead = datetime.now(UTC) + timedelta(days=30)
    export["exported_at"] = ahead.isoformat()
    export["items"][0]["reviews"] = [{
        "ref": 1, "mode": "study", "rating": 3, "reviewed_at": (ahead - timedelta(hours=1)).isoformat(),
        "duration_ms": 10, "score": None, "answer": None, "prev_card": {
            "state": 1, "step": 0, "stability": None, "difficulty": None, "due": "2026-01-01T00:00:00",
            "last_review": None, "reps": 0, "lapses": 0, "leech": False, "suspended": False}}]
    result = _import(export, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "clock 29 days ahead" in result.stderr or "clock 30 days ahead" in result.stderr


def test_a_review_after_the_files_own_export_time_is_still_refused(export, tmp_path):
    export["items"][0]["reviews"] = [{
        "ref": 1, "mode": "study", "rating": 3, "reviewed_at": (datetime.now(UTC) + timedelta(days=30)).isoformat(),
        "duration_ms": 10, "score": None, "answer": None, "prev_card": {
            "state": 1, "step": 0, "stability": None, "difficulty": None, "due": "2026-01-01T00:00:00",
            "last_review": None, "reps": 0, "lapses": 0, "leech": False, "suspended": False}}]
    _one_line(_import(export, tmp_path), "in the future")


def test_an_export_with_a_utf8_byte_order_mark_imports(export, tmp_path):
    result = _import(export, tmp_path, b"\xef\xbb\xbf" + json.dumps(export).encode())
    assert result.returncode == 0, result.stderr


def test_a_deck_with_a_key_given_twice_is_refused_with_its_line(isolated_user_dirs, tmp_path):
    deck = tmp_path / "twice.yaml"
    deck.write_text(DECK.format(id="twice-one").replace("    tags: [mine]\n", "    tags: [mine]\n    tags: [other]\n"),
                    encoding="utf-8")
    result = quizapp("content", "check", "--content", str(tmp_path))
    assert result.returncode == 1
    assert "duplicate key 'tags' (line 12)" in result.stdout, result.stdout


def test_a_bidi_override_in_a_deck_is_refused(isolated_user_dirs, tmp_path):
    deck = tmp_path / "bidi.yaml"
    deck.write_text(DECK.format(id="bidi-one").replace("What is my own question", "What is \u202emy own"),
                    encoding="utf-8")
    result = quizapp("content", "check", "--content", str(tmp_path))
    assert result.returncode == 1 and "U+202E" in result.stdout
    assert "\u202e" not in result.stdout


@pytest.mark.parametrize("key", ["items", "drill_attempts", "mock_interviews"])
@pytest.mark.parametrize("value", ["x", {"a": 1}, 5, None])
def test_an_array_of_another_type_is_refused_not_read_as_empty(export, tmp_path, key, value):
    # `"items": "x"` was imported as "0 reviews added" (the streamed reader looked only for
    # the array's elements), exit 0.
    export[key] = value
    _one_line(_import(export, tmp_path), f"{key}: Input should be a valid array")
