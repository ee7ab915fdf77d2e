"""Home's readiness range, read with plain sqlite3 after Home's counts are on screen.

Readiness is a range when the calibration bins are thin (`quizapp.srs.calibration`).
Working that out replays every review, so Home shows its quick figures first
(`quizapp.srs.home_figures`) and asks for this afterwards, in a worker, on its own read
transaction — without the study service, which an ordinary start does not load.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizapp.paths import default_db_location, is_server_url
from quizapp.srs.fsrs_parameters import FitStatus
from quizapp.srs.home_figures import READ_TIMEOUT_S
from quizapp.srs.settings_limits import home_settings
from quizapp.store import settings as stored_settings
from quizapp.store.errors import DatabaseError
from quizapp.store.tx import read_only

if TYPE_CHECKING:
    from collections.abc import Callable

    from quizapp.srs.calibration import ReadinessRange
    from quizapp.srs.clock import Clock
    from quizapp.srs.settings import Settings
    from quizapp.srs.settings_limits import HomeSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class HomeRange:
    found: ReadinessRange
    fit: FitStatus  # whether to suggest (re)fitting the schedule


def home_readiness_range(db_path: Path | str | None, clock: Clock,
                         stop: Callable[[], bool] | None = None) -> HomeRange | None:
    """Calibration, the readiness range and the fit's status of the database at `db_path`;
    None when it cannot be read (Home then keeps its single figure), or when `stop()` said
    so during the replay (Home was left: the replay would compete with the mode opened)."""
    from quizapp.srs.calibration import readiness_range
    from quizapp.srs.review_history import Stopped

    where = db_path if db_path is not None else default_db_location()
    if is_server_url(where):
        return None  # PostgreSQL: Home keeps the service's single figure
    path = Path(where)
    try:
        if not path.is_file():
            return None
        with read_only(path, READ_TIMEOUT_S) as cur:
            rows = stored_settings.rows(cur)
            settings: Settings | HomeSettings | None = home_settings(rows)
            if settings is None:  # a value only the model can read (fitted parameters, say)
                from quizapp.srs.settings import settings_from_rows

                settings = settings_from_rows(rows, shared=True)
            try:
                found = readiness_range(cur, clock, settings, stop)
            except Stopped:
                return None
            fitted_on, fit_reviews = _fit_of(rows)
            fit = FitStatus(fitted_on, fit_reviews, found.calibration.reviews)
            return HomeRange(found, fit)
    except (OSError, DatabaseError, ValueError) as exc:
        log.info("Home's readiness range not available (%s)", exc)
        return None


def _fit_of(rows: list[tuple[str, Any]]) -> tuple[str | None, int | None]:
    """The last fit's day and review count from the settings rows (a value of another
    shape counts as none: the model would not keep it either)."""
    values: dict[str, Any] = {}
    for key, text_value in rows:
        if key in ("fsrs_fitted_on", "fsrs_fit_reviews"):
            try:
                values[key] = json.loads(text_value) if isinstance(text_value, str) else text_value
            except ValueError:
                continue
    fitted_on, fit_reviews = values.get("fsrs_fitted_on"), values.get("fsrs_fit_reviews")
    return (fitted_on if isinstance(fitted_on, str) else None,
            fit_reviews if type(fit_reviews) is int and fit_reviews >= 0 else None)
