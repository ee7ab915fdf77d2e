"""The figures behind "am I ready?": readiness per topic, forecast, heatmap, retention,
intervals, drill accuracy, mock trend and frequent mistakes.

Every figure is an aggregate query, never a loop over items or reviews, so the cost grows
with the number of days, topics and cards, never with the history: the heatmap sums the
quarter-hour tallies (review_tallies) and retention reads the answers per day of gap
(review_gaps), both kept by triggers. Predicted recall is FSRS retrievability,
R = (1 + F·t/S)^D with the scheduler's own decay D and factor F
(`fsrs.Scheduler.get_card_retrievability`, evaluated in SQL). Times are stored as naive
UTC; days are study days (local time, starting at the rollover hour): each day is a span
of UTC time counted as one index range, and a day with a clock change in it is mapped
moment by moment (`_windows`).

The result is plain data (`StudyStats`), used by the Stats screen, Home and
`quizapp stats --json` alike.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from fsrs import State

from quizapp.srs.clock import Clock, from_naive_utc, to_naive_utc
from quizapp.srs.counts import DayCounter
from quizapp.srs.fsrs_parameters import FitStatus
from quizapp.srs.mock_topics import completed_topic_scores
from quizapp.srs.readiness import Days as _Days
from quizapp.srs.readiness import Readiness as Readiness  # re-exported: Home's figure
from quizapp.srs.readiness import TopicReadiness, parse_interview_date, recall_by_topic, recall_curve
from quizapp.srs.settings import Settings
from quizapp.store import stats_queries
from quizapp.store.codes import QUARTER_US, quarter_of
from quizapp.store.database import Database
from quizapp.store.tx import Tx

if TYPE_CHECKING:
    from quizapp.srs.calibration import Calibration

HEATMAP_DAYS = 365
FORECAST_DAYS = 30
MISTAKE_LIMIT = 10
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
    cram_reviews: int = 0  # cram answers, which left the schedule as it was (quizapp.srs.cram)
    leeches: int = 0
    streak: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    # Calibration of the parameters in force on the past reviews, and readiness as a range
    # (low, high) from it; `readiness_is_range` when the range is wider than POINT_WIDTH.
    calibration: Calibration | None = None
    readiness_range_now: tuple[float, float] | None = None
    readiness_range_at_interview: tuple[float, float] | None = None
    # The schedule's fit: when, on how many usable reviews, how many there are now.
    fit: FitStatus | None = None

    @property
    def readiness_is_range(self) -> bool:
        span = self.readiness_range_now
        if span is None:
            return False
        from quizapp.srs.calibration import POINT_WIDTH  # loaded already: the range came from it

        return span[1] - span[0] >= POINT_WIDTH

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
                "range_now": _span(self.readiness_range_now),
                "range_at_interview": _span(self.readiness_range_at_interview),
                "is_range": self.readiness_is_range,
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
            "cram_reviews": self.cram_reviews,
            "leeches": self.leeches,
            "streak_days": self.streak,
            "calibration": None if self.calibration is None else self.calibration.to_json(),
            "fit": None if self.fit is None else self.fit.to_json(),
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _span(span: tuple[float, float] | None) -> list[float] | None:
    return None if span is None else [round(span[0], 4), round(span[1], 4)]


_UNIX_EPOCH = datetime(1970, 1, 1)


@dataclass(frozen=True)
class _Window:
    """One study day as a span of naive-UTC time [start, end)."""

    day: date
    start: datetime
    end: datetime
    plain: bool  # every moment of the span is on `day` (no clock change inside it)


def _windows(days: _Days, first: date, count: int) -> list[_Window]:
    """`count` consecutive study days from `first`, as contiguous spans of time.

    A plain span is counted as one range of an index. A day with a clock change in it (or
    a rollover that falls into a skipped hour) is not plain: its moments are mapped one
    quarter-hour or one row at a time with `_Days.of`, so the result is always exactly
    "the study day each moment falls on".
    """
    windows = []
    start = days.start(first)
    for index in range(count):
        day = first + timedelta(days=index)
        end = days.start(day + timedelta(days=1))
        last = end - timedelta(microseconds=1)
        plain = (
            start < end and days.of(start) == day and days.of(last) == day
            and from_naive_utc(start).astimezone(days.tz).utcoffset()
            == from_naive_utc(last).astimezone(days.tz).utcoffset()
        )
        windows.append(_Window(day, start, end, plain))
        start = end
    if any(w.end <= w.start for w in windows):  # a day that ends before it starts: map it all
        windows = [_Window(w.day, w.start, w.end, False) for w in windows]
    return windows


def _spans(windows: list[_Window]) -> list[tuple[datetime, datetime]]:
    """The time the non-plain windows cover, as few [start, end) spans, never outside the
    first window's start and the last one's end (what the caller counts)."""
    spans: list[tuple[datetime, datetime]] = []
    first, last = (windows[0].start, windows[-1].end) if windows else (datetime.min, datetime.min)
    for w in windows:
        if w.plain:
            continue
        low, high = max(min(w.start, w.end), first), min(max(w.start, w.end), last)
        if low >= high:
            continue
        if spans and spans[-1][1] >= low:
            spans[-1] = (spans[-1][0], max(spans[-1][1], high))
        else:
            spans.append((low, high))
    return spans


def study_stats(db: Database, clock: Clock, settings: Settings, calibration: bool = True) -> StudyStats:
    """Every figure of the Stats screen, from a handful of aggregate queries (and, with
    `calibration`, `with_calibration`'s replay of the history)."""
    tz = clock.local_tz()
    days = _Days(tz, settings.day_rollover_hour)
    now = to_naive_utc(clock.now())
    today = days.of(now)
    interview = parse_interview_date(settings.interview_date)
    days_left = (interview - today).days if interview is not None else None
    # Recall "on the interview date" is predicted for the start of that study day.
    at_interview = days.start(interview) if interview is not None and interview >= today else None
    factor, decay = recall_curve(settings)

    with db.transaction() as cur:
        topics, overall = recall_by_topic(cur, now, at_interview, factor, decay)
        mock_by_topic: dict[str, tuple[float | None, int]] = dict(completed_topic_scores(cur))
        topics = [
            TopicReadiness(**{**asdict(t), "mock_score": mock_by_topic.get(t.topic, (None, 0))[0],
                              "mock_answers": mock_by_topic.get(t.topic, (None, 0))[1]})
            for t in topics
        ]
        heatmap_counts = _reviews_per_day(cur, days, today)
        forecast_counts = _forecast(cur, days, today)
        totals = stats_queries.totals(cur)
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
            retention=_retention(cur),
            intervals=_intervals(cur),
            states=_states(cur),
            skills=_skills(cur, now),
            mock_trend=_mock_trend(cur, days),
            mistakes=_mistakes(cur, days),
            # Cram answers are counted apart (mode 4, quizapp.srs.cram).
            reviews_total=totals[0],
            cram_reviews=totals[1],
            leeches=totals[2],
            # Home's own count (it is not bounded by the heatmap's year: a 500-day streak
            # is 500 here too).
            streak=DayCounter(clock).streak(cur, settings, bool(heatmap_counts.get(today))),
        )
    return with_calibration(stats, db, clock, settings) if calibration else stats


