"""User settings, validated by pydantic and stored as rows of the settings table."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from quizapp.srs.fsrs_parameters import parameters_problem
from quizapp.srs.settings_limits import (
    DEFAULT_LANGUAGE,
    DEFAULT_LEARNING_STEPS,
    DEFAULT_RELEARNING_STEPS,
    DEFAULT_THEME,
    LIMITS,
    iso_date,
    steps_problem,
)
from quizapp.store import settings as stored_settings
from quizapp.store.errors import ChangedElsewhere

if TYPE_CHECKING:
    from quizapp.store.tx import Tx


def _field(name: str) -> Any:
    default, low, high = LIMITS[name]
    return Field(default, ge=low, le=high)


class Settings(BaseModel):
    """Every setting; the defaults and limits are `quizapp.srs.settings_limits`' (Home reads a
    few of them with those alone, before pydantic loads)."""

    model_config = ConfigDict(validate_assignment=True)

    desired_retention: float = _field("desired_retention")
    new_per_day: int = _field("new_per_day")
    reviews_per_day: int = _field("reviews_per_day")
    learning_steps_min: list[float] = Field(default_factory=lambda: list(DEFAULT_LEARNING_STEPS))
    relearning_steps_min: list[float] = Field(default_factory=lambda: list(DEFAULT_RELEARNING_STEPS))
    day_rollover_hour: int = _field("day_rollover_hour")
    leech_threshold: int = _field("leech_threshold")
    language: Literal["zh", "en"] = DEFAULT_LANGUAGE
    # Language of the study material: "ui" follows `language`; "both" shows the question in
    # the interface language with the other language's answer one key (`t`) away.
    material: Literal["ui", "zh", "en", "both"] = "ui"
    theme: str = DEFAULT_THEME
    fuzz: bool = True
    # The interview day (ISO `YYYY-MM-DD`, or None): Stats predicts recall on it, Home counts down.
    interview_date: str | None = None
    # Cram (quizapp.srs.cram): False leaves the schedule as it was (answers logged as `cram`);
    # True makes each cram answer an ordinary early review, as Anki's "reschedule cards
    # based on my answers".
    cram_reschedules: bool = False
    # FSRS parameters fitted to this collection's reviews (`quizapp optimize`, Settings →
    # "Fit the schedule to my reviews"), the study day of the fit and how many usable
    # reviews it used; None: FSRS's defaults (quizapp.srs.fsrs_parameters).
    fsrs_parameters: list[float] | None = None
    fsrs_fitted_on: str | None = None
    fsrs_fit_reviews: int | None = Field(None, ge=0)
    # Your own keys: binding id -> key(s), e.g. {"study.undo": "z"} or "z,backspace"
    # (applied through Textual's keymap by quizapp.tui.keymap, which reports conflicts).
    keys: dict[str, str] = Field(default_factory=dict)

    @field_validator("fsrs_parameters")
    @classmethod
    def _schedulable(cls, value: list[float] | None) -> list[float] | None:
        if value is not None and (problem := parameters_problem(value)) is not None:
            raise ValueError(problem)
        return value

    @field_validator("keys")
    @classmethod
    def _key_names(cls, value: dict[str, str]) -> dict[str, str]:
        for binding, key in value.items():
            if not binding.strip() or not key.strip() or any(c.isspace() for c in key):
                raise ValueError(f"keys: {binding!r} = {key!r} is not a binding id and a key")
        return value

    @field_validator("fsrs_fitted_on")
    @classmethod
    def _fit_date(cls, value: str | None) -> str | None:
        return iso_date(value)

    @field_validator("interview_date")
    @classmethod
    def _iso_date(cls, value: str | None) -> str | None:
        return iso_date(value)

    @field_validator("learning_steps_min", "relearning_steps_min")
    @classmethod
    def _positive_steps(cls, steps: list[float]) -> list[float]:
        if (problem := steps_problem(steps)) is not None:
            raise ValueError(problem)
        return steps


# Settings parsed from the stored rows' text, most recent last: a study step reads the
# settings several times, and validating them each time cost more than the step's queries.
_PARSED: dict[tuple[tuple[str, str], ...], Settings] = {}


def load_settings(tx: Tx) -> Settings:
    """Read settings; an invalid stored value falls back to its default instead of failing."""
    return settings_from_rows(stored_settings.rows(tx))


def settings_from_rows(rows: Iterable[Sequence[Any]], shared: bool = False) -> Settings:
    """Settings from the settings table's (key, value) rows, as the driver returns them.

    The rows are read every time (another window may have saved new ones); they are parsed
    and validated only when their text differs from a set seen before. Each caller gets its
    own copy — or with `shared`, for a caller that only reads it, the parsed object itself
    (the study step reads settings twice per answer; a deep copy is a tenth of it).
    """
    raw = tuple(sorted((key, value) for key, value in rows))
    parsed = _PARSED.get(raw)
    if parsed is None:
        parsed = Settings()
        for key, text_value in raw:
            if key in Settings.model_fields:
                with contextlib.suppress(ValidationError, ValueError, TypeError):
                    # The column's NUMERIC affinity turns the JSON text of a number into a number.
                    setattr(parsed, key, json.loads(text_value) if isinstance(text_value, str) else text_value)
        if len(_PARSED) >= 8:
            _PARSED.pop(next(iter(_PARSED)))
        _PARSED[raw] = parsed
    return parsed if shared else parsed.model_copy(deep=True)


def save_settings(tx: Tx, settings: Settings, base: Settings | None = None) -> None:
    """Write settings in the caller's (write) transaction.

    With `base` — the settings the user started editing from — only the fields changed since
    then are written, each as a compare-and-swap: if another window stored a different value
    of that field meanwhile, ChangedElsewhere is raised and the caller's transaction rolls
    back. Two windows changing different settings then both keep their change.
    """
    data = settings.model_dump(mode="json")
    before = base.model_dump(mode="json") if base is not None else None
    stored = load_settings(tx).model_dump(mode="json")
    changed: dict[str, Any] = {}
    for key, value in data.items():
        if before is not None:
            if value == before[key]:
                continue  # not changed here: leave whatever is stored
            if stored[key] != before[key] and stored[key] != value:
                raise ChangedElsewhere(f"the setting {key} was changed elsewhere; nothing was saved")
        changed[key] = value
    stored_settings.write(tx, changed)


def setting_problem(key: str, value: object) -> str | None:
    """Why `value` is not acceptable for the setting `key` (an import checks each), or None."""
    if key not in Settings.model_fields:
        return "unknown setting"
    try:
        Settings.model_validate({key: value}, strict=True)
    except ValidationError as exc:
        return exc.errors()[0]["msg"].removeprefix("Value error, ")
    return None
