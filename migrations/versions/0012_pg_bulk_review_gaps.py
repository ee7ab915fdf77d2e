"""PostgreSQL: an import's reviews skip the per-row gap trigger; the import adds their gaps at once

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05

`reviews_gap_insert` (revision 0001) keeps `review_gaps` as each review is inserted: it
looks up the card's neighbouring answers and moves up to three day counts. An import's
answers fall on a few dozen days, so the same few rows are updated thousands of times in
one transaction (on PostgreSQL each update leaves a row version the next one steps over:
the likely cause). Importing 15,300 reviews took 9.8 s on a local server, 7 s of it in this
trigger (1.8 s with it off).

The trigger now stands aside while the transaction has set `quizapp.bulk_gaps` to `on`
(`set_config(..., true)`: that transaction only). Only the import sets it, and it then
moves the day counts of the cards it added answers to, for all of them at once
(quizapp/store/review_gaps.py) — what the per-row trigger would have left, as `db check`
verifies. Every other insert (an answer, a copy) keeps the trigger.

SQLite: nothing to do (its trigger costs little there).
"""
from __future__ import annotations

from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None

CRAM = 4


def _gap_insert(when: str) -> None:
    op.execute("DROP TRIGGER reviews_gap_insert ON reviews")
    op.execute(f"CREATE TRIGGER reviews_gap_insert BEFORE INSERT ON reviews FOR EACH ROW WHEN ({when}) "
               "EXECUTE FUNCTION quizapp_review_gaps()")


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    _gap_insert(f"NEW.mode <> {CRAM} AND current_setting('quizapp.bulk_gaps', true) IS DISTINCT FROM 'on'")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    _gap_insert(f"NEW.mode <> {CRAM}")
