"""cram answers (reviews.mode 4) kept out of the day tallies, the review gaps and the fit

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01

A cram answer (quizapp.srs.cram) is a card studied ahead of its schedule that leaves the
schedule as it was, as an Anki filtered deck does without "reschedule cards based on my
answers". It is stored as a review with mode 4 (`cram`, quizapp.store.codes.MODES) so that
it can be undone, exported and counted, but it is not an answer the schedule saw:

* review_tallies (revision 0004): it does not count against today's new/review limits,
  nor does it make a study day for the streak or the heatmap;
* review_gaps (revision 0005/0007): it is not a retention sample.

Each of those triggers is recreated with a WHEN clause that skips mode 4 rows. Their
bodies are read back from sqlite_master and kept word for word, except that the gap
triggers' look-ups of the answer just before and just after one (revision 0007) also skip
cram rows: an ordinary answer's gap runs from the previous ordinary answer. Those look-ups
still seek ix_reviews_card_time by (card_id, reviewed_at); mode is checked on the rows it
returns (tests/srs/test_trigger_plans.py).
"""
from __future__ import annotations

from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None

CRAM = 4
NEIGHBOUR = "FROM reviews WHERE card_id = "
ORDINARY_NEIGHBOUR = f"FROM reviews WHERE mode <> {CRAM} AND card_id = "
# trigger -> the row(s) whose mode decides (an UPDATE moves neither row's mode).
TRIGGERS = {
    "reviews_tally_insert": "new",
    "reviews_tally_delete": "old",
    "reviews_tally_update": "new",
    "reviews_gap_insert": "new",
    "reviews_gap_delete": "old",
    "reviews_gap_update": "new",
}


def _recreate(skip_cram: bool) -> None:
    conn = op.get_bind()
    for name, row in TRIGGERS.items():
        sql = conn.exec_driver_sql("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?",
                                   (name,)).scalar_one()
        clause = f" WHEN {row}.mode <> {CRAM} BEGIN "
        head, sep, body = sql.partition(" BEGIN ")
        if not sep:
            raise RuntimeError(f"trigger {name} has no BEGIN: {sql[:80]}")
        head = head.removesuffix(clause.removesuffix(" BEGIN "))
        if name.startswith("reviews_gap_"):
            body = (body.replace(NEIGHBOUR, ORDINARY_NEIGHBOUR) if skip_cram
                    else body.replace(ORDINARY_NEIGHBOUR, NEIGHBOUR))
        op.execute(f"DROP TRIGGER {name}")
        op.execute(head + (clause if skip_cram else " BEGIN ") + body)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    _recreate(skip_cram=True)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    # The older schema has no mode 4: its cram answers go (they never moved a card).
    op.execute(f"DELETE FROM reviews WHERE mode = {CRAM}")
    _recreate(skip_cram=False)
