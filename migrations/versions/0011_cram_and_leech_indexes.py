"""partial indexes of the cram answers and the leeches, for the Stats screen's totals

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03

The Stats screen's first figures count the answers that moved the schedule, the cram
answers (reviews.mode 4, revision 0008) and the leeches. Those counts read every review
and every card: at 100,000 cards (a million reviews) three scans, a third of the screen's
first figures. The schedule's answers are now the sum of the quarter-hour tallies (which
already leave cram answers out), and the other two come from these partial indexes, which
hold only the rows they count — none in most collections — so an answer or a card update
costs them nothing but the test of one column.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None

CRAM = 4


def upgrade() -> None:
    pg = op.get_bind().dialect.name == "postgresql"
    cram, leech = sa.text(f"mode = {CRAM}"), sa.text("leech")
    op.create_index("ix_reviews_cram", "reviews", ["card_id"],
                    **({"postgresql_where": cram} if pg else {"sqlite_where": cram}))
    op.create_index("ix_cards_leech", "cards", ["id"],
                    **({"postgresql_where": leech} if pg else {"sqlite_where": leech}))


def downgrade() -> None:
    op.drop_index("ix_cards_leech", table_name="cards")
    op.drop_index("ix_reviews_cram", table_name="reviews")
