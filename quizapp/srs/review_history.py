"""A collection's reviews as FSRS sees them: per card, ratings on study days.

FSRS (fsrs-rs, which `fsrs-rs-python` wraps) counts time in whole days: each review
carries `delta_t`, the study days since the card's previous review (0 for the first
review and for every further review on the same study day). Same-day reviews stay in a
card's history, where FSRS-6 uses them for its short-term stability (w17–w19), but a
review is a *training target* only when it falls on a later study day than the one before
it: only such a review tests long-term memory, and fsrs-rs refuses (or crashes on) an
item whose history holds no later-day review. This is how Anki builds its training set
(`rslib/src/scheduler/fsrs/params.rs`) and what fsrs-rs-python's `train_csv.py` example does.

Study days are the app's (local time, starting at the rollover hour), as for every other
figure.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from fsrs_rs_python import FSRSItem, FSRSReview

from quizapp.srs.readiness import Days

_EPOCH = datetime(1970, 1, 1)
_HOUR_US = 3_600_000_000


@dataclass(frozen=True)
class CardHistory:
    """One card's reviews, oldest first: (rating, delta_t in study days) and when."""

    card_id: int
    ratings: list[int]
    delta_t: list[int]
    reviewed_at: list[int]  # µs since 1970, UTC (as stored)

    def targets(self) -> Iterator[int]:
        """Indexes of the reviews FSRS trains on: on a later study day than the previous one."""
        return (index for index, gap in enumerate(self.delta_t) if gap > 0)


@dataclass(frozen=True)
class TrainingSet:
    """FSRS items (one per target review, with the card's history up to it), oldest target
    first (fsrs-rs weighs recent reviews more, by their order), and their cards."""

    items: list[FSRSItem]
    card_ids: list[int]
    cards: int  # cards with at least one target review
    reviews: int  # every review read, same-day ones included

    @property
    def usable(self) -> int:
        return len(self.items)


def read_rows(cur: sqlite3.Cursor) -> Iterator[tuple[int, int, int]]:
    """(card_id, reviewed_at in µs since 1970 UTC, rating) of every review, by card then
    time: one walk of ix_reviews_card_time."""
    yield from cur.execute("SELECT card_id, reviewed_at, rating FROM reviews ORDER BY card_id, reviewed_at, id")


def histories(rows: Iterable[tuple[int, int, int]], days: Days) -> list[CardHistory]:
    """Per card (rows in card, time order), its reviews with their study-day gaps."""
    found: list[CardHistory] = []
    current: CardHistory | None = None
    last_day = 0
    # A day's start in UTC repeats for every review of that day: map each UTC hour once.
    day_of_hour: dict[int, int] = {}
    for card_id, micros, rating in rows:
        day = day_of_hour.get(micros // _HOUR_US) or _study_day(days, micros, day_of_hour)
        if current is None or current.card_id != card_id:
            current = CardHistory(card_id, [], [], [])
            found.append(current)
            gap = 0
        else:
            gap = max(0, day - last_day)
        current.ratings.append(int(rating))
        current.delta_t.append(gap)
        current.reviewed_at.append(micros)
        last_day = day
    return found


def _study_day(days: Days, micros: int, cache: dict[int, int]) -> int:
    """The study day (as an ordinal) of a moment. A day starts on a whole local hour, so all
    of one UTC hour is on one study day unless the zone's offset has a half or quarter hour
    (or changes inside it): such hours are mapped moment by moment, the others once."""
    hour = micros // _HOUR_US
    start = _EPOCH + timedelta(hours=hour)
    first, last = days.of(start), days.of(start + timedelta(microseconds=_HOUR_US - 1))
    if first != last:
        return days.of(_EPOCH + timedelta(microseconds=micros)).toordinal()
    cache[hour] = first.toordinal()
    return cache[hour]


def training_set(cards: list[CardHistory]) -> TrainingSet:
    """One FSRS item per later-day review, oldest first."""
    targets: list[tuple[int, int, FSRSItem]] = []
    reviews = 0
    with_targets = 0
    for card in cards:
        reviews += len(card.ratings)
        steps = [FSRSReview(rating, gap) for rating, gap in zip(card.ratings, card.delta_t)]
        found = False
        for index in card.targets():
            targets.append((card.reviewed_at[index], card.card_id, FSRSItem(steps[: index + 1])))
            found = True
        with_targets += found
    targets.sort(key=lambda target: (target[0], target[1]))
    return TrainingSet([item for _, _, item in targets], [card_id for _, card_id, _ in targets], with_targets,
                       reviews)
