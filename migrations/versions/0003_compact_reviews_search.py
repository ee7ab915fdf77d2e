"""compact reviews, per-step indexes, full-text search, content cache

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

* reviews: ix_reviews_mode dropped (nothing filters on it); the JSON snapshot of the card before each answer (`prev_card`, ~220 bytes a
  row) becomes plain columns (`prev_*`, times as integer microseconds); existing rows are
  converted, so undo keeps working on answers given before the upgrade.
* indexes for the per-step queries: cards.kind (a copy of items.kind kept by triggers)
  with due cards by (kind, state, due) and new cards by (kind, reps); new cards of a
  kind in bank order.
* items_fts: an FTS5 index (trigram tokenizer) over every text of an item's payload, in
  every language it has; triggers keep it in step with items and cards.
* content_files: the hash of each content file last synced, so an unchanged deck is
  neither parsed nor synced again.
"""
from __future__ import annotations

import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None

_EPOCH = datetime(1970, 1, 1)

# What Browse searches (as before: id, question, answer, tags), in every language the
# item has: `question: {zh: …, en: …}` contributes both strings.
ITEM_TEXT = (
    "(SELECT group_concat(value, ' ') FROM json_tree({payload}) WHERE type = 'text' AND ("
    "fullkey = '$.id' OR fullkey GLOB '$.question*' OR fullkey GLOB '$.answer*' OR fullkey GLOB '$.tags*'))"
)
SEARCH_DDL = (
    "CREATE VIRTUAL TABLE items_fts USING fts5(body, tokenize = 'trigram')",
    # The index's rowid is the item's card id (items have a text key; cards an integer one).
    "CREATE TRIGGER items_fts_card_insert AFTER INSERT ON cards BEGIN "
    "INSERT INTO items_fts (rowid, body) SELECT new.id, " + ITEM_TEXT.format(payload="items.payload")
    + " FROM items WHERE items.id = new.item_id; END",
    "CREATE TRIGGER items_fts_card_delete AFTER DELETE ON cards BEGIN "
    "DELETE FROM items_fts WHERE rowid = old.id; END",
    "CREATE TRIGGER items_fts_item_update AFTER UPDATE OF payload ON items BEGIN "
    "DELETE FROM items_fts WHERE rowid = (SELECT id FROM cards WHERE item_id = new.id); "
    "INSERT INTO items_fts (rowid, body) SELECT cards.id, " + ITEM_TEXT.format(payload="new.payload")
    + " FROM cards WHERE cards.item_id = new.id; END",
)


KIND_TRIGGERS = (
    "CREATE TRIGGER cards_kind_insert AFTER INSERT ON cards WHEN new.kind IS NULL BEGIN "
    "UPDATE cards SET kind = (SELECT kind FROM items WHERE items.id = new.item_id) WHERE id = new.id; END",
    "CREATE TRIGGER cards_kind_follow_item AFTER UPDATE OF kind ON items BEGIN "
    "UPDATE cards SET kind = new.kind WHERE item_id = new.id; END",
)


