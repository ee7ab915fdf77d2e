"""Browse's search: a bank number (`Q24`), words in any language (FTS5), `#tags`, and
labels, best matches first.

The text index (items_fts, FTS5 with the trigram tokenizer; revision 0003's ITEM_TEXT)
holds an item's id, question, answer and tags in every language it has — what Browse
searched before the index; long answers, key points and options are not searched — so
Chinese and English both match as substrings; trigrams serve CJK without a word segmenter.
The index keeps which rows hold a trigram, not where (`detail=none`, revision 0007: a
quarter of the positional index's size), so text of 3 characters or more is found by its
trigrams (MATCH, from the index) and then checked as a whole with LIKE (ASCII letters in
any case). Hits are ranked by where the text first appears after the item's id — the
question comes first, so a hit in the question ranks above one in the answer only —
then shorter texts first, then bank order. (bm25 needs the positions: without them it
re-read every hit and took ten times longer at 100,000 items.) Shorter text (common in
Chinese: 方差, 掩码) has no trigram and is matched with LIKE alone, in bank order.

Matching, filtering, ordering and the limit run on the cards alone (each card carries its
item's kind, bank number and retired flag: revision 0004); an item's row — whose payload
runs to overflow pages — is read only for the rows returned.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    Text,
    and_,
    column,
    exists,
    false,
    func,
    literal,
    or_,
    select,
    table,
    type_coerce,
)
from sqlalchemy import text as text_clause
from sqlalchemy.orm import Session

from quizapp.content.bilingual import texts_of
from quizapp.content.lang import parse_source_ref
from quizapp.srs.views import ItemSummary
from quizapp.store.models import Card, Item

_FTS = table("items_fts", column("rowid"), column("body"))


@dataclass(frozen=True)
class LabelFilter:
    """Items whose label may start with what was typed (`§7.5`, `Quiz 7.25 #3`): those
    without a bank number whose section starts with `section_prefix`, or whose id starts
    with one of `id_prefixes`. A superset: the caller checks the label itself."""

    section_prefix: str | None = None
    id_prefixes: tuple[str, ...] = ()


def _like_escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _card_filters(kind: str | None, include_retired: bool) -> list[ColumnElement[bool]]:
    filters = [Card.kind == kind if kind else Card.kind.in_(("qa", "mcq"))]
    if not include_retired:
        filters.append(Card.retired.is_(False))
    return filters


def _item_filters(tags: Sequence[Collection[str]], label: LabelFilter | None) -> list[ColumnElement[bool]]:
    """Conditions on the item row: every `tags` entry names tags of which the item has one
    (ASCII letters in any case), and the label filter."""
    filters: list[ColumnElement[bool]] = []
    for accepted in tags:
        each = func.json_each(Item.tags).table_valued("value")
        filters.append(exists(select(literal(1)).select_from(each).where(
            func.lower(each.c.value).in_(sorted({tag.lower() for tag in accepted})))))
    if label is not None:
        options: list[ColumnElement[bool]] = [Item.id.like(_like_escaped(prefix) + "%", escape="\\")
                                               for prefix in label.id_prefixes]
        if label.section_prefix is not None:
            options.append(Item.section.like(_like_escaped(label.section_prefix) + "%", escape="\\"))
        filters.append(and_(Item.source_no.is_(None), or_(*options) if options else false()))
    return filters


def trigram_query(text: str) -> str:
    """An FTS5 query for rows holding every trigram of `text` (each once, quoted)."""
    grams = dict.fromkeys(text[i:i + 3] for i in range(len(text) - 2))
    return " ".join('"' + gram.replace('"', '""') + '"' for gram in grams)


def search_items(
    session: Session, text: str = "", kind: str | None = None, include_retired: bool = False, limit: int = 500,
    tags: Sequence[Collection[str]] = (), label: LabelFilter | None = None,
) -> list[ItemSummary]:
    """Items matching `text` (and `tags`, `label`), best first, at most `limit`."""
    text = text.strip()
    order = (Card.kind.desc(), Card.source_no.is_(None), Card.source_no, Card.item_id)
    chosen: Select[Any] = select(Card.id.label("card_id")).where(*_card_filters(kind, include_retired))
    item_filters = _item_filters(tags, label)
    if item_filters:
        chosen = chosen.join(Item, Item.id == Card.item_id).where(*item_filters)
    number = parse_source_ref(text) if text else None
    ranks: list[Any] = []
    if number is not None:
        # By the items' bank-number index (the cards' copy has none).
        chosen = chosen.where(Card.item_id.in_(select(Item.id).where(Item.source_no == number)))
    elif text:
        pattern = _FTS.c.body.like("%" + _like_escaped(text) + "%", escape="\\")
        chosen = chosen.join(_FTS, _FTS.c.rowid == Card.id).where(pattern)
        if len(text) >= 3:
            chosen = chosen.where(text_clause("items_fts MATCH :grams").bindparams(grams=trigram_query(text)))
            # Where the text first appears, counted from the end of the id the text starts
            # with (so a short id does not put an item first), then shorter texts first.
            first = func.instr(func.lower(_FTS.c.body), func.lower(literal(text))) - func.length(Card.item_id)
            ranks = [first, func.length(_FTS.c.body)]
        # else LIKE reads the index's text row by row: it stops at the `limit`th hit (then
        # shown in bank order) rather than reading every item for the order of a one-character word.
    ranked = bool(ranks)
    scan_first = bool(text) and number is None and not ranked
    picked = (
        chosen.add_columns(*(r.label(f"rank{n}") for n, r in enumerate(ranks)))
        .order_by(*(() if scan_first else (*ranks, *order))).limit(limit).subquery()
    )
    rank_order = [picked.c[f"rank{n}"] for n in range(len(ranks))]
    # The display columns, for the chosen rows only (the payload's question, not the
    # payload). The JSON comes as text and is decoded here, and only whether the item is
    # retired is asked: SQLAlchemy's JSON and datetime processing per row was most of a
    # search's time.
    display = (
        select(
            Item.id, Item.kind, Item.source_no, Item.group, Item.section, Item.question,
            type_coerce(Item.tags, Text), Item.retired_at.is_not(None), Card.suspended,
            func.json_quote(func.json_extract(type_coerce(Item.payload, Text), "$.question")),
        )
        .select_from(picked)
        .join(Card, Card.id == picked.c.card_id)
        .join(Item, Item.id == Card.item_id)
        .order_by(*rank_order, *order)
    )
    rows = session.execute(display).all()
    return [
        ItemSummary(
            item_id=item_id, kind=kind, source_no=source_no, group=group, section=section, question=question,
            tags=list(json.loads(tags) or []) if tags else [], suspended=bool(suspended), retired=bool(retired),
            question_texts=texts_of(json.loads(question_texts)),
        )
        for item_id, kind, source_no, group, section, question, tags, retired, suspended, question_texts in rows
    ]
