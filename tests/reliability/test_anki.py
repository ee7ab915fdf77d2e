"""The .apkg opens in Anki's own library with the right cards, HTML fields and clean tags."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.reliability.conftest import quizapp

# SQLite only: the subject is the .apkg file Anki reads (an SQLite file of Anki's own);
# the export from PostgreSQL is the same code, tested in tests/store/test_transfer.py.

anki_collection = pytest.importorskip(
    "anki.collection", reason="the `anki` package is not installed (pip install '.[anki]')"
)

DECK = """
qa:
  - id: mine-md
    group: A
    section: "1"
    question: "What does **scaling** by $\\\\sqrt{d_k}$ do?"
    answer: |
      It keeps `softmax` out of saturation.

      | d_k | std of q·k |
      | --- | --- |
      | 64 | 8 |
    key_points:
      - {text: variance, keywords: [variance]}
      - {text: saturation, keywords: [saturation]}
      - {text: gradients, keywords: [gradient]}
    tags: [multi head, "scaling  rules"]
"""


@pytest.fixture
def package(tmp_path, isolated_user_dirs) -> tuple[Path, Path]:
    decks = isolated_user_dirs / "decks"
    decks.mkdir()
    (decks / "mine.yaml").write_text(DECK, encoding="utf-8")
    db = tmp_path / "q.db"
    out = tmp_path / "deck.apkg"
    result = quizapp("--db", str(db), "export", "--format", "apkg", "-o", str(out))
    assert result.returncode == 0, result.stderr
    return db, out


def _expected_cards(db: Path) -> int:
    """One card per language a question is given in (the bilingual templates)."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT payload FROM items WHERE kind IN ('qa', 'mcq') AND retired_at IS NULL").fetchall()
    finally:
        conn.close()
    total = 0
    for (payload,) in rows:
        question = json.loads(payload)["question"]
        total += len([v for v in question.values() if v]) if isinstance(question, dict) else 1
    return total


def test_anki_opens_the_package_with_html_fields(package, tmp_path):
    from anki.import_export_pb2 import ImportAnkiPackageOptions, ImportAnkiPackageRequest

    db, apkg = package
    (tmp_path / "anki").mkdir()
    col = anki_collection.Collection(str(tmp_path / "anki" / "collection.anki2"))
    try:
        col.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg), options=ImportAnkiPackageOptions()))
        assert col.card_count() == _expected_cards(db)
        notes = [col.get_note(note_id) for note_id in col.find_notes("")]
        fields = [field for note in notes for field in note.fields]
        assert not any("**" in field for field in fields)
        assert not any("\\\\sqrt" in field or "\\\\frac" in field for field in fields)
        mine = next(note for note in notes if "<strong>scaling</strong>" in " ".join(note.fields))
        answer = " ".join(mine.fields)
        assert "by √dₖ do?" in answer
        assert "<code>softmax</code>" in answer and "<table>" in answer
        assert sorted(mine.tags) == ["multi_head", "scaling_rules"]
        assert all(" " not in tag for note in notes for tag in note.tags)
    finally:
        col.close()
