"""review times as integers, review tallies per quarter-hour, a card queue of its own

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

* reviews.reviewed_at: the 26-character text `2026-12-01 06:06:18.123456` becomes integer
  microseconds since 1970 (8 bytes), exact to the microsecond as before; its index over
  every review goes (nothing per step reads reviews by time any more), and a partial one
  of the Again answers serves the mock's "recent lapses"; reviews.mode: the word (`study`) becomes a small integer
  (0 study, 1 quiz, 2 drill, 3 mock). The table is altered in place (ADD/DROP COLUMN), never
  recreated: recreating it would set drill_attempts.review_id to NULL.
* review_tallies: how many answers each quarter-hour holds (first answers of new cards and
  answers of known cards, per kind), kept by triggers on reviews in the same transaction as
  the answer, its undo, an import, or a card changing kind. Every real time-zone offset is a
  multiple of 15 minutes, so a study day, wherever its boundary falls, is a whole run of
  quarters: today's counters are a sum over at most 100 rows, not a walk of today's reviews.
* cards.retired and cards.source_no: copies of the item's (triggers keep them), so the study
  queue is answered from two partial indexes of cards alone — due cards by (kind, state,
  due) and new cards in bank order — without reading the item's row (whose payload runs to
  overflow pages before retired_at). They replace ix_cards_kind_state_due/ix_cards_kind_reps.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

QUARTER_US = 900_000_000  # 15 minutes in microseconds
KINDS = ("qa", "mcq", "skill")
TALLY_COLUMNS = tuple(f"{kind}_{what}" for kind in KINDS for what in ("new", "reviews"))
MODES = ("study", "quiz", "drill", "mock")

LAPSE_WHERE = "rating = 1"
QUEUE_WHERE = "reps > 0 AND suspended = 0 AND retired = 0"
NEW_WHERE = "reps = 0 AND suspended = 0 AND retired = 0"


def _deltas(kind: str, reps: str, sign: str = "") -> list[str]:
    """The six tally increments of one answer: kind `kind`, the card's reps before it `reps`."""
    out = []
    for k in KINDS:
        out.append(f"{sign}ifnull({kind} = '{k}' AND {reps} = 0, 0)")
        out.append(f"{sign}ifnull({kind} = '{k}' AND {reps} > 0, 0)")
    return out


def _upsert(select_sql: str) -> str:
    """Add the rows of `select_sql` (quarter, six deltas) into review_tallies."""
    sets = ", ".join(f"{c} = {c} + excluded.{c}" for c in TALLY_COLUMNS)
    return (f"INSERT INTO review_tallies (quarter, {', '.join(TALLY_COLUMNS)}) {select_sql} "
            f"ON CONFLICT (quarter) DO UPDATE SET {sets};")


def _drop_empty(quarter: str) -> str:
    # An undone day leaves no trace: the streak asks only whether a row exists.
    empty = " AND ".join(f"{c} = 0" for c in TALLY_COLUMNS)
    return f"DELETE FROM review_tallies WHERE quarter = {quarter} AND {empty};"


def _tally(row: str, sign: str = "") -> str:
    """Statements counting (or, with sign '-', uncounting) the review `row` (new/old)."""
    quarter = f"{row}.reviewed_at / {QUARTER_US}"
    deltas = ", ".join(_deltas("c.kind", f"{row}.prev_reps", sign))
    statement = _upsert(f"SELECT {quarter}, {deltas} FROM cards c WHERE c.id = {row}.card_id")
    return statement + (_drop_empty(quarter) if sign else "")


def _retally_card() -> str:
    """A card changed kind: move its reviews' counts from the old kind to the new."""
    plus = _deltas("new.kind", "r.prev_reps")
    minus = _deltas("old.kind", "r.prev_reps")
    deltas = ", ".join(f"{p} - {m}" for p, m in zip(plus, minus))
    return (_upsert(f"SELECT r.reviewed_at / {QUARTER_US}, {deltas} FROM reviews r WHERE r.card_id = new.id")
            + " DELETE FROM review_tallies WHERE " + " AND ".join(f"{c} = 0" for c in TALLY_COLUMNS)
            + f" AND quarter IN (SELECT reviewed_at / {QUARTER_US} FROM reviews WHERE card_id = new.id);")


