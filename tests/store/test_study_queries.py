"""The statements of quizapp.store (cards, reviews, search, mocks): index-only plans on
the study step, today's counters, streak, search.

Speed itself is measured in benchmarks/scale.py; here the query plans are checked, so a
full scan or a sort that grows with the collection fails a test instead of a benchmark.
"""

from __future__ import annotations

import re
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import event, select, text

from quizapp.srs.service import StudyService

# The srs tests' prepared databases (the fixtures study, drills and their parts); their
# conftest imports its fake engine as a top-level module.
sys.path.insert(0, str(Path(__file__).parent.parent / "srs"))
from tests.srs import conftest as srs_fixtures

globals().update({name: getattr(srs_fixtures, name)
                  for name in ("clock", "db_path", "drills", "engine", "prepared", "study", "test_deck")})

# A per-step query may SEARCH an index; it must never SCAN a whole table (or a whole
# index) of cards, reviews or items, nor sort them in a temporary B-tree. A bare
# "SEARCH reviews" (no index named) is a scan too: max(id) with an unindexed filter walks
# the table back from its last row until a row matches.
# The plan checks read SQLite's own EXPLAIN QUERY PLAN and statement trace: SQLite only
# (benchmarks/scale.py --backend postgresql measures the server). What the statements
# return is checked on both backends (`both_backends`).
BAD_PLAN = re.compile(r"\b(SCAN (cards|reviews|items|review_tallies)\b|SEARCH (cards|reviews|items|review_tallies)$)"
                      r"|USE TEMP B-TREE")


def _capture(service: StudyService, action) -> list[tuple[str, object]]:
    """Every SELECT (or WITH … SELECT) `action` runs, through the ORM, Core or the driver directly (the study
    step's own path): SQLite's trace of each connection, values filled in."""
    statements: list[tuple[str, object]] = []

    def remember(sql: str) -> None:
        if sql.lstrip().upper().startswith(("SELECT", "WITH")):
            statements.append((sql, ()))

    def trace(dbapi_conn, _record) -> None:
        dbapi_conn.set_trace_callback(remember)

    engine = service.db.engine
    engine.dispose()  # new connections, each traced from its first statement
    event.listen(engine, "connect", trace)
    try:
        action()
    finally:
        event.remove(engine, "connect", trace)
        engine.dispose()
    return statements


def _bad_plans(service: StudyService, statements) -> list[str]:
    problems = []
    with service.db.engine.connect() as conn:
        for statement, parameters in statements:
            if "FROM settings" in statement:
                continue  # a handful of rows, read whole on purpose
            plan = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters).all()
            details = [row[-1] for row in plan]
            if any(BAD_PLAN.search(d) for d in details):
                problems.append(f"{statement}\n  -> {details}")
    return problems


def _study_some(study: StudyService, clock, n: int = 6) -> None:
    for _ in range(n):
        card = study.next_card("qa")
        if card is None:
            break
        study.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version)
        clock.advance(minutes=2)


def test_every_per_step_query_uses_an_index(study, clock):
    _study_some(study, clock)
    clock.advance(days=1)
    _study_some(study, clock, 3)

    def tui_step():
        # What the study screen runs per answer (SessionScreen.submit + _fetch) and Home.
        card = study.next_card("qa")
        result = study.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version)
        study.study_view("qa")  # what the Study screen reads after an answer (SessionScreen._fetch)
        following = study.next_card("qa")
        study.due_counts()
        study.new_allowance_left("qa")
        study.next_card("mcq")
        if following is not None:
            study.preview(following.card.card_id)
        study.undo(result.review_id)

    statements = _capture(study, tui_step)
    assert len(statements) > 10
    # The driver-level step path is seen too: the queue, the tallies, the answer's card read.
    seen = " ".join(sql for sql, _ in statements)
    for piece in ("FROM review_tallies", "FROM cards WHERE kind", "JOIN items i ON i.id = c.item_id",
                  "FROM cards WHERE id"):
        assert piece in seen, piece
    assert _bad_plans(study, statements) == []


def test_undo_and_what_the_study_screen_reads_after_it_use_indexes(study, clock):
    """`u` on the Study screen (SessionScreen.undo_last): the undo, then the same card
    again, its previews and the counts, in one transaction (StudyService.undo_view)."""
    _study_some(study, clock)
    clock.advance(days=1)
    _study_some(study, clock, 3)
    card = study.next_card("qa")
    result = study.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version)

    def undo():
        study.undo_view(result.review_id, "qa")

    statements = _capture(study, undo)
    seen = " ".join(sql for sql, _ in statements)
    assert "FROM reviews WHERE id" in seen and "max(id) FROM reviews WHERE card_id" in seen  # the undo's reads are traced
    assert _bad_plans(study, statements) == []


def test_the_plan_check_catches_a_full_scan(study):
    """The check itself can fail: an unindexed filter over reviews is reported."""
    statements = [("SELECT count(*) FROM reviews WHERE duration_ms > ?", (5,)),
                  ("SELECT id FROM cards ORDER BY stability LIMIT 1", ()),
                  ("SELECT total(qa_new) FROM review_tallies WHERE qa_reviews > 0", ()),
                  ("SELECT max(id) FROM reviews WHERE card_id + 0 = ?", (1,))]
    assert len(_bad_plans(study, statements)) == 4


