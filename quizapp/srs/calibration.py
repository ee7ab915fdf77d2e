"""Calibration: did quizapp's predictions come true?

For every past review that tested long-term memory (a day or more after the card's
previous review, as FSRS trains on: `review_history`), the recall FSRS predicted at that
moment — the card's history before it replayed with the parameters in force (fsrs-rs's
`historical_memory_state_batch`), then the forgetting curve over the days since — is put
in a bin of predicted recall; each bin shows how many reviews it holds, their mean
prediction and the share actually recalled (any rating but Again), with a 95% Wilson
interval. A well calibrated model has every bin's share near its mean prediction, within
the interval.

Readiness (a mean of predictions) inherits that uncertainty: `recall_range` maps each
card's predicted recall to its bin and shifts it by the bin's interval around the bin's
mean prediction. With many reviews per bin the range is a point; with thin bins it is wide.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fsrs_rs_python import FSRS, FSRSItem, FSRSReview

from quizapp.srs.clock import Clock, to_naive_utc
from quizapp.srs.fsrs_parameters import parameters_in_force
from quizapp.srs.fsrs_parameters import recall_curve as curve_of
from quizapp.srs.readiness import Days, card_recalls, parse_interview_date, recall_curve
from quizapp.srs.review_history import CardHistory, Stopped, histories
from quizapp.store.reviews import history_fingerprint, history_rows

if TYPE_CHECKING:
    from quizapp.srs.settings_limits import DaySettings
    from quizapp.store.tx import Tx

# Bin edges of predicted recall: most predictions sit near the desired retention (0.9), so
# the bins are finer there.
EDGES: tuple[float, ...] = (0.0, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1.0)
Z95 = 1.959964
# Below this width (5 percentage points) readiness is shown as one figure.
POINT_WIDTH = 0.05


@dataclass(frozen=True)
class CalibrationBin:
    low: float
    high: float
    reviews: int
    predicted: float | None  # mean predicted recall of the bin's reviews
    recalled: int  # not rated Again

    @property
    def observed(self) -> float | None:
        return self.recalled / self.reviews if self.reviews else None

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the recalled share ([0, 1] for an empty bin: no evidence)."""
        return wilson(self.recalled, self.reviews)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {"low": self.low, "high": self.high, "reviews": self.reviews, "recalled": self.recalled,
                "predicted": _round(self.predicted), "observed": _round(self.observed),
                "observed_low": round(low, 4), "observed_high": round(high, 4)}


@dataclass(frozen=True)
class Calibration:
    bins: list[CalibrationBin]

    @property
    def reviews(self) -> int:
        return sum(b.reviews for b in self.bins)

    def bin_of(self, recall: float) -> CalibrationBin:
        for b in self.bins:
            if recall < b.high:
                return b
        return self.bins[-1]

    def to_json(self) -> dict[str, Any]:
        return {"reviews": self.reviews, "bins": [b.to_json() for b in self.bins]}


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


BATCH = 4096  # cards per call into fsrs-rs: it holds the GIL for the whole call


def predictions(cards: Sequence[CardHistory], parameters: Sequence[float],
                stop: Callable[[], bool] | None = None) -> list[tuple[float, int]]:
    """(predicted recall, recalled 0/1) of every review of `cards` a day or more after the one before.

    The replay goes in batches, so that the app's other threads run between them (a single
    call for 100k cards held the GIL while Home's first key was waiting), asking `stop()`
    before each (`Stopped` when it says so)."""
    if not cards:
        return []
    model = FSRS(list(parameters))
    states = []
    for start in range(0, len(cards), BATCH):
        if stop is not None and stop():
            raise Stopped
        items = [FSRSItem([FSRSReview(r, gap) for r, gap in zip(card.ratings, card.delta_t)])
                 for card in cards[start:start + BATCH]]
        states.extend(model.historical_memory_state_batch(items))
    factor, decay = curve_of(parameters)
    found = []
    for card, card_states in zip(cards, states):
        for index in card.targets():
            stability = card_states[index - 1].stability
            recall = (1 + factor * card.delta_t[index] / stability) ** decay if stability > 0 else 0.0
            found.append((recall, int(card.ratings[index] > 1)))
    return found


