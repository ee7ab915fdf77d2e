"""Readiness: mean predicted recall of the Q&A and MCQ cards, now and on the interview day.

FSRS retrievability, R = (1 + F·t/S)^D with the scheduler's own decay D and factor F
(`fsrs.Scheduler.get_card_retrievability`), evaluated in SQL over the cards in one
aggregate query. Plain sqlite3 on a driver cursor, no SQLAlchemy: Home shows the overall
figure before the models load (`quizapp.srs.home_figures`); the Stats screen adds the
per-topic split (`quizapp.srs.stats`).
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any

from quizapp.srs.clock import Clock, from_naive_utc, to_naive_utc

if TYPE_CHECKING:
    from quizapp.srs.settings_limits import DaySettings

MEMORY_KINDS = ("qa", "mcq")  # what readiness measures; drills have their own accuracy
_TIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f"  # how SQLAlchemy stores a naive DateTime in SQLite


@dataclass(frozen=True)
class Readiness:
    """Home's one-line answer: days to the interview and mean predicted recall."""

    interview_date: date | None
    days_left: int | None
    now: float | None
    at_interview: float | None


@dataclass(frozen=True)
class TopicReadiness:
    topic: str
    items: int  # Q&A and MCQ items with this tag (not suspended, not retired)
    studied: int  # of those, reviewed at least once
    recall_now: float  # mean predicted recall; an item never studied counts as 0
    recall_at_interview: float | None  # the same on the interview date (no more reviews)
    mock_score: float | None  # mean over completed mocks, as their reports score it (mock_topics)
    mock_answers: int


def parse_interview_date(value: str | None) -> date | None:
    if not value:
        return None
    return date.fromisoformat(value)


class Days:
    """Study days: local dates whose day starts at the rollover hour."""

    def __init__(self, tz: tzinfo, rollover_hour: int) -> None:
        self.tz = tz
        self.rollover = timedelta(hours=rollover_hour)

    def of(self, naive_utc: datetime) -> date:
        return (from_naive_utc(naive_utc).astimezone(self.tz) - self.rollover).date()

    def start(self, day: date) -> datetime:
        """Naive UTC start of a study day."""
        local = datetime(day.year, day.month, day.day, tzinfo=self.tz) + self.rollover
        # A fixed-offset or zoneinfo tz: normalise through UTC so DST is respected.
        return to_naive_utc(local.astimezone(self.tz))


def ensure_pow(connection: sqlite3.Connection) -> None:
    """SQLite builds without the math functions get `pow` from Python (same result)."""
    try:
        connection.execute("SELECT pow(2, 0.5)")
    except sqlite3.OperationalError:  # no such function
        connection.create_function("pow", 2, math.pow, deterministic=True)


def recall_curve(settings: DaySettings) -> tuple[float, float]:
    """(factor F, decay D) of the scheduler's forgetting curve, for the parameters in force."""
    from quizapp.srs.fsrs_parameters import parameters_in_force
    from quizapp.srs.fsrs_parameters import recall_curve as curve_of

    return curve_of(parameters_in_force(settings))


def readiness(cur: sqlite3.Cursor, clock: Clock, settings: DaySettings) -> Readiness:
    """Only the overall readiness (one aggregate query over the cards), for Home."""
    days = Days(clock.local_tz(), settings.day_rollover_hour)
    now = to_naive_utc(clock.now())
    today = days.of(now)
    interview = parse_interview_date(settings.interview_date)
    at_interview = days.start(interview) if interview is not None and interview >= today else None
    factor, decay = recall_curve(settings)
    ensure_pow(cur.connection)
    _, overall = recall_by_topic(cur, now, at_interview, factor, decay, topics=False)
    return Readiness(interview, (interview - today).days if interview else None, overall[0], overall[1])