def test_the_step_fails_the_check_once_its_index_is_gone(study, clock):
    """Without the studied cards' indexes the queue's walks scan the cards: the step's own
    statements (not only hand-written ones) are caught."""
    _study_some(study, clock)
    with study.db.engine.begin() as conn:
        conn.execute(text("DROP INDEX ix_cards_queue"))
        conn.execute(text("DROP INDEX ix_cards_due_studied"))

    def step():
        card = study.next_card("qa")
        study.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version)
        study.study_view("qa")

    assert _bad_plans(study, _capture(study, step))


@pytest.mark.both_backends
def test_new_cards_come_in_bank_order(study):
    seen = []
    for _ in range(3):
        card = study.next_card("qa", exclude=[c.card.card_id for c in seen])
        seen.append(card)
    numbers = [c.item.get("source_no") for c in seen]
    numbered = [n for n in numbers if n is not None]
    assert numbered == sorted(numbered)
    assert numbers.index(None) if None in numbers else True


@pytest.mark.both_backends
def test_today_counts_ignore_reviews_stamped_in_the_future(study, clock):
    """The clock ran a year ahead, the user studied, the clock was put right: today's
    "new" and "reviews" count only today's answers (issue 9)."""
    limit = study.settings().new_per_day
    real_now = clock.current
    clock.current = real_now + timedelta(days=365)
    _study_some(study, clock, 4)
    assert study.due_counts().new_done_today == 4
    clock.current = real_now
    counts = study.due_counts()
    assert counts.new_done_today == 0 and counts.reviews_done_today == 0
    assert study.new_allowance_left("qa") == limit


@pytest.mark.both_backends
def test_streak_counts_consecutive_study_days(study, clock):
    assert study.due_counts().streak == 0
    for _day in range(3):
        _study_some(study, clock, 1)
        clock.advance(days=1)
    # Studied on each of the last three days, not yet today: the streak is still alive.
    assert study.due_counts().streak == 3
    _study_some(study, clock, 1)
    assert study.due_counts().streak == 4
    clock.advance(days=2)
    assert study.due_counts().streak == 0


@pytest.mark.parametrize("zone,days,statements", [
    (None, 3, 1), (None, 45, 1),  # the clock's fixed offset (the real clock's kind): one statement
    ("America/New_York", 3, 1), ("America/New_York", 12, 2), ("America/New_York", 45, 3),  # batches of 8, 32, 128
])
def test_the_streak_probes_the_day_tallies_inside_a_statement(study, clock, zone, days, statements):
    """However long the run, the days before today are an index probe of review_tallies
    each inside one statement (in a zone with DST, one per batch of days found through the
    zone), never a statement per day nor a read of every quarter-hour with answers."""
    from zoneinfo import ZoneInfo

    from quizapp.store.models import Card, Review

    if zone is not None:
        clock.tz = ZoneInfo(zone)
    with study.db.session() as session, session.begin():
        card_id = session.scalars(select(Card.id).limit(1)).one()
        now = clock.now().replace(tzinfo=None)
        session.add_all(Review(card_id=card_id, mode="study", rating=3, duration_ms=1000, prev_card={},
                               reviewed_at=now - timedelta(days=back)) for back in range(1, days + 1))
    study.days.forget_streak()
    streak: list[int] = []
    captured = _capture(study, lambda: streak.append(study.due_counts().streak))
    assert streak == [days]
    probes = [sql for sql, _ in captured if "review_tallies" in sql and "EXISTS" in sql]
    walks = [sql for sql, _ in captured if "review_tallies" in sql and "ORDER BY quarter" in sql]
    assert len(probes) == statements and walks == []
    assert _bad_plans(study, [(sql, ()) for sql in probes]) == []


@pytest.mark.both_backends
def test_search_matches_text_in_any_language_and_short_words(study):
    with study.db.engine.begin() as conn:
        item_id, payload = conn.execute(text("SELECT id, payload FROM items WHERE kind = 'qa' LIMIT 1")).one()
    # Whatever the item's language fields are, a 3+ character piece of its question and a
    # 2-character piece (a typical Chinese word) both find it.
    import json

    question = json.loads(payload)["question"] if isinstance(payload, str) else payload["question"]
    if isinstance(question, dict):
        question = next(v for v in question.values() if v)
    words = [w for w in re.split(r"[\s，。？、$\\{}_^]+", question) if len(w) >= 3]
    assert words, question
    assert item_id in [s.item_id for s in study.search(words[0][:4])]
    assert item_id in [s.item_id for s in study.search(words[0][:2])]
    assert study.search("zzzqqq-nothing") == []


@pytest.mark.both_backends
def test_search_index_follows_content_edits(study):
    with study.db.session() as session, session.begin():
        from quizapp.store.models import Item

        item = session.scalars(__import__("sqlalchemy").select(Item).where(Item.kind == "qa")).first()
        payload = dict(item.payload)
        payload["question"] = "一个全新的问题 brandnewword"
        item.payload = payload
        item_id = item.id
    assert [s.item_id for s in study.search("brandnewword")] == [item_id]


