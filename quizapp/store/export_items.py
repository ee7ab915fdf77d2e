"""The JSON export's items: each item with its card and every review of it, written as read.

Reviews are most of an export (10+ per card), so every row takes the fast path of
`quizapp.store.json_tokens` (one `%` format of a template SQLite picks, filled with the
driver's values and times SQLite wrote) unless it holds an unusual value (a time before
1970, an answer, an infinite float, text where a number belongs): that row is decoded and
dumped as a dict — the general path, which also writes everything when a column's type
has no token. Both give the same bytes: `json.dumps` of the decoded row.

Reviews are read for a few hundred cards at a time (`card_id IN (…)` from the card_id
index, sorted within the chunk): one query per card cost more than the rows, and ordering
every review of the collection by item in one query sorts a table's worth of rows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator
from contextlib import closing
from datetime import datetime, timedelta
from typing import IO, Any

from sqlalchemy import JSON, DateTime, Select, and_, bindparam, select
from sqlalchemy.orm import Session

from quizapp.store import models
from quizapp.store.json_tokens import Record, Token, record, token
from quizapp.store.models import EpochMicros, prev_card_columns

# The tables' own columns, not the mapped classes' attributes: a select of these compiles
# without configuring the ORM's mappers (about 10 ms on a process's first ORM statement),
# which an export, read on the driver, has no use for.
_ITEMS, _CARDS, _REVIEWS = models.Item.__table__, models.Card.__table__, models.Review.__table__
_item, _card, _review = _ITEMS.c, _CARDS.c, _REVIEWS.c

CARD_FIELDS = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses", "suspended", "leech")
_UTC_FIELDS = ("due", "last_review")  # the card's times carry their offset; the snapshot's do not
_FLAGS = ("leech", "suspended")  # the snapshot's flags are plain bools even when stored NULL
_EPOCH = datetime(1970, 1, 1)  # of EpochMicros
_BATCH = 2000  # rows fetched at a time
_CARDS_PER_QUERY = 500  # cards whose reviews one query reads


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def write_items(session: Session, out: IO[str], review_refs: dict[int, int]) -> int:
    """Every item in (kind, id) order as one JSON record each, `,\\n`-separated; fills
    `review_refs` (review id → its `ref` in the file). Returns the number of items."""
    general = _General(session)
    with closing(general):
        fast = _Fast.build(session, general)
        if fast is None:
            return general.write(out, review_refs)
        with closing(fast):
            return fast.write(out, review_refs)


# -- the fast path ------------------------------------------------------------------------


def _fields(columns: list[tuple[str, Any, dict[str, bool]]]) -> list[tuple[str, Token | None]] | None:
    found = [(name, token(column, **options)) for name, column, options in columns]
    return None if any(t is None for _, t in found) else found


class _Fast:
    """Items, cards and reviews as templates that SQLite fills but for the values only
    Python writes exactly (`quizapp.store.json_tokens`)."""

    @classmethod
    def build(cls, session: Session, general: _General) -> _Fast | None:
        if session.get_bind().dialect.name != "sqlite":
            return None  # its templates are filled by SQLite's own functions
        item_columns = [("id", _item.id, {}), ("kind", _item.kind, {}), ("source_no", _item.source_no, {}),
                        ("question", _item.question, {}), ("retired", _item.retired_at.is_not(None), {"as_bool": True})]
        card_columns = [(name, _card[name], {"utc_suffix": name in _UTC_FIELDS}) for name in CARD_FIELDS]
        review_columns = [("mode", _review.mode, {}), ("rating", _review.rating, {}),
                          ("reviewed_at", _review.reviewed_at, {"utc_suffix": True}),
                          ("duration_ms", _review.duration_ms, {}), ("score", _review.score, {}),
                          ("answer", _review.answer, {})]
        prev_names = [(column.key.removeprefix("prev_"), column) for column in prev_card_columns()]
        prev_columns = [(name, column, {"as_bool": name in _FLAGS}) for name, column in prev_names]
        items, cards = _fields(item_columns), _fields(card_columns)
        reviews, prevs = _fields(review_columns), _fields(prev_columns)
        if items is None or cards is None or reviews is None or prevs is None:
            return None
        # A review holds numbers, times and choices only: a NULL number's `None` can be
        # replaced in the finished text (no string value could hold "None").
        plain = all(t is not None and t.encode is None for _, t in reviews + prevs)
        prev = record(prevs, none_is_null=plain)
        review = record([("ref", None), *reviews, ("prev_card", prev)], none_is_null=plain)
        return cls(session, general, record(items), record(cards), review, plain)

    def __init__(self, session: Session, general: _General, item: Record, card: Record, review: Record,
                 none_is_null: bool) -> None:
        self.general, self.none_is_null = general, none_is_null
        self.cursor = session.connection().connection.cursor()
        dialect = session.get_bind().dialect
        self.item, self.card, self.review = item, card, review
        self.item_encoders, self.card_encoders = item.encoders, card.encoders
        self.item_values = len(item.values)
        compiled = (
            select(_item.id, _card.id, and_(item.ok, card.ok), item.variant, card.variant, *item.values, *card.values)
            .outerjoin(_CARDS, _card.item_id == _item.id)
            .order_by(_item.kind, _item.id)
        ).compile(dialect=dialect)
        self.items_sql = str(compiled)
        self.items_params = [compiled.params[name] for name in compiled.positiontup or ()]
        self.review_encoders = [(index + 1, encode) for index, encode in review.encoders]  # after the ref
        self.reviews_compiled = (
            select(_review.card_id, _review.id, review.ok, review.variant, *review.values)
            .where(_review.card_id.in_(bindparam("ids", expanding=True)))
            .order_by(_review.card_id, _review.reviewed_at, _review.id)
        ).compile(dialect=dialect)

    def _reviews_query(self, card_ids: list[int]) -> tuple[str, Any]:
        """The chunk's statement, its `IN (…)` expanded, and its parameters."""
        state = self.reviews_compiled.construct_expanded_state({"ids": card_ids})
        return state.statement, state.positional_parameters

    def close(self) -> None:
        self.cursor.close()

    def write(self, out: IO[str], review_refs: dict[int, int]) -> int:
        items = self.cursor.execute(self.items_sql, self.items_params)
        count = 0
        while chunk := items.fetchmany(_CARDS_PER_QUERY):
            reviews = self._reviews([row[1] for row in chunk if row[1] is not None])
            for row in chunk:
                item_id, card_id = row[0], row[1]
                head = self._head(row) if row[2] else self.general.head(item_id)
                rows = reviews.get(card_id, ()) if card_id is not None else ()
                out.write(("\n" if count == 0 else ",\n") + head + self._reviews_text(rows, review_refs) + "]}")
                count += 1
        return count

    def _head(self, row: tuple[Any, ...]) -> str:
        """The item's record up to its reviews (`…,"reviews":[`)."""
        values = list(row[5:])
        item_values, card_values = values[: self.item_values], values[self.item_values :]
        for index, encode in self.item_encoders:
            item_values[index] = encode(item_values[index])
        if row[1] is None:
            card = "null"
        else:
            for index, encode in self.card_encoders:
                card_values[index] = encode(card_values[index])
            card = self.card.templates[row[4]] % tuple(card_values)
        return self.item.templates[row[3]][:-1] % tuple(item_values) + ',"card":' + card + ',"reviews":['

    def _reviews(self, card_ids: list[int]) -> dict[int, list[tuple[Any, ...]]]:
        """The chunk's review rows by card, in the order they are written."""
        if not card_ids:
            return {}
        cursor = self.cursor.connection.execute(*self._reviews_query(card_ids))
        grouped: dict[int, list[tuple[Any, ...]]] = {}
        with closing(cursor):
            while batch := cursor.fetchmany(_BATCH):
                for row in batch:
                    found = grouped.get(row[0])
                    if found is None:
                        grouped[row[0]] = [row]
                    else:
                        found.append(row)
        return grouped

    def _reviews_text(self, rows: Any, review_refs: dict[int, int]) -> str:
        texts = []
        templates, encoders, none_is_null = self.review.templates, self.review_encoders, self.none_is_null
        for row in rows:
            review_id = row[1]
            ref = review_refs[review_id] = len(review_refs) + 1
            if not row[2]:  # not ok
                texts.append(self.general.review(review_id, ref))
                continue
            if encoders:
                values = list(row[3:])
                values[0] = ref  # in the variant's place
                for index, encode in encoders:
                    values[index] = encode(values[index])
                text = templates[row[3]] % tuple(values)
            else:
                text = templates[row[3]] % (ref, *row[4:])
            # Any None is a NULL number (record(none_is_null)).
            texts.append(text.replace("None", "null") if none_is_null and "None" in text else text)
        return ",".join(texts)


