"""A simulated learner whose memory follows known FSRS parameters (tests and benchmarks).

The schedule is the app's (the `fsrs` scheduler with its default parameters, as quizapp
starts); the learner's memory is a second `fsrs` card under the *true* parameters, and
whether a review is recalled is drawn from that card's retrievability with a seeded random
generator. Reviews are taken a random factor earlier or later than scheduled (people do
not study exactly on the due day), so the predicted recall of past reviews spreads over
the whole range — what a calibration view needs.

Everything is deterministic for a given seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, Scheduler

# The defaults moved towards a learner who forgets faster at first, remembers longer once
# a card is known, and whose forgetting curve is flatter (w20): what a fit must find.
TRUE_PARAMETERS: tuple[float, ...] = (
    0.6, 2.2, 4.5, 12.0, 6.4133, 0.8334, 3.0194, 0.001, 1.6, 0.1, 1.0, 1.4835, 0.0614, 0.2629,
    1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.35,
)
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class SimulatedReview:
    card_id: int
    reviewed_at: datetime  # UTC
    rating: int
    recall_probability: float  # the true retrievability at the moment of review


def simulate(
    cards: int,
    reviews: int,
    seed: int = 7,
    true_parameters: Sequence[float] = TRUE_PARAMETERS,
    same_day_steps: bool = True,
    start: datetime = START,
) -> list[SimulatedReview]:
    """About `reviews` reviews over `cards` cards (each card reviewed in turn), oldest first
    per card. With `same_day_steps`, new and lapsed cards go through the app's learning
    steps (1 and 10 minutes), as in quizapp."""
    rng = random.Random(seed)
    steps = (timedelta(minutes=1), timedelta(minutes=10)) if same_day_steps else ()
    relearn = (timedelta(minutes=10),) if same_day_steps else ()
    app = Scheduler(learning_steps=steps, relearning_steps=relearn, enable_fuzzing=False)
    truth = Scheduler(parameters=true_parameters, learning_steps=steps, relearning_steps=relearn,
                      enable_fuzzing=False)
    per_card = max(1, reviews // max(1, cards))
    out: list[SimulatedReview] = []
    for card_id in range(1, cards + 1):
        scheduled = Card(card_id=card_id)
        memory = Card(card_id=card_id)
        # New cards are introduced over the first 60 days, at a time of day that varies.
        now = start + timedelta(days=rng.randrange(60), minutes=rng.randrange(600))
        for _ in range(per_card):
            if memory.last_review is None:  # a first sight: how well it went, not a recall
                probability = 1.0
                rating = rng.choices(tuple(Rating), (0.2, 0.1, 0.6, 0.1))[0]
            elif rng.random() >= (probability := truth.get_card_retrievability(memory, now)):
                rating = Rating.Again
            else:
                rating = rng.choices((Rating.Hard, Rating.Good, Rating.Easy), (0.15, 0.75, 0.10))[0]
            out.append(SimulatedReview(card_id, now, int(rating), probability))
            scheduled, _ = app.review_card(scheduled, rating, review_datetime=now)
            memory, _ = truth.review_card(memory, rating, review_datetime=now)
            gap = scheduled.due - now
            if gap >= timedelta(days=1):
                # Early or late by a factor between 1/3 and 3, in whole days at the same time of
                # day: whole 24-hour periods, as the scheduler counts them.
                factor = 3 ** rng.uniform(-1, 1)
                days = max(1, round(gap.total_seconds() / 86400 * factor))
                now = now + timedelta(days=days)
            else:
                now = now + gap
    return out
