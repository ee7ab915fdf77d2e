"""Export and import: JSON round-trips progress, CSV and Anki packages are written."""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile

import pytest
from sqlalchemy import func, select

from quizapp.srs.bootstrap import prepare
from quizapp.srs.clock import FixedClock
from quizapp.srs.service import StudyService
from quizapp.store.models import Card, Review
from quizapp.store.transfer import ImportFormatError, import_json, stream_json
from tests.cli_process import run_quizapp

# Every test that has a database runs on SQLite and on PostgreSQL (tests/backends.py).
pytestmark = pytest.mark.both_backends


def _answered(where):
    prepared = prepare(where)
    service = StudyService(prepared.db, FixedClock())
    card = service.next_card("qa")
    service.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version)
    return prepared.db, card.card.item_id


def test_json_round_trip_merges_without_duplicates(more_dbs):
    source, item_id = _answered(more_dbs("a.db"))
    with source.session() as s:
        buffer = io.StringIO()
        stream_json(s, buffer)
        data = json.loads(buffer.getvalue())
    target = prepare(more_dbs("b.db")).db
    for _ in range(2):  # importing twice adds nothing the second time
        with target.session() as s, s.begin():
            import_json(s, data)
    with target.session() as s:
        card = s.scalar(select(Card).where(Card.item_id == item_id))
        assert card.reps == 1
        assert s.scalar(select(func.count(Review.id))) == 1
    # An answer after the import gets an id of its own: on PostgreSQL the import gave the
    # reviews' ids itself, and the id sequence must have moved past them.
    service = StudyService(target, FixedClock())
    shown = service.next_card("qa")
    service.answer(shown.card.card_id, 3, mode="study", expected_version=shown.card.version)
    with target.session() as s:
        assert s.scalar(select(func.count(Review.id))) == 2
    source.close()
    target.close()


def test_import_rejects_foreign_json(new_db):
    db = prepare(new_db).db
    with db.session() as s:
        for bad in ({"hello": 1}, [], {"format": "quizapp-export", "version": 99, "items": []}):
            try:
                import_json(s, bad)
            except ImportFormatError:
                continue
            raise AssertionError(f"accepted {bad!r}")


def _cli(*args):
    return run_quizapp(args, capture_output=True, text=True, timeout=120)


def test_cli_exports_csv_and_apkg(tmp_path, new_db):
    db = new_db
    csv_path, apkg = tmp_path / "out.csv", tmp_path / "out.apkg"
    assert _cli("--db", str(db), "export", "--format", "csv", "-o", str(csv_path)).returncode == 0
    lines = csv_path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("id,kind,source_no,question_zh,question_en,state")
    # Both languages, rendered as in the app (√dₖ), never raw LaTeX.
    assert not [line for line in lines if "\\" in line or "$" in line]
    q24 = next(line for line in lines if line.startswith("q24,"))
    assert "为什么" in q24 and "Why is attention scaled" in q24
    result = _cli("--db", str(db), "export", "--format", "apkg", "-o", str(apkg))
    assert result.returncode == 0, result.stderr
    with zipfile.ZipFile(apkg) as package:
        names = package.namelist()
        assert "collection.anki2" in names
        package.extract("collection.anki2", tmp_path)
    anki = sqlite3.connect(tmp_path / "collection.anki2")
    notes = anki.execute("SELECT flds FROM notes").fetchall()
    anki.close()
    assert len(notes) >= 81
    assert not any("\\sqrt" in flds or "\\frac" in flds for (flds,) in notes)


def test_cli_import_bad_file_is_usage_error(tmp_path, new_db):
    bad = tmp_path / "x.json"
    bad.write_text("{not json", encoding="utf-8")
    result = _cli("--db", str(new_db), "import", str(bad))
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_cli_import_yaml_deck_validates(tmp_path, isolated_user_dirs):
    deck = tmp_path / "mine.yaml"
    deck.write_text("mcq:\n  - {id: my-1, question: q, options: [a, b, c, d], answer: A, explanation: e,"
                    " tags: [t], source: me}\n", encoding="utf-8")
    result = _cli("import", str(deck))
    assert result.returncode == 0, result.stderr
    assert (isolated_user_dirs / "decks" / "mine.yaml").exists()
    listed = json.loads(_cli("content", "list", "--kind", "mcq", "--json").stdout)
    assert any(row["id"] == "my-1" for row in listed)


