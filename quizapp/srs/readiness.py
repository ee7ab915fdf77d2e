"""Readiness: mean predicted recall of the Q&A and MCQ cards, now and on the interview day.

FSRS retrievability, R = (1 + F·t/S)^D with the scheduler's own decay D and factor F
(`fsrs.Scheduler.get_card_retrievability`), evaluated in SQL over the cards in one
aggregate query (quizapp.store.recall), no SQLAlchemy: Home shows the overall
figure before the models load (`quizapp.srs.home_figures`); the Stats screen adds the
per-topic split (`quizapp.srs.stats`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any

from quizapp.srs.clock import Clock, from_naive_utc, to_naive_utc
from quizapp.store import recall
from quizapp.store.recall import MEMORY_KINDS as MEMORY_KINDS
from quizapp.store.tx import Tx

if TYPE_CHECKING:
    from quizapp.srs.settings_limits import DaySettings



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


def recall_curve(settings: DaySettings) -> tuple[float, float]:
    """(factor F, decay D) of the scheduler's forgetting curve, for the parameters in force."""
    from quizapp.srs.fsrs_parameters import parameters_in_force
    from quizapp.srs.fsrs_parameters import recall_curve as curve_of

    return curve_of(parameters_in_force(settings))


def readiness(cur: Tx, clock: Clock, settings: DaySettings) -> Readiness:
    """Only the overall readiness (one aggregate query over the cards), for Home."""
    days = Days(clock.local_tz(), settings.day_rollover_hour)
    now = to_naive_utc(clock.now())
    today = days.of(now)
    interview = parse_interview_date(settings.interview_date)
    at_interview = days.start(interview) if interview is not None and interview >= today else None
    factor, decay = recall_curve(settings)
    _, overall = recall_by_topic(cur, now, at_interview, factor, decay, topics=False)
    return Readiness(interview, (interview - today).days if interview else None, overall[0], overall[1])


def recall_by_topic(
    cur: Tx, now: datetime, at_interview: datetime | None, factor: float, decay: float,
    topics: bool = True,
) -> tuple[list[TopicReadiness], tuple[float | None, float | None]]:
    """Per topic (with `topics`) and overall: (mean recall now, mean recall on the interview day)."""
    # With `topics`, grouped by the item's tag list, then spread over the tags here.
    groups = recall.recall_sums(cur, now, at_interview or now, factor, decay, by_tags=topics)
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


def card_recalls(cur: Tx, now: datetime, at_interview: datetime | None, factor: float,
                 decay: float) -> list[tuple[float, float]]:
    """Each readiness card's predicted recall now and on the interview day (now without
    one): what `quizapp.srs.calibration.recall_range` turns into a range."""
    return recall.card_recalls(cur, now, at_interview or now, factor, decay)


def _tag_list(tags: Any) -> list[Any]:
    """An item's tags column (JSON text) as a list, as `json_each` walks it."""
    value = json.loads(tags) if isinstance(tags, str) else tags
    if isinstance(value, dict):
        return list(value.values())
    return value if isinstance(value, list) else [] if value is None else [value]
