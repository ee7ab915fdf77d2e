"""Study days and Home's counts: what is due now under today's limits, today's answers,
the streak. Plain SQL on a driver cursor (`quizapp.store.cards`, `quizapp.store.reviews`), no SQLAlchemy: the study
service runs these inside its step transactions, and Home's first figures run them before
the models are even imported (`quizapp.srs.home_figures`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from itertools import chain, repeat
from typing import TYPE_CHECKING

from quizapp.srs.clock import Clock, from_naive_utc, to_naive_utc
from quizapp.store import cards, reviews
from quizapp.store.codes import KINDS, LEARNING_STATES, REVIEW_STATE
from quizapp.store.tx import Tx

if TYPE_CHECKING:
    from quizapp.srs.settings_limits import DaySettings

INSTANT = timedelta(microseconds=1)  # "before today's start" as an inclusive bound
# Days asked per statement by the streak in a zone with DST: most runs are short; a long one
# takes a few more.
# (256 days are 512 parameters: under SQLite's oldest limit of 999.)
STREAK_BATCHES = (8, 32, 128, 256)


# Here, not with the other views: Home's first figures import this module before the first
# mode loads, and the views' dataclasses cost as much to import as the counts themselves.
@dataclass(frozen=True)
class DueCounts:
    qa: int  # cards of each kind to study now, new ones included (a session's length)
    mcq: int
    skill: int
    new_left: int  # new Q&A, MCQ and drill-skill cards still allowed today (limits are per kind)
    new_done_today: int
    reviews_done_today: int
    streak: int
    new_qa: int = 0  # of `qa`, `mcq`, `skill`: the new cards (Home shows them as "New left", not due)
    new_mcq: int = 0
    new_skill: int = 0

    def due(self, kind: str) -> int:
        """Cards of `kind` due for review now: new cards are not due, they are new."""
        return {"qa": self.qa - self.new_qa, "mcq": self.mcq - self.new_mcq, "skill": self.skill - self.new_skill}[kind]


class DayCounter:
    """Study days on one clock, and the counts of a day; remembers the streak of the days
    before today (answers land in today, so past days only change by the undo of an answer
    from before today, which calls `forget_streak`, or by an import in another process,
    seen once the next day starts)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._past_streak: tuple[tuple[datetime, int], int] | None = None

    def forget_streak(self, answered_at: datetime | None = None) -> None:
        """An answer was taken out (undo): the remembered days before today change only if
        it was given before today's start (or when that is not known)."""
        if self._past_streak is None:
            return
        today_start = self._past_streak[0][0]
        if answered_at is None or answered_at < today_start:
            self._past_streak = None

    def day_start(self, moment: datetime | None, rollover_hour: int) -> datetime:
        """Start of the study day containing `moment` (default: now), as naive UTC."""
        local = (moment or self.clock.now()).astimezone(self.clock.local_tz())
        start = local.replace(hour=rollover_hour, minute=0, second=0, microsecond=0)
        if local < start:
            start -= timedelta(days=1)
        return to_naive_utc(start)

    def day_window(self, moment: datetime | None, rollover_hour: int) -> tuple[datetime, datetime]:
        """The study day containing `moment`: its start and the next day's start, naive UTC
        (23 or 25 hours apart across a DST change)."""
        start = self.day_start(moment, rollover_hour)
        return start, self.day_start(from_naive_utc(start + timedelta(hours=36)), rollover_hour)

    def today(self, cur: Tx, settings: DaySettings) -> tuple[datetime, dict[str, tuple[int, int]]]:
        """Today's start and, per kind, (new cards introduced, answers of studied cards) today.

        Read from the quarter-hour tallies (review_tallies, kept by triggers in the answer's
        transaction): at most a day's quarters, never today's reviews. The day has an end
        as well as a start: answers stamped in the future (the clock ran ahead, then was put
        right) count on their own day, not on every day until then. Daily limits apply per
        kind, as Anki's apply per deck: finishing today's new Q&A cards must not use up the
        new multiple-choice questions.
        """
        start, end = self.day_window(None, settings.day_rollover_hour)
        return start, reviews.day_tallies(cur, start, end)

    def streak(self, cur: Tx, settings: DaySettings, studied_today: bool) -> int:
        """Consecutive study days ending today (or yesterday), asked of the kept quarter-hour
        tallies (an index probe per day inside a statement, stopping at the first day
        without answers), never read quarter by quarter; the days before today remembered
        until the day changes. (A walk of every quarter read ~80 rows a day of a long run:
        at 100k cards, 28 ms of Home's 75. A statement per day would be a round trip per
        day on PostgreSQL.)"""
        hour = settings.day_rollover_hour
        today = self.day_start(None, hour)
        key = (today, hour)
        if self._past_streak is not None and self._past_streak[0] == key:
            past = self._past_streak[1]
        elif isinstance(self.clock.local_tz(), timezone):
            # A fixed offset (the real clock's zone is the machine's offset now): every
            # study day is 24 hours, counted in one statement.
            past = reviews.days_with_answers_before(cur, today)
            self._past_streak = (key, past)
        else:
            past = self._past_streak_in_zone(cur, today, hour)
            self._past_streak = (key, past)
        return past + 1 if studied_today else past

    def _past_streak_in_zone(self, cur: Tx, today: datetime, hour: int) -> int:
        """The days before today with answers, in a zone whose days may be 23 or 25 hours:
        each day found through the zone, asked in batches of growing size."""
        past, end = 0, today
        for size in chain(STREAK_BATCHES, repeat(STREAK_BATCHES[-1])):
            days = []
            for _ in range(size):
                start = self.day_start(from_naive_utc(end - timedelta(hours=1)), hour)
                days.append((start, end))
                end = start
            gap = reviews.first_day_without_answers(cur, days)
            if gap is not None:
                return past + gap
            past += size
        raise AssertionError("unreachable: the batches never end")

    def kind_due(self, cur: Tx, kind: str, settings: DaySettings, today: tuple[int, int],
                 day_start: datetime, now: datetime) -> tuple[int, int]:
        """(cards of `kind` to study now, of which new) under today's limits.

        As in Anki's v3 scheduler, learning cards due since today's start (intraday) are
        all shown; those left from an earlier day (interday) share the review limit with
        the reviews. Every count is then bounded by today's activity or a daily limit and
        stops reading there, however large a backlog grows.
        """
        new_done, reviews_done = today
        intraday = sum(cards.count_due(cur, kind, state, now, since=day_start) for state in LEARNING_STATES)
        left = max(0, settings.reviews_per_day - reviews_done)
        interday = 0
        for state in LEARNING_STATES:
            interday += cards.count_due(cur, kind, state, day_start - INSTANT, limit=left - interday)
        review_due = cards.count_due(cur, kind, REVIEW_STATE, now, limit=left - interday)
        new = cards.count_new(cur, kind, max(0, settings.new_per_day - new_done))
        return intraday + interday + review_due + new, new

    def due_counts(self, cur: Tx, settings: DaySettings) -> DueCounts:
        """Home's tiles, read in the caller's transaction."""
        now = to_naive_utc(self.clock.now())
        day_start, today = self.today(cur, settings)
        due = {kind: self.kind_due(cur, kind, settings, today.get(kind, (0, 0)), day_start, now) for kind in KINDS}
        return DueCounts(
            qa=due["qa"][0],
            mcq=due["mcq"][0],
            skill=due["skill"][0],
            new_left=due["qa"][1] + due["mcq"][1] + due["skill"][1],
            new_done_today=sum(n for n, _ in today.values()),
            reviews_done_today=sum(r for _, r in today.values()),
            streak=self.streak(cur, settings, any(n or r for n, r in today.values())),
            new_qa=due["qa"][1],
            new_mcq=due["mcq"][1],
            new_skill=due["skill"][1],
        )
