"""A collection's reviews as FSRS sees them: per card, ratings and whole days between them.

FSRS counts time in whole days: each review carries `delta_t`, the days since the card's
previous review (0 for the first review and for a review on the "same day"). quizapp
schedules with the `fsrs` package, whose scheduler counts those days as whole 24-hour
periods since the last review (`(now - last_review).days`): a review less than 24 hours
after the previous one is a same-day review, updated with FSRS-6's short-term formula
(w17–w19). The training set counts them the same way, so the fitted parameters mean what
the scheduler will do with them. (Anki counts study days instead, the same idea on its own
day boundaries.)

Same-day reviews stay in a card's history, where they move its short-term stability, but a
review is a *training target* only when a day or more has passed since the one before it:
only such a review tests long-term memory, and fsrs-rs refuses (or crashes on) an item
whose history holds no such review. This is how Anki builds its training set
(`rslib/src/scheduler/fsrs/params.rs`) and what fsrs-rs-python's `train_csv.py` example does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from fsrs_rs_python import FSRSItem, FSRSReview

_DAY_US = 86_400_000_000


@dataclass(frozen=True)
class CardHistory:
    """One card's reviews, oldest first: rating, delta_t in whole days, and when."""

    card_id: int
    ratings: list[int]
    delta_t: list[int]
    reviewed_at: list[int]  # µs since 1970, UTC (as stored)

    def targets(self) -> Iterator[int]:
        """Indexes of the reviews FSRS trains on: a day or more after the previous one."""
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


class Stopped(Exception):
    """A replay of the history given up because its caller no longer wants it (`stop()`)."""


STOP_EVERY = 1024  # cards between two asks of `stop`: a fraction of a millisecond each


def histories(rows: Iterable[tuple[int, int, int]], stop: Callable[[], bool] | None = None) -> list[CardHistory]:
    """Per card (rows in card, time order), its reviews with their whole-day gaps. Raises
    `Stopped` as soon as `stop()` says so (asked every `STOP_EVERY` cards)."""
    found: list[CardHistory] = []
    current: CardHistory | None = None
    last = 0
    for card_id, micros, rating in rows:
        if current is None or current.card_id != card_id:
            if stop is not None and not len(found) % STOP_EVERY and stop():
                raise Stopped
            current = CardHistory(card_id, [], [], [])
            found.append(current)
            gap = 0
        else:
            gap = max(0, micros - last) // _DAY_US
        current.ratings.append(int(rating))
        current.delta_t.append(gap)
        current.reviewed_at.append(micros)
        last = micros
    return found


def training_set(cards: list[CardHistory]) -> TrainingSet:
    """One FSRS item per review a day or more after the one before it, oldest first."""
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
