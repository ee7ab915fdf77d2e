"""An import keeps `review_gaps` what its answers make it, on both backends.

On PostgreSQL the import's answers skip the per-row gap trigger and the gaps of the cards
they touched are moved at once (quizapp/store/review_gaps.py, revision 0012); on SQLite
the trigger does it. Either way the stored day counts must equal a count made afresh from
every answer — answers added before, between and after a card's own (cram answers apart),
duplicates skipped, a second import adding nothing, an answer given afterwards.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from quizapp.srs.bootstrap import prepare
from quizapp.srs.clock import FixedClock
from quizapp.srs.service import StudyService
from quizapp.store import review_gaps
from quizapp.store.models import Card
from quizapp.store.transfer import import_json
from tests.backends import rows

pytestmark = pytest.mark.both_backends

DAY_US = 86_400_000_000
# A whole recount of the gaps (as `db check` makes it), beside what the database keeps.
RECOUNT = (f"SELECT gap / {DAY_US}, count(*), sum(CASE WHEN rating > 1 THEN 1 ELSE 0 END) FROM ("
           "SELECT rating, reviewed_at - lag(reviewed_at) OVER (PARTITION BY card_id ORDER BY reviewed_at, id) AS gap "
           "FROM reviews WHERE mode <> 4) AS g WHERE gap IS NOT NULL GROUP BY 1 ORDER BY 1")
KEPT = "SELECT day, answers, passed FROM review_gaps WHERE answers <> 0 OR passed <> 0 ORDER BY 1"
SNAPSHOT = {"state": 2, "step": None, "stability": 3.0, "difficulty": 5.0, "due": "2026-02-01T00:00:00",
            "last_review": "2026-01-01T00:00:00", "reps": 1, "lapses": 0, "leech": False, "suspended": False}


def export(histories: dict[str, list[tuple[int, int, str]]]) -> dict:
    """An export of these answers: per item, (day of January, rating, mode)."""
    ref = 0
    items = []
    for item_id, answers in histories.items():
        reviews = []
        for day, rating, mode in answers:
            ref += 1
            reviews.append({"ref": ref, "mode": mode, "rating": rating, "duration_ms": 1000, "score": None,
                            "answer": None, "reviewed_at": f"2026-01-{day:02d}T08:{ref % 60:02d}:00+00:00",
                            "prev_card": SNAPSHOT})
        items.append({"id": item_id, "kind": "qa", "source_no": None, "question": "q", "retired": False,
                      "card": None, "reviews": reviews})
    return {"format": "quizapp-export", "version": 2, "exported_at": "2026-06-01T00:00:00+00:00", "settings": {},
            "items": items, "drill_attempts": [], "mock_interviews": []}


def imported(db, data: dict) -> None:
    with db.session() as session, session.begin():
        import_json(session, data)


def test_imported_answers_keep_the_gaps_a_recount_gives(new_db, backend, monkeypatch):
    moves: list[int] = []
    real_move = review_gaps.move
    monkeypatch.setattr(review_gaps, "move", lambda cursor, first: (moves.append(first), real_move(cursor, first)))
    prepared = prepare(new_db)
    db = prepared.db
    try:
        with db.session() as session:
            x, y, z = session.scalars(select(Card.item_id).order_by(Card.item_id).limit(3)).all()
        imported(db, export({x: [(1, 3, "study"), (5, 1, "study"), (9, 3, "quiz")],
                             y: [(2, 3, "study"), (3, 3, "cram"), (20, 4, "study")]}))
        assert rows(new_db, KEPT) == rows(new_db, RECOUNT) != []
        # Between, before and after a card's own answers; the day-5 answer again (skipped);
        # cram answers, which have no gap and leave the others' alone; a card new to answers.
        second = export({x: [(3, 1, "study"), (5, 1, "study"), (7, 3, "cram"), (8, 2, "study"), (12, 3, "study")],
                         y: [(1, 1, "study"), (10, 3, "study"), (25, 3, "cram")],
                         z: [(4, 3, "study"), (6, 1, "study"), (30, 3, "study")]})
        imported(db, second)
        assert rows(new_db, KEPT) == rows(new_db, RECOUNT)
        counted = rows(new_db, KEPT)
        imported(db, second)  # nothing new
        assert rows(new_db, KEPT) == rows(new_db, RECOUNT) == counted
        # An answer afterwards goes through the trigger again (the setting ended with the import).
        service = StudyService(db, FixedClock())
        shown = service.next_card("qa")
        service.answer(shown.card.card_id, 3, mode="study", expected_version=shown.card.version)
        assert rows(new_db, KEPT) == rows(new_db, RECOUNT)
        assert rows(new_db, "SELECT count(*) FROM reviews") == [(17,)]  # 6, 10 more (day 5 is there), the answer
    finally:
        db.close()
    # PostgreSQL moved the gaps itself, once per import that added answers; SQLite's trigger did.
    assert len(moves) == (2 if backend == "postgresql" else 0)
