"""Revision 0008: cram answers (reviews.mode 4) are kept out of the day tallies and the
review gaps; ordinary answers are counted as before; the downgrade removes them."""

from __future__ import annotations

import sqlite3

from quizapp.store.codes import json_text
from quizapp.store.database import migrate
from tests.store.old_databases import insert_qa_item

# SQLite only: old SQLite files upgraded (on PostgreSQL revision 0001 makes the head schema).

DAY_US = 86_400_000_000
START = 1_767_225_600_000_000  # 2026-01-01
PREV = "prev_state, prev_step, prev_stability, prev_difficulty, prev_due, prev_reps, prev_lapses, prev_leech, prev_suspended"


def _answer(conn: sqlite3.Connection, card_id: int, mode: int, at: int, rating: int = 3) -> int:
    cur = conn.execute(f"INSERT INTO reviews (card_id, mode, rating, reviewed_at, {PREV}) "
                       "VALUES (?, ?, ?, ?, 2, NULL, 3.0, 5.0, ?, 1, 0, 0, 0)", (card_id, mode, rating, at, at))
    return int(cur.lastrowid)


def _counts(conn: sqlite3.Connection) -> tuple[list[tuple], list[tuple]]:
    return (conn.execute("SELECT * FROM review_tallies ORDER BY quarter").fetchall(),
            conn.execute("SELECT * FROM review_gaps ORDER BY day").fetchall())


def _database(path, revision: str) -> int:
    migrate(path, revision)
    conn = sqlite3.connect(path)
    try:
        insert_qa_item(conn, 1, {"id": "q01", "kind": "qa", "source_no": 1, "question": {"en": "Why √d_k?"},
                                 "answer": {"en": "unit variance"}, "tags": ["scaling"]}, json_text)
        card_id = conn.execute("SELECT id FROM cards").fetchone()[0]
        _answer(conn, card_id, 0, START)
        _answer(conn, card_id, 0, START + 3 * DAY_US)
        conn.commit()
        return card_id
    finally:
        conn.close()


def test_cram_rows_are_not_tallied_nor_gapped(tmp_path):
    path = tmp_path / "head.db"
    card_id = _database(path, "0008")
    conn = sqlite3.connect(path)
    try:
        before = _counts(conn)
        assert before[0] and before[1]  # the ordinary answers are counted
        cram = _answer(conn, card_id, 4, START + 4 * DAY_US, rating=1)
        assert _counts(conn) == before
        conn.execute("DELETE FROM reviews WHERE id = ?", (cram,))
        assert _counts(conn) == before
        # An ordinary answer is still counted, with its gap.
        _answer(conn, card_id, 0, START + 10 * DAY_US)
        tallies, gaps = _counts(conn)
        assert len(tallies) == len(before[0]) + 1 and (7, 1, 1) in gaps
    finally:
        conn.close()


GAPS = ("SELECT gap / 86400000000, count(*), sum(rating > 1) FROM ("
        "SELECT rating, reviewed_at - lag(reviewed_at) OVER (PARTITION BY card_id ORDER BY reviewed_at, id) AS gap "
        "FROM reviews WHERE mode <> 4) WHERE gap IS NOT NULL GROUP BY 1 ORDER BY 1")


def test_an_ordinary_answers_gap_skips_cram_answers(tmp_path):
    path = tmp_path / "gaps.db"
    card_id = _database(path, "0008")  # answers on days 0 and 3
    conn = sqlite3.connect(path)
    try:
        cram = _answer(conn, card_id, 4, START + 5 * DAY_US)
        _answer(conn, card_id, 0, START + 9 * DAY_US, rating=1)  # 6 days after day 3, not 4 after the cram
        # and one imported in between the cram answer and the last (the neighbour on both sides)
        _answer(conn, card_id, 4, START + 10 * DAY_US)
        _answer(conn, card_id, 0, START + 7 * DAY_US)
        gaps = conn.execute("SELECT day, answers, passed FROM review_gaps WHERE answers <> 0 ORDER BY day").fetchall()
        assert gaps == conn.execute(GAPS).fetchall() == [(2, 1, 0), (3, 1, 1), (4, 1, 1)]
        conn.execute("DELETE FROM reviews WHERE id = ?", (cram,))
        assert conn.execute("SELECT day, answers, passed FROM review_gaps WHERE answers <> 0 ORDER BY day"
                            ).fetchall() == conn.execute(GAPS).fetchall()
    finally:
        conn.close()


def test_upgrade_keeps_counts_and_downgrade_drops_cram_rows(tmp_path):
    path = tmp_path / "old.db"
    card_id = _database(path, "0007")
    conn = sqlite3.connect(path)
    try:
        at_0007 = _counts(conn)
    finally:
        conn.close()
    migrate(path, "0008")
    conn = sqlite3.connect(path)
    try:
        assert _counts(conn) == at_0007
        _answer(conn, card_id, 4, START + 5 * DAY_US)
        conn.commit()
    finally:
        conn.close()
    migrate(path, "0007", down=True)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT count(*) FROM reviews WHERE mode = 4").fetchone()[0] == 0
        assert _counts(conn) == at_0007
        sql = conn.execute("SELECT group_concat(sql) FROM sqlite_master WHERE name LIKE 'reviews_%'").fetchone()[0]
        assert "mode <> 4" not in sql
    finally:
        conn.close()
