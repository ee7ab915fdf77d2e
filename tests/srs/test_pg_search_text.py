"""PostgreSQL's search text (items_search) is stored with its ASCII letters lowered
(revision 0010), as SQLite's index is (0009): what the triggers write, what the upgrade and
the downgrade leave, and what a search then finds."""

from __future__ import annotations

import pytest

from quizapp.store.models import Item
from quizapp.store.pg import migrate_url
from quizapp.store.search import ascii_lower

# PostgreSQL only: SQLite's side of this is revision 0009 (tests/store/test_upgrade_0009.py).
pytestmark = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)

TEXTS = ("SELECT s.body, quizapp_item_text(i.payload) FROM items_search s "
         "JOIN cards c ON c.id = s.card_id JOIN items i ON i.id = c.item_id ORDER BY s.card_id")


def _texts(url: str) -> list[tuple[str, str]]:
    """(stored search text, the item's text as written) of every card."""
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(TEXTS).fetchall()


def test_the_search_text_is_lowered_by_the_upgrade_restored_by_the_downgrade(prepared, db_path):
    prepared.db.close()
    at_head = _texts(db_path)
    assert at_head and all(stored == ascii_lower(text) for stored, text in at_head)
    assert any(stored != text for stored, text in at_head)  # the deck has capitals to lower

    migrate_url(db_path, "0009", down=True)
    assert all(stored == text for stored, text in _texts(db_path))

    migrate_url(db_path, "head")
    assert _texts(db_path) == at_head


def test_an_edited_item_is_searched_in_any_case(prepared, study):
    with prepared.db.session() as session, session.begin():
        item = session.get(Item, "t-causal")
        item.payload = {**item.payload, "question": {"zh": "斑马鱼 ZEBRAFISH", "en": "The Zebrafish question"}}
    stored = [body for body, _ in _texts(prepared.db.url) if "斑马鱼" in body]
    assert len(stored) == 1 and "zebrafish" in stored[0] and stored[0] == ascii_lower(stored[0])
    for typed in ("zebrafish", "ZebraFish", "ZEBRA", "斑马鱼 zebra", "鱼"):
        assert [hit.item_id for hit in study.search(typed)] == ["t-causal"], typed
