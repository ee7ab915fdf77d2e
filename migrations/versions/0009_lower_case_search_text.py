"""the search index's text stored with its ASCII letters in lower case

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03

Browse's search (quizapp.store.search) ranks a hit by where the text first appears,
ASCII letters in any case, as LIKE matches: `instr(lower(text), lower(?))`. For a common
word that lowered a copy of every hit's text — half a kilobyte each, 100,000 of them for
"attention" at 100,000 items, a fifth of the search. The text is now stored lowered
(SQLite's `lower`, which changes A–Z only), so the rank is `instr(text, lower(?))`.

Nothing a search finds or its order changes: LIKE ignores the case of ASCII letters
either way; the trigram index folds case itself (its `case_sensitive` is 0), so it holds
the same trigrams; and lowering A–Z keeps every text's length in bytes, the second rank.
The indexed text is only searched, never shown (Browse shows the item's own row).

The index is rebuilt (as revision 0007 did), lowered, and the two triggers that write it
(revision 0003) lower what they write. The downgrade rebuilds the text in its own case
from the items, which it is made from.
"""
from __future__ import annotations

from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

# What Browse searches, as revision 0003 defined it: id, question, answer and tags, in every
# language the item has.
ITEM_TEXT = (
    "(SELECT group_concat(value, ' ') FROM json_tree({payload}) WHERE type = 'text' AND ("
    "fullkey = '$.id' OR fullkey GLOB '$.question*' OR fullkey GLOB '$.answer*' OR fullkey GLOB '$.tags*'))"
)
WRITERS = ("items_fts_card_insert", "items_fts_item_update")


def _writers(lowered: bool) -> None:
    """Revision 0003's triggers that write the index, writing the text lowered or as it is."""
    def text(payload: str) -> str:
        found = ITEM_TEXT.format(payload=payload)
        return f"lower({found})" if lowered else found

    for name in WRITERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute("CREATE TRIGGER items_fts_card_insert AFTER INSERT ON cards BEGIN "
               f"INSERT INTO items_fts (rowid, body) SELECT new.id, {text('items.payload')} "
               "FROM items WHERE items.id = new.item_id; END")
    op.execute("CREATE TRIGGER items_fts_item_update AFTER UPDATE OF payload ON items BEGIN "
               "DELETE FROM items_fts WHERE rowid = (SELECT id FROM cards WHERE item_id = new.id); "
               f"INSERT INTO items_fts (rowid, body) SELECT cards.id, {text('new.payload')} "
               "FROM cards WHERE cards.item_id = new.id; END")


def _rebuild(select_text: str) -> None:
    """items_fts anew (revision 0007's options) holding `select_text`'s (id, body) rows."""
    op.execute(f"CREATE TEMP TABLE search_text AS {select_text}")
    op.execute("DROP TABLE items_fts")
    op.execute("CREATE VIRTUAL TABLE items_fts USING fts5(body, tokenize = 'trigram', detail = none)")
    op.execute("INSERT INTO items_fts (rowid, body) SELECT id, body FROM search_text ORDER BY id")
    op.execute("DROP TABLE search_text")
    op.execute("INSERT INTO items_fts (items_fts) VALUES ('optimize')")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # PostgreSQL's search (items_search, pg_trgm) is not touched
    _rebuild("SELECT rowid AS id, lower(body) AS body FROM items_fts")
    _writers(lowered=True)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return
    _rebuild(f"SELECT cards.id AS id, {ITEM_TEXT.format(payload='items.payload')} AS body "
             "FROM cards JOIN items ON items.id = cards.item_id")
    _writers(lowered=False)