def test_db_and_transfer_commands_speak_json(tmp_path, new_db, backend, pg_servers, isolated_user_dirs):
    # A database never opened: a missing file, or an empty PostgreSQL database.
    db = new_db if backend == "sqlite" else pg_servers.get().new_database(empty=True)
    upgraded = json.loads(_cli("--db", str(db), "db", "upgrade", "--json").stdout)
    assert upgraded["from"] is None and upgraded["revision"]
    current = json.loads(_cli("--db", str(db), "db", "current", "--json").stdout)
    assert current["revision"] == current["head"] == upgraded["revision"]
    backup = json.loads(_cli("--db", str(db), "db", "backup", "--json").stdout)
    # Beside the file; a server database's pg_dump goes to the data folder.
    folder = tmp_path if backend == "sqlite" else isolated_user_dirs
    assert (folder / backup["backup"].split("/")[-1]).exists()
    exported = json.loads(_cli("--db", str(db), "export", "--format", "json", "-o", str(tmp_path / "e.json"), "--json").stdout)
    assert exported["items"] >= 81
    imported = json.loads(_cli("--db", str(db), "import", str(tmp_path / "e.json"), "--json").stdout)
    assert imported["reviews_added"] == 0 and imported["items_unknown"] == 0


def test_apkg_has_both_languages_and_opens_in_anki(tmp_path, new_db):
    """Anki's own library imports the package: zh and en are separate fields, one card per
    language, and each card's back reveals the other language."""
    pytest.importorskip("anki")
    from anki.collection import Collection, ImportAnkiPackageRequest

    from quizapp.store.transfer import write_apkg

    db = prepare(new_db).db
    with db.session() as session:
        exported = write_apkg(session, tmp_path / "out.apkg")
    db.close()
    (tmp_path / "anki").mkdir()
    col = Collection(str(tmp_path / "anki" / "collection.anki2"))
    try:
        col.import_anki_package(ImportAnkiPackageRequest(package_path=str(tmp_path / "out.apkg")))
        note_ids = col.find_notes("")
        assert len(note_ids) == exported >= 101
        qa = col.models.by_name("quizapp Q&A (中文/English)")
        assert [f["name"] for f in qa["flds"]] == [
            "Question_zh", "Question_en", "Answer_zh", "Answer_en", "More_zh", "More_en"]
        assert [t["name"] for t in qa["tmpls"]] == ["中文", "English"]
        note = col.get_note(col.find_notes('"Question_en:*Why divide by*"')[0])
        # Fields are HTML rendered from the Markdown (one paragraph here).
        assert note["Question_zh"] == "<p>为什么除 √d_k？</p>" and "variance" in note["Answer_en"]
        cards = {card.template()["name"]: card for card in note.cards()}
        english, chinese = cards["English"], cards["中文"]
        assert "Why divide" in english.question() and "为什么" not in english.question()
        assert "方差" in english.answer()  # the back reveals the Chinese version
        assert "为什么" in chinese.question() and "Why divide" not in chinese.question()
        assert "variance" in chinese.answer()
        mcq = col.models.by_name("quizapp MCQ (中文/English)")
        assert {f["name"] for f in mcq["flds"]} >= {"Options_zh", "Options_en", "Answer"}
        assert len(col.card_ids_of_note(note.id)) == 2
    finally:
        col.close()


