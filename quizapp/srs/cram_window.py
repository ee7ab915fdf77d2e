"""When Home offers cram: in the last `CRAM_DAYS` days before the interview, the day itself
included. Plain Python with no imports, so Home can ask before the study service loads."""

from __future__ import annotations

CRAM_DAYS = 7


def cram_offered(days_left: int | None) -> bool:
    return days_left is not None and 0 <= days_left <= CRAM_DAYS
