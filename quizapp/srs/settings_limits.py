"""The settings' defaults and limits in plain Python, and a reader of the few settings Home
needs that works without pydantic.

`quizapp.srs.settings` builds its pydantic model from these limits (one source for both).
Home's first figures (`quizapp.srs.home_figures`) read the rows with `home_settings` before
pydantic is imported (pydantic and the model cost ~10 MB and ~150 ms at start): it takes a
stored value only when it is plainly valid, exactly what the model would keep unchanged;
anything else — a value the model would coerce, clamp to its default or refuse — gives None,
and the caller reads the settings through the model instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal, Protocol

from quizapp.i18n import LANGUAGES

# name: (default, lowest, highest)
LIMITS: dict[str, tuple[Any, Any, Any]] = {
    "desired_retention": (0.9, 0.7, 0.99),
    "new_per_day": (20, 0, 9999),
    "reviews_per_day": (200, 0, 99999),
    "day_rollover_hour": (4, 0, 23),
    "leech_threshold": (8, 1, 99),
}
DEFAULT_LANGUAGE: Literal["zh", "en"] = "zh"  # the UI's (quizapp.i18n), typed for the model
DEFAULT_THEME = "textual-dark"
MATERIALS = ("ui", "zh", "en", "both")  # the study material's language (the model's Literal)
DEFAULT_LEARNING_STEPS = (1.0, 10.0)  # minutes
DEFAULT_RELEARNING_STEPS = (10.0,)
MAX_STEPS, MAX_STEP_MIN = 10, 60 * 24 * 7


def steps_problem(steps: Sequence[float]) -> str | None:
    """Why learning steps are not acceptable (the model's check), or None."""
    if len(steps) > MAX_STEPS or any(s <= 0 or s > MAX_STEP_MIN for s in steps):
        return "steps must be 1–10 positive durations in minutes (at most a week)"
    return None


def iso_date(value: str | None) -> str | None:
    """The interview date as stored: ISO `YYYY-MM-DD`, or None (ValueError otherwise)."""
    if value is None or value == "":
        return None
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise ValueError("the interview date must be a date written YYYY-MM-DD") from None


class DaySettings(Protocol):
    """The settings the counts and readiness read (the model, or Home's `HomeSettings`)."""

    @property
    def desired_retention(self) -> float: ...
    @property
    def new_per_day(self) -> int: ...
    @property
    def reviews_per_day(self) -> int: ...
    @property
    def day_rollover_hour(self) -> int: ...
    @property
    def interview_date(self) -> str | None: ...
    @property
    def fsrs_parameters(self) -> list[float] | None: ...


@dataclass(frozen=True)
class HomeSettings:
    """What Home's figures and look need — the day, the limits, the interview, theme,
    language — and the first card of a mode opened from Home (its scheduler's steps and
    fuzz, the material's language, the leech threshold)."""

    desired_retention: float = LIMITS["desired_retention"][0]
    new_per_day: int = LIMITS["new_per_day"][0]
    reviews_per_day: int = LIMITS["reviews_per_day"][0]
    day_rollover_hour: int = LIMITS["day_rollover_hour"][0]
    interview_date: str | None = None
    fsrs_parameters: list[float] | None = None  # only ever None here: fitted ones go through the model
    language: str = DEFAULT_LANGUAGE
    theme: str = DEFAULT_THEME
    learning_steps_min: list[float] = field(default_factory=lambda: list(DEFAULT_LEARNING_STEPS))
    relearning_steps_min: list[float] = field(default_factory=lambda: list(DEFAULT_RELEARNING_STEPS))
    fuzz: bool = True
    material: str = "ui"
    leech_threshold: int = LIMITS["leech_threshold"][0]


def _plain(key: str, value: Any) -> bool:
    """Is `value` one the model stores as it is (no coercion, no fallback to the default)?"""
    if key in LIMITS:
        default, low, high = LIMITS[key]
        kinds = (int,) if isinstance(default, int) else (int, float)
        return type(value) in kinds and low <= value <= high
    if key == "interview_date":
        if value is None:
            return True
        try:
            return isinstance(value, str) and iso_date(value) == value
        except ValueError:
            return False
    if key == "fsrs_parameters":
        # Fitted parameters are checked against the scheduler's bounds by the model alone.
        return value is None
    if key == "language":
        return value in LANGUAGES
    if key == "theme":
        return type(value) is str
    if key in ("learning_steps_min", "relearning_steps_min"):
        return (type(value) is list and all(type(s) in (int, float) for s in value)
                and steps_problem(value) is None)
    if key == "fuzz":
        return type(value) is bool
    if key == "material":
        return value in MATERIALS
    return True  # a setting Home does not read


def home_settings(rows: Iterable[Sequence[Any]]) -> HomeSettings | None:
    """Home's settings from the settings table's (key, value) rows; None when any of them
    is not plainly valid (then only the model can say what it means)."""
    fields = HomeSettings.__dataclass_fields__
    values: dict[str, Any] = {}
    for key, text_value in rows:
        if key not in fields:
            continue
        try:
            # The column's NUMERIC affinity turns the JSON text of a number into a number.
            value = json.loads(text_value) if isinstance(text_value, str) else text_value
        except ValueError:
            return None
        if not _plain(key, value):
            return None
        values[key] = value
    return HomeSettings(**values)