def with_calibration(stats: StudyStats, db: Database, clock: Clock, settings: Settings) -> StudyStats:
    """`stats` with calibration, the readiness range and the fit's status added.

    Unlike the other figures this reads every review (each card's history is replayed with
    the parameters in force), so its cost grows with the history: the Stats screen draws
    the rest first and adds this when it is ready."""
    # Imported here, not with the module: calibration brings the optimizer's Rust library
    # (fsrs_rs_python), which the first figures do not need (+40 ms to their first showing).
    from quizapp.srs.calibration import readiness_range

    with db.transaction() as cur:
        found = readiness_range(cur, clock, settings)
    return replace(
        stats,
        calibration=found.calibration,
        readiness_range_now=found.now,
        readiness_range_at_interview=found.at_interview,
        fit=FitStatus(settings.fsrs_fitted_on, settings.fsrs_fit_reviews, found.calibration.reviews),
    )


def _reviews_per_day(tx: Tx, days: _Days, today: date) -> Counter[date]:
    """Answers per study day over the heatmap's year, from the quarter-hour tallies
    (revision 0004), whatever the number of reviews: one GROUP BY per run of days of the
    same length (a clock change starts another run; its own day is mapped moment by moment)."""
    windows = _windows(days, today - timedelta(days=HEATMAP_DAYS - 1), HEATMAP_DAYS)
    runs: list[tuple[int, int, list[date]]] = []  # (first quarter, quarters per day, the days)
    for w in windows:
        if not w.plain:
            continue
        low, high = quarter_of(w.start), quarter_of(w.end)
        if runs and runs[-1][1] == high - low and runs[-1][0] + runs[-1][1] * len(runs[-1][2]) == low:
            runs[-1][2].append(w.day)
        elif high > low:
            runs.append((low, high - low, [w.day]))
    counts: Counter[date] = Counter()
    for low, length, run_days in runs:
        for block, n in stats_queries.answers_per_block(tx, low, length, len(run_days)):
            counts[run_days[int(block)]] += int(n)
    for start, end in _spans(windows):
        for quarter, n in stats_queries.answers_per_quarter(tx, quarter_of(start), quarter_of(end)):
            counts[days.of(_UNIX_EPOCH + timedelta(microseconds=quarter * QUARTER_US))] += n
    return counts