TALLY_TRIGGERS = (
    f"CREATE TRIGGER reviews_tally_insert AFTER INSERT ON reviews BEGIN {_tally('new')} END",
    f"CREATE TRIGGER reviews_tally_delete AFTER DELETE ON reviews BEGIN {_tally('old', '-')} END",
    "CREATE TRIGGER reviews_tally_update AFTER UPDATE OF card_id, reviewed_at, prev_reps ON reviews BEGIN "
    f"{_tally('old', '-')} {_tally('new')} END",
    "CREATE TRIGGER cards_tally_kind AFTER UPDATE OF kind ON cards "
    f"WHEN old.kind IS NOT NULL AND old.kind IS NOT new.kind BEGIN {_retally_card()} END",
    # A card's reviews go before the card does (the tally needs the card's kind); nothing
    # deletes cards today, but an ON DELETE CASCADE would otherwise leave the counts behind.
    "CREATE TRIGGER cards_delete_reviews BEFORE DELETE ON cards BEGIN "
    "DELETE FROM reviews WHERE card_id = old.id; END",
)

MIRROR_TRIGGERS = (
    "CREATE TRIGGER cards_mirror_insert AFTER INSERT ON cards BEGIN "
    "UPDATE cards SET kind = (SELECT kind FROM items WHERE items.id = new.item_id), "
    "source_no = (SELECT source_no FROM items WHERE items.id = new.item_id), "
    "retired = (SELECT retired_at IS NOT NULL FROM items WHERE items.id = new.item_id) "
    "WHERE id = new.id; END",
    "CREATE TRIGGER cards_mirror_item AFTER UPDATE OF kind, source_no, retired_at ON items BEGIN "
    "UPDATE cards SET kind = new.kind, source_no = new.source_no, retired = new.retired_at IS NOT NULL "
    "WHERE item_id = new.id; END",
)

# Revision 0003's, restored by the downgrade.
OLD_KIND_TRIGGERS = (
    "CREATE TRIGGER cards_kind_insert AFTER INSERT ON cards WHEN new.kind IS NULL BEGIN "
    "UPDATE cards SET kind = (SELECT kind FROM items WHERE items.id = new.item_id) WHERE id = new.id; END",
    "CREATE TRIGGER cards_kind_follow_item AFTER UPDATE OF kind ON items BEGIN "
    "UPDATE cards SET kind = new.kind WHERE item_id = new.id; END",
)

