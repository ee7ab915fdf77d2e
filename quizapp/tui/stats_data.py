"""Numbers for the Stats screen, computed from the study service's public read methods.

No Textual here and no Session: it runs in a worker and returns a plain `Stats`. (A
dedicated aggregate query in `quizapp.srs` would be faster for very large decks; for a
few hundred items the per-item reads take a few tens of milliseconds.)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import TYPE_CHECKING

from quizapp.srs.clock import from_naive_utc

if TYPE_CHECKING:
    from quizapp.srs.service import StudyService

KINDS = ("qa", "mcq", "skill")
STATE_COLUMNS = ("new", "learning", "review", "relearning", "suspended")
_STATE_NAMES = {1: "learning", 2: "review", 3: "relearning"}


@dataclass(frozen=True)
class Stats:
    days: list[tuple[date, int]]  # oldest first; the last entry is today
    states: dict[str, dict[str, int]]  # kind -> state column -> cards
    retention: float | None  # share of reviews after a gap of a day or more not rated Again
    retention_reviews: int
    reviews_total: int
    leeches: int = 0
    per_kind_reviews: dict[str, int] = field(default_factory=dict)


def collect_stats(service: StudyService, days: int = 14, retention_days: int = 30) -> Stats:
    settings = service.settings()
    hour = settings.day_rollover_hour
    tz = service.clock.local_tz()
    today = service.day_start(None, hour)  # naive UTC start of the current study day
    window_start = today - timedelta(days=retention_days - 1)

    per_day: Counter[int] = Counter()
    states = {kind: dict.fromkeys(STATE_COLUMNS, 0) for kind in KINDS}
    per_kind_reviews: Counter[str] = Counter()
    passed = judged = total = leeches = 0

    summaries = service.search("", limit=1_000_000) + service.search("", kind="skill", limit=1_000_000)
    for summary in summaries:
        detail = service.item_detail(summary.item_id)
        if detail is None or detail.card is None:
            continue
        card = detail.card
        kind = summary.kind if summary.kind in states else "qa"
        if card.suspended:
            states[kind]["suspended"] += 1
        elif card.reps == 0:
            states[kind]["new"] += 1
        else:
            states[kind][_STATE_NAMES.get(card.state, "review")] += 1
        leeches += int(card.leech)
        reviews = sorted(detail.reviews, key=lambda r: (r.reviewed_at, r.review_id))
        total += len(reviews)
        per_kind_reviews[kind] += len(reviews)
        previous = None
        for review in reviews:
            start = service.day_start(review.reviewed_at, hour)
            index = (today - start).days
            if 0 <= index < days:
                per_day[index] += 1
            if previous is not None and review.reviewed_at - previous >= timedelta(days=1) and start >= window_start:
                judged += 1
                passed += int(review.rating > 1)
            previous = review.reviewed_at

    day_list = []
    for index in reversed(range(days)):
        start = today - timedelta(days=index)
        local_day = from_naive_utc(start).astimezone(tz).date()
        day_list.append((local_day, per_day.get(index, 0)))
    return Stats(
        days=day_list,
        states=states,
        retention=(passed / judged) if judged else None,
        retention_reviews=judged,
        reviews_total=total,
        leeches=leeches,
        per_kind_reviews=dict(per_kind_reviews),
    )
