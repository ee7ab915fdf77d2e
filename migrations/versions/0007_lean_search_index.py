"""search index without positions; reviews indexed by (card, time)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01

* items_fts is rebuilt with `detail=none`: the trigram index keeps which rows hold each
  trigram, not where in the row. At 100,000 items the index shrinks from 97 to 24 MiB
  (the whole file by an eighth). Search then matches with the query's trigrams (any
  order) and checks the text itself with LIKE, which a positional phrase query did
  before; bm25 without positions reads every hit's text and took 10× longer, so results
  are ranked by where the words first appear in the indexed text instead (the id and
  question come first): quizapp.srs.search. The text is copied across as it is.
* ix_reviews_card_id (card_id) becomes ix_reviews_card_time (card_id, reviewed_at). The
  review-gap triggers (revision 0005) look up the same card's answer just before and just
  after the one written: with the card's index alone each walked every answer of that
  card, so adding a long history cost the square of its length (60,000 answers on 50
  cards: 98 s). They are recreated here to seek by (reviewed_at, id) as a row value, one
  index probe each. Every query by card still has the index's first column.
"""
from __future__ import annotations

from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None

DAY_US = 86_400_000_000
SEARCH_TRIGGERS = ("items_fts_card_insert", "items_fts_card_delete", "items_fts_item_update")
GAP_TRIGGERS = ("reviews_gap_insert", "reviews_gap_delete", "reviews_gap_update")


def _before(row: str, skip: str | None, seek: bool) -> str:
    """The time of the answer just before `row` on its card (NULL for the card's first)."""
    other = f" AND id <> {skip}" if skip else ""
    if not seek:  # revision 0005's form
        return (f"(SELECT max(reviewed_at) FROM reviews WHERE card_id = {row}.card_id{other} AND "
                f"(reviewed_at < {row}.reviewed_at OR (reviewed_at = {row}.reviewed_at AND id < {row}.id)))")
    return (f"(SELECT reviewed_at FROM reviews WHERE card_id = {row}.card_id{other} AND "
            f"(reviewed_at, id) < ({row}.reviewed_at, {row}.id) ORDER BY reviewed_at DESC, id DESC LIMIT 1)")


def _after(row: str, skip: str | None, seek: bool) -> str:
    """The answer just after `row` on its card, as a one-row subquery `s` (reviewed_at, rating)."""
    other = f" AND id <> {skip}" if skip else ""
    later = (f"(reviewed_at, id) > ({row}.reviewed_at, {row}.id)" if seek else
             f"(reviewed_at > {row}.reviewed_at OR (reviewed_at = {row}.reviewed_at AND id > {row}.id))")
    return (f"(SELECT reviewed_at, rating FROM reviews WHERE card_id = {row}.card_id{other} AND {later} "
            "ORDER BY reviewed_at, id LIMIT 1) AS s")


def _add(select_sql: str) -> str:
    return (f"INSERT INTO review_gaps (day, answers, passed) {select_sql} "
            "ON CONFLICT (day) DO UPDATE SET answers = answers + excluded.answers, "
            "passed = passed + excluded.passed;")


def _count(row: str, sign: str, seek: bool, skip: str | None = None) -> str:
    """Count (sign '') or uncount (sign '-') answer `row` between its neighbours: its own
    gap, and the next answer's gap moving from `row`'s predecessor to `row`."""
    other = "-" if sign == "" else ""
    before = _before(row, skip, seek)
    after = _after(row, skip, seek)
    return " ".join((
        _add(f"SELECT ({row}.reviewed_at - p) / {DAY_US}, {sign}1, {sign}({row}.rating > 1) "
             f"FROM (SELECT {before} AS p) WHERE p IS NOT NULL"),
        _add(f"SELECT (s.reviewed_at - {row}.reviewed_at) / {DAY_US}, {sign}1, {sign}(s.rating > 1) "
             f"FROM {after} WHERE 1"),
        _add(f"SELECT (s.reviewed_at - p) / {DAY_US}, {other}1, {other}(s.rating > 1) "
             f"FROM {after}, (SELECT {before} AS p) WHERE p IS NOT NULL"),
    ))


def _gap_triggers(seek: bool) -> None:
    for name in GAP_TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute(f"CREATE TRIGGER reviews_gap_insert AFTER INSERT ON reviews BEGIN {_count('new', '', seek)} END")
    op.execute(f"CREATE TRIGGER reviews_gap_delete AFTER DELETE ON reviews BEGIN {_count('old', '-', seek)} END")
    # The updated row is already in the table with its new values: leave it out while
    # uncounting the old ones.
    op.execute("CREATE TRIGGER reviews_gap_update AFTER UPDATE OF card_id, reviewed_at, rating ON reviews BEGIN "
               f"{_count('old', '-', seek, skip='old.id')} {_count('new', '', seek)} END")


def _rebuild_search(options: str) -> None:
    """items_fts again with `options`, holding the same text. The triggers that write it
    (on cards and items) name it in their bodies only, so they stay and write the new one."""
    op.execute("CREATE TEMP TABLE search_text AS SELECT rowid AS id, body FROM items_fts")
    op.execute("DROP TABLE items_fts")
    op.execute(f"CREATE VIRTUAL TABLE items_fts USING fts5(body, tokenize = 'trigram'{options})")
    op.execute("INSERT INTO items_fts (rowid, body) SELECT id, body FROM search_text ORDER BY id")
    op.execute("DROP TABLE search_text")
    # One b-tree segment instead of the incremental merges of a bulk insert.
    op.execute("INSERT INTO items_fts (items_fts) VALUES ('optimize')")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    _rebuild_search(", detail = none")
    op.drop_index('ix_reviews_card_id', table_name='reviews')
    op.create_index('ix_reviews_card_time', 'reviews', ['card_id', 'reviewed_at'], unique=False)
    _gap_triggers(seek=True)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    _gap_triggers(seek=False)
    op.drop_index('ix_reviews_card_time', table_name='reviews')
    op.create_index('ix_reviews_card_id', 'reviews', ['card_id'], unique=False)
    _rebuild_search("")