# -- the general path ---------------------------------------------------------------------


def _stored_time_iso(column_type: Any, processor: Callable[[Any], Any] | None) -> Callable[[Any], str | None]:
    """Stored time → naive ISO text, as `datetime.isoformat()` gives it, without the
    column type's round trip through a datetime object where the stored form is known:
    SQLAlchemy's `YYYY-MM-DD HH:MM:SS.ffffff` text, and `EpochMicros` integers. Anything
    else (another type, an older text form) goes through the column type's own processor.
    """
    epoch_micros = isinstance(column_type, EpochMicros)

    def iso(value: Any) -> str | None:
        if value is None:
            return None
        if epoch_micros and type(value) is int:
            return (_EPOCH + timedelta(microseconds=value)).isoformat()
        if type(value) is str and len(value) == 26 and value[10] == " " and value[19] == ".":
            # isoformat() leaves out a zero fraction.
            return f"{value[:10]}T{value[11:19]}" if value[20:] == "000000" else f"{value[:10]}T{value[11:]}"
        moment = processor(value) if processor is not None else value
        return moment.isoformat() if isinstance(moment, datetime) else str(moment)

    return iso


def _json_null_first(processor: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def decode(value: Any) -> Any:
        return None if value is None or value == "null" else processor(value)

    return decode


class _PlainQuery:
    """A select run on the driver's cursor, its rows as lists, each value decoded by its
    column's own SQLAlchemy processor — except times, which come out as naive ISO text
    (`_stored_time_iso`), and the JSON text `null`, which every answer-less review holds.
    """

    def __init__(self, session: Session, statement: Select[Any]) -> None:
        dialect = session.get_bind().dialect
        # On PostgreSQL the Session runs it (its types decode each value), times then as ISO text.
        self.session: Session | None = None if dialect.name == "sqlite" else session
        self.statement = statement
        if self.session is not None:
            self.times = [index for index, column in enumerate(statement.selected_columns)
                          if isinstance(column.type, DateTime | EpochMicros)]
            return
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        self.names = list(compiled.positiontup or ())
        self.defaults = dict(compiled.params)
        self.decoders: list[tuple[int, Callable[[Any], Any]]] = []
        for index, column in enumerate(statement.selected_columns):
            impl = column.type.dialect_impl(dialect)
            processor = impl.result_processor(dialect, None)
            if isinstance(column.type, DateTime | EpochMicros):
                self.decoders.append((index, _stored_time_iso(column.type, processor)))
            elif isinstance(impl, JSON) and processor is not None:
                self.decoders.append((index, _json_null_first(processor)))
            elif processor is not None:
                self.decoders.append((index, processor))
        self.cursor = session.connection().connection.cursor()

    def _decoded(self, raw: tuple[Any, ...]) -> list[Any]:
        row = list(raw)
        for index, decode in self.decoders:
            row[index] = decode(row[index])
        return row

    def _session_rows(self, params: dict[str, Any]) -> Generator[list[Any], None, None]:
        assert self.session is not None
        result = self.session.connection().execution_options(yield_per=_BATCH).execute(self.statement, params)
        for raw in result:
            row = list(raw)
            for index in self.times:
                if isinstance(row[index], datetime):
                    row[index] = row[index].isoformat()
            yield row

    def stream(self, **params: Any) -> Generator[list[Any], None, None]:
        """Every row, read in batches as the caller goes (nothing held whole)."""
        if self.session is not None:
            yield from self._session_rows(params)
            return
        self.cursor.execute(self.sql, [{**self.defaults, **params}[name] for name in self.names])
        while batch := self.cursor.fetchmany(_BATCH):
            for raw in batch:
                yield self._decoded(raw)

    def all(self, **params: Any) -> list[list[Any]]:
        if self.session is not None:
            return list(self._session_rows(params))
        self.cursor.execute(self.sql, [{**self.defaults, **params}[name] for name in self.names])
        return [self._decoded(raw) for raw in self.cursor.fetchall()]

    def close(self) -> None:
        if self.session is None:
            self.cursor.close()


def _utc_text(naive_iso: str | None) -> str | None:
    """Naive UTC ISO text with its offset (what `_utc` gives for the same moment)."""
    return None if naive_iso is None else naive_iso + "+00:00"


class _General:
    """Each value decoded by its column's type and each record dumped as a dict: every
    item when the fast path has no token for a column, otherwise the rows it leaves."""

    def __init__(self, session: Session) -> None:
        items = select(
            _item.id, _item.kind, _item.source_no, _item.question, _item.retired_at.is_not(None),
            _card.id, *(_card[name] for name in CARD_FIELDS),
        ).outerjoin(_CARDS, _card.item_id == _item.id)
        prev_columns = prev_card_columns()
        reviews = select(
            _review.id, _review.mode, _review.rating, _review.reviewed_at, _review.duration_ms, _review.score,
            _review.answer, *prev_columns,
        )
        self.prev_names = [column.key.removeprefix("prev_") for column in prev_columns]
        self.prev_flags = [index for index, name in enumerate(self.prev_names) if name in _FLAGS]
        self.items = _PlainQuery(session, items.order_by(_item.kind, _item.id))
        self.item = _PlainQuery(session, items.where(_item.id == bindparam("item_id")))
        self.reviews = _PlainQuery(
            session, reviews.where(_review.card_id == bindparam("card_id")).order_by(_review.reviewed_at, _review.id))
        self.review_query = _PlainQuery(session, reviews.where(_review.id == bindparam("review_id")))

    def close(self) -> None:
        for query in (self.items, self.item, self.reviews, self.review_query):
            query.close()

    def write(self, out: IO[str], review_refs: dict[int, int]) -> int:
        count = 0
        for row in self.items.stream():
            card_id = row[5]
            records = []
            if card_id is not None:
                for review in self.reviews.all(card_id=card_id):
                    ref = review_refs[review[0]] = len(review_refs) + 1
                    records.append(self._review_text(review, ref))
            out.write(("\n" if count == 0 else ",\n") + self._head_text(row) + ",".join(records) + "]}")
            count += 1
        return count

    def head(self, item_id: str) -> str:
        (row,) = self.item.all(item_id=item_id)
        return self._head_text(row)

    def review(self, review_id: int, ref: int) -> str:
        (row,) = self.review_query.all(review_id=review_id)
        return self._review_text(row, ref)

    def _head_text(self, row: list[Any]) -> str:
        """The item's record up to its reviews (`…,"reviews":[`)."""
        item_id, kind, source_no, question, retired, card_id, *card_values = row
        card = None
        if card_id is not None:
            card = dict(zip(CARD_FIELDS, card_values))
            for name in _UTC_FIELDS:
                card[name] = _utc_text(card[name])
        record = {"id": item_id, "kind": kind, "source_no": source_no, "question": question,
                  "retired": bool(retired), "card": card}
        return dumps(record)[:-1] + ',"reviews":['

    def _review_text(self, review: list[Any], ref: int) -> str:
        prev = review[7:]
        for index in self.prev_flags:
            prev[index] = bool(prev[index])
        return dumps({
            "ref": ref, "mode": review[1], "rating": review[2], "reviewed_at": _utc_text(review[3]),
            "duration_ms": review[4], "score": review[5], "answer": review[6],
            "prev_card": dict(zip(self.prev_names, prev)),
        })
