"""Fit FSRS parameters to this collection's reviews (fsrs-rs-python), compare, save.

`fit_collection` reads every review, builds FSRS's training set (`review_history`), fits
with fsrs-rs-python's `compute_parameters` and evaluates the defaults, the parameters in
force and the fitted ones on the same reviews with its `evaluate` (log loss and RMSE over
its bins). Nothing is saved: `save_fit` stores the parameters with the day and the review
count when the user confirms, `reset_parameters` goes back to the defaults; both are
compare-and-swap writes of only those settings (`save_settings` with a base).

The minimum (`MIN_USABLE_REVIEWS`): fsrs-rs returns its defaults below 8 training
reviews, and below 64 it fits only the four initial stabilities (w0–w3, its "pretrain");
the FSRS benchmark's study of small collections (open-spaced-repetition/srs-benchmark
PR #80) found exactly that split best: pretrain for 8–63 reviews, the full fit from 64.
A fit that can move every parameter needs 64 usable reviews, so that is the minimum here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from fsrs_rs_python import FSRS, FSRSItem, FSRSReview

from quizapp.i18n.localized_error import LocalizedError
from quizapp.srs.clock import Clock, to_naive_utc

# MIN_USABLE_REVIEWS, REFIT_GROWTH and FitStatus live with the parameters (Home reads them
# without this module); they are re-exported here.
from quizapp.srs.fsrs_parameters import DEFAULTS as DEFAULTS
from quizapp.srs.fsrs_parameters import MIN_USABLE_REVIEWS as MIN_USABLE_REVIEWS
from quizapp.srs.fsrs_parameters import REFIT_GROWTH as REFIT_GROWTH
from quizapp.srs.fsrs_parameters import FitStatus as FitStatus
from quizapp.srs.fsrs_parameters import parameters_in_force, parameters_problem
from quizapp.srs.readiness import Days
from quizapp.srs.review_history import TrainingSet, histories, training_set
from quizapp.srs.settings import Settings, save_settings, settings_from_rows
from quizapp.store import cards as cards_store
from quizapp.store import settings as stored_settings
from quizapp.store.database import Database
from quizapp.store.reviews import history_rows
from quizapp.store.tx import Tx

log = logging.getLogger(__name__)

class NotEnoughReviews(Exception):
    """Too few usable reviews to fit; the message says how many more are needed."""

    def __init__(self, usable: int, reviews: int) -> None:
        self.usable = usable
        self.reviews = reviews
        self.needed = MIN_USABLE_REVIEWS - usable
        super().__init__(
            f"{usable} usable reviews (answers a day or more after the card's previous answer, of {reviews} "
            f"answers in all); a fit needs {MIN_USABLE_REVIEWS}: {self.needed} more"
        )


class FitFailed(LocalizedError):
    """fsrs-rs-python could not fit these reviews: a catalogue line (`optimize.error.*`) in
    the user's language; fsrs-rs's own reason goes to the log, not to the user."""

    def __init__(self, key: str, detail: object = None, **values: object) -> None:
        super().__init__(key=key, **values)
        if detail is not None:
            log.warning("%s: %s", key, detail)


@dataclass(frozen=True)
class Evaluation:
    log_loss: float
    rmse_bins: float

    def to_json(self) -> dict[str, float]:
        return {"log_loss": round(self.log_loss, 5), "rmse_bins": round(self.rmse_bins, 5)}


@dataclass(frozen=True)
class Fit:
    """A fit, not yet saved: the parameters, and how well each set predicts these reviews."""

    parameters: list[float]
    usable_reviews: int
    reviews: int
    cards: int
    day: date  # the study day of the fit
    defaults: Evaluation
    fitted: Evaluation
    in_force: Evaluation | None  # the parameters saved by an earlier fit; None when defaults
    seconds: float
    base: Settings = field(repr=False)  # the settings the fit started from (the save's CAS base)

    @property
    def better(self) -> bool:
        """Do the fitted parameters predict these reviews better than the defaults?"""
        return self.fitted.log_loss < self.defaults.log_loss

    @property
    def worth_saving(self) -> bool:
        """Only parameters that predict these reviews better than the ones in force are
        offered for saving (as Anki keeps its current parameters otherwise)."""
        return self.fitted.log_loss < (self.in_force or self.defaults).log_loss

    def to_json(self) -> dict[str, Any]:
        return {
            "usable_reviews": self.usable_reviews,
            "reviews": self.reviews,
            "cards": self.cards,
            "date": self.day.isoformat(),
            "minimum": MIN_USABLE_REVIEWS,
            "defaults": {"parameters": list(DEFAULTS), **self.defaults.to_json()},
            "fitted": {"parameters": self.parameters, **self.fitted.to_json()},
            "in_force": None if self.in_force is None else {
                "parameters": list(parameters_in_force(self.base)), **self.in_force.to_json()},
            "better_than_defaults": self.better,
            "worth_saving": self.worth_saving,
            "seconds": round(self.seconds, 3),
        }


Progress = Callable[[str], None]


def read_training_set(db: Database, clock: Clock) -> tuple[TrainingSet, Settings, date]:
    """The collection's reviews as FSRS's training set, the settings, today's study day:
    one read transaction."""
    with db.transaction() as cur:
        settings = settings_from_rows(stored_settings.rows(cur))
        cards = histories(history_rows(cur))
    today = Days(clock.local_tz(), settings.day_rollover_hour).of(to_naive_utc(clock.now()))
    return training_set(cards), settings, today


def usable_reviews(db: Database, clock: Clock) -> int:
    return read_training_set(db, clock)[0].usable


def fit_reviews(data: TrainingSet, in_force: Sequence[float] | None = None,
                progress: Progress | None = None) -> tuple[list[float], Evaluation, Evaluation, Evaluation | None]:
    """Fit parameters to `data` and evaluate the defaults, `in_force` (when not the
    defaults) and the fit on it. NotEnoughReviews below the minimum; FitFailed when
    fsrs-rs refuses."""
    if data.usable < MIN_USABLE_REVIEWS:
        raise NotEnoughReviews(data.usable, data.reviews)
    say = progress or (lambda _stage: None)
    say("fit")
    try:
        # fsrs-rs holds Python's lock while it fits (about 0.1 s at 100k reviews).
        raw = FSRS(list(DEFAULTS)).compute_parameters(data.items, card_ids=data.card_ids)
    except (ValueError, RuntimeError) as exc:  # fsrs-rs's errors (NotEnoughData, InvalidInput, …)
        raise FitFailed("optimize.error.fit", exc) from None
    except BaseException as exc:
        # A panic inside the Rust code arrives as pyo3's PanicException, a BaseException:
        # one line for the user, not a dead worker.
        if type(exc).__name__ != "PanicException":
            raise
        raise FitFailed("optimize.error.fit", exc) from None
    # float32 from Rust: rounded as Anki stores them, then checked against the scheduler's bounds.
    parameters = [round(float(value), 4) for value in raw]
    if (problem := parameters_problem(parameters)) is not None:
        raise FitFailed("optimize.error.unusable", problem)
    say("evaluate")
    defaults = evaluate(DEFAULTS, data)
    fitted = evaluate(parameters, data)
    current = None
    if in_force is not None and tuple(in_force) != DEFAULTS:
        current = evaluate(in_force, data)
    return parameters, defaults, fitted, current


def evaluate(parameters: Sequence[float], data: TrainingSet) -> Evaluation:
    """fsrs-rs's evaluation of `parameters` on `data`: log loss and RMSE (bins)."""
    try:
        result = FSRS(list(parameters)).evaluate(data.items)
    except (ValueError, RuntimeError) as exc:
        raise FitFailed("optimize.error.evaluate", exc) from None
    return Evaluation(float(result.log_loss), float(result.rmse_bins))


