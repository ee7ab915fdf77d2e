"""Today's counters come from the quarter-hour tallies (review_tallies), kept by triggers.

Each check compares them with a walk of the reviews themselves (what the counters were
before revision 0004): after answers, undo, an import-like raw insert, a card changing
kind, and under any time zone and day boundary.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select, text

from quizapp.srs.clock import from_naive_utc, to_naive_utc
from quizapp.srs.service import KINDS, StudyService
from quizapp.store import reviews
from quizapp.store.models import Card, Review, to_micros

pytestmark = pytest.mark.both_backends


def _walk(study: StudyService, start: datetime, end: datetime) -> dict[str, tuple[int, int]]:
    """kind -> (first answers, answers of studied cards) by reading every review in [start, end)."""
    counts = {kind: [0, 0] for kind in KINDS}
    with study.db.session() as session:
        rows = session.execute(
            select(Card.kind, Review.prev_reps).join(Card, Card.id == Review.card_id)
            .where(Review.reviewed_at >= start, Review.reviewed_at < end)
        ).all()
    for kind, prev_reps in rows:
        counts[kind][0 if prev_reps == 0 else 1] += 1
    return {kind: (n, r) for kind, (n, r) in counts.items()}


def _tallied(study: StudyService, start: datetime, end: datetime) -> dict[str, tuple[int, int]]:
    with study.db.transaction() as tx:
        return reviews.day_tallies(tx, start, end)


def _answer(study: StudyService, kind: str, rating: int = 3) -> int:
    card = study.next_card(kind)
    assert card is not None
    return study.answer(card.card.card_id, rating, mode="study", expected_version=card.card.version).review_id


def _study_a_day(study: StudyService, clock) -> list[int]:
    """Answers spread over 30 hours, in every kind, some cards answered twice."""
    ids = []
    for step in range(14):
        ids.append(_answer(study, ("qa", "mcq", "skill")[step % 3], rating=1 + step % 4))
        clock.advance(minutes=130)
    return ids


def _all_tallies(study: StudyService) -> list[tuple]:
    with study.db.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text("SELECT * FROM review_tallies ORDER BY quarter"))]


def _all_from_reviews(study: StudyService) -> list[tuple]:
    """What the tallies should hold: the reviews grouped by quarter, zero rows left out."""
    with study.db.engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT r.reviewed_at / 900000000 AS q, "
            + ", ".join(f"sum(CASE WHEN c.kind = '{k}' AND r.prev_reps = 0 THEN 1 ELSE 0 END), "
                        f"sum(CASE WHEN c.kind = '{k}' AND r.prev_reps > 0 THEN 1 ELSE 0 END)" for k in KINDS)
            + " FROM reviews r JOIN cards c ON c.id = r.card_id GROUP BY q ORDER BY q"
        ))
        return [tuple(r) for r in rows]


@pytest.mark.parametrize("zone, hour", [
    (UTC, 4), (ZoneInfo("Asia/Kathmandu"), 4), (ZoneInfo("America/New_York"), 0),
    (timezone(timedelta(hours=-9, minutes=-30)), 23), (ZoneInfo("Asia/Shanghai"), 6),
])
def test_todays_counters_equal_a_walk_of_todays_reviews_in_any_zone_and_boundary(study, clock, zone, hour):
    _study_a_day(study, clock)
    clock.tz = zone
    for back in range(0, 40, 3):
        moment = clock.current - timedelta(hours=back)
        start, end = study.day_window(moment, hour)
        assert _tallied(study, start, end) == _walk(study, start, end), (zone, hour, back)


def test_undo_takes_the_answer_out_of_the_counters(study, clock):
    ids = _study_a_day(study, clock)
    before = _all_tallies(study)
    extra = [_answer(study, "qa"), _answer(study, "mcq", 1)]
    assert _all_tallies(study) != before
    for review_id in reversed(extra):
        study.undo(review_id)
    assert _all_tallies(study) == before == _all_from_reviews(study)
    study.undo(ids[-1])
    assert _all_tallies(study) == _all_from_reviews(study)


def test_an_undone_day_leaves_no_row_so_the_streak_forgets_it(study, clock):
    review_id = _answer(study, "qa")
    assert study.due_counts().streak == 1
    study.undo(review_id)
    assert _all_tallies(study) == []
    assert study.due_counts().streak == 0


def test_rows_written_by_raw_sql_and_a_change_of_kind_are_counted(study, clock):
    """An import or another program writing reviews, and a card moving to another kind."""
    _study_a_day(study, clock)
    with study.db.engine.begin() as conn:
        card_id = conn.execute(text("SELECT id FROM cards WHERE kind = 'qa' ORDER BY id LIMIT 1")).scalar_one()
        at = to_micros(to_naive_utc(clock.current)) - 3_600_000_000
        conn.execute(text(
            "INSERT INTO reviews (card_id, mode, rating, reviewed_at, prev_state, prev_reps, prev_lapses, "
            "prev_leech, prev_suspended) VALUES (:c, 0, 3, :at, 2, 4, 0, FALSE, FALSE)"
        ), {"c": card_id, "at": at})
        assert conn.execute(text("SELECT count(*) FROM reviews WHERE card_id = :c"), {"c": card_id}).scalar_one()
        item_id = conn.execute(text("SELECT item_id FROM cards WHERE id = :c"), {"c": card_id}).scalar_one()
        conn.execute(text("UPDATE items SET kind = 'mcq' WHERE id = :i"), {"i": item_id})
        assert conn.execute(text("SELECT kind FROM cards WHERE id = :c"), {"c": card_id}).scalar_one() == "mcq"
    assert _all_tallies(study) == _all_from_reviews(study)
    with study.db.engine.begin() as conn:
        conn.execute(text("DELETE FROM reviews WHERE card_id = :c"), {"c": card_id})
    assert _all_tallies(study) == _all_from_reviews(study)


def test_a_retired_item_leaves_the_queue_and_comes_back(study, clock):
    """cards.retired follows items.retired_at (the queue reads cards alone)."""
    first = study.next_card("qa")
    assert first is not None
    with study.db.engine.begin() as conn:
        conn.execute(text("UPDATE items SET retired_at = '2026-03-01 00:00:00.000000' WHERE id = :i"),
                     {"i": first.card.item_id})
    assert study.next_card("qa").card.card_id != first.card.card_id
    with study.db.engine.begin() as conn:
        conn.execute(text("UPDATE items SET retired_at = NULL WHERE id = :i"), {"i": first.card.item_id})
    assert study.next_card("qa").card.card_id == first.card.card_id


@pytest.mark.sqlite_only  # SQLite's storage classes (PostgreSQL's columns are BIGINT by declaration)
def test_reviews_store_time_and_mode_as_integers(study, clock):
    review_id = _answer(study, "mcq")
    with study.db.engine.connect() as conn:
        row = conn.execute(text("SELECT typeof(reviewed_at), reviewed_at, typeof(mode), mode FROM reviews "
                                "WHERE id = :r"), {"r": review_id}).one()
    assert row == ("integer", to_micros(to_naive_utc(clock.current)), "integer", 0)
    with study.db.session() as session:
        review = session.get(Review, review_id)
        assert review.mode == "study" and review.reviewed_at == to_naive_utc(clock.current)


def test_undo_of_an_answer_from_before_today_recounts_the_streak_and_of_today_does_not(study, clock, monkeypatch):
    """The streak of the days before today is remembered; undo forgets it only when the
    undone answer was given before today's start (a session across the rollover)."""
    days = []
    for _ in range(3):
        days.append(_answer(study, "qa"))
        clock.advance(days=1)
    today = _answer(study, "mcq")
    assert study.due_counts().streak == 4
    probes = []
    real = reviews.days_with_answers_before  # (the clock's zone is a fixed offset)
    monkeypatch.setattr(reviews, "days_with_answers_before", lambda *a: probes.append(a) or real(*a))
    study.undo(today)  # today's answer: the past days stand, and are not probed again
    assert study.due_counts().streak == 3 and probes == []
    study.undo(days[-1])  # yesterday's answer (its card's newest review): yesterday is empty now
    assert study.due_counts().streak == 0 and probes


