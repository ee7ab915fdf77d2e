"""`quizapp.srs.stats`' aggregate SQL against a plain Python computation of the same
figures, on small random histories: random review times over more than a year (some on
the exact boundaries of study days), random card states, suspended and retired items, and
time zones with and without daylight saving time."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from datetime import UTC, date, datetime, timedelta, timezone
from itertools import pairwise
from zoneinfo import ZoneInfo

import pytest
from fsrs import Card as FsrsCard
from fsrs import Scheduler
from sqlalchemy import select

from quizapp.srs.stats import FORECAST_DAYS, HEATMAP_DAYS, INTERVAL_BUCKETS, RETENTION_BUCKETS, study_stats
from quizapp.store.models import Card, Item, Review

pytestmark = pytest.mark.both_backends

NOW = datetime(2026, 3, 2, 8, 0)  # naive UTC, the `clock` fixture's now


def _local_day(moment: datetime, tz, rollover: int) -> date:
    return (moment.replace(tzinfo=UTC).astimezone(tz) - timedelta(hours=rollover)).date()


def _bucket(days: float, buckets) -> str | None:
    for label, low, high in buckets:
        if days >= low and (high is None or days < high):
            return label
    return None


def _random_history(db, rng: random.Random, tz, rollover: int) -> None:
    """Cards in random states, about 250 reviews, a few items retired or suspended."""
    # Day boundaries in UTC around now, so some reviews fall exactly on one.
    boundaries = []
    for back in range(-3, 40):
        day = _local_day(NOW, tz, rollover) - timedelta(days=back)
        local = datetime(day.year, day.month, day.day, tzinfo=tz) + timedelta(hours=rollover)
        boundaries.append(local.astimezone(UTC).replace(tzinfo=None))

    def moment() -> datetime:
        choice = rng.random()
        if choice < 0.15:
            return rng.choice(boundaries) - timedelta(microseconds=rng.choice((0, 0, 1)))
        if choice < 0.3:  # the last few days, for the streak and today
            return NOW - timedelta(seconds=rng.randint(0, 5 * 86400))
        return NOW - timedelta(seconds=rng.randint(-2 * 86400, 420 * 86400), microseconds=rng.randint(0, 999_999))

    with db.session() as session, session.begin():
        cards = list(session.scalars(select(Card).order_by(Card.id)))
        items = {item.id: item for item in session.scalars(select(Item))}
        for card in cards:
            if rng.random() < 0.15:
                items[card.item_id].retired_at = NOW - timedelta(days=3)
            card.suspended = rng.random() < 0.15
            card.leech = rng.random() < 0.1
            if rng.random() < 0.3:
                continue  # new
            card.reps = rng.randint(1, 12)
            card.state = rng.choice((1, 2, 2, 2, 3))
            card.stability = rng.choice((0.0, rng.uniform(0.1, 200.0)))
            card.difficulty = rng.uniform(1, 10)
            card.last_review = moment()
            card.due = rng.choice((
                card.last_review + timedelta(days=rng.uniform(0, 400)),
                rng.choice(boundaries),
                NOW + timedelta(days=rng.uniform(-5, 40)),
            ))
        for _ in range(250):
            card = rng.choice(cards)
            when = moment()
            prev = {} if rng.random() < 0.5 else {
                "state": 2, "step": None, "stability": 3.0, "difficulty": 5.0,
                "due": (when - timedelta(days=1)).isoformat(),
                "last_review": (when - timedelta(days=rng.uniform(0, 100))).isoformat(),
                "reps": rng.randint(0, 5), "lapses": 0, "leech": False, "suspended": False,
            }
            session.add(Review(card_id=card.id, mode=rng.choice(("study", "quiz", "drill")),
                               rating=rng.randint(1, 4), reviewed_at=when, duration_ms=1000, prev_card=prev))
        # Two answers of one card in the same microsecond: ordered by id.
        twin = NOW - timedelta(days=10)
        for rating in (1, 3):
            session.add(Review(card_id=cards[0].id, mode="study", rating=rating, reviewed_at=twin,
                               duration_ms=1, prev_card={}))
        session.flush()
        # Undo-like deletions and edits anywhere in a card's history: the gaps of the
        # answers around them move (review_gaps' triggers).
        reviews = list(session.scalars(select(Review).order_by(Review.id)))
        for review in rng.sample(reviews, 30):
            session.delete(review)
        session.flush()
        for review in rng.sample(list(session.scalars(select(Review))), 30):
            change = rng.choice(("time", "rating", "card"))
            if change == "time":
                review.reviewed_at = moment()
            elif change == "rating":
                review.rating = rng.randint(1, 4)
            else:
                review.card_id = rng.choice(cards).id


def _expected(db, tz, rollover: int, settings) -> dict:
    """Every figure, computed the slow and obvious way."""
    today = _local_day(NOW, tz, rollover)
    with db.session() as session:
        items = {item.id: item for item in session.scalars(select(Item))}
        cards = list(session.scalars(select(Card)))
        reviews = list(session.scalars(select(Review)))
        by_card = {card.id: card for card in cards}

    per_day = Counter(_local_day(r.reviewed_at, tz, rollover) for r in reviews)
    heatmap = [(today - timedelta(days=i), per_day.get(today - timedelta(days=i), 0))
               for i in reversed(range(HEATMAP_DAYS))]

    forecast = Counter()
    for card in cards:
        if card.reps > 0 and not card.suspended and items[card.item_id].retired_at is None:
            day = max(_local_day(card.due, tz, rollover), today)
            forecast[day] += 1
    forecast_list = [(today + timedelta(days=i), forecast.get(today + timedelta(days=i), 0))
                     for i in range(FORECAST_DAYS)]

    retention = {label: [0, 0] for label, _, _ in RETENTION_BUCKETS}
    history = defaultdict(list)
    for review in reviews:
        history[review.card_id].append(review)
    for answers in history.values():
        answers.sort(key=lambda r: (r.reviewed_at, r.id))
        for before, review in pairwise(answers):
            label = _bucket((review.reviewed_at - before.reviewed_at) / timedelta(days=1), RETENTION_BUCKETS)
            if label is not None:
                retention[label][0] += 1
                retention[label][1] += review.rating > 1

    intervals = Counter()
    for card in cards:
        if card.state == 2 and not card.suspended and card.last_review is not None:
            intervals[_bucket((card.due - card.last_review) / timedelta(days=1), INTERVAL_BUCKETS)] += 1

    states: dict[str, Counter] = defaultdict(Counter)
    names = {1: "learning", 2: "review", 3: "relearning"}
    for card in cards:
        item = items[card.item_id]
        if item.retired_at is None:
            column = "suspended" if card.suspended else "new" if card.reps == 0 else names[card.state]
            states[item.kind][column] += 1

    scheduler = Scheduler(desired_retention=settings.desired_retention)
    topics: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0.0])
    overall = [0, 0.0]
    for item in items.values():
        card = next((c for c in cards if c.item_id == item.id), None)
        if item.kind not in ("qa", "mcq") or item.retired_at is not None or (card is not None and card.suspended):
            continue
        recall = 0.0
        if card is not None and card.reps > 0 and (card.stability or 0) > 0 and card.last_review is not None:
            fsrs_card = FsrsCard(stability=card.stability, difficulty=card.difficulty or 5.0,
                                 last_review=card.last_review.replace(tzinfo=UTC))
            recall = scheduler.get_card_retrievability(fsrs_card, NOW.replace(tzinfo=UTC))
        overall[0] += 1
        overall[1] += recall
        for tag in item.tags:
            topics[tag][0] += 1
            topics[tag][1] += card is not None and card.reps > 0
            topics[tag][2] += recall

    streak, day = 0, today if per_day.get(today) else today - timedelta(days=1)
    while per_day.get(day):
        streak, day = streak + 1, day - timedelta(days=1)
    return {
        "heatmap": heatmap, "forecast": forecast_list,
        "retention": {label: tuple(counts) for label, counts in retention.items()},
        "intervals": [(label, intervals.get(label, 0)) for label, _, _ in INTERVAL_BUCKETS],
        "states": {kind: {k: v for k, v in counts.items() if v} for kind, counts in states.items()},
        "topics": {tag: tuple(values) for tag, values in sorted(topics.items())},
        "readiness": overall[1] / overall[0] if overall[0] else None,
        "streak": streak, "reviews_total": len(reviews),
        "leeches": sum(1 for card in cards if card.leech),
        "known": by_card,
    }


@pytest.mark.parametrize(("seed", "zone", "rollover"), [
    (1, UTC, 4),
    (2, timezone(timedelta(hours=8)), 4),
    (3, ZoneInfo("America/New_York"), 0),  # DST: some study days last 23 or 25 hours
    (4, timezone(timedelta(hours=-9, minutes=-30)), 23),
    (5, ZoneInfo("America/New_York"), 2),  # the rollover is the hour the clocks skip or repeat
    (6, ZoneInfo("Australia/Lord_Howe"), 4),  # a half-hour DST shift
])
def test_stats_match_a_plain_python_computation(prepared, study, clock, seed, zone, rollover):
    rng = random.Random(seed)
    clock.tz = zone
    study.save_settings(study.settings().model_copy(update={"day_rollover_hour": rollover}))
    settings = study.settings()
    _random_history(prepared.db, rng, zone, rollover)
    expected = _expected(prepared.db, zone, rollover, settings)
    stats = study_stats(prepared.db, clock, settings)

    assert stats.heatmap == expected["heatmap"]
    assert stats.forecast == expected["forecast"]
    assert {b.label: (b.reviews, b.passed) for b in stats.retention} == expected["retention"]
    assert stats.intervals == expected["intervals"]
    assert {kind: {k: v for k, v in row.items() if v} for kind, row in stats.states.items() if any(row.values())} \
        == expected["states"]
    topics = {t.topic: (t.items, t.studied, t.recall_now * t.items) for t in stats.topics}
    assert topics.keys() == expected["topics"].keys()
    for tag, (n, studied, recall_sum) in expected["topics"].items():
        assert topics[tag][:2] == (n, studied), tag
        assert topics[tag][2] == pytest.approx(recall_sum, rel=1e-9, abs=1e-12), tag
    assert stats.readiness_now == pytest.approx(expected["readiness"], rel=1e-9)
    assert (stats.streak, stats.reviews_total, stats.leeches) == (
        expected["streak"], expected["reviews_total"], expected["leeches"])
    assert sum(n for _, n in stats.heatmap) > 100  # the history really lies in the year shown
