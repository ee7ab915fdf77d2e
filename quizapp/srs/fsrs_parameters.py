"""The FSRS parameters in force: the collection's fitted ones, or FSRS's defaults.

Every place that builds a scheduler or evaluates a forgetting curve — the study step, the
buttons' intervals, readiness (Home and Stats), the mock's weak-item weights, Browse's
"recall now", calibration — asks `parameters_in_force`, so a fit (`quizapp optimize`)
changes all of them at once and "back to defaults" undoes it everywhere.

Plain Python (the `fsrs` package only to check fitted parameters against its bounds):
Home's first figures use it before SQLAlchemy, pydantic or fsrs load.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# fsrs.scheduler.DEFAULT_PARAMETERS, written out: Home's readiness needs only w20 of them,
# and importing fsrs for it cost ~20–60 ms of Home's first figures (the `fsrs` package is
# imported where a scheduler is built). tests/srs/test_fsrs_defaults.py checks they match.
DEFAULTS: tuple[float, ...] = (
    0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614, 0.2629,
    1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
)
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
    from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

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
