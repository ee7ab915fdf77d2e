"""Study service: queues, answering (one transaction per card), undo, limits, search.

Screens call these methods (from worker threads) and get plain objects back.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from fsrs import Rating, State

from quizapp.content.bilingual import texts_of
from quizapp.srs.clock import Clock, from_naive_utc, to_naive_utc
from quizapp.srs.counts import DayCounter, DueCounts
from quizapp.srs.home_figures import HomeFigures
from quizapp.srs.readiness import readiness
from quizapp.srs.scheduling import (
    fsrs_values,
    make_scheduler,
    restore_values,
    to_fsrs,
)
from quizapp.srs.search import LabelFilter, search_items
from quizapp.srs.settings import Settings, load_settings, save_settings, settings_from_rows
from quizapp.srs.study_view import card_view as card_view  # re-exported: drills and cram use it
from quizapp.srs.study_view import intervals, next_on, study_view_on
from quizapp.srs.views import (
    AnswerResult,
    CardView,
    ItemDetail,
    ItemSummary,
    ReviewView,
    StudyCard,
    StudyView,
)
from quizapp.store import cards, items, reviews, stats_queries
from quizapp.store import settings as stored_settings
from quizapp.store.cards import CardRow
from quizapp.store.database import Database
from quizapp.store.errors import StaleCard as StaleCard  # re-exported: callers of answer() catch it here
from quizapp.store.models import Card, Item
from quizapp.store.tx import Tx

KINDS = ("qa", "mcq", "skill")


class UndoError(Exception):
    pass


def summary_view(item: Item, card: Card | None) -> ItemSummary:
    return ItemSummary(
        item_id=item.id,
        kind=item.kind,
        source_no=item.source_no,
        group=item.group,
        section=item.section,
        question=item.question,
        tags=list(item.tags or []),
        suspended=bool(card and card.suspended),
        retired=item.retired_at is not None,
        question_texts=texts_of((item.payload or {}).get("question")),
    )


class StudyService:
    def __init__(self, db: Database, clock: Clock | None = None) -> None:
        self.db = db
        self.clock = clock or Clock()
        # Study days, today's counts and the remembered streak (shared with Home's first figures).
        self.days = DayCounter(self.clock)

    # -- settings -------------------------------------------------------------
    def settings(self) -> Settings:
        with self.db.transaction() as tx:
            return load_settings(tx)

    def save_settings(self, settings: Settings, base: Settings | None = None) -> None:
        """Store `settings`. With `base` (the settings the screen started from), only the
        fields changed since then are written, and only if nobody else changed them
        meanwhile (ChangedElsewhere otherwise; nothing is written)."""
        with self.db.transaction(write=True) as tx:
            save_settings(tx, settings, base)

    # -- time -----------------------------------------------------------------
    def now(self) -> datetime:
        return self.clock.now()

    def day_start(self, moment: datetime | None = None, rollover_hour: int | None = None) -> datetime:
        """Start of the study day containing `moment`, as naive UTC."""
        if rollover_hour is None:
            rollover_hour = self.settings().day_rollover_hour
        return self.days.day_start(moment, rollover_hour)

    def day_window(self, moment: datetime | None = None, rollover_hour: int | None = None) -> tuple[datetime, datetime]:
        """The study day containing `moment`: its start and the next day's start, naive UTC
        (23 or 25 hours apart across a DST change)."""
        if rollover_hour is None:
            rollover_hour = self.settings().day_rollover_hour
        return self.days.day_window(moment, rollover_hour)

    # -- counts ---------------------------------------------------------------
    def due_counts(self) -> DueCounts:
        with self.db.transaction() as cur:
            return self.days.due_counts(cur, settings_from_rows(stored_settings.rows(cur), shared=True))

    def home_figures(self) -> HomeFigures:
        """Home's counts, readiness and the settings, from one read transaction (what
        `quizapp.srs.home_figures` reads without the service on an ordinary start)."""
        with self.db.transaction() as cur:
            settings = settings_from_rows(stored_settings.rows(cur), shared=True)
            return HomeFigures(self.days.due_counts(cur, settings), readiness(cur, self.clock, settings), settings)

    def new_allowance_left(self, kind: str) -> int:
        """How many more new cards of `kind` today's limit allows (whether or not any exist)."""
        with self.db.transaction() as cur:
            settings = settings_from_rows(stored_settings.rows(cur), shared=True)
            new_done, _ = self.days.today(cur, settings)[1].get(kind, (0, 0))
        return max(0, settings.new_per_day - new_done)

    # -- queue ----------------------------------------------------------------
    def next_card(self, kind: str, exclude: Iterable[int] = (), only_item: str | None = None) -> StudyCard | None:
        """The next card to show: due learning, due review, new, then learning due soon.

        `only_item` studies one item now regardless of due date (browse → "study now").
        Each candidate query walks a partial index of cards in the order it wants and stops
        at the first card that fits (quizapp.store.cards), so the cost does not grow with the
        collection.
        """
        now = to_naive_utc(self.now())
        with self.db.transaction() as cur:
            if only_item is not None:
                found = cards.read_with_item(cur, item_id=only_item)
            else:
                settings = settings_from_rows(stored_settings.rows(cur), shared=True)
                day_start, by_kind = self.days.today(cur, settings)
                found = self._next_on(cur, kind, settings, by_kind.get(kind, (0, 0)), day_start, now, list(exclude))
        return StudyCard(card_view(found[0], found[1]), found[2]) if found else None

    def study_view(self, kind: str) -> StudyView:
        """What the Study screen shows after each answer, from one read transaction: the
        next card (as `next_card`), its buttons' intervals, how many cards of `kind` are due
        now and how many new ones today's limit still allows (`quizapp.srs.study_view`)."""
        with self.db.transaction() as cur:
            return study_view_on(cur, self.days, kind, settings_from_rows(stored_settings.rows(cur), shared=True))

    def _next_on(self, cur: Tx, kind: str, settings: Settings, today: tuple[int, int],
                 day_start: datetime, now: datetime,
                 excluded: list[int]) -> tuple[CardRow, str, dict[str, Any]] | None:
        return next_on(cur, kind, settings, today, day_start, now, excluded)

    def preview(self, card_id: int) -> dict[int, timedelta]:
        """What each rating would schedule for the card now (the buttons' intervals)."""
        with self.db.transaction() as cur:
            settings = settings_from_rows(stored_settings.rows(cur), shared=True)
            card = cards.read(cur, card_id)
        if card is None:
            raise KeyError(card_id)
        return self._intervals(card, settings)

    def _intervals(self, card: CardRow, settings: Settings) -> dict[int, timedelta]:
        return intervals(card, settings, self.now())

    # -- answering ------------------------------------------------------------
    def answer(
        self,
        card_id: int,
        rating: int,
        *,
        mode: str,
        expected_version: int | None = None,
        duration_ms: int | None = None,
        answer: dict[str, Any] | None = None,
        score: float | None = None,
    ) -> AnswerResult:
        """Record one answer in its own transaction; refuse it if the card changed meanwhile."""
        with self.db.transaction(write=True) as cur:
            return self._answer_on(
                cur, card_id, rating, mode=mode, expected_version=expected_version,
                duration_ms=duration_ms, answer=answer, score=score,
            )

    def answer_view(
        self,
        card_id: int,
        rating: int,
        *,
        kind: str,
        mode: str,
        expected_version: int | None = None,
        duration_ms: int | None = None,
        answer: dict[str, Any] | None = None,
        score: float | None = None,
    ) -> tuple[AnswerResult, StudyView]:
        """`answer`, then what the Study screen shows next (`study_view` of `kind`), in the
        answer's transaction: the read sees the answer, and the step is one BEGIN and one
        COMMIT (one fsync) instead of two transactions. A refused answer reads nothing."""
        with self.db.transaction(write=True) as cur:
            settings = settings_from_rows(stored_settings.rows(cur), shared=True)
            result = self._answer_on(
                cur, card_id, rating, mode=mode, expected_version=expected_version,
                duration_ms=duration_ms, answer=answer, score=score, settings=settings,
            )
            return result, study_view_on(cur, self.days, kind, settings)

    def answer_in(
        self,
        tx: Tx,
        card_id: int,
        rating: int,
        *,
        mode: str,
        expected_version: int | None = None,
        duration_ms: int | None = None,
        answer: dict[str, Any] | None = None,
        score: float | None = None,
    ) -> AnswerResult:
        """Record an answer inside the caller's transaction (a drill attempt and its review
        commit together). The caller's Tx commits."""
        result = self._answer_on(
            tx, card_id, rating, mode=mode, expected_version=expected_version,
            duration_ms=duration_ms, answer=answer, score=score,
        )
        tx.written_past_orm(Card, card_id)
        return result

    def _answer_on(
        self,
        cur: Tx,
        card_id: int,
        rating: int,
        *,
        mode: str,
        expected_version: int | None,
        duration_ms: int | None,
        answer: dict[str, Any] | None,
        score: float | None,
        settings: Settings | None = None,
    ) -> AnswerResult:
        """One row read, the compare-and-swap UPDATE, one INSERT (whose trigger counts the
        answer in review_tallies), all on `cur` in its transaction."""
        if settings is None:
            settings = settings_from_rows(stored_settings.rows(cur), shared=True)
        scheduler = make_scheduler(settings)
        now = self.now()
        card = cards.read(cur, card_id)
        if card is None:
            raise KeyError(card_id)
        # The version the user saw; without one (drills rate what they just graded), the one
        # read now. Either way the UPDATE below is what checks it.
        version = card.version if expected_version is None else expected_version
        was_review = card.state == int(State.Review)
        reviewed, _log = scheduler.review_card(to_fsrs(card), Rating(rating), review_datetime=now)
        values = {**fsrs_values(reviewed), "reps": card.reps + 1}
        leech_now = False
        if was_review and rating == int(Rating.Again):
            values["lapses"] = card.lapses + 1
            if values["lapses"] >= settings.leech_threshold and not card.leech:
                values["leech"] = True
                leech_now = True
        after = cards.swap(cur, card, version, values)
        review_id = reviews.insert(
            cur, card, mode=mode, rating=int(rating), reviewed_at=to_naive_utc(now),
            duration_ms=duration_ms, answer=answer, score=score,
        )
        return AnswerResult(review_id=review_id, card=card_view(after, card.kind or ""), rating=int(rating),
                            leech_now=leech_now)

    def undo(self, review_id: int) -> CardView:
        """Restore the card as it was before `review_id` and delete that review."""
        # On the driver, as an answer is written (quizapp.store.cards): through the ORM the
        # same reads and writes cost several times the answer itself.
        with self.db.transaction(write=True) as cur:
            return self._undo_on(cur, review_id)[0]

    def undo_view(self, review_id: int, kind: str) -> StudyView:
        """`undo`, then what the Study screen shows again, in the same transaction: the
        restored card (shown again whatever its due time), its buttons' intervals, the
        cards of `kind` due now and the new cards today's limit still allows."""
        now = to_naive_utc(self.now())
        with self.db.transaction(write=True) as cur:
            card_id = self._undo_on(cur, review_id)[1]
            settings = settings_from_rows(stored_settings.rows(cur), shared=True)
            day_start, by_kind = self.days.today(cur, settings)
            today = by_kind.get(kind, (0, 0))
            found = cards.read_with_item(cur, card_id=card_id)
            due, _new = self.days.kind_due(cur, kind, settings, today, day_start, now)
        card = StudyCard(card_view(found[0], found[1]), found[2]) if found else None
        preview = self._intervals(found[0], settings) if found else {}
        return StudyView(card, preview, due, max(0, settings.new_per_day - today[0]))

    def _undo_on(self, cur: Tx, review_id: int) -> tuple[CardView, int]:
        found = reviews.snapshot(cur, review_id)
        if found is None:
            raise UndoError("nothing to undo (the answer is already gone)")
        # Undoing today's answer leaves the days before today as they were: the streak
        # remembered for them stays (recounting it probes every day of a long streak).
        self.days.forget_streak(reviews.answered_at(cur, review_id))
        card_id, before = found
        card = cards.read(cur, card_id)
        if card is None:
            raise UndoError("nothing to undo (the card is gone)")
        if reviews.latest(cur, card_id) != review_id:
            raise UndoError("the card was answered again after this; undo that first")
        values = restore_values(before)
        after = cards.swap(cur, card, card.version, values)
        reviews.delete(cur, review_id)
        return card_view(after, card.kind or ""), card_id

    # -- browse ---------------------------------------------------------------
    def search(
        self, text: str = "", kind: str | None = None, include_retired: bool = False, limit: int = 500, *,
        tags: Sequence[Collection[str]] = (), label: LabelFilter | None = None, offset: int = 0,
    ) -> list[ItemSummary]:
        """Items matching `text` (`Q24`, words in any language), `tags` and `label`, best
        first, `limit` of them after the first `offset` (quizapp.srs.search)."""
        with self.db.transaction() as cur:
            return search_items(cur, text, kind, include_retired, limit, tags, label, offset)

    def item_detail(self, item_id: str) -> ItemDetail | None:
        settings = self.settings()
        scheduler = make_scheduler(settings)
        with self.db.transaction() as tx:
            found = items.with_card(tx, item_id)
            if found is None:
                return None
            item, card = found
            retrievability = None
            history: list[ReviewView] = []
            if card is not None:
                if card.reps:
                    retrievability = float(scheduler.get_card_retrievability(to_fsrs(card), self.now()))
                history = [ReviewView(review_id, mode, rating, from_naive_utc(at), duration_ms, score)
                           for review_id, mode, rating, at, duration_ms, score in reviews.of_card(tx, card.id)]
            return ItemDetail(
                summary=summary_view(item, card),
                item=dict(item.payload),
                card=card_view(card, item.kind) if card else None,
                retrievability=retrievability,
                reviews=history,
            )

    def set_suspended(self, item_id: str, suspended: bool, expected_version: int | None = None) -> None:
        """Suspend or unsuspend; with `expected_version` (the card as shown), refuse with
        StaleCard if it changed meanwhile."""
        with self.db.transaction(write=True) as tx:
            found = cards.by_item(tx, [item_id])
            if not found:
                raise KeyError(item_id)
            card = found[0]
            cards.swap(tx, card, card.version if expected_version is None else expected_version,
                       {"suspended": suspended})

    def make_due_now(self, item_ids: Sequence[str]) -> int:
        """Pull cards forward so they are due now (mock report → "review these").

        Returns how many cards became due for review (as Home counts "due"): studied cards
        that were not due yet or were suspended. A new card is unsuspended but stays new, and
        one already due was counted before."""
        now = to_naive_utc(self.now())
        with self.db.transaction(write=True) as tx:
            became_due = 0
            for card in cards.by_item(tx, list(item_ids)):
                values: dict[str, Any] = {"suspended": False}
                if card.reps > 0 and (card.due > now or card.suspended):
                    became_due += 1
                if card.reps > 0 and card.due > now:
                    values["due"] = now
                cards.swap(tx, card, card.version, values)
            return became_due

    def totals(self) -> dict[str, int]:
        # Cram answers are counted apart (quizapp.srs.cram; `cram_reviews` in stats).
        with self.db.transaction() as tx:
            return stats_queries.collection_totals(tx)

    def retrievabilities(self, kind: str | None = None) -> dict[str, float]:
        """Current recall probability per item id (0 for never-reviewed), for weak-item selection."""
        scheduler = make_scheduler(self.settings())
        now = self.now()
        with self.db.transaction() as tx:
            rows = cards.shown_with_items(tx, kind)
        return {
            card.item_id: (float(scheduler.get_card_retrievability(to_fsrs(card), now)) if card.reps else 0.0)
            for card, _tags, _number in rows
        }
