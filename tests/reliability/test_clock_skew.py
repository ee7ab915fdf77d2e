"""The clock ran a year ahead, reviews were stamped then, and the clock was corrected.

"New today" and "reviewed today" count only reviews inside today's window, so the next day
of real time has its full allowance (before: the limit stayed used up for 200+ days).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from quizapp.srs.bootstrap import prepare
from quizapp.srs.clock import FixedClock
from quizapp.srs.service import StudyService

pytestmark = pytest.mark.both_backends


def test_reviews_from_a_clock_a_year_ahead_do_not_use_up_todays_limits(new_db):
    real_now = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
    clock = FixedClock(real_now + timedelta(days=365))
    prepared = prepare(new_db, clock=clock)
    try:
        service = StudyService(prepared.db, clock)
        service.save_settings(service.settings().model_copy(update={"new_per_day": 3, "fuzz": False}))
        for _ in range(3):
            card = service.next_card("qa")
            assert card is not None
            service.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version)
        ahead = service.due_counts()
        assert ahead.new_done_today == 3 and service.new_allowance_left("qa") == 0

        clock.current = real_now  # the clock is corrected
        counts = service.due_counts()
        assert counts.new_done_today == 0
        assert counts.reviews_done_today == 0
        assert service.new_allowance_left("qa") == 3
        shown = service.next_card("qa")
        assert shown is not None and shown.card.reps == 0  # a new card is offered today
    finally:
        prepared.db.close()
