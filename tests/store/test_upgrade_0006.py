"""A database at revision 0005 whose JSON was written with Python's default escapes,
upgraded to head.

Revision 0006 rewrites every JSON column compactly (UTF-8 as itself, no spaces) and the
upgrade VACUUMs the file; two unused indexes go. The values, the search index and its results, the day tallies
and the review gaps must come through exactly; the file must shrink; the search trigger
must still follow an edited item; and what the app writes afterwards is compact too.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

from sqlalchemy import update

from quizapp.srs.clock import FixedClock
from quizapp.srs.service import StudyService
from quizapp.store.database import current_revision, head_revision, migrate, open_database
from quizapp.store.models import Item
from tests.store.old_databases import insert_qa_item

# SQLite only: old SQLite files upgraded (on PostgreSQL revision 0001 makes the head schema).

ITEMS = 40
LONG = "缩放点积注意力：分数除以根号 d_k，使方差保持为一，softmax 不会饱和。" * 30  # ~1 KB of CJK


def _payload(n: int) -> dict:
    return {"id": f"q{n:02d}", "kind": "qa", "source_no": n, "question": {"zh": f"为什么除以根号 d_k {n}",
            "en": f"Why divide by sqrt d_k {n}"}, "answer": {"zh": "方差归一", "en": "unit variance"},
            "long_answer": {"zh": LONG, "en": "Scaled dot-product attention. " * 20}, "tags": ["scaling", "注意力"]}


def _database_at_0005(path) -> None:
    migrate(path, "0005")
    conn = sqlite3.connect(path)
    for n in range(1, ITEMS + 1):
        insert_qa_item(conn, n, _payload(n), json.dumps)  # \uXXXX escapes, spaces
    start = 1_767_225_600_000_000  # 2026-01-01
    conn.executemany(
        "INSERT INTO reviews (id, card_id, mode, rating, reviewed_at, answer, prev_state, prev_reps, prev_lapses, "
        "prev_leech, prev_suspended) VALUES (?, ?, 1, ?, ?, ?, 2, ?, 0, 0, 0)",
        [(r, 1 + r % 7, 1 + r % 4, start + r * 7_000_000_000, json.dumps({"choice": "B", "typed": "方差"}), r % 3)
         for r in range(1, 60)])
    conn.execute("INSERT INTO settings (key, value) VALUES ('language', ?), ('broken', 'not json')",
                 (json.dumps("zh"),))
    conn.commit()
    conn.close()


def _snapshot(path) -> dict:
    conn = sqlite3.connect(path)
    try:
        return {
            "payloads": {i: json.loads(p) for i, p in conn.execute("SELECT id, payload FROM items")},
            "tags": {i: json.loads(t) for i, t in conn.execute("SELECT id, tags FROM items")},
            "answers": {i: json.loads(a) for i, a in conn.execute("SELECT id, answer FROM reviews")},
            "settings": dict(conn.execute("SELECT key, value FROM settings")),
            # (In any case: revision 0009 stores the text's ASCII letters lowered.)
            "index": conn.execute("SELECT rowid, lower(body) FROM items_fts ORDER BY rowid").fetchall(),
            # (LIKE, not a phrase MATCH: head's index keeps no positions, revision 0007)
            "hits": [conn.execute("SELECT rowid FROM items_fts WHERE body LIKE ? ORDER BY rowid",
                                  (f"%{word}%",)).fetchall() for word in ("根号 d_k 1", "variance", "注意力")],
            "tallies": conn.execute("SELECT * FROM review_tallies ORDER BY quarter").fetchall(),
            "gaps": conn.execute("SELECT * FROM review_gaps ORDER BY day").fetchall(),
        }
    finally:
        conn.close()


def _file_bytes(path) -> int:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return conn.execute("PRAGMA page_count").fetchone()[0] * conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()


def test_json_is_rewritten_compactly_and_everything_else_survives(tmp_path):
    path = tmp_path / "old.db"
    _database_at_0005(path)
    before, size_before = _snapshot(path), _file_bytes(path)
    clock = FixedClock(datetime(2026, 3, 2, 8, 0, tzinfo=UTC))
    service = StudyService(open_database(path), clock)
    assert current_revision(path) == head_revision()
    service.db.close()

    after = _snapshot(path)
    assert after == before  # the same values, index, hits, tallies and gaps
    assert _file_bytes(path) < 0.75 * size_before  # compacted and VACUUMed
    conn = sqlite3.connect(path)
    try:
        raw = conn.execute("SELECT payload, tags FROM items WHERE id = 'q07'").fetchone()
        assert raw == (json.dumps(_payload(7), ensure_ascii=False, separators=(",", ":")), '["scaling","注意力"]')
        assert conn.execute("SELECT answer FROM reviews WHERE id = 5").fetchone() == ('{"choice":"B","typed":"方差"}',)
        assert conn.execute("SELECT value FROM settings WHERE key = 'broken'").fetchone() == ("not json",)
        assert conn.execute("INSERT INTO items_fts (items_fts) VALUES ('integrity-check')").fetchall() == []
        assert conn.execute("SELECT name FROM sqlite_master WHERE name IN ('ix_items_kind', 'ix_cards_due')"
                            ).fetchall() == []  # unused indexes, dropped
    finally:
        conn.close()

    db = open_database(path)
    try:
        service = StudyService(db, clock)
        assert [r.item_id for r in service.search("根号 d_k 1")] == [f"q{n:02d}" for n in (1, *range(10, 20))]
        assert [r.item_id for r in service.search("方差")] == [f"q{n:02d}" for n in range(1, ITEMS + 1)]
        # The app's own writes are compact, and the search trigger follows an edited item.
        edited = _payload(3) | {"answer": {"zh": "温度系数", "en": "a temperature"}}
        with db.session() as session, session.begin():
            session.execute(update(Item).where(Item.id == "q03").values(payload=edited))
        assert [r.item_id for r in service.search("温度系数")] == ["q03"]
        assert "q03" not in [r.item_id for r in service.search("unit variance")]
    finally:
        db.close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT payload FROM items WHERE id = 'q03'").fetchone()[0] == json.dumps(
            edited, ensure_ascii=False, separators=(",", ":"))
    finally:
        conn.close()