def _micros(text: str | None) -> int | None:
    if not text:
        return None
    value = datetime.fromisoformat(text)
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    delta = value - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    prev_columns = (
        sa.Column('prev_state', sa.Integer(), nullable=True),
        sa.Column('prev_step', sa.Integer(), nullable=True),
        sa.Column('prev_stability', sa.Float(), nullable=True),
        sa.Column('prev_difficulty', sa.Float(), nullable=True),
        sa.Column('prev_due', sa.Integer(), nullable=True),
        sa.Column('prev_last_review', sa.Integer(), nullable=True),
        sa.Column('prev_reps', sa.Integer(), nullable=True),
        sa.Column('prev_lapses', sa.Integer(), nullable=True),
        sa.Column('prev_leech', sa.Boolean(), nullable=True),
        sa.Column('prev_suspended', sa.Boolean(), nullable=True),
    )
    # Plain ALTER TABLE (no batch "move and copy"): recreating `reviews` would drop it, and
    # with foreign keys on that sets drill_attempts.review_id to NULL. The new columns stay
    # nullable for the same reason (SQLite cannot add NOT NULL to a filled table in place).
    for column in prev_columns:
        op.add_column('reviews', column)

    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, prev_card FROM reviews")).all()
    updates = []
    for review_id, raw in rows:
        prev = (json.loads(raw) if isinstance(raw, str) else raw) or {}
        updates.append({
            "id": review_id,
            "state": prev.get("state") if prev.get("state") is not None else 1,
            "step": prev.get("step"),
            "stability": prev.get("stability"),
            "difficulty": prev.get("difficulty"),
            "due": _micros(prev.get("due")),
            "last_review": _micros(prev.get("last_review")),
            "reps": int(prev.get("reps") or 0),
            "lapses": int(prev.get("lapses") or 0),
            "leech": bool(prev.get("leech")),
            "suspended": bool(prev.get("suspended")),
        })
    if updates:
        conn.execute(
            sa.text(
                "UPDATE reviews SET prev_state = :state, prev_step = :step, prev_stability = :stability, "
                "prev_difficulty = :difficulty, prev_due = :due, prev_last_review = :last_review, "
                "prev_reps = :reps, prev_lapses = :lapses, prev_leech = :leech, prev_suspended = :suspended "
                "WHERE id = :id"
            ),
            updates,
        )

    op.execute("ALTER TABLE reviews DROP COLUMN prev_card")
    # No query filters reviews by mode; its index cost 13 bytes a review.
    op.drop_index('ix_reviews_mode', table_name='reviews')

    # cards.kind mirrors items.kind (kept by triggers), so the per-kind queue and count
    # queries walk one index of that kind's cards instead of every kind's due cards.
    op.add_column('cards', sa.Column('kind', sa.String(length=8), nullable=True))
    op.execute("UPDATE cards SET kind = (SELECT kind FROM items WHERE items.id = cards.item_id)")
    for statement in KIND_TRIGGERS:
        op.execute(statement)
    with op.batch_alter_table('cards', schema=None) as batch_op:
        batch_op.create_index('ix_cards_kind_state_due', ['kind', 'state', 'due'], unique=False)
        batch_op.create_index('ix_cards_kind_reps', ['kind', 'reps'], unique=False)
    with op.batch_alter_table('items', schema=None) as batch_op:
        batch_op.create_index('ix_items_kind_order', ['kind', 'source_no', 'id'], unique=False)

    op.create_table(
        'content_files',
        sa.Column('path', sa.Text(), nullable=False),
        sa.Column('sha256', sa.String(length=64), nullable=False),
        sa.Column('stat', sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint('path'),
    )

    for statement in SEARCH_DDL:
        op.execute(statement)
    op.execute(
        "INSERT INTO items_fts (rowid, body) SELECT cards.id, " + ITEM_TEXT.format(payload="items.payload")
        + " FROM cards JOIN items ON items.id = cards.item_id"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    for trigger in ('items_fts_item_update', 'items_fts_card_delete', 'items_fts_card_insert'):
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    op.execute("DROP TABLE IF EXISTS items_fts")
    op.drop_table('content_files')
    with op.batch_alter_table('items', schema=None) as batch_op:
        batch_op.drop_index('ix_items_kind_order')
    for trigger in ('cards_kind_follow_item', 'cards_kind_insert'):
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    with op.batch_alter_table('cards', schema=None) as batch_op:
        batch_op.drop_index('ix_cards_kind_reps')
        batch_op.drop_index('ix_cards_kind_state_due')
    op.execute("ALTER TABLE cards DROP COLUMN kind")
    op.create_index('ix_reviews_mode', 'reviews', ['mode'], unique=False)
    op.add_column('reviews', sa.Column('prev_card', sa.JSON(), nullable=True))
    conn = op.get_bind()
    rows = conn.execute(sa.text(
        "SELECT id, prev_state, prev_step, prev_stability, prev_difficulty, prev_due, prev_last_review, "
        "prev_reps, prev_lapses, prev_leech, prev_suspended FROM reviews"
    )).all()

    def iso(micros: int | None) -> str | None:
        from datetime import timedelta

        return None if micros is None else (_EPOCH + timedelta(microseconds=micros)).isoformat()

    conn.execute(
        sa.text("UPDATE reviews SET prev_card = :prev WHERE id = :id"),
        [{"id": r[0], "prev": json.dumps({
            "state": r[1], "step": r[2], "stability": r[3], "difficulty": r[4], "due": iso(r[5]),
            "last_review": iso(r[6]), "reps": r[7], "lapses": r[8], "leech": bool(r[9]), "suspended": bool(r[10]),
        })} for r in rows],
    ) if rows else None
    for name in ('prev_suspended', 'prev_leech', 'prev_lapses', 'prev_reps', 'prev_last_review', 'prev_due',
                 'prev_difficulty', 'prev_stability', 'prev_step', 'prev_state'):
        op.execute(f"ALTER TABLE reviews DROP COLUMN {name}")