@pytest.mark.parametrize("zone, hour, today, changes", [
    (ZoneInfo("America/New_York"), 0, datetime(2026, 3, 20, 15, tzinfo=UTC), True),  # spring forward on 03-08
    (ZoneInfo("America/New_York"), 23, datetime(2026, 11, 12, 15, tzinfo=UTC), True),  # fall back on 11-01
    (ZoneInfo("Europe/Berlin"), 4, datetime(2026, 4, 9, 15, tzinfo=UTC), True),  # 03-29
    (ZoneInfo("Asia/Kathmandu"), 4, datetime(2026, 3, 20, 15, tzinfo=UTC), False),  # +05:45, no DST
    # A fixed offset, as the real clock's zone is (its days are counted as 24 hours each).
    (timezone(timedelta(hours=-9, minutes=-30)), 23, datetime(2026, 3, 20, 15, tzinfo=UTC), False),
])
def test_the_streak_is_a_walk_of_the_study_days_across_a_dst_change(study, clock, zone, hour, today, changes):
    """Answers in each of the 40 days before today, alternately in a day's first minute and
    its last, across a change of the zone's offset, then a day without any: the streak the
    tallies give (asked in batches of days) is the one a walk of the days themselves gives."""
    clock.tz, clock.current = zone, today
    base = study.settings()
    study.save_settings(base.model_copy(update={"day_rollover_hour": hour}), base)
    days, end = [], study.day_window(None, hour)[0]
    for _ in range(45):
        start = study.day_window(from_naive_utc(end - timedelta(minutes=1)), hour)[0]
        days.append((start, end))
        end = start
    studied = days[:40]
    moments = [start if i % 2 else end - timedelta(minutes=1) for i, (start, end) in enumerate(studied)]
    with study.db.session() as session, session.begin():
        card_id = session.scalars(select(Card.id).limit(1)).one()
        session.add_all(Review(card_id=card_id, mode="study", rating=3, duration_ms=1000, prev_card={},
                               reviewed_at=moment) for moment in moments)
    lengths = {end - start for start, end in studied}
    assert len(lengths) == 2 if changes else lengths == {timedelta(hours=24)}  # with a 23 or 25 h day, or none
    walked = next(i for i, (start, end) in enumerate(days) if not any(start <= m < end for m in moments))
    study.days.forget_streak()
    assert study.due_counts().streak == walked == 40
