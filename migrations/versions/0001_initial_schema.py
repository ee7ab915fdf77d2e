"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('items',
    sa.Column('id', sa.String(length=80), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('source_no', sa.Integer(), nullable=True),
    sa.Column('group', sa.String(length=16), nullable=True),
    sa.Column('section', sa.String(length=16), nullable=True),
    sa.Column('question', sa.Text(), nullable=False),
    sa.Column('tags', sa.JSON(), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('content_hash', sa.String(length=64), nullable=False),
    sa.Column('origin', sa.String(length=16), nullable=False),
    sa.Column('retired_at', sa.DateTime(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('items', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_items_kind'), ['kind'], unique=False)
        batch_op.create_index(batch_op.f('ix_items_source_no'), ['source_no'], unique=False)

    op.create_table('mock_interviews',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=False),
    sa.Column('config', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('finished_at', sa.DateTime(), nullable=True),
    sa.Column('score', sa.Float(), nullable=True),
    sa.Column('elapsed_s', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('mock_interviews', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_mock_interviews_status'), ['status'], unique=False)

    op.create_table('settings',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('value', sa.JSON(), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    op.create_table('cards',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('item_id', sa.String(length=80), nullable=False),
    sa.Column('state', sa.Integer(), nullable=False),
    sa.Column('step', sa.Integer(), nullable=True),
    sa.Column('stability', sa.Float(), nullable=True),
    sa.Column('difficulty', sa.Float(), nullable=True),
    sa.Column('due', sa.DateTime(), nullable=False),
    sa.Column('last_review', sa.DateTime(), nullable=True),
    sa.Column('reps', sa.Integer(), nullable=False),
    sa.Column('lapses', sa.Integer(), nullable=False),
    sa.Column('suspended', sa.Boolean(), nullable=False),
    sa.Column('leech', sa.Boolean(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['item_id'], ['items.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('item_id')
    )
    with op.batch_alter_table('cards', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_cards_due'), ['due'], unique=False)

    op.create_table('mock_answers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('mock_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('item_id', sa.String(length=80), nullable=True),
    sa.Column('spec', sa.JSON(), nullable=False),
    sa.Column('answer', sa.JSON(), nullable=True),
    sa.Column('score', sa.Float(), nullable=True),
    sa.Column('time_used_s', sa.Float(), nullable=True),
    sa.Column('over_time', sa.Boolean(), nullable=False),
    sa.Column('answered_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['item_id'], ['items.id'], ),
    sa.ForeignKeyConstraint(['mock_id'], ['mock_interviews.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('mock_id', 'position')
    )
    with op.batch_alter_table('mock_answers', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_mock_answers_mock_id'), ['mock_id'], unique=False)

    op.create_table('reviews',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('card_id', sa.Integer(), nullable=False),
    sa.Column('mode', sa.String(length=8), nullable=False),
    sa.Column('rating', sa.Integer(), nullable=False),
    sa.Column('reviewed_at', sa.DateTime(), nullable=False),
    sa.Column('duration_ms', sa.Integer(), nullable=True),
    sa.Column('answer', sa.JSON(), nullable=True),
    sa.Column('score', sa.Float(), nullable=True),
    sa.Column('prev_card', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['card_id'], ['cards.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('reviews', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_reviews_card_id'), ['card_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_reviews_reviewed_at'), ['reviewed_at'], unique=False)

    op.create_table('drill_attempts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('type', sa.String(length=32), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=True),
    sa.Column('difficulty', sa.Integer(), nullable=False),
    sa.Column('given', sa.JSON(), nullable=True),
    sa.Column('answers', sa.JSON(), nullable=False),
    sa.Column('verdict', sa.JSON(), nullable=False),
    sa.Column('diagnosis', sa.JSON(), nullable=False),
    sa.Column('score', sa.Float(), nullable=False),
    sa.Column('duration_ms', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('review_id', sa.Integer(), nullable=True),
    sa.Column('mock_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['mock_id'], ['mock_interviews.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['review_id'], ['reviews.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('drill_attempts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_drill_attempts_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_drill_attempts_type'), ['type'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('drill_attempts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_drill_attempts_type'))
        batch_op.drop_index(batch_op.f('ix_drill_attempts_created_at'))

    op.drop_table('drill_attempts')
    with op.batch_alter_table('reviews', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_reviews_reviewed_at'))
        batch_op.drop_index(batch_op.f('ix_reviews_card_id'))

    op.drop_table('reviews')
    with op.batch_alter_table('mock_answers', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mock_answers_mock_id'))

    op.drop_table('mock_answers')
    with op.batch_alter_table('cards', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_cards_due'))

    op.drop_table('cards')
    op.drop_table('settings')
    with op.batch_alter_table('mock_interviews', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mock_interviews_status'))

    op.drop_table('mock_interviews')
    with op.batch_alter_table('items', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_items_source_no'))
        batch_op.drop_index(batch_op.f('ix_items_kind'))

    op.drop_table('items')