@pytest.mark.both_backends
@pytest.mark.parametrize("query", ['"', "a\"b", "OR", "*", "NEAR(", "%", "_"])
def test_search_never_fails_on_query_syntax(study, query):
    assert isinstance(study.search(query), list)


def _review_skill(study: StudyService, type_id: str, rating: int = 3) -> None:
    card = study.next_card("skill", only_item=f"drill:{type_id}")
    assert card is not None
    study.answer(card.card.card_id, rating, mode="drill", expected_version=card.card.version)


@pytest.mark.both_backends
def test_a_skill_card_is_due_once_scheduled_and_its_due_date_has_come(drills, study, clock):
    assert drills.due_skill_card("attention") is None  # new: no due date yet, so picking it is practice
    _review_skill(study, "attention")
    assert drills.due_skill_card("attention") is None  # just reviewed: due again only later
    clock.advance(days=1)
    due = drills.due_skill_card("attention")
    assert due is not None and due.item_id == "drill:attention" and due.reps == 1
    assert drills.due_skill_card("softmax") is None  # another skill, still new
    assert drills.due_skill_card("no-such-type") is None
    study.set_suspended("drill:attention", True)
    assert drills.due_skill_card("attention") is None  # suspended: never reviewed by a drill


def test_the_due_skill_check_uses_an_index(drills, study, clock):
    _review_skill(study, "attention")
    clock.advance(days=1)
    # What the Drill screen runs when a type is picked from the picker.
    statements = _capture(study, lambda: drills.due_skill_card("attention"))
    assert statements
    assert _bad_plans(study, statements) == []


def test_the_mock_recent_lapses_query_reads_only_again_answers(study, clock):
    """With no index of every review by time (revision 0004), the mock's weak-item weights
    read the recent Again answers through the partial ix_reviews_lapses."""
    from quizapp.srs.clock import to_naive_utc
    from quizapp.srs.mock_selection import item_weights

    _study_some(study, clock)
    card = study.next_card("qa")
    study.answer(card.card.card_id, 1, mode="study", expected_version=card.card.version)

    def weights():
        with study.db.transaction() as tx:
            found = item_weights(tx, [card.card.item_id], {card.card.item_id: 1.0}, to_naive_utc(clock.current))
        assert found[card.card.item_id] == 1.0 + 1.5  # fully recalled, but one Again this month

    statements = [s for s in _capture(study, weights) if "FROM reviews" in s[0]]
    assert statements
    assert _bad_plans(study, statements) == []


@pytest.mark.parametrize("moment", [datetime(2026, 12, 3, 5, 1, 2, 345), datetime(2026, 1, 1), datetime(999, 3, 4, 5, 6, 7, 8),
                                    datetime(9999, 12, 31, 23, 59, 59, 999999),
                                    datetime(2026, 6, 1, 12, 0, tzinfo=timezone(timedelta(hours=8)))])
def test_the_steps_time_bounds_are_stored_as_the_models_store_a_time(moment):
    """The driver-level statements compare `stored_time` text with what SQLAlchemy's
    DateTime wrote: the same text, to the microsecond, whatever the year."""
    from sqlalchemy.dialects import sqlite

    from quizapp.store.codes import stored_time
    from quizapp.store.models import Card

    dialect = sqlite.dialect()
    stores = Card.__table__.c.due.type.dialect_impl(dialect).bind_processor(dialect)
    assert stored_time(moment) == stores(moment.replace(tzinfo=None))


def test_the_stats_totals_read_the_tallies_and_two_partial_indexes_not_every_review(study, clock):
    """The Stats screen's totals (revision 0011): the schedule's answers are the tallies'
    sum, the cram answers and the leeches each walk a partial index holding only them;
    without those indexes the counts scan every review and every card."""
    from quizapp.store import stats_queries

    _study_some(study, clock)

    def plans() -> dict[str, str]:
        with study.db.engine.connect() as conn:
            return {sql: " ".join(row[-1] for row in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql).all())
                    for sql in (stats_queries._SCHEDULE_ANSWERS, stats_queries._CRAM_ANSWERS,
                                stats_queries._LEECHES)}

    found = plans()
    assert found[stats_queries._SCHEDULE_ANSWERS] == "SCAN review_tallies"
    assert found[stats_queries._CRAM_ANSWERS] == "SCAN reviews USING INDEX ix_reviews_cram"
    assert found[stats_queries._LEECHES] == "SCAN cards USING INDEX ix_cards_leech"
    with study.db.transaction() as tx:
        assert stats_queries.totals(tx) == (6, 0, 0)  # every answer of _study_some, from the tallies
    with study.db.engine.begin() as conn:
        conn.execute(text("DROP INDEX ix_reviews_cram"))
        conn.execute(text("DROP INDEX ix_cards_leech"))
    study.db.engine.dispose()  # a cached EXPLAIN is not re-planned after a schema change
    found = plans()
    assert "ix_" not in found[stats_queries._CRAM_ANSWERS] + found[stats_queries._LEECHES]
