"""Revision 0009: the search index's text is stored with its ASCII letters lowered. What a
search finds, and its order, are as before; the index keeps following new and edited
items; the downgrade gives the text back in its own case."""

from __future__ import annotations

import json
import sqlite3

from quizapp.store.database import migrate, open_database
from quizapp.store.search import search_rows
from tests.store.old_databases import insert_qa_item

# SQLite only: old SQLite files upgraded (PostgreSQL's search index is its own, revision 0001).

WORDS = ("Attention", "ATTENTION", "softmax", "by √d", "注意力", "Q", "dk")


def _payload(n: int) -> dict:
    return {"id": f"q{n:02d}", "kind": "qa", "source_no": n,
            "question": {"zh": f"为什么注意力要除以 √d_k（{n}）", "en": f"Why does Attention divide by √d_k ({n})?"},
            "answer": {"zh": "方差", "en": "SoftMax would saturate" if n % 2 else "unit variance of QKᵀ"},
            "tags": ["Scaling", "注意力"]}


def _database(path, revision: str, items: int = 12) -> None:
    migrate(path, revision)
    conn = sqlite3.connect(path)
    try:
        for n in range(1, items + 1):
            insert_qa_item(conn, n, _payload(n), lambda value: json.dumps(value, ensure_ascii=False))
        conn.commit()
    finally:
        conn.close()


def _index(path) -> list[tuple[int, str]]:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("INSERT INTO items_fts (items_fts) VALUES ('integrity-check')").fetchall() == []
        return conn.execute("SELECT rowid, body FROM items_fts ORDER BY rowid").fetchall()
    finally:
        conn.close()


def _results(path) -> dict[str, list[tuple]]:
    db = open_database(path)
    try:
        with db.transaction() as tx:
            return {word: search_rows(tx, word, limit=100) for word in WORDS}
    finally:
        db.close()


def test_the_text_is_lowered_and_every_search_finds_what_it_found(tmp_path):
    old, new = tmp_path / "old.db", tmp_path / "new.db"
    _database(old, "0008")
    before = _index(old)
    assert any("Attention" in body for _, body in before)
    # The same items written at head: its triggers write what the upgrade leaves.
    _database(new, "head")
    migrate(old, "head")
    after = _index(old)
    assert after == [(rowid, body.lower()) for rowid, body in before]  # (the text is ASCII but for CJK and √)
    assert _index(new) == after
    # Found in any case, in the same order as on a file made at head, first by position.
    results = _results(old)
    assert results == _results(new)
    assert results["Attention"] == results["ATTENTION"] and len(results["Attention"]) == 12
    assert [row[0] for row in results["softmax"]] == [f"q{n:02d}" for n in range(1, 13, 2)]
    assert len(results["注意力"]) == 12 and len(results["by √d"]) == 12


def test_new_and_edited_items_are_indexed_lowered(tmp_path):
    path = tmp_path / "head.db"
    _database(path, "head", items=2)
    conn = sqlite3.connect(path)
    try:
        edited = _payload(2) | {"answer": {"en": "A Temperature"}}
        conn.execute("UPDATE items SET payload = ? WHERE id = 'q02'", (json.dumps(edited),))
        conn.commit()
    finally:
        conn.close()
    bodies = dict(_index(path))
    assert "a temperature" in bodies[2] and "A Temperature" not in bodies[2]
    assert "why does attention divide" in bodies[1]
    db = open_database(path)
    try:
        with db.transaction() as tx:
            assert [row[0] for row in search_rows(tx, "TEMPERATURE")] == ["q02"]
    finally:
        db.close()


def test_the_downgrade_gives_the_text_back_in_its_own_case(tmp_path):
    path = tmp_path / "old.db"
    _database(path, "0008")
    before = _index(path)
    migrate(path, "0009")
    migrate(path, "0008", down=True)
    assert _index(path) == before
    conn = sqlite3.connect(path)
    try:
        triggers = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'items_fts%'"))
    finally:
        conn.close()
    assert all("lower(" not in sql for sql in triggers.values()) and len(triggers) == 3
