"""Browse's search results as summaries; the statement, its index and ranking are
quizapp.store.search's."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence

from quizapp.content.bilingual import texts_of
from quizapp.srs.views import ItemSummary
from quizapp.store.search import LabelFilter as LabelFilter
from quizapp.store.search import search_rows
from quizapp.store.tx import Tx


def search_items(
    tx: Tx, text: str = "", kind: str | None = None, include_retired: bool = False, limit: int = 500,
    tags: Sequence[Collection[str]] = (), label: LabelFilter | None = None, offset: int = 0,
) -> list[ItemSummary]:
    """Items matching `text` (and `tags`, `label`), best first, at most `limit` after the
    first `offset` (quizapp.store.search.search_rows)."""
    rows = search_rows(tx, text, kind, include_retired, limit, tags, label, offset)
    tag_lists: dict[str, list[str]] = {}  # many items share their tags' text: decoded once
    found = []
    for item_id, kind_, source_no, group, section, question, tags_json, retired, suspended, question_json in rows:
        if tags_json not in tag_lists:
            tag_lists[tags_json] = list(json.loads(tags_json) or []) if tags_json else []
        found.append(ItemSummary(
            item_id=item_id, kind=kind_, source_no=source_no, group=group, section=section, question=question,
            tags=list(tag_lists[tags_json]), suspended=bool(suspended), retired=bool(retired),
            question_texts=texts_of(json.loads(question_json)),
        ))
    return found
