"""Browse's search (quizapp.srs.search) on the test deck: ranking, the short-text
fallback, and tags and labels narrowed by the database before the limit."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from quizapp.srs.search import LabelFilter
from quizapp.store.models import Card, Item

pytestmark = pytest.mark.both_backends


def _ids(results) -> list[str]:
    return [r.item_id for r in results]


def _indexed(prepared, word: str) -> list[tuple]:
    """(item, kind, bank number, indexed text) of the Q&A and MCQ cards whose text holds `word`."""
    index = ("items_fts f JOIN cards c ON c.id = f.rowid" if prepared.db.dialect == "sqlite"
             else "items_search f JOIN cards c ON c.id = f.card_id")
    with prepared.db.transaction() as tx:
        rows = tx.execute(f"SELECT c.item_id, c.kind, c.source_no, f.body FROM {index} "
                          "WHERE c.kind IN ('qa', 'mcq')").fetchall()
    return [row for row in rows if word.lower() in row[3].lower()]


def test_words_are_ranked_by_where_they_first_appear_then_by_length_in_bytes(study, prepared):
    hits = _indexed(prepared, "softmax")
    where = {item: body.lower().index("softmax") - len(item) for item, _, _, body in hits}

    def best_first(row: tuple) -> tuple:
        item, kind, source_no, body = row
        return (where[item], len(body.encode()), kind != "qa", source_no is None, source_no or 0, item)

    found = study.search("SoftMax")
    assert _ids(found) == [row[0] for row in sorted(hits, key=best_first)]
    assert len(set(where.values())) > 1  # the order really comes from the position


def _ascii_lower(text: str) -> str:
    """SQL's lower(): A–Z only (as LIKE's matching)."""
    return "".join(chr(ord(char) + 32) if "A" <= char <= "Z" else char for char in text)


def test_the_rank_is_the_first_appearance_in_any_case_near_the_start_or_far_in(study, prepared):
    """Where a hit's text first appears is read from a lowered prefix of its text, and
    from the whole text only beyond it: a word far past the prefix, a word within it in
    capitals, a word in both, and Chinese (no letters to lower) rank as the whole text's
    first appearance does."""
    with prepared.db.session() as session, session.begin():
        for item_id, question in (("t-causal", {"zh": "长" * 400 + " Zebrafish 斑马鱼", "en": "far in"}),
                                  ("t-padding", {"zh": "ZEBRAFISH 斑马鱼 " + "长" * 400 + " zebrafish", "en": "x"}),
                                  ("t-scaling", {"zh": "斑马鱼", "en": "zebraFISH"})):
            item = session.get(Item, item_id)
            item.payload = {**item.payload, "question": question}
    for word in ("zebrafish", "ZebraFish", "斑马鱼"):
        hits = [row for row in _indexed(prepared, word) if _ascii_lower(word) in _ascii_lower(row[3])]
        where = {item: _ascii_lower(body).index(_ascii_lower(word)) - len(item) for item, _, _, body in hits}
        expected = sorted(hits, key=lambda row: (where[row[0]], len(row[3].encode()), row[1] != "qa",
                                                 row[2] is None, row[2] or 0, row[0]))
        assert len(hits) == 3
        assert _ids(study.search(word)) == [row[0] for row in expected], word


def test_text_is_matched_whole_not_as_scattered_trigrams(study, prepared):
    """The index finds rows holding every trigram of the text, anywhere; only rows that
    hold the text itself are hits."""
    with prepared.db.session() as session, session.begin():
        item = session.get(Item, "t-causal")
        item.payload = {**item.payload, "question": {"zh": "abcd 与 xbcdy", "en": "abcd and xbcdy"}}
    assert _ids(study.search("xbcdy")) == ["t-causal"]
    assert _ids(study.search("ABCD")) == ["t-causal"]
    assert study.search("abcdy") == []  # abc, bcd and cdy are all there, but not in a row
    assert study.search("d_k 50%") == []  # LIKE's wildcards are the text's own characters


def test_short_chinese_text_is_found_by_the_like_fallback(study):
    assert _ids(study.search("形状")) == ["t-shapes", "t-mcq-shape"]  # bank order: Q&A first
    assert _ids(study.search("作用")) == ["t-padding", "t-mcq-qkv"]
    assert _ids(study.search("饱")) == ["t-scaling"]
    assert len(study.search("形状", limit=1)) == 1


def test_tags_are_matched_before_the_limit(study):
    """The old Browse loaded every item and filtered in Python; the limit now applies to
    items that carry the tag."""
    found = study.search("", tags=[{"mask"}], limit=2)
    assert _ids(found) == ["t-causal", "t-padding"]
    assert _ids(study.search("", tags=[{"MASK"}, {"causal"}])) == ["t-causal", "t-mcq-mask"]
    assert sorted(_ids(study.search("causal", tags=[{"nothing", "mask"}]))) == ["t-causal", "t-mcq-mask"]
    assert study.search("softmax", tags=[{"qkv"}]) == []


def test_label_filter_narrows_to_unnumbered_items_by_section_or_id(study, prepared):
    with prepared.db.session() as session, session.begin():
        session.execute(update(Item).where(Item.id == "t-mcq-axis").values(section="7.10"))
        session.execute(update(Item).where(Item.id == "t-mcq-qkv").values(section="7.5"))
    assert _ids(study.search("", label=LabelFilter(section_prefix="7.1"))) == ["t-mcq-axis"]
    assert _ids(study.search("", label=LabelFilter(id_prefixes=("t-mcq-s",)))) == ["t-mcq-scale", "t-mcq-shape"]
    assert study.search("", label=LabelFilter()) == []


def test_retired_and_suspended_items(study, prepared):
    with prepared.db.session() as session, session.begin():
        session.execute(update(Item).where(Item.id == "t-padding").values(retired_at=Item.created_at))
        session.execute(update(Card).where(Card.item_id == "t-causal").values(suspended=True))
    assert _ids(study.search("", tags=[{"mask"}])) == ["t-causal", "t-mcq-mask"]
    assert [r.suspended for r in study.search("", tags=[{"mask"}])] == [True, False]
    everything = study.search("", tags=[{"mask"}], include_retired=True)
    assert _ids(everything) == ["t-causal", "t-padding", "t-mcq-mask"] and everything[1].retired
    assert _ids(study.search("Q5")) == [] and _ids(study.search("Q5", include_retired=True)) == ["t-padding"]


def test_an_items_history_is_newest_first_by_time_with_an_imported_older_answer(study, prepared):
    with prepared.db.transaction(write=True) as tx:  # another program's rows, older ones after newer
        card_id, item_id = tx.execute("SELECT id, item_id FROM cards WHERE kind = 'qa' ORDER BY id").fetchone()
        day = 86_400_000_000
        start = 1_767_225_600_000_000  # 2026-01-01
        tx.executemany(
            "INSERT INTO reviews (id, card_id, mode, rating, reviewed_at, prev_state, prev_reps, prev_lapses, "
            "prev_leech, prev_suspended) VALUES (?, ?, 0, 3, ?, 2, 1, 0, FALSE, FALSE)",
            [(901, card_id, start + 2 * day), (902, card_id, start), (903, card_id, start + day)])
    assert [r.review_id for r in study.item_detail(item_id).reviews] == [901, 903, 902]


def test_pages_follow_on_exactly(study):
    """Browse reads results a page at a time (`offset`): the order is total, so the pages
    of a ranked or listed search are the whole list cut up, and a scan's are its hits."""
    for text, tags in (("", ()), ("softmax", ()), ("mask", ()), ("", ({"mask", "softmax"},))):
        whole = _ids(study.search(text, tags=tags, limit=1000))
        assert len(whole) > 2, text
        pages = [_ids(study.search(text, tags=tags, limit=2, offset=start)) for start in range(0, len(whole) + 2, 2)]
        assert [item for page in pages for item in page] == whole
        assert pages[-1] == []
    short = _ids(study.search("形状", limit=1000))  # two characters: the LIKE scan, each page in bank order
    pages = [_ids(study.search("形状", limit=1, offset=start)) for start in range(len(short))]
    assert sorted(item for page in pages for item in page) == sorted(short)
