"""Browse's search: a bank number (`Q24`), words in any language (FTS5), `#tags`, and
labels, best matches first.

The text index (items_fts, FTS5 with the trigram tokenizer; revision 0003's ITEM_TEXT)
holds an item's id, question, answer and tags in every language it has, ASCII letters in
lower case (revision 0009; PostgreSQL's items_search since 0010) — what Browse searched before the index; long answers, key
points and options are not searched — so
Chinese and English both match as substrings; trigrams serve CJK without a word segmenter.
The index keeps which rows hold a trigram, not where (`detail=none`, revision 0007: a
quarter of the positional index's size), so text of 3 characters or more is found by its
trigrams (MATCH, from the index) and then checked as a whole with LIKE (ASCII letters in
any case). Hits are ranked by where the text first appears after the item's id — the
question comes first, so a hit in the question ranks above one in the answer only —
then shorter texts (in bytes) first, then bank order. (bm25 needs the positions: without them it
re-read every hit and took ten times longer at 100,000 items.) Shorter text (common in
Chinese: 方差, 掩码) has no trigram and is matched with LIKE alone, in bank order.

Matching, filtering, ordering and the limit run on the cards alone (each card carries its
item's kind, bank number and retired flag: revision 0004); an item's row — whose payload
runs to overflow pages — is read only for the rows returned.

The statement is built here as SQL text with parameters and run on a Tx, as the study
step's queries are (`quizapp.store.cards`); quizapp.srs.search turns the rows into
summaries. Through SQLAlchemy's expression
language and result rows, building, compiling and processing it was about a third of a
search at 1,000 cards.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from quizapp.content.lang import parse_source_ref
from quizapp.store.tx import Tx


@dataclass(frozen=True)
class LabelFilter:
    """Items whose label may start with what was typed (`§7.5`, `Quiz 7.25 #3`): those
    without a bank number whose section starts with `section_prefix`, or whose id starts
    with one of `id_prefixes`. A superset: the caller checks the label itself."""

    section_prefix: str | None = None
    id_prefixes: tuple[str, ...] = ()


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """`text` with A–Z lowered and nothing else: SQL's `lower` in the C collation, as the
    stored search text was lowered (SQLite's revision 0009, PostgreSQL's 0010)."""
    return text.translate(_ASCII_LOWER)


def _like_escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _marks(values: Collection[Any], params: list[Any]) -> str:
    """`?, ?, …` for `values`, which join `params`."""
    params.extend(values)
    return ", ".join("?" * len(values))


def _card_filters(kind: str | None, include_retired: bool, params: list[Any]) -> list[str]:
    filters = ["cards.kind = ?" if kind else "cards.kind IN ('qa', 'mcq')"]
    if kind:
        params.append(kind)
    if not include_retired:
        filters.append("cards.retired IS 0")  # (quizapp.store.pg translates it for a boolean)
    return filters


# An item's tags (a JSON array of text), one row each, as `tag.value`.
_TAGS = {"sqlite": "json_each(items.tags) AS tag", "postgresql": "json_array_elements_text(items.tags) AS tag(value)"}


def _item_filters(tags: Sequence[Collection[str]], label: LabelFilter | None, params: list[Any],
                  dialect: str = "sqlite") -> list[str]:
    """Conditions on the item row: every `tags` entry names tags of which the item has one
    (ASCII letters in any case), and the label filter."""
    filters: list[str] = []
    for accepted in tags:
        wanted = _marks(sorted({tag.lower() for tag in accepted}), params)
        filters.append(f"EXISTS (SELECT 1 FROM {_TAGS[dialect]} WHERE lower(tag.value) IN ({wanted}))")
    if label is not None:
        options = ["items.id LIKE ? ESCAPE '\\'"] * len(label.id_prefixes)
        params.extend(_like_escaped(prefix) + "%" for prefix in label.id_prefixes)
        if label.section_prefix is not None:
            options.append("items.section LIKE ? ESCAPE '\\'")
            params.append(_like_escaped(label.section_prefix) + "%")
        filters.append(f"items.source_no IS NULL AND ({' OR '.join(options) if options else '1 = 0'})")
    return filters


def trigram_query(text: str) -> str:
    """An FTS5 query for rows holding trigrams that cover `text` (each once, quoted): every
    third one and the last. The index only narrows the rows LIKE then checks for the whole
    text, and each trigram is one more list of rows to intersect (at 100,000 items the
    overlapping seven of "attention" were twice the three that cover it, for the same rows)."""
    starts = sorted({*range(0, len(text) - 2, 3), len(text) - 3})
    grams = dict.fromkeys(text[i:i + 3] for i in starts)
    return " ".join('"' + gram.replace('"', '""') + '"' for gram in grams)


def _first_position(text: str, params: list[Any]) -> str:
    """SQL for where `text` first appears in `body.c0`, ASCII letters in any case (as LIKE
    matches). The indexed text is stored with its ASCII letters lowered (revision 0009), so
    only the typed text is lowered — SQLite's `lower`, which changes A–Z only, as the
    stored text's was: no hit's text is copied in lower case (a fifth of a common word's
    search at 100,000 items). Text without capitals A–Z (Chinese, or typed in lower case) is
    looked for as it is."""
    if not any("A" <= char <= "Z" for char in text):
        params.append(text)
        return "instr(body.c0, ?)"
    params.append(text)
    return "instr(body.c0, lower(?))"


# Bank order: Q&A before MCQ, numbered items first by number, then by id.
_ORDER = "cards.kind DESC, cards.source_no IS NULL, cards.source_no, cards.item_id"


def search_rows(
    cur: Tx, text: str = "", kind: str | None = None, include_retired: bool = False, limit: int = 500,
    tags: Sequence[Collection[str]] = (), label: LabelFilter | None = None, offset: int = 0,
) -> list[tuple[Any, ...]]:
    """Items matching `text` (and `tags`, `label`), best first, at most `limit` after the
    first `offset` (Browse's pages: the order is total, so pages follow on exactly): rows of
    (id, kind, source_no, group, section, question, tags JSON, retired, suspended, the
    payload's question as JSON)."""
    text = text.strip()
    # Parameters in the order their `?` appear: the ranks' (selected first), then the filters'
    # (the joins take none).
    rank_params: list[Any] = []
    where_params: list[Any] = []
    joins: list[str] = []
    where = _card_filters(kind, include_retired, where_params)
    item_filters = _item_filters(tags, label, where_params, cur.dialect)
    if item_filters:
        joins.append("JOIN items ON items.id = cards.item_id")
        where.extend(item_filters)
    number = parse_source_ref(text) if text else None
    ranks: list[str] = []
    if number is not None:
        # By the items' bank-number index (the cards' copy has none).
        where.append("cards.item_id IN (SELECT items.id FROM items WHERE items.source_no = ?)")
        where_params.append(number)
    elif text and cur.dialect == "postgresql":
        # items_search (revision 0001 on PostgreSQL): the same text, ASCII letters lowered
        # (revision 0010), with a pg_trgm GIN index that serves the substring match itself
        # (3 characters or more). The typed text is lowered as the stored text was (A–Z
        # only), so LIKE finds what ILIKE did without lowering each candidate's text.
        lowered = ascii_lower(text)
        joins.append("JOIN items_search AS body ON body.card_id = cards.id")
        where.append("body.body LIKE ? ESCAPE '\\'")
        where_params.append("%" + _like_escaped(lowered) + "%")
        if len(text) >= 3:
            ranks = ["strpos(body.body, ?) - length(cards.item_id)", "octet_length(body.body)"]
            rank_params.append(lowered)
    elif text:
        # The text itself is read from the index's content table by rowid: through the
        # virtual table's column each hit's text costs a lookup statement of its own (half
        # of a search for a common word at 100,000 items).
        joins.append("JOIN items_fts_content AS body ON body.id = cards.id")
        where.append("body.c0 LIKE ? ESCAPE '\\'")
        where_params.append("%" + _like_escaped(text) + "%")
        if len(text) >= 3:
            where.append("cards.id IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ?)")
            where_params.append(trigram_query(text))
            # Where the text first appears, counted from the end of the id the text starts
            # with (so a short id does not put an item first), then shorter texts first —
            # shorter in bytes: a text's length in characters is one more pass over every
            # hit's text (a fifth of a common word's search), its length in bytes none.
            ranks = [f"{_first_position(text, rank_params)} - length(cards.item_id)", "length(CAST(body.c0 AS BLOB))"]
        # else LIKE reads the index's text row by row: it stops at the `limit`th hit (then
        # shown in bank order) rather than reading every item for the order of a one-character
        # word. (A later page is the next hits in the same scan, each page in bank order.)
    rank_columns = "".join(f", {rank} AS rank{n}" for n, rank in enumerate(ranks))
    scan_first = bool(text) and number is None and not ranks
    picked_order = "" if scan_first else "ORDER BY " + ", ".join([f"rank{n}" for n in range(len(ranks))] + [_ORDER])
    picked = (f"SELECT cards.id AS card_id{rank_columns} FROM cards {' '.join(joins)} "
              f"WHERE {' AND '.join(where)} {picked_order} LIMIT ? OFFSET ?")
    # The display columns, for the chosen rows only (the payload's question, not the payload).
    display_order = ", ".join([f"picked.rank{n}" for n in range(len(ranks))] + [_ORDER])
    question = ("json_quote(json_extract(items.payload, '$.question'))" if cur.dialect == "sqlite"
                else "coalesce((items.payload -> 'question')::text, 'null')")
    sql = (
        "SELECT items.id, items.kind, items.source_no, items.\"group\", items.section, items.question, items.tags, "
        f"items.retired_at IS NOT NULL, cards.suspended, {question} "
        f"FROM ({picked}) AS picked JOIN cards ON cards.id = picked.card_id JOIN items ON items.id = cards.item_id "
        f"ORDER BY {display_order}"
    )
    return cur.execute(sql, [*rank_params, *where_params, limit, offset]).fetchall()
