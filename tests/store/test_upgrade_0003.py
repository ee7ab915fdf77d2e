"""A database written by the first schema (revision 0001), with reviews, upgraded to head.

Revision 0003 moves each review's JSON snapshot of the card into compact columns; undo
must still restore exactly the card as it was, and nothing else may be lost on the way.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

from sqlalchemy import select

from quizapp.srs.clock import FixedClock
from quizapp.srs.service import StudyService
from quizapp.store.database import current_revision, head_revision, migrate, open_database
from quizapp.store.models import Card, Review

# SQLite only: old SQLite files upgraded (on PostgreSQL revision 0001 makes the head schema).

BEFORE = {
    "state": 2, "step": None, "stability": 12.345678901, "difficulty": 5.4321,
    "due": "2026-02-20T09:30:15.123456", "last_review": "2026-02-08T09:30:15.654321",
    "reps": 4, "lapses": 1, "leech": False, "suspended": False,
}


def _old_database(path):
    migrate(path, "0001")
    conn = sqlite3.connect(path)
    payload = {"id": "q07", "kind": "qa", "question": {"zh": "为什么除以根号 d_k", "en": "Why divide by sqrt d_k"},
               "answer": "方差归一", "tags": ["scaling"]}
    conn.execute(
        "INSERT INTO items (id, kind, source_no, question, tags, payload, content_hash, origin, created_at, updated_at) "
        "VALUES ('q07', 'qa', 7, '为什么除以根号 d_k', '[\"scaling\"]', ?, 'h', 'builtin', '2026-01-01 00:00:00.000000', "
        "'2026-01-01 00:00:00.000000')",
        (json.dumps(payload, ensure_ascii=False),),
    )
    conn.execute(
        "INSERT INTO cards (id, item_id, state, step, stability, difficulty, due, last_review, reps, lapses, "
        "suspended, leech, version) VALUES (1, 'q07', 2, NULL, 30.5, 5.1, '2026-03-20 09:00:00.000000', "
        "'2026-02-20 09:31:00.000000', 5, 1, 0, 0, 5)"
    )
    first = dict(BEFORE, reps=3, due="2026-02-08T09:00:00", last_review=None)
    conn.execute(
        "INSERT INTO reviews (id, card_id, mode, rating, reviewed_at, duration_ms, answer, score, prev_card) "
        "VALUES (1, 1, 'study', 3, '2026-02-08 09:30:15.654321', 9000, NULL, NULL, ?)",
        (json.dumps(first),),
    )
    conn.execute(
        "INSERT INTO reviews (id, card_id, mode, rating, reviewed_at, duration_ms, answer, score, prev_card) "
        "VALUES (2, 1, 'quiz', 3, '2026-02-20 09:31:00.000000', 7000, '{\"choice\": \"B\"}', 1.0, ?)",
        (json.dumps(BEFORE),),
    )
    conn.execute(
        "INSERT INTO drill_attempts (id, type, seed, difficulty, answers, verdict, diagnosis, score, created_at, "
        "review_id) VALUES (1, 'attention', 7, 1, '{}', '{}', '[]', 1.0, '2026-02-20 09:31:00.000000', 2)"
    )
    conn.commit()
    conn.close()


def test_reviews_survive_the_upgrade_and_undo_restores_the_card(tmp_path):
    path = tmp_path / "old.db"
    _old_database(path)
    assert current_revision(path) == "0001"

    db = open_database(path)
    try:
        assert current_revision(path) == head_revision()
        with db.session() as session:
            reviews = session.scalars(select(Review).order_by(Review.id)).all()
            assert [r.prev_card for r in reviews] == [
                dict(BEFORE, reps=3, due="2026-02-08T09:00:00", last_review=None), BEFORE
            ]
            assert reviews[1].answer == {"choice": "B"} and reviews[1].mode == "quiz"
        # The reviews table was altered in place: the drill attempt still points at its review.
        conn = sqlite3.connect(path)
        assert conn.execute("SELECT review_id FROM drill_attempts").fetchone() == (2,)
        conn.close()

        service = StudyService(db, FixedClock(datetime(2026, 3, 2, 8, 0, tzinfo=UTC)))
        view = service.undo(2)
        assert view.state == 2 and view.reps == 4 and view.lapses == 1
        assert view.stability == BEFORE["stability"] and view.difficulty == BEFORE["difficulty"]
        assert view.due == datetime(2026, 2, 20, 9, 30, 15, 123456, tzinfo=UTC)
        assert view.last_review == datetime(2026, 2, 8, 9, 30, 15, 654321, tzinfo=UTC)
        with db.session() as session:
            assert session.get(Card, 1).reps == 4
            assert [r.id for r in session.scalars(select(Review))] == [1]

        # The search index was filled by the upgrade, in both languages of the question.
        assert [s.item_id for s in service.search("sqrt")] == ["q07"]
        assert [s.item_id for s in service.search("根号")] == ["q07"]
    finally:
        db.close()


def test_new_answers_store_the_snapshot_compactly(tmp_path):
    path = tmp_path / "old.db"
    _old_database(path)
    db = open_database(path)
    try:
        service = StudyService(db, FixedClock(datetime(2026, 3, 25, 8, 0, tzinfo=UTC)))
        with db.session() as session:
            card = session.get(Card, 1)
            expected = {"state": card.state, "reps": card.reps, "stability": card.stability, "due": card.due}
        result = service.answer(1, 3, mode="study")
        conn = sqlite3.connect(path)
        row = conn.execute(
            "SELECT prev_state, prev_reps, prev_stability, prev_due, typeof(prev_due) FROM reviews WHERE id = ?",
            (result.review_id,),
        ).fetchone()
        conn.close()
        assert row[:3] == (expected["state"], expected["reps"], expected["stability"])
        assert row[4] == "integer"
        view = service.undo(result.review_id)
        assert view.due.replace(tzinfo=None) == expected["due"]
    finally:
        db.close()
