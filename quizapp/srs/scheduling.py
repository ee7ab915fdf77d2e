"""Bridge between stored cards and the `fsrs` package (no scheduling maths here)."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler, State

from quizapp.srs.clock import from_naive_utc, to_naive_utc
from quizapp.srs.fsrs_parameters import parameters_in_force
from quizapp.store.reviews import PREV_COLUMNS

if TYPE_CHECKING:  # no pydantic at import: the first card's intervals are read before it loads
    from quizapp.srs.settings import Settings
    from quizapp.srs.settings_limits import HomeSettings

RATINGS = (Rating.Again, Rating.Hard, Rating.Good, Rating.Easy)


def make_scheduler(settings: Settings | HomeSettings, fuzz: bool | None = None) -> Scheduler:
    """The scheduler `settings` configure, with the FSRS parameters in force; `fuzz`
    overrides their fuzzing (previews show the unfuzzed interval)."""
    return _scheduler(
        parameters_in_force(settings), settings.desired_retention, tuple(settings.learning_steps_min), tuple(settings.relearning_steps_min),
        settings.fuzz if fuzz is None else fuzz,
    )


@lru_cache(maxsize=16)
def _scheduler(parameters: tuple[float, ...], retention: float, learning: tuple[float, ...],
               relearning: tuple[float, ...], fuzz: bool) -> Scheduler:
    # One per distinct configuration: review_card and the retrievability functions only read
    # the scheduler, and building one (parameter checks) is a good part of a study step.
    return Scheduler(
        parameters=parameters,
        desired_retention=retention,
        learning_steps=tuple(timedelta(minutes=m) for m in learning),
        relearning_steps=tuple(timedelta(minutes=m) for m in relearning),
        enable_fuzzing=fuzz,
    )


def to_fsrs(card: Any) -> FsrsCard:
    """An fsrs Card from a stored card (an ORM Card or a row of the cards columns)."""
    return FsrsCard(
        card_id=card.id,
        state=State(card.state),
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=from_naive_utc(card.due),
        last_review=from_naive_utc(card.last_review) if card.last_review else None,
    )


def fsrs_values(fsrs_card: FsrsCard) -> dict[str, Any]:
    """The card columns an fsrs review sets (for a compare-and-swap UPDATE)."""
    return {
        "state": int(fsrs_card.state),
        "step": fsrs_card.step,
        "stability": fsrs_card.stability,
        "difficulty": fsrs_card.difficulty,
        "due": to_naive_utc(fsrs_card.due),
        "last_review": to_naive_utc(fsrs_card.last_review) if fsrs_card.last_review else None,
    }


def restore_values(data: dict[str, Any]) -> dict[str, Any]:
    """The card columns a snapshot holds (what undo writes back)."""
    values: dict[str, Any] = {}
    for name in PREV_COLUMNS:
        value = data.get(name)
        if name in ("due", "last_review") and value is not None:
            value = datetime.fromisoformat(value)
        values[name] = value
    return values


def restore(card: Any, data: dict[str, Any]) -> None:
    """Put a snapshot's values on a card object (tests rewind an ORM Card with it)."""
    for name, value in restore_values(data).items():
        setattr(card, name, value)


def preview_intervals(scheduler: Scheduler, card: Any, now: datetime) -> dict[Rating, timedelta]:
    """What each rating would schedule, as Anki shows on its buttons."""
    base = to_fsrs(card)
    result = {}
    for rating in RATINGS:
        # review_card works on a copy of the card it is given (fsrs: `card = copy(card)`), so
        # one base serves the four ratings (tests/srs: previews equal each rating's answer).
        reviewed, _ = scheduler.review_card(base, rating, review_datetime=now)
        result[rating] = reviewed.due - now
    return result
