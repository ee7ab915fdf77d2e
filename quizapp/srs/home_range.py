"""Home's readiness range, read with plain sqlite3 after Home's counts are on screen.

Readiness is a range when the calibration bins are thin (`quizapp.srs.calibration`).
Working that out replays every review, so Home shows its quick figures first
(`quizapp.srs.home_figures`) and asks for this afterwards, in a worker, on its own read
transaction — without the study service, which an ordinary start does not load.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from quizapp.paths import default_db_path
from quizapp.srs import queue
from quizapp.srs.home_figures import READ_TIMEOUT_S
from quizapp.srs.settings_limits import home_settings

if TYPE_CHECKING:
    from quizapp.srs.calibration import ReadinessRange
    from quizapp.srs.clock import Clock
    from quizapp.srs.settings import Settings
    from quizapp.srs.settings_limits import HomeSettings

log = logging.getLogger(__name__)


def home_readiness_range(db_path: Path | str | None, clock: Clock) -> ReadinessRange | None:
    """Calibration and the readiness range of the database at `db_path`; None when it
    cannot be read (Home then keeps its single figure)."""
    from quizapp.srs.calibration import readiness_range

    path = Path(db_path) if db_path is not None else default_db_path()
    try:
        if not path.is_file():
            return None
        conn = sqlite3.connect(path, timeout=READ_TIMEOUT_S, isolation_level=None)
        try:
            cur = conn.cursor()
            cur.execute("PRAGMA query_only=1")
            cur.execute("BEGIN")
            rows = queue.settings_rows(cur)
            settings: Settings | HomeSettings | None = home_settings(rows)
            if settings is None:  # a value only the model can read (fitted parameters, say)
                from quizapp.srs.settings import settings_from_rows

                settings = settings_from_rows(rows, shared=True)
            found = readiness_range(cur, clock, settings)
            cur.execute("COMMIT")
            return found
        finally:
            conn.close()
    except (sqlite3.Error, OSError, ValueError) as exc:
        log.info("Home's readiness range not available (%s)", exc)
        return None
