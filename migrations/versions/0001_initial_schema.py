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
    if op.get_bind().dialect.name == "postgresql":
        _pg_upgrade()
        return
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
    if op.get_bind().dialect.name == "postgresql":
        _pg_downgrade()
        return
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


# -- PostgreSQL ---------------------------------------------------------------------------
#
# On PostgreSQL this revision creates the head schema at once (revisions 0002–0008 rewrite
# SQLite tables in ways PostgreSQL never needs, and are no-ops there). The same tables,
# columns and index conditions as the SQLite head (quizapp.store.models), with:
# * every integer as BIGINT (times in µs since 1970 overflow 32 bits), ids as identity;
# * text `COLLATE "C"`: compared and sorted by bytes, as SQLite does, whatever the
#   database's locale (the queue's and Browse's bank order);
# * JSON as `json`, not `jsonb`: the text is kept as written (key order included), so an
#   export from PostgreSQL is byte-identical to one from SQLite;
# * the partial indexes with `postgresql_where`; no index of items.tags (JSON has no btree
#   order; the stats read the tags from the items);
# * search: items_search (card_id, body) filled by triggers with the same text as SQLite's
#   FTS5 index (id, question, answer and tags in every language), a pg_trgm GIN index on
#   it for substring search in Chinese and English (LIKE/ILIKE use it);
# * PL/pgSQL triggers for what SQLite's triggers keep: the cards' copies of their item's
#   kind, bank number and retired flag, the quarter-hour tallies (revision 0004) and the
#   review gaps (revisions 0005, 0007), both skipping cram answers (revision 0008).

PG_QUARTER_US = 900_000_000
PG_DAY_US = 86_400_000_000
PG_CRAM = 4
PG_KINDS = ("qa", "mcq", "skill")
PG_TALLY_COLUMNS = tuple(f"{kind}_{what}" for kind in PG_KINDS for what in ("new", "reviews"))
PG_STUDIED = sa.text("reps > 0 AND suspended = false AND retired = false")
PG_NEW = sa.text("reps = 0 AND suspended = false AND retired = false")


def _text() -> sa.Text:
    return sa.Text(collation="C")