def calibrate(cards: Sequence[CardHistory], parameters: Sequence[float],
              stop: Callable[[], bool] | None = None) -> Calibration:
    counts = [0] * (len(EDGES) - 1)
    recalled = [0] * (len(EDGES) - 1)
    predicted = [0.0] * (len(EDGES) - 1)
    for recall, passed in predictions(cards, parameters, stop):
        index = min(bisect.bisect_right(EDGES, recall) - 1, len(counts) - 1)
        counts[index] += 1
        predicted[index] += recall
        recalled[index] += passed
    return Calibration([
        CalibrationBin(low, high, n, total / n if n else None, passed)
        for (low, high), n, total, passed in zip(itertools.pairwise(EDGES), counts, predicted, recalled)
    ])


def recall_range(calibration: Calibration, recalls: Sequence[float]) -> tuple[float, float] | None:
    """The range of mean recall over cards predicted `recalls` (0 for a card never studied
    stays 0), given how far each prediction's bin was off; None without cards."""
    if not recalls:
        return None
    low = high = 0.0
    for recall in recalls:
        if recall <= 0:
            continue
        b = calibration.bin_of(recall)
        interval_low, interval_high = b.interval
        centre = b.predicted if b.predicted is not None else recall
        low += min(1.0, max(0.0, recall + interval_low - centre))
        high += min(1.0, max(0.0, recall + interval_high - centre))
    return low / len(recalls), high / len(recalls)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


@dataclass(frozen=True)
class ReadinessRange:
    """Calibration of the parameters in force, and readiness as a range from it."""

    calibration: Calibration
    now: tuple[float, float] | None
    at_interview: tuple[float, float] | None

    @property
    def is_range(self) -> bool:
        return self.now is not None and self.now[1] - self.now[0] >= POINT_WIDTH


def readiness_range(cur: Tx, clock: Clock, settings: DaySettings,
                    stop: Callable[[], bool] | None = None) -> ReadinessRange:
    """Calibration and the readiness range, on a driver cursor in a read transaction
    (Stats through the service, Home with plain sqlite3). It reads every review: screens
    show their other figures first and add this when it is ready. `stop()`, asked as the
    replay goes, gives it up (`quizapp.srs.review_history.Stopped`)."""
    days = Days(clock.local_tz(), settings.day_rollover_hour)
    now = to_naive_utc(clock.now())
    interview = parse_interview_date(settings.interview_date)
    at_interview = days.start(interview) if interview is not None and interview >= days.of(now) else None
    factor, decay = recall_curve(settings)
    recalls = card_recalls(cur, now, at_interview, factor, decay)
    calibration = _calibration_on(cur, parameters_in_force(settings), stop)
    return ReadinessRange(
        calibration,
        recall_range(calibration, [r for r, _ in recalls]),
        recall_range(calibration, [r for _, r in recalls]) if at_interview is not None else None,
    )


# The last calibration worked out, by what it depends on: the database file, the parameters
# and its reviews (their number, last id and sums of times and ratings — an answer, an undo
# or an import changes them). Home asks again after every session; unless a review changed,
# the replay of the whole history is not repeated.
_LAST: dict[tuple[Any, ...], Calibration] = {}


def _calibration_on(cur: Tx, parameters: Sequence[float], stop: Callable[[], bool] | None = None) -> Calibration:
    key = (tuple(parameters), *history_fingerprint(cur))
    found = _LAST.get(key)
    if found is None:
        found = calibrate(histories(history_rows(cur), stop), parameters, stop)
        _LAST.clear()
        _LAST[key] = found
    return found
