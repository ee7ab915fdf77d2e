"""PostgreSQL: the search text stored with its ASCII letters in lower case, as SQLite's is

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03

Revision 0009 did this for SQLite's index; this does it for PostgreSQL's `items_search`
(revision 0001's PostgreSQL schema), so that a search no longer lowers the text of every
candidate row twice: once for ILIKE (which lowers the whole text before it matches) and
once for the rank (`strpos(lower(body), lower(?))`). A search is now `body LIKE ?` with
the typed text's ASCII letters lowered, and the rank `strpos(body, ?)`; the pg_trgm GIN
index serves LIKE as it served ILIKE (its trigrams are case-folded either way).

The text is lowered with `COLLATE "C"` (A–Z only), as SQLite's `lower` and LIKE do,
whatever the database's locale: what a search finds and its order are the same on both
backends. The column is `COLLATE "C"` already, so the old ILIKE folded A–Z only too.

On a 100,000-row table of the benchmark's search text (a local server, load ~0, text not
`COLLATE "C"`), the ILIKE search took 1.6–1.9× LIKE's time in a database of the C locale and
5–7× in one of C.UTF-8 (where pg_trgm also indexes Chinese); the app's own figures are
benchmarks/scale.py's PostgreSQL column (README).

SQLite: nothing to do (revision 0009).
"""
from __future__ import annotations

from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def _writers(lowered: bool) -> None:
    """Revision 0001's two functions that write items_search, writing the text lowered or as it is."""
    def text(payload: str) -> str:
        found = f"quizapp_item_text({payload})"
        return f'lower({found} COLLATE "C")' if lowered else found

    op.execute(f"""
CREATE OR REPLACE FUNCTION quizapp_card_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO items_search (card_id, body)
    SELECT NEW.id, {text('items.payload')} FROM items WHERE items.id = NEW.item_id;
  RETURN NULL;
END $$""")
    op.execute(f"""
CREATE OR REPLACE FUNCTION quizapp_item_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE items_search SET body = {text('NEW.payload')}
    WHERE card_id = (SELECT id FROM cards WHERE item_id = NEW.id);
  RETURN NULL;
END $$""")


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    _writers(lowered=True)
    op.execute('UPDATE items_search SET body = lower(body COLLATE "C") WHERE body <> lower(body COLLATE "C")')


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    _writers(lowered=False)
    op.execute("UPDATE items_search AS s SET body = quizapp_item_text(i.payload) "
               "FROM cards AS c JOIN items AS i ON i.id = c.item_id WHERE c.id = s.card_id")
