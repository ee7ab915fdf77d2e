"""JSON columns as compact UTF-8 text; two unused indexes dropped

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

Every JSON column was written by Python's default `json.dumps`: each CJK character as a
6-byte `\\uXXXX` escape (3 bytes as UTF-8) and a space after every `,` and `:`. The items'
bilingual payloads are most of a collection's file; written compactly (`models.json_text`,
now the engine's serializer) they shrink by a fifth, and the rows then pack into fewer
pages: at 10,000 items the items table goes from 52.9 to 37.7 MB.

Existing rows are rewritten here: the same JSON values (parsed and written again), so
nothing that reads them changes. The search index's payload trigger is set aside while
items are rewritten: the text it indexes is the same, and re-indexing every item would
only churn the index. Text that is not valid JSON is left as it is.

Two indexes go (EXPLAIN QUERY PLAN over the srs and store tests: no plan needs them):
* ix_items_kind (kind): ix_items_kind_order (kind, source_no, id) starts with it;
* ix_cards_due (due) over every card: the queue reads ix_cards_queue, the forecast
  ix_cards_due_studied; only a bare count(*) of cards scanned it, as the smallest index.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

COLUMNS = (
    ("items", ("payload", "tags")),
    ("reviews", ("answer",)),
    ("drill_attempts", ("given", "answers", "verdict", "diagnosis")),
    ("mock_interviews", ("config",)),
    ("mock_answers", ("spec", "answer")),
    ("settings", ("value",)),
)
# Fires on UPDATE OF payload (revision 0003); kept aside while the payloads are rewritten.
SEARCH_TRIGGER = "items_fts_item_update"


def _rewritten(dumps: Callable[[Any], str]) -> Callable[[Any], Any]:
    def rewrite(value: Any) -> Any:
        if not isinstance(value, str):
            return value
        try:
            return dumps(json.loads(value))
        except ValueError:
            return value

    return rewrite


def _rewrite_all(dumps: Callable[[Any], str]) -> None:
    bind = op.get_bind()
    bind.connection.driver_connection.create_function("quizapp_json", 1, _rewritten(dumps), deterministic=True)
    trigger = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", (SEARCH_TRIGGER,)).scalar()
    if trigger:
        op.execute(f"DROP TRIGGER {SEARCH_TRIGGER}")
    for table, columns in COLUMNS:
        sets = ", ".join(f"{column} = quizapp_json({column})" for column in columns)
        wanted = " OR ".join(f"{column} IS NOT NULL" for column in columns)
        op.execute(f"UPDATE {table} SET {sets} WHERE {wanted}")
    if trigger:
        op.execute(trigger)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    _rewrite_all(lambda value: json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    op.drop_index('ix_items_kind', table_name='items')
    op.drop_index('ix_cards_due', table_name='cards')


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    op.create_index('ix_cards_due', 'cards', ['due'], unique=False)
    op.create_index('ix_items_kind', 'items', ['kind'], unique=False)
    # Back to the text revision 0005's app writes (Python's default json.dumps).
    _rewrite_all(json.dumps)
