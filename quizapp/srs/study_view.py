"""What the Study and Quiz screens show next — the card, its buttons' intervals, the cards
still due and the new ones today's limit allows — read on any Tx.

The study service reads it on its own transactions (`StudyService.study_view`). The first
card of a mode opened from Home is read here too, before the service loads
(`first_view`): on an ordinary start (the database at the current schema, no deck
changed) with plain sqlite3, as Home's figures are, so the card is on screen without
SQLAlchemy, Alembic or pydantic. Anything else gives None, and the screen waits for the
service as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizapp.srs.clock import from_naive_utc, to_naive_utc
from quizapp.srs.counts import INSTANT, DayCounter
from quizapp.srs.views import CardView, StudyCard, StudyView
from quizapp.store import cards
from quizapp.store.codes import LEARNING_STATES, REVIEW_STATE

if TYPE_CHECKING:
    from quizapp.srs.clock import Clock
    from quizapp.srs.settings import Settings
    from quizapp.srs.settings_limits import HomeSettings
    from quizapp.store.cards import CardRow
    from quizapp.store.tx import Tx

LEARN_AHEAD = timedelta(minutes=20)


def card_view(card: Any, kind: str) -> CardView:
    """A card (an ORM object or a row of the cards table's columns) as a plain view."""
    return CardView(
        card_id=card.id,
        item_id=card.item_id,
        kind=kind,
        state=card.state,
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=from_naive_utc(card.due),
        last_review=from_naive_utc(card.last_review) if card.last_review else None,
        reps=card.reps,
        lapses=card.lapses,
        suspended=card.suspended,
        leech=card.leech,
        version=card.version,
    )


def next_on(cur: Tx, kind: str, settings: Settings | HomeSettings, today: tuple[int, int],
            day_start: datetime, now: datetime,
            excluded: list[int]) -> tuple[CardRow, str, dict[str, Any]] | None:
    """Learning cards due today, then (under the review limit) learning cards left from
    an earlier day and due reviews, then new cards, then today's learning due soon."""
    new_done, reviews_done = today
    learning = LEARNING_STATES
    card_id = cards.earliest_due(cur, kind, learning, now, excluded, since=day_start)
    if card_id is None and reviews_done < settings.reviews_per_day:
        card_id = cards.earliest_due(cur, kind, learning, day_start - INSTANT, excluded)
        if card_id is None:
            card_id = cards.earliest_due(cur, kind, (REVIEW_STATE,), now, excluded)
    if card_id is None and new_done < settings.new_per_day:
        card_id = cards.first_new(cur, kind, excluded)
    if card_id is None:
        card_id = cards.earliest_due(cur, kind, learning, now + LEARN_AHEAD, excluded, since=day_start)
    if card_id is None:
        return None
    return cards.read_with_item(cur, card_id=card_id)


def intervals(card: CardRow, settings: Settings | HomeSettings, now: datetime) -> dict[int, timedelta]:
    """What each rating would schedule for the card at `now` (the buttons' intervals)."""
    from quizapp.srs.scheduling import make_scheduler, preview_intervals

    scheduler = make_scheduler(settings, fuzz=False)
    return {int(r): d for r, d in preview_intervals(scheduler, card, now).items()}


def study_view_on(cur: Tx, days: DayCounter, kind: str, settings: Settings | HomeSettings) -> StudyView:
    """The next card of `kind` (`next_on`), its intervals and the counts, read on `cur`."""
    now_aware = days.clock.now()
    now = to_naive_utc(now_aware)
    day_start, by_kind = days.today(cur, settings)
    today = by_kind.get(kind, (0, 0))
    found = next_on(cur, kind, settings, today, day_start, now, [])
    due, _new = days.kind_due(cur, kind, settings, today, day_start, now)
    card = StudyCard(card_view(found[0], found[1]), found[2]) if found else None
    preview = intervals(found[0], settings, now_aware) if found else {}
    return StudyView(card, preview, due, max(0, settings.new_per_day - today[0]))


def first_view(db_path: Path | str | None, extra_content: Sequence[Path], clock: Clock,
               kind: str) -> tuple[StudyView, HomeSettings] | None:
    """The first card of `kind` and the settings it was read with, before the study service
    loads; None unless the database and decks need nothing (`home_figures.read_unchanged`)
    and every setting is plainly valid (`settings_limits.home_settings`)."""
    from quizapp.srs.home_figures import read_unchanged
    from quizapp.srs.settings_limits import home_settings
    from quizapp.store import settings as stored_settings

    def read(cur: Tx) -> tuple[StudyView, HomeSettings] | None:
        settings = home_settings(stored_settings.rows(cur))
        if settings is None:
            return None  # a value only the model can read: the service's turn
        return study_view_on(cur, DayCounter(clock), kind, settings), settings

    return read_unchanged(db_path, extra_content, read)
