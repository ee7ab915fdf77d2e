"""Stored column values as JSON text without decoding them: the export's fast path.

An export writes every review, so what each value costs on its way from the row to the
file is most of the export's time. A record (a review, a card) becomes one `%` format of
a template (made once, when a row first needs it):

* values with a few possible tokens (a mode, a flag, the JSON `null` of an answer-less
  review) are written into the templates themselves: SQLite selects which template;
* numbers are written by `%s` as they come from the driver (Python writes an int and a
  float exactly as `json.dumps` does; None becomes `null`);
* integer times are written by SQLite to the second, their fraction by the template;
* strings and text times go through a Python encoder (the C JSON string encoder).

The same select says, per row, whether every value has the shape this assumes (`ok`: an
integer where an integer is expected, a finite float, a time json.dumps would write from
the decoded value); a row that does not is written the general way, by decoding it and
dumping a dict (`quizapp.store.export_items`), so the file is byte-identical to that
whatever the database holds. A column of a type not known here has no token (`token`
returns None) and the caller uses the general path for the whole table.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Boolean, ColumnElement, DateTime, Float, Integer, String, and_, case, func, literal, or_
from sqlalchemy.types import TypeDecorator

from quizapp.store.models import MODES, EpochMicros, ModeCode

_MAX_FLOAT = 1.7976931348623157e308  # beyond it: ±inf, which json.dumps(allow_nan=False) refuses
_MAX_MICROS = 253402300799999999  # 9999-12-31 23:59:59.999999, datetime's last moment
# A stored text time in SQLAlchemy's own form, which the export rewrites as ISO text.
_TEXT_TIME = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9][0-9][0-9][0-9]"
encode_string: Callable[[str], str] = json.encoder.encode_basestring  # json.dumps' own (C)


@dataclass(frozen=True)
class Token:
    """How one value of a row becomes JSON text.

    `values` are selected for it; its text in a template is `%s` (the value, through
    `encode` if it has one, else as `%s` writes it), or, with `choices`, the choice that
    `code` selects: a text whose `%` directives take the values (none, for a mode or a
    flag). `ok` is true where this gives exactly what `json.dumps` gives for the
    decoded value."""

    values: tuple[ColumnElement[Any], ...]
    ok: ColumnElement[Any]
    encode: Callable[[Any], str] | None = None
    choices: tuple[str, ...] | None = None
    code: ColumnElement[Any] | None = None


def token(column: ColumnElement[Any], *, utc_suffix: bool = False, as_bool: bool = False) -> Token | None:
    """The JSON token of `column`'s decoded value (as the export decodes it): times as
    naive ISO text, with `+00:00` if `utc_suffix`; with `as_bool`, NULL is `false`, as
    `bool(value)` makes it. None for a type without a token here."""
    kind = column.type
    null_ok = column.is_(None)
    integer = func.typeof(column) == "integer"
    suffix = "+00:00" if utc_suffix else ""
    if isinstance(kind, EpochMicros):
        # SQLite writes the date and time to the second (SQLite's datetime() of whole
        # seconds is exact); the template adds the fraction, left out when zero as
        # isoformat() does, and a NULL's `%.0s` take the values and write nothing.
        fraction = column % 1_000_000
        return Token(
            (func.replace(func.datetime(column // 1_000_000, "unixepoch"), " ", "T"), fraction),
            or_(null_ok, and_(integer, column.between(0, _MAX_MICROS))),
            choices=("null%.0s%.0s", f'"%s%.0s{suffix}"', f'"%s.%06d{suffix}"'),
            code=case((column.is_(None), 0), (fraction == 0, 1), else_=2),
        )
    if isinstance(kind, ModeCode):
        return Token((), and_(integer, column.between(0, len(MODES) - 1)),
                     choices=tuple(json.dumps(name) for name in MODES), code=column)
    if isinstance(kind, TypeDecorator):
        return None  # another stored form: its processor's output is not known here
    if isinstance(kind, Boolean) or as_bool:
        if as_bool:  # bool(value): NULL and 0 are false
            return Token((), or_(null_ok, integer), choices=("false", "true"), code=case((column != 0, 1), else_=0))
        return Token((), or_(null_ok, integer), choices=("null", "true", "false"),
                     code=case((column.is_(None), 0), (column != 0, 1), else_=2))
    if isinstance(kind, DateTime):
        return Token((column,), or_(null_ok, and_(func.typeof(column) == "text", column.op("GLOB")(_TEXT_TIME))),
                     text_time_encoder(suffix))
    if isinstance(kind, JSON):
        # Only the JSON text null (an answer-less review) has a token; anything else is decoded.
        return Token((), or_(null_ok, column == "null"), choices=("null",), code=literal(0))
    if isinstance(kind, Float):
        return Token((column,), or_(null_ok, and_(func.typeof(column) == "real", func.abs(column) <= _MAX_FLOAT)))
    if isinstance(kind, Integer):
        return Token((column,), or_(null_ok, integer))
    if isinstance(kind, String):
        return Token((column,), or_(null_ok, func.typeof(column) == "text"), _string)
    return None


@dataclass(frozen=True)
class Record:
    """A JSON object's templates: `variant` selects the index of the one that fits the
    row (its choices written in), whose `%` directives take `values` in order (after any
    leading `%s` the caller fills itself); `ok` is the row's check (every token's)."""

    templates: Templates
    variant: ColumnElement[Any]
    ok: ColumnElement[Any]
    values: list[ColumnElement[Any]]
    encoders: list[tuple[int, Callable[[Any], str]]]  # (position among `values`, encoder)


def record(fields: Sequence[tuple[str, Token | Record | None]], *, none_is_null: bool = False) -> Record:
    """`{"name":value,…}` of the fields in order; a None field is a `%s` the caller fills
    (a number it counts itself, as an export's `ref`). A Record field nests.

    Numbers without an encoder are written by `%s`: with `none_is_null`, the caller turns
    the `None` of a NULL into `null` in the finished text (right only where no text value
    can hold "None": no strings); without, each such value gets an encoder."""
    parts: list[str | Token | Record] = []  # text, a choice token, or a nested record
    values: list[ColumnElement[Any]] = []
    encoders: list[tuple[int, Callable[[Any], str]]] = []
    oks: list[ColumnElement[Any]] = []
    for position, (name, value) in enumerate(fields):
        assert "%" not in name, name
        parts.append(("{" if position == 0 else ",") + json.dumps(name) + ":")
        if value is None:
            parts.append("%s")
            continue
        if isinstance(value, Record):
            encoders.extend((len(values) + index, encode) for index, encode in value.encoders)
            parts.append(value)
        else:
            if value.choices is not None:
                parts.append(value)
            else:
                parts.append("%s")
                encode = value.encode if value.encode is not None or none_is_null else _number
                if encode is not None:
                    encoders.append((len(values), encode))
        values.extend(value.values)
        oks.append(value.ok)
    parts.append("}")
    # The variant numbers every combination of the choices (nested records' variants
    # included), the first choice slowest.
    variant: ColumnElement[Any] = literal(0)
    sizes = []
    for part in parts:
        if isinstance(part, Record | Token):
            size = part.templates.size if isinstance(part, Record) else len(part.choices or ())
            code = part.variant if isinstance(part, Record) else part.code
            assert code is not None and size > 0
            variant = variant * size + code
            sizes.append(size)
    return Record(Templates(parts, sizes), variant, and_(*oks), values, encoders)


class Templates(dict[int, str]):
    """A record's template for each variant number, made when a row first needs it (a
    review has hundreds of combinations; an export meets a few)."""

    def __init__(self, parts: list[str | Token | Record], sizes: list[int]) -> None:
        super().__init__()
        self.parts, self.sizes = parts, sizes
        self.size = math.prod(sizes)

    def __missing__(self, variant: int) -> str:
        if not 0 <= variant < self.size:
            raise KeyError(variant)
        picks, rest = [], variant
        for size in reversed(self.sizes):
            rest, pick = divmod(rest, size)
            picks.append(pick)
        picks.reverse()
        chosen = iter(picks)
        texts = []
        for part in self.parts:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, Record):
                texts.append(part.templates[next(chosen)])
            else:
                texts.append((part.choices or ())[next(chosen)])
        text = self[variant] = "".join(texts)
        return text


def _number(value: int | float | None) -> str:
    return "null" if value is None else str(value)


def _string(value: str | None) -> str:
    return "null" if value is None else encode_string(value)


def text_time_encoder(suffix: str) -> Callable[[str | None], str]:
    """SQLAlchemy's stored `YYYY-MM-DD HH:MM:SS.ffffff` → `"YYYY-MM-DDTHH:MM:SS[.ffffff]<suffix>"`
    (isoformat() leaves out a zero fraction)."""

    def encode(value: str | None) -> str:
        if value is None:
            return "null"
        clock = value[11:19] if value[20:] == "000000" else value[11:]
        return f'"{value[:10]}T{clock}{suffix}"'

    return encode