def _pg_tables() -> None:
    big = sa.BigInteger
    when = sa.DateTime
    js = sa.JSON
    op.create_table(
        'items',
        sa.Column('id', _text(), primary_key=True),
        sa.Column('kind', _text(), nullable=False),
        sa.Column('source_no', big(), nullable=True),
        sa.Column('group', _text(), nullable=True),
        sa.Column('section', _text(), nullable=True),
        sa.Column('question', _text(), nullable=False),
        sa.Column('tags', js(), nullable=False),
        sa.Column('payload', js(), nullable=False),
        sa.Column('content_hash', _text(), nullable=False),
        sa.Column('origin', _text(), nullable=False),
        sa.Column('retired_at', when(), nullable=True),
        sa.Column('created_at', when(), nullable=False),
        sa.Column('updated_at', when(), nullable=False),
    )
    op.create_index('ix_items_source_no', 'items', ['source_no'])
    op.create_index('ix_items_kind_order', 'items', ['kind', 'source_no', 'id'])
    op.create_table(
        'mock_interviews',
        sa.Column('id', big(), sa.Identity(), primary_key=True),
        sa.Column('seed', big(), nullable=False),
        sa.Column('config', js(), nullable=False),
        sa.Column('status', _text(), nullable=False),
        sa.Column('started_at', when(), nullable=False),
        sa.Column('finished_at', when(), nullable=True),
        sa.Column('score', sa.Float(), nullable=True),
        sa.Column('elapsed_s', sa.Float(), nullable=False),
    )
    op.create_index('ix_mock_interviews_status', 'mock_interviews', ['status'])
    op.create_table(
        'settings',
        sa.Column('key', _text(), primary_key=True),
        sa.Column('value', js(), nullable=False),
    )
    op.create_table(
        'content_files',
        sa.Column('path', _text(), primary_key=True),
        sa.Column('sha256', _text(), nullable=False),
        sa.Column('stat', _text(), nullable=False),
    )
    op.create_table(
        'cards',
        sa.Column('id', big(), sa.Identity(), primary_key=True),
        sa.Column('item_id', _text(), sa.ForeignKey('items.id', ondelete='CASCADE'), nullable=False, unique=True),
        sa.Column('kind', _text(), nullable=True),
        sa.Column('source_no', big(), nullable=True),
        sa.Column('retired', sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column('state', big(), nullable=False),
        sa.Column('step', big(), nullable=True),
        sa.Column('stability', sa.Float(), nullable=True),
        sa.Column('difficulty', sa.Float(), nullable=True),
        sa.Column('due', when(), nullable=False),
        sa.Column('last_review', when(), nullable=True),
        sa.Column('reps', big(), nullable=False),
        sa.Column('lapses', big(), nullable=False),
        sa.Column('suspended', sa.Boolean(), nullable=False),
        sa.Column('leech', sa.Boolean(), nullable=False),
        sa.Column('version', big(), nullable=False),
    )
    op.create_index('ix_cards_queue', 'cards', ['kind', 'state', 'due'], postgresql_where=PG_STUDIED)
    op.create_index('ix_cards_new', 'cards', ['kind', 'source_no', 'item_id'], postgresql_where=PG_NEW)
    op.create_index('ix_cards_due_studied', 'cards', ['due'], postgresql_where=PG_STUDIED)
    op.create_table(
        'mock_answers',
        sa.Column('id', big(), sa.Identity(), primary_key=True),
        sa.Column('mock_id', big(), sa.ForeignKey('mock_interviews.id', ondelete='CASCADE'), nullable=False),
        sa.Column('position', big(), nullable=False),
        sa.Column('kind', _text(), nullable=False),
        sa.Column('item_id', _text(), sa.ForeignKey('items.id'), nullable=True),
        sa.Column('spec', js(), nullable=False),
        sa.Column('answer', js(), nullable=True),
        sa.Column('score', sa.Float(), nullable=True),
        sa.Column('time_used_s', sa.Float(), nullable=True),
        sa.Column('over_time', sa.Boolean(), nullable=False),
        sa.Column('answered_at', when(), nullable=True),
        sa.UniqueConstraint('mock_id', 'position'),
    )
    op.create_index('ix_mock_answers_mock_id', 'mock_answers', ['mock_id'])
    op.create_table(
        'reviews',
        sa.Column('id', big(), sa.Identity(), primary_key=True),
        sa.Column('card_id', big(), sa.ForeignKey('cards.id', ondelete='CASCADE'), nullable=False),
        sa.Column('mode', big(), nullable=False, server_default='0'),
        sa.Column('rating', big(), nullable=False),
        sa.Column('reviewed_at', big(), nullable=False, server_default='0'),
        sa.Column('duration_ms', big(), nullable=True),
        sa.Column('answer', js(), nullable=True),
        sa.Column('score', sa.Float(), nullable=True),
        sa.Column('prev_state', big(), nullable=True),
        sa.Column('prev_step', big(), nullable=True),
        sa.Column('prev_stability', sa.Float(), nullable=True),
        sa.Column('prev_difficulty', sa.Float(), nullable=True),
        sa.Column('prev_due', big(), nullable=True),
        sa.Column('prev_last_review', big(), nullable=True),
        sa.Column('prev_reps', big(), nullable=True),
        sa.Column('prev_lapses', big(), nullable=True),
        sa.Column('prev_leech', sa.Boolean(), nullable=True),
        sa.Column('prev_suspended', sa.Boolean(), nullable=True),
    )
    op.create_index('ix_reviews_lapses', 'reviews', ['reviewed_at'], postgresql_where=sa.text('rating = 1'))
    op.create_index('ix_reviews_card_time', 'reviews', ['card_id', 'reviewed_at'])
    op.create_table(
        'review_tallies',
        sa.Column('quarter', big(), primary_key=True, autoincrement=False),
        *(sa.Column(name, big(), nullable=False, server_default='0') for name in PG_TALLY_COLUMNS),
    )
    op.create_table(
        'review_gaps',
        sa.Column('day', big(), primary_key=True, autoincrement=False),
        sa.Column('answers', big(), nullable=False, server_default='0'),
        sa.Column('passed', big(), nullable=False, server_default='0'),
    )
    op.create_table(
        'drill_attempts',
        sa.Column('id', big(), sa.Identity(), primary_key=True),
        sa.Column('type', _text(), nullable=False),
        sa.Column('seed', big(), nullable=True),
        sa.Column('difficulty', big(), nullable=False),
        sa.Column('given', js(), nullable=True),
        sa.Column('answers', js(), nullable=False),
        sa.Column('verdict', js(), nullable=False),
        sa.Column('diagnosis', js(), nullable=False),
        sa.Column('score', sa.Float(), nullable=False),
        sa.Column('duration_ms', big(), nullable=True),
        sa.Column('created_at', when(), nullable=False),
        sa.Column('review_id', big(), sa.ForeignKey('reviews.id', ondelete='SET NULL'), nullable=True),
        sa.Column('mock_id', big(), sa.ForeignKey('mock_interviews.id', ondelete='SET NULL'), nullable=True),
    )
    op.create_index('ix_drill_attempts_type', 'drill_attempts', ['type'])
    op.create_index('ix_drill_attempts_created_at', 'drill_attempts', ['created_at'])
    op.create_index('ix_drill_attempts_mock_id', 'drill_attempts', ['mock_id'])
    op.create_table(
        'items_search',
        sa.Column('card_id', big(), sa.ForeignKey('cards.id', ondelete='CASCADE'), primary_key=True,
                  autoincrement=False),
        sa.Column('body', _text(), nullable=False),
    )


def _pg_tally_function() -> str:
    deltas = ", ".join(f"sign * coalesce(k = '{kind}' AND reps {op_} 0, false)::int"
                       for kind in PG_KINDS for op_ in ("=", ">"))
    sets = ", ".join(f"{c} = t.{c} + excluded.{c}" for c in PG_TALLY_COLUMNS)
    empty = " AND ".join(f"{c} = 0" for c in PG_TALLY_COLUMNS)
    return f"""
CREATE FUNCTION quizapp_tally(card bigint, reps bigint, at_us bigint, sign int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE k text;
BEGIN
  SELECT kind INTO k FROM cards WHERE id = card;
  IF NOT FOUND THEN RETURN; END IF;
  INSERT INTO review_tallies AS t (quarter, {', '.join(PG_TALLY_COLUMNS)})
    VALUES (at_us / {PG_QUARTER_US}, {deltas})
    ON CONFLICT (quarter) DO UPDATE SET {sets};
  IF sign < 0 THEN
    DELETE FROM review_tallies WHERE quarter = at_us / {PG_QUARTER_US} AND {empty};
  END IF;
END $$"""


def _pg_gap_function() -> str:
    # An answer between its card's neighbours (cram answers apart): its own gap, and the
    # next answer's gap moving from the predecessor to it (revision 0007's three upserts).
    return f"""
CREATE FUNCTION quizapp_gap(card bigint, at_us bigint, rid bigint, rating bigint, skip bigint, sign int)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE p bigint; s_at bigint; s_rating bigint;
BEGIN
  SELECT reviewed_at INTO p FROM reviews WHERE mode <> {PG_CRAM} AND card_id = card AND id IS DISTINCT FROM skip
    AND (reviewed_at, id) < (at_us, rid) ORDER BY reviewed_at DESC, id DESC LIMIT 1;
  SELECT reviewed_at, reviews.rating INTO s_at, s_rating FROM reviews WHERE mode <> {PG_CRAM} AND card_id = card
    AND id IS DISTINCT FROM skip AND (reviewed_at, id) > (at_us, rid) ORDER BY reviewed_at, id LIMIT 1;
  IF p IS NOT NULL THEN
    PERFORM quizapp_gap_add((at_us - p) / {PG_DAY_US}, sign, sign * (rating > 1)::int);
  END IF;
  IF s_at IS NOT NULL THEN
    PERFORM quizapp_gap_add((s_at - at_us) / {PG_DAY_US}, sign, sign * (s_rating > 1)::int);
    IF p IS NOT NULL THEN
      PERFORM quizapp_gap_add((s_at - p) / {PG_DAY_US}, -sign, -sign * (s_rating > 1)::int);
    END IF;
  END IF;
END $$"""


def _pg_retally_function() -> str:
    def deltas(kind: str) -> list[str]:
        return [f"coalesce({kind} = '{k}' AND prev_reps {op_} 0, false)::int" for k in PG_KINDS for op_ in ("=", ">")]

    moved = ", ".join(f"sum({p} - {m})" for p, m in zip(deltas("NEW.kind"), deltas("OLD.kind")))
    sets = ", ".join(f"{c} = t.{c} + excluded.{c}" for c in PG_TALLY_COLUMNS)
    empty = " AND ".join(f"{c} = 0" for c in PG_TALLY_COLUMNS)
    return f"""
CREATE FUNCTION quizapp_card_retally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO review_tallies AS t (quarter, {', '.join(PG_TALLY_COLUMNS)})
    SELECT reviewed_at / {PG_QUARTER_US}, {moved} FROM reviews WHERE card_id = NEW.id AND mode <> {PG_CRAM} GROUP BY 1
    ON CONFLICT (quarter) DO UPDATE SET {sets};
  DELETE FROM review_tallies WHERE {empty}
    AND quarter IN (SELECT reviewed_at / {PG_QUARTER_US} FROM reviews WHERE card_id = NEW.id);
  RETURN NULL;
END $$"""


PG_FUNCTIONS = (
    """
CREATE FUNCTION quizapp_item_text(p json) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  WITH RECURSIVE t(v) AS (
    SELECT value FROM json_each(CASE WHEN json_typeof(p) = 'object' THEN p END)
      WHERE key = 'id' OR key LIKE 'question%' OR key LIKE 'answer%' OR key LIKE 'tags%'
    UNION ALL
    SELECT c.v FROM t, LATERAL (
      SELECT value AS v FROM json_each(CASE WHEN json_typeof(t.v) = 'object' THEN t.v END)
      UNION ALL
      SELECT value FROM json_array_elements(CASE WHEN json_typeof(t.v) = 'array' THEN t.v END)) AS c
  )
  SELECT coalesce(string_agg(v #>> '{}', ' '), '') FROM t WHERE json_typeof(v) = 'string'
$$""",
    """
CREATE FUNCTION quizapp_gap_add(d bigint, n bigint, passed bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO review_gaps AS g (day, answers, passed) VALUES (d, n, passed)
  ON CONFLICT (day) DO UPDATE SET answers = g.answers + excluded.answers, passed = g.passed + excluded.passed
$$""",
    _pg_tally_function(),
    _pg_gap_function(),
    # cards: the copies of the item's kind, bank number and retired flag (revision 0004).
    """
CREATE FUNCTION quizapp_card_mirror() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT kind, source_no, retired_at IS NOT NULL INTO NEW.kind, NEW.source_no, NEW.retired
    FROM items WHERE items.id = NEW.item_id;
  RETURN NEW;
END $$""",
    """
CREATE FUNCTION quizapp_item_mirror() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cards SET kind = NEW.kind, source_no = NEW.source_no, retired = NEW.retired_at IS NOT NULL
    WHERE item_id = NEW.id;
  RETURN NULL;
END $$""",
    # The search text of a new card's item, and of an item whose payload changes.
    """
CREATE FUNCTION quizapp_card_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO items_search (card_id, body)
    SELECT NEW.id, quizapp_item_text(items.payload) FROM items WHERE items.id = NEW.item_id;
  RETURN NULL;
END $$""",
    """
CREATE FUNCTION quizapp_item_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE items_search SET body = quizapp_item_text(NEW.payload)
    WHERE card_id = (SELECT id FROM cards WHERE item_id = NEW.id);
  RETURN NULL;
END $$""",
    # reviews: tallies (both skip cram answers: revision 0008), after the row is written.
    """
CREATE FUNCTION quizapp_review_tallies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM quizapp_tally(OLD.card_id, OLD.prev_reps, OLD.reviewed_at, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM quizapp_tally(NEW.card_id, NEW.prev_reps, NEW.reviewed_at, 1);
  END IF;
  RETURN NULL;
END $$""",
    # The gaps: BEFORE the row is written, so that each row of a many-row statement meets
    # the rows before it only, as SQLite's triggers do (an AFTER trigger of PostgreSQL sees
    # the whole statement's rows). The row itself is left out of its neighbours by id.
    """
CREATE FUNCTION quizapp_review_gaps() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM quizapp_gap(OLD.card_id, OLD.reviewed_at, OLD.id, OLD.rating, OLD.id, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM quizapp_gap(NEW.card_id, NEW.reviewed_at, NEW.id, NEW.rating, NEW.id, 1);
    RETURN NEW;
  END IF;
  RETURN OLD;
END $$""",
    # A card changing kind moves its reviews' counts from the old kind to the new.
    _pg_retally_function(),
    # A card's reviews go before the card does (their tallies need its kind).
    """
CREATE FUNCTION quizapp_card_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM reviews WHERE card_id = OLD.id;
  RETURN OLD;
END $$""",
)

PG_TRIGGERS = (
    "CREATE TRIGGER cards_mirror_insert BEFORE INSERT ON cards FOR EACH ROW EXECUTE FUNCTION quizapp_card_mirror()",
    "CREATE TRIGGER cards_mirror_item AFTER UPDATE OF kind, source_no, retired_at ON items FOR EACH ROW "
    "EXECUTE FUNCTION quizapp_item_mirror()",
    "CREATE TRIGGER items_search_card_insert AFTER INSERT ON cards FOR EACH ROW EXECUTE FUNCTION quizapp_card_search()",
    "CREATE TRIGGER items_search_item_update AFTER UPDATE OF payload ON items FOR EACH ROW "
    "EXECUTE FUNCTION quizapp_item_search()",
    f"CREATE TRIGGER reviews_tally_insert AFTER INSERT ON reviews FOR EACH ROW WHEN (NEW.mode <> {PG_CRAM}) "
    "EXECUTE FUNCTION quizapp_review_tallies()",
    f"CREATE TRIGGER reviews_tally_delete AFTER DELETE ON reviews FOR EACH ROW WHEN (OLD.mode <> {PG_CRAM}) "
    "EXECUTE FUNCTION quizapp_review_tallies()",
    "CREATE TRIGGER reviews_tally_update AFTER UPDATE OF card_id, reviewed_at, prev_reps ON reviews "
    f"FOR EACH ROW WHEN (NEW.mode <> {PG_CRAM}) EXECUTE FUNCTION quizapp_review_tallies()",
    f"CREATE TRIGGER reviews_gap_insert BEFORE INSERT ON reviews FOR EACH ROW WHEN (NEW.mode <> {PG_CRAM}) "
    "EXECUTE FUNCTION quizapp_review_gaps()",
    f"CREATE TRIGGER reviews_gap_delete BEFORE DELETE ON reviews FOR EACH ROW WHEN (OLD.mode <> {PG_CRAM}) "
    "EXECUTE FUNCTION quizapp_review_gaps()",
    "CREATE TRIGGER reviews_gap_update BEFORE UPDATE OF card_id, reviewed_at, rating ON reviews "
    f"FOR EACH ROW WHEN (NEW.mode <> {PG_CRAM}) EXECUTE FUNCTION quizapp_review_gaps()",
    "CREATE TRIGGER cards_tally_kind AFTER UPDATE OF kind ON cards FOR EACH ROW "
    "WHEN (OLD.kind IS NOT NULL AND OLD.kind IS DISTINCT FROM NEW.kind) EXECUTE FUNCTION quizapp_card_retally()",
    "CREATE TRIGGER cards_delete_reviews BEFORE DELETE ON cards FOR EACH ROW EXECUTE FUNCTION quizapp_card_delete()",
)


def _pg_upgrade() -> None:
    _pg_tables()
    bind = op.get_bind()
    # pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it.
    # Without it search still finds the same rows, by reading every text.
    savepoint = bind.begin_nested()
    try:
        bind.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        bind.exec_driver_sql("CREATE INDEX ix_items_search_body ON items_search USING gin (body gin_trgm_ops)")
        savepoint.commit()
    except sa.exc.DBAPIError:
        savepoint.rollback()
    for statement in (*PG_FUNCTIONS, *PG_TRIGGERS):
        bind.execute(sa.text(statement))


def _pg_downgrade() -> None:
    for table in ('items_search', 'drill_attempts', 'review_gaps', 'review_tallies', 'reviews', 'mock_answers',
                  'cards', 'content_files', 'settings', 'mock_interviews', 'items'):
        op.execute(f'DROP TABLE IF EXISTS {table} CASCADE')
    for name in ('quizapp_item_text(json)', 'quizapp_gap_add(bigint, bigint, bigint)',
                 'quizapp_tally(bigint, bigint, bigint, int)',
                 'quizapp_gap(bigint, bigint, bigint, bigint, bigint, int)', 'quizapp_card_mirror()',
                 'quizapp_item_mirror()', 'quizapp_card_search()', 'quizapp_item_search()',
                 'quizapp_review_tallies()', 'quizapp_review_gaps()', 'quizapp_card_retally()', 'quizapp_card_delete()'):
        op.execute(f'DROP FUNCTION IF EXISTS {name} CASCADE')
