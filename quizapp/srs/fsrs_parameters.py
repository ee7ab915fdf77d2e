"""The FSRS parameters in force: the collection's fitted ones, or FSRS's defaults.

Every place that builds a scheduler or evaluates a forgetting curve — the study step, the
buttons' intervals, readiness (Home and Stats), the mock's weak-item weights, Browse's
"recall now", calibration — asks `parameters_in_force`, so a fit (`quizapp optimize`)
changes all of them at once and "back to defaults" undoes it everywhere.

Plain Python and the pure-Python `fsrs` package only: Home's first figures use it before
SQLAlchemy or pydantic load.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fsrs.scheduler import DEFAULT_PARAMETERS, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

DEFAULTS: tuple[float, ...] = tuple(DEFAULT_PARAMETERS)
# Usable reviews a fit needs (why 64: quizapp.srs.optimize), and the growth that makes
# Stats and Home suggest a new one.
MIN_USABLE_REVIEWS = 64
REFIT_GROWTH = 2


def parameters_in_force(settings: Any) -> tuple[float, ...]:
    """The fitted parameters the settings hold, else the defaults (`settings` is the model
    or Home's plain `HomeSettings`; either may lack the field)."""
    fitted = getattr(settings, "fsrs_parameters", None)
    return tuple(fitted) if fitted else DEFAULTS


def parameters_problem(parameters: Sequence[float]) -> str | None:
    """Why `parameters` cannot drive the `fsrs` scheduler (its own bounds), or None."""
    if len(parameters) != len(DEFAULTS):
        return f"FSRS needs {len(DEFAULTS)} parameters, not {len(parameters)}"
    for index, (value, low, high) in enumerate(zip(parameters, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS)):
        if type(value) not in (int, float) or not low <= value <= high:
            return f"FSRS parameter w{index} = {value!r} is outside {low}–{high}"
    return None


def recall_curve(parameters: Sequence[float]) -> tuple[float, float]:
    """(factor F, decay D) of the forgetting curve R = (1 + F·t/S)^D, as `fsrs.Scheduler`
    derives them from w20 (R = 0.9 when t = S)."""
    decay = -parameters[20]
    return 0.9 ** (1 / decay) - 1, decay


@dataclass(frozen=True)
class FitStatus:
    """The schedule's fit as Stats and Home report it: when, on how many usable reviews,
    and how many there are now."""

    fitted_on: str | None
    fit_reviews: int | None
    usable_reviews: int

    @property
    def refit_suggested(self) -> bool:
        """A first fit once there are enough reviews, a new one once they have doubled."""
        if self.fit_reviews is None:
            return self.fitted_on is None and self.usable_reviews >= MIN_USABLE_REVIEWS
        return self.usable_reviews >= REFIT_GROWTH * max(self.fit_reviews, 1)

    def to_json(self) -> dict[str, Any]:
        return {"fitted_on": self.fitted_on, "fit_reviews": self.fit_reviews, "usable_reviews": self.usable_reviews,
                "minimum": MIN_USABLE_REVIEWS, "refit_suggested": self.refit_suggested}
