"""The JSON export's fast path (SQL-chosen templates, quizapp.store.json_tokens) writes the
same bytes as decoding every row and dumping it as a dict, whatever the rows hold."""

from __future__ import annotations

import io
import json
from datetime import datetime

import pytest
from sqlalchemy import select, text

from quizapp.srs.bootstrap import prepare
from quizapp.store import export_items
from quizapp.store.models import Card, Item, Review
from quizapp.store.transfer import stream_json

NOW = datetime(2026, 3, 2, 12, 0)


def _export(db, general_only: bool, monkeypatch) -> str:
    with monkeypatch.context() as patch:
        if general_only:
            patch.setattr(export_items._Fast, "build", classmethod(lambda cls, session, general: None))
        with db.session() as s:
            buffer = io.StringIO()
            stream_json(s, buffer, now=NOW)
    return buffer.getvalue()


# SQLite only: these rows hold what only SQLite's loose column types can (text in a number
# column, a mode code outside the enum), the values the fast path must hand on.
@pytest.fixture
def odd_db(tmp_path):
    """A collection whose rows take every branch: plain reviews, and values the fast path
    must leave to the general one (an answer, a time before 1970, text where a number
    belongs, a non-canonical stored time, a negative mode code)."""
    db = prepare(tmp_path / "a.db").db
    with db.session() as s, s.begin():
        cards = list(s.scalars(select(Card).order_by(Card.id)).all()[:6])
        first, second, third = cards[0], cards[1], cards[2]
        first.due, first.last_review, first.reps, first.state = datetime(2026, 3, 1, 9, 30), datetime(2026, 3, 1), 3, 2
        first.leech, first.suspended = True, True
        for n, (mode, rating, score) in enumerate([("study", 3, None), ("quiz", 1, 0.25), ("drill", 4, 1.0)]):
            s.add(Review(card_id=first.id, mode=mode, rating=rating, reviewed_at=datetime(2026, 2, 1 + n, 8, n, 59, (0, 999_999, 999_500)[n]),
                         duration_ms=None if n == 1 else 1000 * n, score=score,
                         prev_card={"state": 2, "step": None if n else 0, "stability": [5.0, 1e-7, 1e22][n],
                                    "difficulty": 2.0 / 3, "due": "2026-01-01T00:00:00",
                                    "last_review": None if n == 0 else "2025-12-31T23:59:59.999999",
                                    "reps": n, "lapses": 0, "leech": n == 2, "suspended": False}))
        s.add(Review(card_id=second.id, mode="mock", rating=2, reviewed_at=datetime(2026, 2, 5), duration_ms=5,
                     answer={"text": "None \"引号\" 注意力", "choice": None}, score=0.5, prev_card={}))
        for n in range(3):
            s.add(Review(card_id=third.id, mode="study", rating=3, reviewed_at=datetime(2026, 2, 6, n),
                         duration_ms=7, prev_card={"due": "2026-01-02T03:04:05.000006"}))
        s.flush()
        third_reviews = s.scalars(select(Review.id).where(Review.card_id == third.id).order_by(Review.id)).all()
        item = s.get(Item, cards[3].item_id)
        item.question = 'None of "these" — 注意力 \\ \n'
        item.retired_at = datetime(2026, 1, 1)
        conn = s.connection()
        conn.execute(text("UPDATE reviews SET prev_due = -1000001 WHERE id = :id"), {"id": third_reviews[0]})
        conn.execute(text("UPDATE reviews SET rating = 'three', prev_leech = NULL WHERE id = :id"),
                     {"id": third_reviews[1]})
        conn.execute(text("UPDATE reviews SET mode = -1 WHERE id = :id"), {"id": third_reviews[2]})
        conn.execute(text("UPDATE cards SET due = '2026-03-04 05:06:07', reps = 1 WHERE id = :id"), {"id": cards[4].id})
        conn.execute(text("UPDATE cards SET stability = 'x', leech = 2 WHERE id = :id"), {"id": cards[5].id})
    yield db
    db.close()


def test_the_fast_path_writes_what_the_general_path_writes(odd_db, monkeypatch):
    general = _export(odd_db, True, monkeypatch)
    fast = _export(odd_db, False, monkeypatch)
    assert fast == general
    data = json.loads(fast)
    reviews = [r for item in data["items"] for r in item["reviews"]]
    assert len(reviews) == 7 and [r["ref"] for r in reviews] == list(range(1, 8))
    answered = next(r for r in reviews if r["answer"] is not None)
    assert answered["answer"]["text"] == 'None "引号" 注意力' and answered["mode"] == "mock"


def test_the_fast_path_takes_the_plain_rows(odd_db, monkeypatch):
    """Ordinary rows do not fall back to decoding (the general path's per-row reads)."""
    fallbacks = []
    for name in ("head", "review"):
        original = getattr(export_items._General, name)

        def counting(self, *args, _original=original, _name=name):
            fallbacks.append(_name)
            return _original(self, *args)

        monkeypatch.setattr(export_items._General, name, counting)
    _export(odd_db, False, monkeypatch)
    # The odd rows above: 2 items (text where a float belongs; a stored time the
    # models write otherwise) and 4 reviews (answer, pre-1970, text rating, mode -1).
    assert sorted(fallbacks) == ["head"] * 2 + ["review"] * 4


def test_an_infinite_float_is_refused_as_before(odd_db, monkeypatch):
    with odd_db.session() as s, s.begin():
        s.connection().execute(text("UPDATE reviews SET score = 9e999 WHERE id = (SELECT min(id) FROM reviews)"))
    for general_only in (True, False):
        with pytest.raises(ValueError, match="Out of range float"):
            _export(odd_db, general_only, monkeypatch)


_EXPORT_IN_A_NEW_PROCESS = """
import json, sys
from pathlib import Path
from quizapp.store.database import open_database
from quizapp.store.models import Base
from quizapp.store.transfer import export_to
db = open_database(sys.argv[1])
count = export_to(db, "json", Path(sys.argv[2]))
db.close()
print(json.dumps({"count": count, "configured": sorted(m.class_.__name__ for m in Base.registry.mappers if m.configured)}))
"""


@pytest.mark.both_backends
def test_a_json_export_configures_no_orm_mapper(new_db, tmp_path):
    """The export is read with Core selects of the tables: configuring the mappers (the
    first ORM statement of a process pays ~10 ms for it) is no part of `quizapp export`."""
    import subprocess
    import sys

    prepare(new_db).db.close()
    out = tmp_path / "e.json"
    done = subprocess.run([sys.executable, "-c", _EXPORT_IN_A_NEW_PROCESS, str(new_db), str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["configured"] == []
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert report["count"] == len(exported["items"]) > 0