def _forecast(tx: Tx, days: _Days, today: date) -> Counter[date]:
    """Cards due per day; everything already due (overdue included) counts on today."""
    windows = _windows(days, today + timedelta(days=1), FORECAST_DAYS - 1)
    counts: Counter[date] = Counter()
    counts[today] += stats_queries.due_before(tx, windows[0].start if windows else days.start(today + timedelta(days=1)))
    plain = [w for w in windows if w.plain]
    for index, n in stats_queries.due_in_ranges(tx, [(w.start, w.end) for w in plain]):
        counts[plain[index].day] += n
    for start, end in _spans(windows):
        for due in stats_queries.due_times(tx, start, end):
            counts[days.of(due)] += 1
    return counts


def _retention(tx: Tx) -> list[RetentionBucket]:
    """True retention: of the answers given a day or more after the card's previous answer,
    the share not rated Again, per interval bucket. The database keeps the answers per
    whole day of gap (review_gaps, revision 0005), so this reads a few hundred rows."""
    found = {label: [0, 0] for label, _, _ in RETENTION_BUCKETS}
    for day, answers, passed in stats_queries.review_gaps(tx):
        for label, low, high in RETENTION_BUCKETS:
            if day >= low and (high is None or day < high):
                found[label][0] += answers
                found[label][1] += passed
                break
    return [RetentionBucket(label, low, high, *found[label]) for label, low, high in RETENTION_BUCKETS]


def _intervals(tx: Tx) -> list[tuple[str, int]]:
    """Current intervals (due − last review) of the cards in review."""
    found = {label: int(n) for label, n in stats_queries.interval_counts(tx, INTERVAL_BUCKETS)}
    return [(label, found.get(label, 0)) for label, _, _ in INTERVAL_BUCKETS]


def _states(tx: Tx) -> dict[str, dict[str, int]]:
    states = {kind: dict.fromkeys(STATE_COLUMNS, 0) for kind in ("qa", "mcq", "skill")}
    for kind, state, n in stats_queries.state_counts(tx):
        column = state if isinstance(state, str) and not state.isdigit() else _STATE_NAMES.get(int(state), "review")
        states.setdefault(kind, dict.fromkeys(STATE_COLUMNS, 0))[column] += n
    return states


def _skills(tx: Tx, now: datetime) -> list[SkillAccuracy]:
    return [
        SkillAccuracy(str(t), int(n), int(ok or 0), float(mean), int(recent or 0),
                      float(recent_mean) if recent_mean is not None else None)
        for t, n, ok, mean, recent, recent_mean in stats_queries.skill_rows(tx, now - timedelta(days=30))
    ]


def _mock_trend(tx: Tx, days: _Days) -> list[MockPoint]:
    return [MockPoint(i, days.of(finished), score) for i, finished, score in stats_queries.completed_mocks(tx)]


def _mistakes(tx: Tx, days: _Days) -> list[FrequentMistake]:
    return [FrequentMistake(t, m, n, days.of(last)) for t, m, n, last in stats_queries.frequent_mistakes(tx, MISTAKE_LIMIT)]

