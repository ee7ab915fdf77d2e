"""index reviews by mode and attempts by mock

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""
from __future__ import annotations

from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    with op.batch_alter_table('drill_attempts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_drill_attempts_mock_id'), ['mock_id'], unique=False)

    with op.batch_alter_table('reviews', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_reviews_mode'), ['mode'], unique=False)



def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    with op.batch_alter_table('reviews', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_reviews_mode'))

    with op.batch_alter_table('drill_attempts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_drill_attempts_mock_id'))

