"""The figures behind "am I ready?": readiness per topic, forecast, heatmap, retention,
intervals, drill accuracy, mock trend and frequent mistakes.

Every figure is one aggregate query (GROUP BY in SQLite), never a loop over items, so the
cost grows with the number of days and topics rather than cards. Predicted recall is
FSRS retrievability, R = (1 + F·t/S)^D with the scheduler's own decay D and factor F
(`fsrs.Scheduler.get_card_retrievability`, evaluated in SQL). Times are stored as naive
UTC; days are study days (local time, starting at the rollover hour), found by grouping
on quarter-hours in SQL and mapping each quarter to its local day here.

The result is plain data (`StudyStats`), used by the Stats screen, Home and
`quizapp stats --json` alike.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

from fsrs import Scheduler, State
from sqlalchemy import text
from sqlalchemy.orm import Session

from quizapp.srs.clock import Clock, from_naive_utc, to_naive_utc
from quizapp.srs.settings import Settings
from quizapp.store.database import Database
from quizapp.store.models import QUARTER_US, TALLY_COLUMNS, quarter_of

HEATMAP_DAYS = 365
FORECAST_DAYS = 30
MISTAKE_LIMIT = 10
MEMORY_KINDS = ("qa", "mcq")  # what readiness measures; drills have their own accuracy
# (label, lowest days, highest days exclusive); a review's interval is the gap since the
# card's previous review. Under a day is a learning step, not a test of memory.
RETENTION_BUCKETS: tuple[tuple[str, int, int | None], ...] = (
    ("1-6d", 1, 7), ("7-20d", 7, 21), ("21-89d", 21, 90), ("90d+", 90, None),
)
INTERVAL_BUCKETS: tuple[tuple[str, int, int | None], ...] = (
    ("<1d", 0, 1), ("1d", 1, 2), ("2-6d", 2, 7), ("1-2w", 7, 14), ("2-4w", 14, 30),
    ("1-3m", 30, 90), ("3-6m", 90, 180), ("6-12m", 180, 365), ("1y+", 365, None),
)
STATE_COLUMNS = ("new", "learning", "review", "relearning", "suspended")
_STATE_NAMES: dict[int, str] = {State.Learning: "learning", State.Review: "review", State.Relearning: "relearning"}
_TIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f"  # how SQLAlchemy stores a naive DateTime in SQLite


@dataclass(frozen=True)
class TopicReadiness:
    topic: str
    items: int  # Q&A and MCQ items with this tag (not suspended, not retired)
    studied: int  # of those, reviewed at least once
    recall_now: float  # mean predicted recall; an item never studied counts as 0
    recall_at_interview: float | None  # the same on the interview date (no more reviews)
    mock_score: float | None  # mean score of this topic's mock answers
    mock_answers: int


@dataclass(frozen=True)
class RetentionBucket:
    label: str
    min_days: int
    max_days: int | None
    reviews: int
    passed: int  # not rated Again

    @property
    def rate(self) -> float | None:
        return self.passed / self.reviews if self.reviews else None


@dataclass(frozen=True)
class SkillAccuracy:
    type: str
    attempts: int
    correct: int  # every cell right
    mean_score: float
    recent_attempts: int  # the last 30 days
    recent_mean_score: float | None


@dataclass(frozen=True)
class MockPoint:
    mock_id: int
    day: date
    score: float


@dataclass(frozen=True)
class FrequentMistake:
    type: str  # the drill type to practise
    mistake: str  # quizapp.engine.mistakes id
    count: int
    last_seen: date


@dataclass(frozen=True)
class StudyStats:
    today: date
    interview_date: date | None
    days_left: int | None  # days until the interview (0 on the day), None without a date
    readiness_now: float | None  # over every Q&A/MCQ item; None when there are none
    readiness_at_interview: float | None
    topics: list[TopicReadiness]
    forecast: list[tuple[date, int]]  # today (overdue included) and the next days
    heatmap: list[tuple[date, int]]  # reviews per study day, oldest first, today last
    retention: list[RetentionBucket]
    intervals: list[tuple[str, int]]
    states: dict[str, dict[str, int]]  # kind -> state column -> cards
    skills: list[SkillAccuracy]
    mock_trend: list[MockPoint]
    mistakes: list[FrequentMistake]
    reviews_total: int = 0
    leeches: int = 0
    streak: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON of `quizapp stats --json` (dates as ISO strings, rates as fractions)."""

        def days(rows: list[tuple[date, int]]) -> list[dict[str, Any]]:
            return [{"date": d.isoformat(), "count": n} for d, n in rows]

        return {
            "today": self.today.isoformat(),
            "interview_date": self.interview_date.isoformat() if self.interview_date else None,
            "days_left": self.days_left,
            "readiness": {
                "now": _round(self.readiness_now),
                "at_interview": _round(self.readiness_at_interview),
                "topics": [
                    {**asdict(t), "recall_now": _round(t.recall_now),
                     "recall_at_interview": _round(t.recall_at_interview), "mock_score": _round(t.mock_score)}
                    for t in self.topics
                ],
            },
            "forecast": days(self.forecast),
            "heatmap": days(self.heatmap),
            "retention": [{**asdict(b), "rate": _round(b.rate)} for b in self.retention],
            "intervals": [{"bucket": label, "count": n} for label, n in self.intervals],
            "states": self.states,
            "drill_skills": [
                {**asdict(s), "mean_score": _round(s.mean_score), "recent_mean_score": _round(s.recent_mean_score)}
                for s in self.skills
            ],
            "mock_trend": [{"mock_id": p.mock_id, "date": p.day.isoformat(), "score": _round(p.score)}
                           for p in self.mock_trend],
            "drill_mistakes": [{**asdict(m), "last_seen": m.last_seen.isoformat()} for m in self.mistakes],
            "reviews_total": self.reviews_total,
            "leeches": self.leeches,
            "streak_days": self.streak,
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def parse_interview_date(value: str | None) -> date | None:
    if not value:
        return None
    return date.fromisoformat(value)


class _Days:
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


# Quarter-hours (every real time-zone offset is a multiple of 15 minutes): a study day is
# a union of whole quarters, so counting per quarter in SQL and summing per day is exact.
# The quarter is a number (quarters since `_EPOCH`): cheaper to group on than strftime text.
_EPOCH = datetime(2000, 1, 1)
_UNIX_EPOCH = datetime(1970, 1, 1)
_QUARTER = "CAST((julianday({col}) - julianday('2000-01-01')) * 96 + 0.0000001 AS INTEGER)"


def _quarter_start(bucket: int) -> datetime:
    return _EPOCH + timedelta(minutes=15 * int(bucket))


def _ensure_pow(session: Session) -> None:
    """SQLite builds without the math functions get `pow` from Python (same result)."""
    try:
        session.execute(text("SELECT pow(2, 0.5)"))
    except Exception:  # OperationalError: no such function
        raw = session.connection().connection.driver_connection
        if raw is not None:
            raw.create_function("pow", 2, math.pow, deterministic=True)


def _fmt(moment: datetime) -> str:
    return moment.strftime(_TIME_FORMAT)


def study_stats(db: Database, clock: Clock, settings: Settings) -> StudyStats:
    """Every figure of the Stats screen, from a handful of aggregate queries."""
    tz = clock.local_tz()
    days = _Days(tz, settings.day_rollover_hour)
    now = to_naive_utc(clock.now())
    today = days.of(now)
    interview = parse_interview_date(settings.interview_date)
    days_left = (interview - today).days if interview is not None else None
    # Recall "on the interview date" is predicted for the start of that study day.
    at_interview = days.start(interview) if interview is not None and interview >= today else None
    scheduler = Scheduler(desired_retention=settings.desired_retention)
    decay = -scheduler.parameters[20]
    factor = 0.9 ** (1 / decay) - 1

    with db.session() as session:
        _ensure_pow(session)
        topics, overall = _readiness(session, now, at_interview, factor, decay)
        mock_by_topic = _mock_scores_by_topic(session)
        topics = [
            TopicReadiness(**{**asdict(t), "mock_score": mock_by_topic.get(t.topic, (None, 0))[0],
                              "mock_answers": mock_by_topic.get(t.topic, (None, 0))[1]})
            for t in topics
        ]
        heatmap_counts = _reviews_per_day(session, days, days.start(today - timedelta(days=HEATMAP_DAYS - 1)))
        forecast_counts = _forecast(session, days, today, now)
        stats = StudyStats(
            today=today,
            interview_date=interview,
            days_left=days_left,
            readiness_now=overall[0],
            readiness_at_interview=overall[1],
            topics=topics,
            forecast=[(today + timedelta(days=i), forecast_counts.get(today + timedelta(days=i), 0))
                      for i in range(FORECAST_DAYS)],
            heatmap=[(d, heatmap_counts.get(d, 0))
                     for d in (today - timedelta(days=i) for i in reversed(range(HEATMAP_DAYS)))],
            retention=_retention(session),
            intervals=_intervals(session),
            states=_states(session),
            skills=_skills(session, now),
            mock_trend=_mock_trend(session, days),
            mistakes=_mistakes(session, days),
            reviews_total=session.execute(text("SELECT count(*) FROM reviews")).scalar_one(),
            leeches=session.execute(text("SELECT count(*) FROM cards WHERE leech")).scalar_one(),
            streak=_streak(heatmap_counts, today),
        )
    return stats


@dataclass(frozen=True)
class Readiness:
    """Home's one-line answer: days to the interview and mean predicted recall."""

    interview_date: date | None
    days_left: int | None
    now: float | None
    at_interview: float | None


def readiness(db: Database, clock: Clock, settings: Settings) -> Readiness:
    """Only the overall readiness (two aggregate queries' worth), for Home."""
    days = _Days(clock.local_tz(), settings.day_rollover_hour)
    now = to_naive_utc(clock.now())
    today = days.of(now)
    interview = parse_interview_date(settings.interview_date)
    at_interview = days.start(interview) if interview is not None and interview >= today else None
    scheduler = Scheduler(desired_retention=settings.desired_retention)
    decay = -scheduler.parameters[20]
    with db.session() as session:
        _ensure_pow(session)
        _, overall = _readiness(session, now, at_interview, 0.9 ** (1 / decay) - 1, decay, topics=False)
    return Readiness(interview, (interview - today).days if interview else None, overall[0], overall[1])


def _recall_sql(moment_param: str) -> str:
    """Predicted recall of one card at `:moment_param`; 0 for a card never studied."""
    elapsed = f"max(0, CAST(julianday(:{moment_param}) - julianday(c.last_review) AS INTEGER))"
    return (
        "CASE WHEN c.reps > 0 AND c.stability > 0 AND c.last_review IS NOT NULL "
        f"THEN pow(1 + :factor * {elapsed} / c.stability, :decay) ELSE 0 END"
    )


def _readiness(
    session: Session, now: datetime, at_interview: datetime | None, factor: float, decay: float,
    topics: bool = True,
) -> tuple[list[TopicReadiness], tuple[float | None, float | None]]:
    then = at_interview or now
    params = {"now": _fmt(now), "then": _fmt(then), "factor": factor, "decay": decay}
    active = (
        f"i.kind IN {MEMORY_KINDS!r} AND i.retired_at IS NULL AND coalesce(c.suspended, 0) = 0"
    )
    rows = [] if not topics else session.execute(
        text(
            f"SELECT j.value, count(*), sum(coalesce(c.reps, 0) > 0), "
            f"sum({_recall_sql('now')}), sum({_recall_sql('then')}) "
            f"FROM items i JOIN json_each(i.tags) j LEFT JOIN cards c ON c.item_id = i.id "
            f"WHERE {active} GROUP BY j.value ORDER BY j.value"
        ),
        params,
    ).all()
    per_topic = [
        TopicReadiness(
            topic=str(topic), items=n, studied=int(studied or 0), recall_now=(now_sum or 0.0) / n,
            recall_at_interview=(then_sum or 0.0) / n if at_interview is not None else None,
            mock_score=None, mock_answers=0,
        )
        for topic, n, studied, now_sum, then_sum in rows
    ]
    n, now_sum, then_sum = session.execute(
        text(
            f"SELECT count(*), sum({_recall_sql('now')}), sum({_recall_sql('then')}) "
            f"FROM items i LEFT JOIN cards c ON c.item_id = i.id WHERE {active}"
        ),
        params,
    ).one()
    if not n:
        return per_topic, (None, None)
    return per_topic, ((now_sum or 0.0) / n, (then_sum or 0.0) / n if at_interview is not None else None)


def _mock_scores_by_topic(session: Session) -> dict[str, tuple[float | None, int]]:
    rows = session.execute(
        text(
            "SELECT j.value, avg(a.score), count(*) FROM mock_answers a "
            "JOIN mock_interviews m ON m.id = a.mock_id JOIN items i ON i.id = a.item_id "
            "JOIN json_each(i.tags) j WHERE m.status = 'completed' AND a.score IS NOT NULL GROUP BY j.value"
        )
    ).all()
    return {str(topic): (float(score), int(n)) for topic, score, n in rows}


def _per_day(
    session: Session, table: str, column: str, days: _Days, start: datetime, end: datetime | None,
    where: str = "1",
) -> Counter[date]:
    bucket = _QUARTER.format(col=column)
    condition = f"{column} >= :start" + (f" AND {column} < :end" if end is not None else "")
    rows = session.execute(
        text(f"SELECT {bucket}, count(*) FROM {table} WHERE {condition} AND {where} GROUP BY 1"),
        {"start": _fmt(start), "end": _fmt(end) if end is not None else None},
    ).all()
    counts: Counter[date] = Counter()
    for quarter, n in rows:
        counts[days.of(_quarter_start(quarter))] += n
    return counts


def _reviews_per_day(session: Session, days: _Days, start: datetime) -> Counter[date]:
    """Answers per study day since `start`, from the quarter-hour tallies (revision 0004):
    a year of them is at most 35,000 rows, however many reviews it holds."""
    rows = session.execute(
        text(f"SELECT quarter, {' + '.join(TALLY_COLUMNS)} FROM review_tallies WHERE quarter >= :start"),
        {"start": quarter_of(start)},
    ).all()
    counts: Counter[date] = Counter()
    for quarter, n in rows:
        counts[days.of(_UNIX_EPOCH + timedelta(microseconds=quarter * QUARTER_US))] += n
    return counts


def _forecast(session: Session, days: _Days, today: date, now: datetime) -> Counter[date]:
    """Cards due per day; everything already due (overdue included) counts on today."""
    active = "reps > 0 AND NOT suspended AND item_id IN (SELECT id FROM items WHERE retired_at IS NULL)"
    tomorrow = days.start(today + timedelta(days=1))
    end = days.start(today + timedelta(days=FORECAST_DAYS))
    counts = _per_day(session, "cards", "due", days, tomorrow, end, active)
    counts[today] += session.execute(
        text(f"SELECT count(*) FROM cards WHERE due < :tomorrow AND {active}"), {"tomorrow": _fmt(tomorrow)}
    ).scalar_one()
    return counts


def _retention(session: Session) -> list[RetentionBucket]:
    """True retention: of the reviews that came a day or more after the card's previous
    review, the share not rated Again, per interval bucket."""
    cases = " ".join(
        f"WHEN gap >= {low}" + (f" AND gap < {high}" if high is not None else "") + f" THEN '{label}'"
        for label, low, high in RETENTION_BUCKETS
    )
    rows = session.execute(
        text(
            "SELECT bucket, count(*), sum(rating > 1) FROM ("
            f"  SELECT CASE {cases} END AS bucket, rating FROM ("
            # reviewed_at: integer microseconds since 1970 (revision 0004)
            "    SELECT rating, (reviewed_at - lag(reviewed_at) OVER "
            "      (PARTITION BY card_id ORDER BY reviewed_at, id)) / 86400000000.0 AS gap FROM reviews"
            "  )"
            ") WHERE bucket IS NOT NULL GROUP BY bucket"
        )
    ).all()
    found = {label: (int(n), int(passed or 0)) for label, n, passed in rows}
    return [
        RetentionBucket(label, low, high, *found.get(label, (0, 0))) for label, low, high in RETENTION_BUCKETS
    ]


def _intervals(session: Session) -> list[tuple[str, int]]:
    """Current intervals (due − last review) of the cards in review."""
    cases = " ".join(
        f"WHEN ivl >= {low}" + (f" AND ivl < {high}" if high is not None else "") + f" THEN '{label}'"
        for label, low, high in INTERVAL_BUCKETS
    )
    rows = session.execute(
        text(
            f"SELECT CASE {cases} END, count(*) FROM ("
            "  SELECT julianday(due) - julianday(last_review) AS ivl FROM cards"
            "  WHERE state = 2 AND NOT suspended AND last_review IS NOT NULL"
            ") GROUP BY 1"
        )
    ).all()
    found = {label: int(n) for label, n in rows}
    return [(label, found.get(label, 0)) for label, _, _ in INTERVAL_BUCKETS]


def _states(session: Session) -> dict[str, dict[str, int]]:
    rows = session.execute(
        text(
            "SELECT i.kind, CASE WHEN c.suspended THEN 'suspended' WHEN c.reps = 0 THEN 'new' "
            "ELSE c.state END, count(*) FROM cards c JOIN items i ON i.id = c.item_id "
            "WHERE i.retired_at IS NULL GROUP BY 1, 2"
        )
    ).all()
    states = {kind: dict.fromkeys(STATE_COLUMNS, 0) for kind in ("qa", "mcq", "skill")}
    for kind, state, n in rows:
        column = state if isinstance(state, str) and not state.isdigit() else _STATE_NAMES.get(int(state), "review")
        states.setdefault(kind, dict.fromkeys(STATE_COLUMNS, 0))[column] += n
    return states


def _skills(session: Session, now: datetime) -> list[SkillAccuracy]:
    rows = session.execute(
        text(
            "SELECT type, count(*), sum(score >= 0.9999), avg(score), "
            "sum(created_at >= :recent), avg(CASE WHEN created_at >= :recent THEN score END) "
            "FROM drill_attempts GROUP BY type ORDER BY type"
        ),
        {"recent": _fmt(now - timedelta(days=30))},
    ).all()
    return [
        SkillAccuracy(str(t), int(n), int(ok or 0), float(mean), int(recent or 0),
                      float(recent_mean) if recent_mean is not None else None)
        for t, n, ok, mean, recent, recent_mean in rows
    ]


def _mock_trend(session: Session, days: _Days) -> list[MockPoint]:
    rows = session.execute(
        text(
            "SELECT id, finished_at, score FROM mock_interviews "
            "WHERE status = 'completed' AND score IS NOT NULL AND finished_at IS NOT NULL "
            "ORDER BY finished_at, id"
        )
    ).all()
    return [MockPoint(int(i), days.of(_parse(finished)), float(score)) for i, finished, score in rows]


def _mistakes(session: Session, days: _Days) -> list[FrequentMistake]:
    rows = session.execute(
        text(
            "SELECT d.type, json_extract(m.value, '$.mistake') AS mistake, count(*), max(d.created_at) "
            "FROM drill_attempts d JOIN json_each(d.diagnosis) m "
            "WHERE mistake IS NOT NULL GROUP BY 1, 2 ORDER BY 3 DESC, 4 DESC LIMIT :limit"
        ),
        {"limit": MISTAKE_LIMIT},
    ).all()
    return [FrequentMistake(str(t), str(m), int(n), days.of(_parse(last))) for t, m, n, last in rows]


def _parse(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def _streak(per_day: Counter[date], today: date) -> int:
    """Consecutive study days with a review, ending today (or yesterday, if today has none yet)."""
    day = today if per_day.get(today) else today - timedelta(days=1)
    streak = 0
    while per_day.get(day):
        streak += 1
        day -= timedelta(days=1)
    return streak