# Exact text → microseconds: SQLAlchemy writes `YYYY-MM-DD HH:MM:SS.ffffff` (naive UTC).
TEXT_TO_MICROS = (
    "CAST(strftime('%s', substr({col}, 1, 19)) AS INTEGER) * 1000000 + "
    "CASE WHEN length({col}) > 20 THEN CAST(substr({col} || '000000', 21, 6) AS INTEGER) ELSE 0 END"
)
MICROS_TO_TEXT = (
    "strftime('%Y-%m-%d %H:%M:%S', {col} / 1000000, 'unixepoch') || printf('.%06d', {col} % 1000000)"
)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    # -- reviews: integer time and mode ---------------------------------------------------
    op.drop_index('ix_reviews_reviewed_at', table_name='reviews')
    op.execute("ALTER TABLE reviews RENAME COLUMN reviewed_at TO reviewed_at_text")
    op.execute("ALTER TABLE reviews RENAME COLUMN mode TO mode_text")
    op.execute("ALTER TABLE reviews ADD COLUMN reviewed_at INTEGER NOT NULL DEFAULT 0")
    op.execute("ALTER TABLE reviews ADD COLUMN mode INTEGER NOT NULL DEFAULT 0")
    mode_case = " ".join(f"WHEN '{name}' THEN {code}" for code, name in enumerate(MODES))
    op.execute(
        f"UPDATE reviews SET reviewed_at = {TEXT_TO_MICROS.format(col='reviewed_at_text')}, "
        f"mode = CASE mode_text {mode_case} ELSE 0 END"
    )
    op.execute("ALTER TABLE reviews DROP COLUMN reviewed_at_text")
    op.execute("ALTER TABLE reviews DROP COLUMN mode_text")
    # No time index over every review (17 bytes each): today's counters and the streak read
    # review_tallies, the stats heatmap too. What is left asking for reviews by time is the
    # mock's "recent lapses": a partial index of the Again answers serves it.
    op.create_index('ix_reviews_lapses', 'reviews', ['reviewed_at'], unique=False,
                    sqlite_where=sa.text(LAPSE_WHERE))

    # -- cards: copies of the item's retired flag and bank number; the queue's indexes -----
    op.execute("ALTER TABLE cards ADD COLUMN retired BOOLEAN NOT NULL DEFAULT 0")
    op.add_column('cards', sa.Column('source_no', sa.Integer(), nullable=True))
    op.execute(
        "UPDATE cards SET source_no = (SELECT source_no FROM items WHERE items.id = cards.item_id), "
        "retired = (SELECT retired_at IS NOT NULL FROM items WHERE items.id = cards.item_id)"
    )
    op.execute("DROP TRIGGER IF EXISTS cards_kind_insert")
    op.execute("DROP TRIGGER IF EXISTS cards_kind_follow_item")
    for statement in MIRROR_TRIGGERS:
        op.execute(statement)
    op.drop_index('ix_cards_kind_state_due', table_name='cards')
    op.drop_index('ix_cards_kind_reps', table_name='cards')
    op.create_index('ix_cards_queue', 'cards', ['kind', 'state', 'due'], unique=False,
                    sqlite_where=sa.text(QUEUE_WHERE))
    op.create_index('ix_cards_new', 'cards', ['kind', 'source_no', 'item_id'], unique=False,
                    sqlite_where=sa.text(NEW_WHERE))

    # -- review tallies ---------------------------------------------------------------------
    op.create_table(
        'review_tallies',
        sa.Column('quarter', sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False, server_default='0') for name in TALLY_COLUMNS),
        sa.PrimaryKeyConstraint('quarter'),
    )
    sums = ", ".join(f"sum({d})" for d in _deltas("c.kind", "r.prev_reps"))
    op.execute(
        f"INSERT INTO review_tallies (quarter, {', '.join(TALLY_COLUMNS)}) "
        f"SELECT r.reviewed_at / {QUARTER_US} AS q, {sums} FROM reviews r JOIN cards c ON c.id = r.card_id "
        f"GROUP BY q HAVING {' + '.join(f'sum({d})' for d in _deltas('c.kind', 'r.prev_reps'))} > 0"
    )
    for statement in TALLY_TRIGGERS:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        return  # revision 0001 made the head schema there
    for trigger in ('cards_delete_reviews', 'cards_tally_kind', 'reviews_tally_update', 'reviews_tally_delete',
                    'reviews_tally_insert', 'cards_mirror_item', 'cards_mirror_insert'):
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    op.drop_table('review_tallies')
    op.drop_index('ix_cards_new', table_name='cards')
    op.drop_index('ix_cards_queue', table_name='cards')
    op.create_index('ix_cards_kind_state_due', 'cards', ['kind', 'state', 'due'], unique=False)
    op.create_index('ix_cards_kind_reps', 'cards', ['kind', 'reps'], unique=False)
    for statement in OLD_KIND_TRIGGERS:
        op.execute(statement)
    op.execute("ALTER TABLE cards DROP COLUMN source_no")
    op.execute("ALTER TABLE cards DROP COLUMN retired")

    op.drop_index('ix_reviews_lapses', table_name='reviews')
    op.execute("ALTER TABLE reviews RENAME COLUMN reviewed_at TO reviewed_at_us")
    op.execute("ALTER TABLE reviews RENAME COLUMN mode TO mode_code")
    op.execute("ALTER TABLE reviews ADD COLUMN reviewed_at DATETIME NOT NULL DEFAULT ''")
    op.execute("ALTER TABLE reviews ADD COLUMN mode VARCHAR(8) NOT NULL DEFAULT 'study'")
    mode_case = " ".join(f"WHEN {code} THEN '{name}'" for code, name in enumerate(MODES))
    op.execute(
        f"UPDATE reviews SET reviewed_at = {MICROS_TO_TEXT.format(col='reviewed_at_us')}, "
        f"mode = CASE mode_code {mode_case} ELSE 'study' END"
    )
    op.execute("ALTER TABLE reviews DROP COLUMN reviewed_at_us")
    op.execute("ALTER TABLE reviews DROP COLUMN mode_code")
    op.create_index('ix_reviews_reviewed_at', 'reviews', ['reviewed_at'], unique=False)