def test_json_export_writes_stored_times_and_flags_as_the_models_read_them(new_db):
    """The export reads rows straight from the driver: each time must come out exactly as
    `datetime.isoformat()` of the model's value (a whole second has no fraction), and a
    snapshot flag stored NULL as false."""
    from datetime import datetime

    from quizapp.store.models import prev_card_of

    db = prepare(new_db).db
    whole, fraction = datetime(2026, 3, 1, 9, 30), datetime(2026, 3, 2, 10, 0, 0, 120)
    with db.session() as s, s.begin():
        card = s.scalars(select(Card).order_by(Card.id)).first()
        card.due, card.last_review, card.reps, card.state = whole, fraction, 2, 2
        s.add(Review(card_id=card.id, mode="study", rating=3, reviewed_at=whole, duration_ms=10, prev_card={}))
        s.add(Review(card_id=card.id, mode="quiz", rating=1, reviewed_at=fraction, duration_ms=None, score=0.25,
                     answer={"choice": "b", "text": "注意力"},
                     prev_card={"state": 2, "step": None, "stability": 1.5, "difficulty": 5.0,
                                "due": "2026-03-01T09:30:00", "last_review": "2026-03-01T09:30:00.000001",
                                "reps": 1, "lapses": 0, "leech": False, "suspended": False}))
        s.flush()
        s.execute(Review.__table__.update().where(Review.reviewed_at == whole).values(prev_leech=None))
        item_id = card.item_id
    with db.session() as s:
        buffer = io.StringIO()
        stream_json(s, buffer)
        stored = list(s.scalars(select(Review).order_by(Review.reviewed_at)))
        expected_prev = [prev_card_of(review) for review in stored]
    item = next(i for i in json.loads(buffer.getvalue())["items"] if i["id"] == item_id)
    assert item["card"]["due"] == "2026-03-01T09:30:00+00:00"
    assert item["card"]["last_review"] == "2026-03-02T10:00:00.000120+00:00"
    assert [r["reviewed_at"] for r in item["reviews"]] == ["2026-03-01T09:30:00+00:00", "2026-03-02T10:00:00.000120+00:00"]
    assert [r["prev_card"] for r in item["reviews"]] == expected_prev
    assert item["reviews"][0]["prev_card"]["leech"] is False
    assert item["reviews"][1]["prev_card"]["due"] == "2026-03-01T09:30:00"
    assert item["reviews"][1]["prev_card"]["last_review"] == "2026-03-01T09:30:00.000001"
    assert item["reviews"][1]["answer"] == {"choice": "b", "text": "注意力"}
    assert (item["reviews"][1]["score"], item["reviews"][1]["duration_ms"]) == (0.25, None)


def test_csv_times_carry_their_offset_and_state_is_a_name(tmp_path, new_db):
    import csv

    from quizapp.store.transfer import write_csv

    db, item_id = _answered(new_db)
    path = tmp_path / "out.csv"
    with db.session() as s:
        write_csv(s, path)
        stored = s.scalar(select(Card).where(Card.item_id == item_id))
    with path.open(encoding="utf-8", newline="") as fh:
        rows = {row["id"]: row for row in csv.DictReader(fh)}
    answered = rows[item_id]
    # Stored times are naive UTC; the file says so, so a spreadsheet in UTC+8 reads them right.
    assert answered["due"].endswith("+00:00") and answered["last_review"].endswith("+00:00")
    assert answered["due"].startswith(stored.due.isoformat())
    assert answered["state"] in {"learning", "review", "relearning"}
    unseen = next(row for key, row in rows.items() if key != item_id and row["reps"] == "0")
    assert unseen["state"] == "new"


@pytest.mark.parametrize("raw", [b"\x9e\x9f{}", b'{"format": ', b"[" * 100_000])
def test_a_file_that_is_not_json_is_named_in_a_plain_sentence(raw):
    # The decoder's own words ('utf-8' codec can't decode byte 0x9e in position 0: invalid
    # start byte) reached the user (issue 27 item 10).
    from quizapp.store.transfer import ImportFormatError, parse_export

    with pytest.raises(ImportFormatError) as caught:
        parse_export(raw)
    message = str(caught.value)
    assert message.startswith("not ") and "codec" not in message and "Expecting" not in message
    assert "char" not in message and "position" not in message
