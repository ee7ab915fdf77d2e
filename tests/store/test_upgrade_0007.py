"""A database at revision 0006 upgraded to head.

Revision 0007 rebuilds the search index without positions (`detail=none`) and replaces
the reviews' card index with a (card, time) one, recreating the review-gap triggers to
seek by it. The indexed text, search results, tallies and gaps must come through; the
gap triggers must stay exact for answers added, imported out of order, edited and
deleted afterwards; the index must keep following edited and new items.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

import pytest
from sqlalchemy import update

from quizapp.srs.clock import FixedClock
from quizapp.srs.service import StudyService
from quizapp.store.database import current_revision, head_revision, migrate, open_database
from quizapp.store.models import Item
from tests.store.old_databases import insert_qa_item

# SQLite only: old SQLite files upgraded (on PostgreSQL revision 0001 makes the head schema).

ITEMS = 30
DAY_US = 86_400_000_000
START = 1_767_225_600_000_000  # 2026-01-01
# The gaps recomputed from the reviews, as revision 0005 first filled them.
GAPS = ("SELECT gap / 86400000000, count(*), sum(rating > 1) FROM ("
        "SELECT rating, reviewed_at - lag(reviewed_at) OVER (PARTITION BY card_id ORDER BY reviewed_at, id) AS gap "
        "FROM reviews) WHERE gap IS NOT NULL GROUP BY 1 ORDER BY 1")


def _payload(n: int) -> dict:
    return {"id": f"q{n:02d}", "kind": "qa", "source_no": n,
            "question": {"zh": f"为什么除以根号 d_k {n}", "en": f"Why divide by sqrt d_k {n}"},
            "answer": {"zh": "方差归一" if n % 2 else "让 softmax 不饱和", "en": "unit variance"},
            "tags": ["scaling", "注意力"]}


def _database_at_0006(path) -> None:
    migrate(path, "0006")
    conn = sqlite3.connect(path)
    for n in range(1, ITEMS + 1):
        insert_qa_item(conn, n, _payload(n), lambda value: json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    # Answers out of time order on purpose (ids do not follow time on cards 1 and 2), and
    # two answers of one card at the same instant.
    rows = [(r, 1 + r % 5, 1 + r % 4, START + ((r * 7919) % 97) * DAY_US // 3) for r in range(1, 80)]
    rows.append((80, 1, 3, rows[0][3]))
    conn.executemany(
        "INSERT INTO reviews (id, card_id, mode, rating, reviewed_at, prev_state, prev_reps, prev_lapses, "
        "prev_leech, prev_suspended) VALUES (?, ?, 1, ?, ?, 2, 1, 0, 0, 0)", rows)
    conn.commit()
    conn.close()


def _gaps(conn) -> tuple[list, list]:
    return conn.execute("SELECT day, answers, passed FROM review_gaps WHERE answers <> 0 ORDER BY day").fetchall(), \
        conn.execute(GAPS).fetchall()


def _snapshot(conn) -> dict:
    return {
        # (In any case: revision 0009, after this one, stores the text's ASCII letters lowered.)
        "index": conn.execute("SELECT rowid, lower(body) FROM items_fts ORDER BY rowid").fetchall(),
        "hits": [conn.execute("SELECT rowid FROM items_fts WHERE body LIKE ? ORDER BY rowid", (f"%{word}%",)
                              ).fetchall() for word in ("根号 d_k 1", "variance", "softmax 不")],
        "tallies": conn.execute("SELECT * FROM review_tallies ORDER BY quarter").fetchall(),
        "gaps": _gaps(conn)[0],
    }


@pytest.fixture
def upgraded(tmp_path):
    path = tmp_path / "old.db"
    _database_at_0006(path)
    conn = sqlite3.connect(path)
    before = _snapshot(conn)
    conn.close()
    assert before["gaps"] == _gaps(sqlite3.connect(path))[1]  # the 0005 triggers kept them exact
    db = open_database(path)
    assert current_revision(path) == head_revision()
    yield path, db, before
    db.close()


def test_the_index_loses_its_positions_and_nothing_else(upgraded):
    path, _db, before = upgraded
    conn = sqlite3.connect(path)
    try:
        assert _snapshot(conn) == before
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'items_fts'").fetchone()[0]
        assert "detail = none" in sql
        assert conn.execute("INSERT INTO items_fts (items_fts) VALUES ('integrity-check')").fetchall() == []
        indexes = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reviews'")}
        assert "ix_reviews_card_time" in indexes and "ix_reviews_card_id" not in indexes
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name LIKE 'search_text%'").fetchone() == (0,)
    finally:
        conn.close()


def test_search_and_its_triggers_work_on_the_rebuilt_index(upgraded):
    _path, db, _before = upgraded
    service = StudyService(db, FixedClock(datetime(2026, 3, 2, 8, 0, tzinfo=UTC)))
    assert sorted(r.item_id for r in service.search("根号 d_k 1")) == [f"q{n:02d}" for n in (1, *range(10, 20))]
    assert [r.item_id for r in service.search("softmax 不")] == [f"q{n:02d}" for n in range(2, ITEMS + 1, 2)]
    edited = _payload(3) | {"answer": {"zh": "温度系数", "en": "a temperature"}}
    with db.session() as session, session.begin():
        session.execute(update(Item).where(Item.id == "q03").values(payload=edited))
    assert [r.item_id for r in service.search("温度系数")] == ["q03"]
    assert "q03" not in [r.item_id for r in service.search("unit variance")]


def test_gap_triggers_stay_exact_for_every_kind_of_change(upgraded):
    path, _db, _before = upgraded
    conn = sqlite3.connect(path)
    try:
        def check():
            kept, recomputed = _gaps(conn)
            assert kept == recomputed

        # An answer at the end, one imported into the middle of a card's history, one
        # at the same instant as another, then edits and deletes.
        conn.execute("INSERT INTO reviews (id, card_id, mode, rating, reviewed_at, prev_state, prev_reps, "
                     "prev_lapses, prev_leech, prev_suspended) VALUES (200, 1, 0, 3, ?, 2, 1, 0, 0, 0)",
                     (START + 200 * DAY_US,))
        check()
        conn.execute("INSERT INTO reviews (id, card_id, mode, rating, reviewed_at, prev_state, prev_reps, "
                     "prev_lapses, prev_leech, prev_suspended) VALUES (201, 2, 0, 1, ?, 2, 1, 0, 0, 0)",
                     (START + 5 * DAY_US + 17,))
        check()
        same = conn.execute("SELECT reviewed_at FROM reviews WHERE card_id = 3 LIMIT 1").fetchone()[0]
        conn.execute("INSERT INTO reviews (id, card_id, mode, rating, reviewed_at, prev_state, prev_reps, "
                     "prev_lapses, prev_leech, prev_suspended) VALUES (202, 3, 0, 4, ?, 2, 1, 0, 0, 0)", (same,))
        check()
        conn.execute("UPDATE reviews SET reviewed_at = reviewed_at - 9 * ? WHERE id IN (7, 12)", (DAY_US,))
        check()
        conn.execute("UPDATE reviews SET card_id = 4, rating = 1 WHERE id = 201")
        check()
        conn.execute("DELETE FROM reviews WHERE id IN (1, 80, 202, 33)")
        check()
        conn.commit()
        plan = " ".join(row[3] for row in conn.execute(
            "EXPLAIN QUERY PLAN SELECT reviewed_at FROM reviews WHERE card_id = 1 AND (reviewed_at, id) < (5, 9) "
            "ORDER BY reviewed_at DESC, id DESC LIMIT 1"))
        assert "ix_reviews_card_time" in plan and "TEMP B-TREE" not in plan
    finally:
        conn.close()


def test_downgrade_restores_the_positional_index(tmp_path):
    path = tmp_path / "down.db"
    _database_at_0006(path)
    migrate(path, "0007")
    migrate(path, "0006", down=True)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT rowid FROM items_fts WHERE items_fts MATCH '\"softmax 不\"' ORDER BY rowid"
                            ).fetchall() == [(n,) for n in range(2, ITEMS + 1, 2)]
        kept, recomputed = _gaps(conn)
        assert kept == recomputed
    finally:
        conn.close()
