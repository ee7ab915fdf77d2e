"""A database written by revision 0003 (the schema before compact times and day tallies),
with reviews, upgraded to head.

Revision 0004 turns reviews.reviewed_at into integer microseconds and reviews.mode into a
small integer, in place; fills review_tallies; copies items' retired flag and bank number
onto cards. Every review must come through exactly, the drill attempt must keep its
review, today's counters must equal the reviews, and undo must restore the card exactly.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

from sqlalchemy import select, text

from quizapp.srs.clock import FixedClock
from quizapp.srs.service import StudyService
from quizapp.store.database import current_revision, head_revision, migrate, open_database
from quizapp.store.models import Card, Review

# SQLite only: old SQLite files upgraded (on PostgreSQL revision 0001 makes the head schema).

DUE_US = 1_771_579_815_123_456  # 2026-02-20 09:30:15.123456
LAST_US = 1_770_543_015_654_321  # 2026-02-08 09:30:15.654321
REVIEWS = [
    # id, card, mode, rating, reviewed_at (as 0003 stores it), prev_reps
    (1, 1, "study", 3, "2026-02-08 09:30:15.654321", 3),
    (2, 1, "quiz", 3, "2026-03-02 07:31:00.000001", 4),
    (3, 2, "mock", 1, "2026-03-02 07:45:59.999999", 0),
    (4, 3, "drill", 4, "2026-03-02 06:00:00.000000", 0),
]


def _item(conn, item_id: str, kind: str, source_no: int | None, retired: str | None) -> None:
    payload = {"id": item_id, "kind": kind, "question": {"zh": "为什么除以根号 d_k", "en": "Why divide by sqrt d_k"},
               "answer": "方差归一", "tags": ["scaling"]}
    conn.execute(
        "INSERT INTO items (id, kind, source_no, question, tags, payload, content_hash, origin, retired_at, "
        "created_at, updated_at) VALUES (?, ?, ?, 'q', '[]', ?, 'h', 'builtin', ?, '2026-01-01 00:00:00.000000', "
        "'2026-01-01 00:00:00.000000')",
        (item_id, kind, source_no, json.dumps(payload, ensure_ascii=False), retired),
    )


def _database_at_0003(path):
    migrate(path, "0003")
    conn = sqlite3.connect(path)
    _item(conn, "q07", "qa", 7, None)
    _item(conn, "m01", "mcq", None, None)
    _item(conn, "drill:softmax", "skill", None, "2026-02-01 00:00:00.000000")
    for card_id, item_id, reps in ((1, "q07", 5), (2, "m01", 1), (3, "drill:softmax", 1)):
        conn.execute(
            "INSERT INTO cards (id, item_id, state, step, stability, difficulty, due, last_review, reps, lapses, "
            "suspended, leech, version) VALUES (?, ?, 2, NULL, 30.5, 5.1, '2026-03-20 09:00:00.000000', "
            "'2026-03-02 07:31:00.000001', ?, 1, 0, 0, 5)",
            (card_id, item_id, reps),
        )
    for review_id, card_id, mode, rating, at, prev_reps in REVIEWS:
        conn.execute(
            "INSERT INTO reviews (id, card_id, mode, rating, reviewed_at, duration_ms, answer, score, prev_state, "
            "prev_step, prev_stability, prev_difficulty, prev_due, prev_last_review, prev_reps, prev_lapses, "
            "prev_leech, prev_suspended) VALUES (?, ?, ?, ?, ?, 9000, ?, ?, 2, NULL, 12.345678901, 5.4321, ?, ?, "
            "?, 1, 0, 0)",
            (review_id, card_id, mode, rating, at, '{"choice": "B"}' if mode == "quiz" else None,
             1.0 if mode == "quiz" else None, DUE_US, LAST_US, prev_reps),
        )
    conn.execute(
        "INSERT INTO drill_attempts (id, type, seed, difficulty, answers, verdict, diagnosis, score, created_at, "
        "review_id) VALUES (1, 'softmax', 7, 1, '{}', '{}', '[]', 1.0, '2026-03-02 06:00:00.000000', 4)"
    )
    conn.commit()
    conn.close()


def test_reviews_come_through_exactly_and_undo_restores_the_card(tmp_path):
    path = tmp_path / "old.db"
    _database_at_0003(path)
    assert current_revision(path) == "0003"
    db = open_database(path)
    try:
        assert current_revision(path) == head_revision()
        with db.session() as session:
            reviews = session.scalars(select(Review).order_by(Review.id)).all()
            assert [(r.id, r.card_id, r.mode, r.rating, r.reviewed_at) for r in reviews] == [
                (i, c, mode, rating, datetime.fromisoformat(at)) for i, c, mode, rating, at, _ in REVIEWS
            ]
            assert reviews[1].answer == {"choice": "B"} and reviews[1].score == 1.0
            cards = {c.id: (c.kind, c.source_no, c.retired) for c in session.scalars(select(Card))}
            assert cards == {1: ("qa", 7, False), 2: ("mcq", None, False), 3: ("skill", None, True)}
        conn = sqlite3.connect(path)
        try:
            # Altered in place: the drill attempt still points at its review.
            assert conn.execute("SELECT review_id FROM drill_attempts").fetchone() == (4,)
            assert conn.execute("SELECT DISTINCT typeof(reviewed_at), typeof(mode) FROM reviews").fetchall() == [
                ("integer", "integer")
            ]
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        finally:
            conn.close()

        # 2026-03-02 08:00 UTC, day from 04:00: reviews 2 (qa, studied), 3 (mcq, new) and
        # 4 (skill, new) are today's.
        service = StudyService(db, FixedClock(datetime(2026, 3, 2, 8, 0, tzinfo=UTC)))
        counts = service.due_counts()
        assert (counts.new_done_today, counts.reviews_done_today, counts.streak) == (2, 1, 1)
        assert service.new_allowance_left("mcq") == service.settings().new_per_day - 1

        view = service.undo(2)
        assert view.state == 2 and view.reps == 4 and view.lapses == 1
        assert view.stability == 12.345678901 and view.difficulty == 5.4321
        assert view.due == datetime(2026, 2, 20, 9, 30, 15, 123456, tzinfo=UTC)
        assert view.last_review == datetime(2026, 2, 8, 9, 30, 15, 654321, tzinfo=UTC)
        counts = service.due_counts()
        assert (counts.new_done_today, counts.reviews_done_today) == (2, 0)
        with db.engine.connect() as conn2:
            tallies = conn2.execute(text("SELECT * FROM review_tallies ORDER BY quarter")).all()
        # The 2026-02-08 answer (qa, studied) and today's two first answers (mcq, skill).
        assert [tuple(t[1:]) for t in tallies] == [(0, 1, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0), (0, 0, 1, 0, 0, 0)]
    finally:
        db.close()


def test_the_downgrade_gives_back_the_0003_rows(tmp_path):
    path = tmp_path / "old.db"
    _database_at_0003(path)
    conn = sqlite3.connect(path)
    before = conn.execute("SELECT * FROM reviews ORDER BY id").fetchall()
    conn.close()
    migrate(path, "head")
    migrate(path, "0003", down=True)
    conn = sqlite3.connect(path)
    columns = [row[1] for row in conn.execute("PRAGMA table_info(reviews)")]
    after = conn.execute(f"SELECT {', '.join(columns)} FROM reviews ORDER BY id").fetchall()
    conn.close()
    # The same values; the two converted columns now sit last.
    before_by_name = [dict(zip(_columns_0003(), row)) for row in before]
    assert [dict(zip(columns, row)) for row in after] == before_by_name


def _columns_0003() -> list[str]:
    return ["id", "card_id", "mode", "rating", "reviewed_at", "duration_ms", "answer", "score", "prev_state",
            "prev_step", "prev_stability", "prev_difficulty", "prev_due", "prev_last_review", "prev_reps",
            "prev_lapses", "prev_leech", "prev_suspended"]
