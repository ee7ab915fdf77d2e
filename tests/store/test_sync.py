"""Content sync: idempotent, keyed by id, edits keep progress, removals retire."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from sqlalchemy import func, select

from quizapp.content.models import MCQItem, QAItem
from quizapp.drill_types import DRILL_TYPES
from quizapp.store.database import open_database
from quizapp.store.models import Card, Item, Review
from quizapp.store.sync import sync_content
from tests.backends import rows

NOW = datetime(2026, 1, 5, 9, 0)

pytestmark = pytest.mark.both_backends


def qa(item_id: str, question: str = "为什么除 √d_k？") -> QAItem:
    return QAItem(
        id=item_id, source_no=7, group="A", section="7.9", question=question, answer="方差归一",
        key_points=[{"text": t, "keywords": [t]} for t in ("方差", "饱和", "梯度")], tags=["scaling"],
    )


def mcq(item_id: str) -> MCQItem:
    return MCQItem(id=item_id, question="softmax 对哪一维？", options=["0", "-1", "-2", "全部"], answer="B",
                   explanation="每行", tags=["softmax"], source="test")


def _state(session):
    return sorted(
        (i.id, i.question, i.retired_at is not None, i.content_hash)
        for i in session.scalars(select(Item))
    )


def test_sync_is_idempotent(new_db):
    db = open_database(new_db)
    items = [qa("q07"), mcq("m1")]
    with db.session() as s, s.begin():
        first = sync_content(s, items, NOW)
    with db.session() as s:
        snapshot = _state(s)
        cards = s.scalar(select(func.count(Card.id)))
    with db.session() as s, s.begin():
        second = sync_content(s, items, NOW)
    with db.session() as s:
        assert _state(s) == snapshot
        assert s.scalar(select(func.count(Card.id))) == cards
    assert first.added == 2 + len(DRILL_TYPES)  # two items and one skill card per drill type
    assert second.added == second.updated == second.retired == 0
    assert second.unchanged == first.added


def test_edit_keeps_progress_and_removal_retires(new_db):
    db = open_database(new_db)
    with db.session() as s, s.begin():
        sync_content(s, [qa("q07"), mcq("m1")], NOW)
    with db.session() as s, s.begin():
        card = s.scalar(select(Card).where(Card.item_id == "q07"))
        card.reps, card.state = 3, 2
        s.add(Review(card_id=card.id, mode="study", rating=3, reviewed_at=NOW, prev_card={}))
        card_id = card.id

    with db.session() as s, s.begin():
        report = sync_content(s, [qa("q07", question="为什么要除以 √d_k？"), mcq("m1")], NOW)
    assert report.updated == 1
    with db.session() as s:
        item = s.get(Item, "q07")
        assert item.question == "为什么要除以 √d_k？"
        card = s.scalar(select(Card).where(Card.item_id == "q07"))
        assert card.id == card_id and card.reps == 3
        assert s.scalar(select(func.count(Review.id)).where(Review.card_id == card_id)) == 1

    with db.session() as s, s.begin():
        report = sync_content(s, [mcq("m1")], NOW)
    assert report.retired == 1
    with db.session() as s:
        item = s.get(Item, "q07")
        assert item.retired_at is not None
        assert s.scalar(select(func.count(Review.id)).where(Review.card_id == card_id)) == 1

    with db.session() as s, s.begin():
        report = sync_content(s, [qa("q07"), mcq("m1")], NOW)
    assert report.restored == 1
    with db.session() as s:
        assert s.get(Item, "q07").retired_at is None
        assert s.scalar(select(Card).where(Card.item_id == "q07")).reps == 3


def test_builtin_content_syncs_into_fresh_database(new_db):
    from quizapp.srs.bootstrap import prepare

    prepared = prepare(new_db)
    with prepared.db.session() as s:
        assert s.scalar(select(func.count(Item.id)).where(Item.kind == "qa")) == len(prepared.content.qa)
        assert s.scalar(select(func.count(Item.id)).where(Item.kind == "mcq")) == len(prepared.content.mcq)
    prepared.db.close()
    again = prepare(new_db)
    again.db.close()
    assert again.sync.added == again.sync.updated == again.sync.retired == 0


def test_a_rewritten_item_is_stored_as_a_new_one_would_be(more_dbs, backend):
    """Changed items are rewritten in one UPDATE from a staging table: same columns, same search text."""
    later = datetime(2026, 1, 6, 9, 0)
    edited = [qa("q07", question="改过的问题 softmax"), mcq("m1").model_copy(update={"tags": ["softmax", "edited"]})]
    synced_twice = open_database(twice_at := more_dbs("twice.db"))
    with synced_twice.session() as s, s.begin():
        sync_content(s, [qa("q07"), mcq("m1")], NOW)
    with synced_twice.session() as s, s.begin():
        assert sync_content(s, edited, later).updated == 2
    synced_once = open_database(once_at := more_dbs("once.db"))
    with synced_once.session() as s, s.begin():
        sync_content(s, edited, later)

    # The search index: SQLite's FTS5 table, PostgreSQL's trigram-indexed text table.
    search_sql = ("SELECT cards.item_id, items_fts.body FROM items_fts JOIN cards ON cards.id = items_fts.rowid "
                  if backend == "sqlite" else
                  "SELECT cards.item_id, items_search.body FROM items_search "
                  "JOIN cards ON cards.id = items_search.card_id ")

    def stored(db, at) -> tuple[list, list]:
        db.close()
        items = rows(at, 'SELECT id, kind, source_no, "group", section, question, tags, payload, content_hash, '
                         "origin, updated_at, retired_at FROM items WHERE kind != 'skill' ORDER BY id")
        if backend == "postgresql":  # json has no equality: its text, as written
            items = [(*row[:6], json.dumps(row[6]), json.dumps(row[7]), *row[8:]) for row in items]
        search = rows(at, search_sql + "WHERE cards.kind != 'skill' ORDER BY cards.item_id")
        return items, search

    twice, once = stored(synced_twice, twice_at), stored(synced_once, once_at)
    assert twice == once
    assert any("改过的问题" in body for _, body in twice[1])
