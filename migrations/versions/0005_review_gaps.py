"""review_gaps: answers per whole day since the card's previous answer, kept by triggers;
two indexes for the stats

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

Stats' true retention buckets every answer by the gap since the same card's previous
answer (in (reviewed_at, id) order). Computing that from the reviews is a window over
every review ever given (seconds at a million); here the database keeps the answer
counts per gap, in whole days, as answers come and go: a handful of rows, read in a
millisecond. Triggers on reviews keep it exact in the same transaction as the answer,
its undo, an import of older answers (which moves the gap of the answer that follows),
or an edit of a review's card, time or rating.

Two small indexes let the other stats read no item row and no card they do not count:
* ix_items_tags (id, tags): readiness per topic groups the cards by their item's tags; an
  item's row holds its payload (kilobytes, overflow pages), the index only the tags.
* ix_cards_due_studied (due) of the cards that can fall due (studied, not suspended, not
  retired): the 30-day forecast counts each day as one range of it.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

DAY_US = 86_400_000_000
STUDIED_WHERE = "reps > 0 AND suspended = 0 AND retired = 0"


def _before(row: str, skip: str | None = None) -> str:
    """The time of the answer just before `row` on its card (NULL for the card's first)."""
    other = f" AND id <> {skip}" if skip else ""
    return (f"(SELECT max(reviewed_at) FROM reviews WHERE card_id = {row}.card_id{other} AND "
            f"(reviewed_at < {row}.reviewed_at OR (reviewed_at = {row}.reviewed_at AND id < {row}.id)))")


def _after(row: str, skip: str | None = None) -> str:
    """The answer just after `row` on its card, as a one-row subquery `s` (reviewed_at, rating)."""
    other = f" AND id <> {skip}" if skip else ""
    return (f"(SELECT reviewed_at, rating FROM reviews WHERE card_id = {row}.card_id{other} AND "
            f"(reviewed_at > {row}.reviewed_at OR (reviewed_at = {row}.reviewed_at AND id > {row}.id)) "
            "ORDER BY reviewed_at, id LIMIT 1) AS s")


def _add(select_sql: str) -> str:
    """Add the rows of `select_sql` (day, answers, passed) into review_gaps."""
    return (f"INSERT INTO review_gaps (day, answers, passed) {select_sql} "
            "ON CONFLICT (day) DO UPDATE SET answers = answers + excluded.answers, "
            "passed = passed + excluded.passed;")


def _count(row: str, sign: str, skip: str | None = None) -> str:
    """Statements counting (sign '') or uncounting (sign '-') answer `row` while it sits
    between its neighbours: its own gap, and the next answer's gap moving from `row`'s
    predecessor to `row`."""
    other = "-" if sign == "" else ""
    before = _before(row, skip)
    return " ".join((
        # The answer's own gap.
        _add(f"SELECT ({row}.reviewed_at - p) / {DAY_US}, {sign}1, {sign}({row}.rating > 1) "
             f"FROM (SELECT {before} AS p) WHERE p IS NOT NULL"),
        # The next answer: its gap from `row` …
        _add(f"SELECT (s.reviewed_at - {row}.reviewed_at) / {DAY_US}, {sign}1, {sign}(s.rating > 1) "
             f"FROM {_after(row, skip)} WHERE 1"),
        # … instead of from `row`'s predecessor (when there is one).
        _add(f"SELECT (s.reviewed_at - p) / {DAY_US}, {other}1, {other}(s.rating > 1) "
             f"FROM {_after(row, skip)}, (SELECT {before} AS p) WHERE p IS NOT NULL"),
    ))


TRIGGERS = (
    f"CREATE TRIGGER reviews_gap_insert AFTER INSERT ON reviews BEGIN {_count('new', '')} END",
    f"CREATE TRIGGER reviews_gap_delete AFTER DELETE ON reviews BEGIN {_count('old', '-')} END",
    # The updated row is already in the table with its new values: leave it out while
    # uncounting the old ones.
    "CREATE TRIGGER reviews_gap_update AFTER UPDATE OF card_id, reviewed_at, rating ON reviews BEGIN "
    f"{_count('old', '-', skip='old.id')} {_count('new', '')} END",
)

FILL = (
    f"INSERT INTO review_gaps (day, answers, passed) SELECT gap / {DAY_US}, count(*), sum(rating > 1) FROM ("
    "SELECT rating, reviewed_at - lag(reviewed_at) OVER (PARTITION BY card_id ORDER BY reviewed_at, id) AS gap "
    "FROM reviews) WHERE gap IS NOT NULL GROUP BY 1"
)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    op.create_table(
        'review_gaps',
        sa.Column('day', sa.Integer(), nullable=False),
        sa.Column('answers', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('passed', sa.Integer(), nullable=False, server_default='0'),
        sa.PrimaryKeyConstraint('day'),
    )
    op.execute(FILL)
    for statement in TRIGGERS:
        op.execute(statement)
    op.create_index('ix_items_tags', 'items', ['id', 'tags'], unique=False)
    op.create_index('ix_cards_due_studied', 'cards', ['due'], unique=False, sqlite_where=sa.text(STUDIED_WHERE))


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    op.drop_index('ix_cards_due_studied', table_name='cards')
    op.drop_index('ix_items_tags', table_name='items')
    for trigger in ('reviews_gap_update', 'reviews_gap_delete', 'reviews_gap_insert'):
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    op.drop_table('review_gaps')