def _recall_sql(moment_param: str) -> str:
    """Predicted recall of one card at `:moment_param`; 0 for a card never studied."""
    elapsed = f"max(0, CAST(julianday(:{moment_param}) - julianday(c.last_review) AS INTEGER))"
    return (
        "CASE WHEN c.reps > 0 AND c.stability > 0 AND c.last_review IS NOT NULL "
        f"THEN pow(1 + :factor * {elapsed} / c.stability, :decay) ELSE 0 END"
    )


# What readiness measures: Q&A and MCQ cards that can be shown. Every item has its card
# (the content sync inserts both in one transaction), and cards carry copies of the item's
# kind and retired flag (revision 0004), so the filter never reads an item's row.
_MEMORY_CARDS = f"c.kind IN {MEMORY_KINDS!r} AND c.retired = 0 AND c.suspended = 0"


def recall_by_topic(
    cur: sqlite3.Cursor, now: datetime, at_interview: datetime | None, factor: float, decay: float,
    topics: bool = True,
) -> tuple[list[TopicReadiness], tuple[float | None, float | None]]:
    """Per topic (with `topics`) and overall: (mean recall now, mean recall on the interview day)."""
    then = at_interview or now
    params = {"now": now.strftime(_TIME_FORMAT), "then": then.strftime(_TIME_FORMAT), "factor": factor,
              "decay": decay}
    sums = f"count(*), sum(c.reps > 0), sum({_recall_sql('now')}), sum({_recall_sql('then')})"
    groups: Sequence[Any]
    if not topics:
        groups = [("[]", *cur.execute(f"SELECT {sums} FROM cards c WHERE {_MEMORY_CARDS}", params).fetchone())]
    else:
        # Grouped by the item's tag list (a deck has few distinct ones), then spread over
        # the tags here: one pass over the cards instead of one per tag.
        # CROSS JOIN keeps this order: the items' tags from ix_items_tags (never the item's
        # row), then each item's card.
        groups = cur.execute(
            f"SELECT i.tags, {sums} FROM items i CROSS JOIN cards c ON c.item_id = i.id "
            f"WHERE {_MEMORY_CARDS} GROUP BY i.tags",
            params,
        ).fetchall()
    per_tag: dict[str, list[float]] = {}
    total = [0, 0.0, 0.0]
    for tags, n, studied, now_sum, then_sum in groups:
        if not n:
            continue
        figures = (n, int(studied or 0), now_sum or 0.0, then_sum or 0.0)
        total = [total[0] + n, total[1] + figures[2], total[2] + figures[3]]
        for tag in _tag_list(tags):
            sums_of_tag = per_tag.setdefault(str(tag), [0, 0, 0.0, 0.0])
            for index, value in enumerate(figures):
                sums_of_tag[index] += value
    per_topic = [
        TopicReadiness(
            topic=tag, items=int(n), studied=int(studied), recall_now=now_sum / n,
            recall_at_interview=then_sum / n if at_interview is not None else None,
            mock_score=None, mock_answers=0,
        )
        for tag, (n, studied, now_sum, then_sum) in sorted(per_tag.items())
    ]
    n = int(total[0])
    if not n:
        return per_topic, (None, None)
    return per_topic, (total[1] / n, total[2] / n if at_interview is not None else None)


def card_recalls(cur: sqlite3.Cursor, now: datetime, at_interview: datetime | None, factor: float,
                 decay: float) -> list[tuple[float, float]]:
    """Each readiness card's predicted recall now and on the interview day (now without
    one): what `quizapp.srs.calibration.recall_range` turns into a range."""
    then = at_interview or now
    params = {"now": now.strftime(_TIME_FORMAT), "then": then.strftime(_TIME_FORMAT), "factor": factor,
              "decay": decay}
    return cur.execute(f"SELECT {_recall_sql('now')}, {_recall_sql('then')} FROM cards c WHERE {_MEMORY_CARDS}",
                       params).fetchall()


def _tag_list(tags: Any) -> list[Any]:
    """An item's tags column (JSON text) as a list, as `json_each` walks it."""
    value = json.loads(tags) if isinstance(tags, str) else tags
    if isinstance(value, dict):
        return list(value.values())
    return value if isinstance(value, list) else [] if value is None else [value]