def fit_collection(db: Database, clock: Clock, progress: Progress | None = None) -> Fit:
    """Fit FSRS parameters to every review of the collection (nothing is saved)."""
    started = time.perf_counter()
    say = progress or (lambda _stage: None)
    say("read")
    data, settings, today = read_training_set(db, clock)
    parameters, defaults, fitted, current = fit_reviews(data, parameters_in_force(settings), progress)
    return Fit(parameters, data.usable, data.reviews, data.cards, today, defaults, fitted, current,
               time.perf_counter() - started, settings)


def save_fit(db: Database, fit: Fit) -> None:
    """Keep the fitted parameters with the day and the review count: only these settings,
    and only if nobody changed them since the fit began (ChangedElsewhere otherwise)."""
    new = fit.base.model_copy(update={
        "fsrs_parameters": fit.parameters, "fsrs_fitted_on": fit.day.isoformat(),
        "fsrs_fit_reviews": fit.usable_reviews,
    })
    _save(db, new, fit.base)


def reset_parameters(db: Database) -> bool:
    """Back to FSRS's defaults (one write); False when they are already in force."""
    with db.transaction() as tx:
        from quizapp.srs.settings import load_settings

        base = load_settings(tx)
    if base.fsrs_parameters is None and base.fsrs_fitted_on is None and base.fsrs_fit_reviews is None:
        return False
    _save(db, base.model_copy(update={"fsrs_parameters": None, "fsrs_fitted_on": None, "fsrs_fit_reviews": None}),
          base)
    return True


def _save(db: Database, settings: Settings, base: Settings) -> None:
    """The settings and every card's memory state under the new parameters, in one write
    transaction (the settings' compare-and-swap decides whether it commits)."""
    with db.transaction(write=True) as tx:
        save_settings(tx, settings, base)
        restate_cards(tx, parameters_in_force(settings))


def restate_cards(cur: Tx, parameters: Sequence[float]) -> int:
    """Recompute each reviewed card's stability and difficulty from its whole history with
    `parameters`, as Anki does whenever the parameters change, so that readiness, Browse's
    "recall now" and the next answer start from what these parameters say about the card.
    Due dates are kept (Anki's default, "reschedule cards on change" off): a card moves to
    the new schedule at its next review. Each written card's version rises, so a window
    that showed it before refuses a stale answer. Returns the number of cards written."""
    cards = histories(history_rows(cur))
    if not cards:
        return 0
    items = [FSRSItem([FSRSReview(r, gap) for r, gap in zip(card.ratings, card.delta_t)]) for card in cards]
    states = FSRS(list(parameters)).memory_state_batch(items)
    cards_store.restate(cur, [(card.card_id, float(state.stability), float(state.difficulty))
                              for card, state in zip(cards, states)])
    return len(cards)
