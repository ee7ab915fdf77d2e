"""A database at revision 0004 with a review history, upgraded to head.

Revision 0005 fills review_gaps (answers per whole day since the card's previous answer)
from the reviews already there, then keeps it by triggers. The filled table must equal
the gaps counted one by one, and an answer and its undo after the upgrade must move it.
"""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from itertools import pairwise

from sqlalchemy import text

from quizapp.store.database import current_revision, head_revision, migrate, open_database

# SQLite only: old SQLite files upgraded (on PostgreSQL revision 0001 makes the head schema).

DAY_US = 86_400_000_000


def _gaps(rows: list[tuple[int, int, int, int]]) -> dict[int, tuple[int, int]]:
    """{day: (answers, passed)} from (id, card, reviewed_at µs, rating), the plain way."""
    answers: Counter[int] = Counter()
    passed: Counter[int] = Counter()
    by_card: dict[int, list[tuple[int, int, int]]] = {}
    for review_id, card_id, at, rating in rows:
        by_card.setdefault(card_id, []).append((at, review_id, rating))
    for history in by_card.values():
        history.sort()
        for (before, _, _), (at, _, rating) in pairwise(history):
            answers[(at - before) // DAY_US] += 1
            passed[(at - before) // DAY_US] += rating > 1
    return {day: (answers[day], passed[day]) for day in answers}


def test_upgrade_fills_the_gaps_from_existing_reviews_and_triggers_keep_them(tmp_path):
    path = tmp_path / "old.db"
    migrate(path, "0004")
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO items (id, kind, question, tags, payload, content_hash, origin, created_at, updated_at) "
        "VALUES ('q1', 'qa', 'q', '[]', '{}', 'h', 'builtin', '2026-01-01 00:00:00.000000', "
        "'2026-01-01 00:00:00.000000')"
    )
    conn.execute("INSERT INTO cards (id, item_id, state, due, reps, lapses, suspended, leech, version) "
                 "VALUES (1, 'q1', 2, '2026-03-01 00:00:00.000000', 3, 0, 0, 0, 1)")
    rng = random.Random(5)
    start = 1_767_225_600_000_000  # 2026-01-01
    rows = [(n, 1, start + rng.randrange(0, 200 * DAY_US), rng.randint(1, 4)) for n in range(1, 41)]
    rows.append((41, 1, rows[0][2], 2))  # the same moment as another answer: ordered by id
    conn.executemany("INSERT INTO reviews (id, card_id, mode, rating, reviewed_at, prev_state, prev_reps, "
                     "prev_lapses, prev_leech, prev_suspended) VALUES (?, ?, 0, ?, ?, 2, 1, 0, 0, 0)",
                     [(i, c, r, at) for i, c, at, r in rows])
    conn.commit()
    conn.close()
    assert current_revision(path) == "0004"

    db = open_database(path)
    try:
        assert current_revision(path) == head_revision()

        def stored() -> dict[int, tuple[int, int]]:
            with db.session() as session:
                return {day: (n, ok) for day, n, ok in session.execute(
                    text("SELECT day, answers, passed FROM review_gaps WHERE answers <> 0"))}

        assert stored() == _gaps(rows)
        # An older answer arrives (an import): it splits a gap in two.
        middle = sorted(rows, key=lambda r: (r[2], r[0]))[20]
        added = (42, 1, middle[2] - DAY_US // 3, 1)
        with db.session() as session, session.begin():
            session.execute(text("INSERT INTO reviews (id, card_id, mode, rating, reviewed_at, prev_state, prev_reps, "
                                 "prev_lapses, prev_leech, prev_suspended) VALUES (:i, 1, 0, :r, :at, 2, 1, 0, 0, 0)"),
                            {"i": added[0], "r": added[3], "at": added[2]})
        assert stored() == _gaps([*rows, added])
        with db.session() as session, session.begin():
            session.execute(text("DELETE FROM reviews WHERE id = 42"))
        assert stored() == _gaps(rows)
    finally:
        db.close()
