"""Study service: queues, answering (one transaction per card), undo, limits, search.

Screens call these methods (from worker threads) and get plain objects back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from fsrs import Rating, State
from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from quizapp.content.bilingual import texts_of
from quizapp.content.models import parse_source_ref
from quizapp.srs.cas import StaleCard as StaleCard  # re-exported: callers of answer() catch it here
from quizapp.srs.cas import update_card
from quizapp.srs.clock import Clock, from_naive_utc, to_naive_utc
from quizapp.srs.scheduling import fsrs_values, make_scheduler, preview_intervals, restore_values, snapshot, to_fsrs
from quizapp.srs.settings import Settings, load_settings, save_settings
from quizapp.srs.views import (
    AnswerResult,
    CardView,
    DueCounts,
    ItemDetail,
    ItemSummary,
    ReviewView,
    StudyCard,
)
from quizapp.store.database import Database
from quizapp.store.models import Card, Item, Review

LEARN_AHEAD = timedelta(minutes=20)


class UndoError(Exception):
    pass


def card_view(card: Card, kind: str) -> CardView:
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

    # -- settings -------------------------------------------------------------
    def settings(self) -> Settings:
        with self.db.session() as session:
            return load_settings(session)

    def save_settings(self, settings: Settings, base: Settings | None = None) -> None:
        """Store `settings`. With `base` (the settings the screen started from), only the
        fields changed since then are written, and only if nobody else changed them
        meanwhile (ChangedElsewhere otherwise; nothing is written)."""
        with self.db.session() as session, session.begin():
            save_settings(session, settings, base)

    # -- time -----------------------------------------------------------------
    def now(self) -> datetime:
        return self.clock.now()

    def day_start(self, moment: datetime | None = None, rollover_hour: int | None = None) -> datetime:
        """Start of the study day containing `moment`, as naive UTC."""
        if rollover_hour is None:
            rollover_hour = self.settings().day_rollover_hour
        local = (moment or self.now()).astimezone(self.clock.local_tz())
        start = local.replace(hour=rollover_hour, minute=0, second=0, microsecond=0)
        if local < start:
            start -= timedelta(days=1)
        return to_naive_utc(start)

    # -- counts ---------------------------------------------------------------
    def _today_counts(self, session: Session, day_start: datetime, kind: str | None = None) -> tuple[int, int]:
        """(new cards introduced, reviews of known cards) since `day_start`, for one kind or all.

        Daily limits apply per kind, as Anki's apply per deck: finishing today's new Q&A
        cards must not use up the new multiple-choice questions.
        """
        # Only today's window: reviews stamped in the future by a clock that ran ahead (and
        # was corrected) must not use up today's limits for as long as the skew lasted.
        query = select(Review.card_id, Review.prev_card).where(
            Review.reviewed_at >= day_start, Review.reviewed_at < day_start + timedelta(days=1)
        )
        if kind is not None:
            query = query.join(Card, Card.id == Review.card_id).join(Item).where(Item.kind == kind)
        rows = session.execute(query).all()
        new_cards = {card_id for card_id, prev in rows if (prev or {}).get("reps", 0) == 0}
        reviews = sum(1 for _, prev in rows if (prev or {}).get("reps", 0) > 0)
        return len(new_cards), reviews

    def _streak(self, session: Session, settings: Settings) -> int:
        times = session.scalars(select(Review.reviewed_at).order_by(Review.reviewed_at.desc()).limit(5000)).all()
        if not times:
            return 0
        days = {self.day_start(from_naive_utc(t), settings.day_rollover_hour) for t in times}
        today = self.day_start(None, settings.day_rollover_hour)
        cursor = today if today in days else today - timedelta(days=1)
        streak = 0
        while cursor in days:
            streak += 1
            cursor -= timedelta(days=1)
        return streak

    def _active_cards(self, kind: str | None = None):
        query = select(Card, Item.kind).join(Item).where(Item.retired_at.is_(None), Card.suspended.is_(False))
        if kind:
            query = query.where(Item.kind == kind)
        return query

    def due_counts(self) -> DueCounts:
        settings = self.settings()
        now = to_naive_utc(self.now())
        with self.db.session() as session:
            day_start = self.day_start(None, settings.day_rollover_hour)
            new_done, reviews_done = self._today_counts(session, day_start)
            counts = {}
            new_left_by_kind = {}
            for kind in ("qa", "mcq", "skill"):
                kind_new_done, kind_reviews_done = self._today_counts(session, day_start, kind)
                new_left = max(0, settings.new_per_day - kind_new_done)
                reviews_left = max(0, settings.reviews_per_day - kind_reviews_done)
                due_reviews = session.scalar(
                    select(func.count()).select_from(self._active_cards(kind).where(Card.reps > 0, Card.due <= now).subquery())
                ) or 0
                learning = session.scalar(
                    select(func.count()).select_from(
                        self._active_cards(kind)
                        .where(Card.reps > 0, Card.due <= now, Card.state != int(State.Review))
                        .subquery()
                    )
                ) or 0
                new = session.scalar(
                    select(func.count()).select_from(self._active_cards(kind).where(Card.reps == 0).subquery())
                ) or 0
                review_only = due_reviews - learning
                counts[kind] = learning + min(review_only, reviews_left) + min(new, new_left)
                new_left_by_kind[kind] = min(new, new_left)
            return DueCounts(
                qa=counts["qa"],
                mcq=counts["mcq"],
                skill=counts["skill"],
                new_left=new_left_by_kind["qa"] + new_left_by_kind["mcq"],
                new_done_today=new_done,
                reviews_done_today=reviews_done,
                streak=self._streak(session, settings),
            )

    def new_allowance_left(self, kind: str) -> int:
        """How many more new cards of `kind` today's limit allows (whether or not any exist)."""
        settings = self.settings()
        with self.db.session() as session:
            new_done, _ = self._today_counts(session, self.day_start(None, settings.day_rollover_hour), kind)
        return max(0, settings.new_per_day - new_done)

    # -- queue ----------------------------------------------------------------
    def next_card(self, kind: str, exclude: Iterable[int] = (), only_item: str | None = None) -> StudyCard | None:
        """The next card to show: due learning, due review, new, then learning due soon.

        `only_item` studies one item now regardless of due date (browse → "study now").
        """
        settings = self.settings()
        now = to_naive_utc(self.now())
        excluded = list(exclude)
        with self.db.session() as session:
            if only_item is not None:
                row = session.execute(select(Card, Item).join(Item).where(Item.id == only_item)).first()
                return StudyCard(card_view(row[0], row[1].kind), dict(row[1].payload)) if row else None

            new_done, reviews_done = self._today_counts(
                session, self.day_start(None, settings.day_rollover_hour), kind
            )
            base = self._active_cards(kind)
            if excluded:
                base = base.where(Card.id.not_in(excluded))
            learning_states = (int(State.Learning), int(State.Relearning))
            candidates = [
                base.where(Card.reps > 0, Card.state.in_(learning_states), Card.due <= now).order_by(Card.due),
            ]
            if reviews_done < settings.reviews_per_day:
                candidates.append(
                    base.where(Card.reps > 0, Card.state == int(State.Review), Card.due <= now).order_by(Card.due)
                )
            if new_done < settings.new_per_day:
                candidates.append(base.where(Card.reps == 0).order_by(Item.source_no.is_(None), Item.source_no, Item.id))
            candidates.append(
                base.where(Card.reps > 0, Card.state.in_(learning_states), Card.due <= now + LEARN_AHEAD).order_by(Card.due)
            )
            for query in candidates:
                found = session.execute(query.limit(1)).first()
                if found:
                    card, item_kind = found
                    item = session.get_one(Item, card.item_id)
                    return StudyCard(card_view(card, item_kind), dict(item.payload))
            return None

    def preview(self, card_id: int) -> dict[int, timedelta]:
        settings = self.settings().model_copy(update={"fuzz": False})
        scheduler = make_scheduler(settings)
        with self.db.session() as session:
            card = session.get(Card, card_id)
            if card is None:
                raise KeyError(card_id)
            return {int(r): d for r, d in preview_intervals(scheduler, card, self.now()).items()}

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
        with self.db.session() as session, session.begin():
            return self.answer_in(
                session, card_id, rating, mode=mode, expected_version=expected_version,
                duration_ms=duration_ms, answer=answer, score=score,
            )

    def answer_in(
        self,
        session: Session,
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
        commit together). The caller commits."""
        settings = load_settings(session)
        scheduler = make_scheduler(settings)
        now = self.now()
        card = session.get(Card, card_id)
        if card is None:
            raise KeyError(card_id)
        # The version the user saw; without one (drills rate what they just graded), the one
        # read now. Either way the UPDATE below is what checks it.
        version = card.version if expected_version is None else expected_version
        before = snapshot(card)
        was_review = card.state == int(State.Review)
        reviewed, _log = scheduler.review_card(to_fsrs(card), Rating(rating), review_datetime=now)
        values = {**fsrs_values(reviewed), "reps": card.reps + 1}
        leech_now = False
        if was_review and rating == int(Rating.Again):
            values["lapses"] = card.lapses + 1
            if values["lapses"] >= settings.leech_threshold and not card.leech:
                values["leech"] = True
                leech_now = True
        update_card(session, card, version, values)
        review = Review(
            card_id=card.id,
            mode=mode,
            rating=int(rating),
            reviewed_at=to_naive_utc(now),
            duration_ms=duration_ms,
            answer=answer,
            score=score,
            prev_card=before,
        )
        session.add(review)
        session.flush()
        kind = session.get_one(Item, card.item_id).kind
        return AnswerResult(review_id=review.id, card=card_view(card, kind), rating=int(rating), leech_now=leech_now)

    def undo(self, review_id: int) -> CardView:
        """Restore the card as it was before `review_id` and delete that review."""
        with self.db.session() as session, session.begin():
            review = session.get(Review, review_id)
            if review is None:
                raise UndoError("nothing to undo (the answer is already gone)")
            card = session.get_one(Card, review.card_id)
            latest = session.scalar(select(func.max(Review.id)).where(Review.card_id == card.id))
            if latest != review.id:
                raise UndoError("the card was answered again after this; undo that first")
            update_card(session, card, card.version, restore_values(review.prev_card))
            session.delete(review)
            session.flush()
            kind = session.get_one(Item, card.item_id).kind
            return card_view(card, kind)

    # -- browse ---------------------------------------------------------------
    def search(self, text: str = "", kind: str | None = None, include_retired: bool = False, limit: int = 500) -> list[ItemSummary]:
        text = text.strip()
        with self.db.session() as session:
            query = select(Item, Card).outerjoin(Card)
            query = query.where(Item.kind == kind) if kind else query.where(Item.kind.in_(("qa", "mcq")))
            if not include_retired:
                query = query.where(Item.retired_at.is_(None))
            number = parse_source_ref(text) if text else None
            if number is not None:
                query = query.where(Item.source_no == number)
            elif text:
                like = f"%{text.lower()}%"
                query = query.where(
                    or_(
                        func.lower(Item.id).like(like),
                        func.lower(Item.question).like(like),
                        func.lower(func.json_extract(Item.payload, "$.question.en")).like(like),
                        func.lower(func.json_extract(Item.payload, "$.answer.zh")).like(like),
                        func.lower(func.json_extract(Item.payload, "$.answer.en")).like(like),
                        func.lower(Item.tags).like(like),
                    )
                )
            query = query.order_by(Item.kind.desc(), Item.source_no.is_(None), Item.source_no, Item.id).limit(limit)
            return [summary_view(item, card) for item, card in session.execute(query)]

    def item_detail(self, item_id: str) -> ItemDetail | None:
        settings = self.settings()
        scheduler = make_scheduler(settings)
        with self.db.session() as session:
            item = session.get(Item, item_id)
            if item is None:
                return None
            card = item.card
            retrievability = None
            reviews: list[ReviewView] = []
            if card is not None:
                if card.reps:
                    retrievability = float(scheduler.get_card_retrievability(to_fsrs(card), self.now()))
                reviews = [
                    ReviewView(r.id, r.mode, r.rating, from_naive_utc(r.reviewed_at), r.duration_ms, r.score)
                    for r in session.scalars(select(Review).where(Review.card_id == card.id).order_by(Review.id.desc()))
                ]
            return ItemDetail(
                summary=summary_view(item, card),
                item=dict(item.payload),
                card=card_view(card, item.kind) if card else None,
                retrievability=retrievability,
                reviews=reviews,
            )

    def set_suspended(self, item_id: str, suspended: bool, expected_version: int | None = None) -> None:
        """Suspend or unsuspend; with `expected_version` (the card as shown), refuse with
        StaleCard if it changed meanwhile."""
        with self.db.session() as session, session.begin():
            card = session.scalar(select(Card).where(Card.item_id == item_id))
            if card is None:
                raise KeyError(item_id)
            version = card.version if expected_version is None else expected_version
            update_card(session, card, version, {"suspended": suspended})

    def make_due_now(self, item_ids: Sequence[str]) -> int:
        """Pull cards forward so they are due now (mock report → "review these")."""
        now = to_naive_utc(self.now())
        with self.db.session() as session, session.begin():
            cards = session.scalars(select(Card).where(Card.item_id.in_(list(item_ids)))).all()
            for card in cards:
                values: dict[str, Any] = {"suspended": False}
                if card.reps > 0 and card.due > now:
                    values["due"] = now
                update_card(session, card, card.version, values)
            return len(cards)

    def totals(self) -> dict[str, int]:
        from quizapp.store.models import DrillAttempt, MockInterview

        with self.db.session() as session:
            return {
                "reviews_total": session.scalar(select(func.count(Review.id))) or 0,
                "cards_studied": session.scalar(select(func.count(Card.id)).where(Card.reps > 0)) or 0,
                "drill_attempts": session.scalar(select(func.count(DrillAttempt.id))) or 0,
                "mock_interviews": session.scalar(select(func.count(MockInterview.id))) or 0,
            }

    def retrievabilities(self, kind: str | None = None) -> dict[str, float]:
        """Current recall probability per item id (0 for never-reviewed), for weak-item selection."""
        scheduler = make_scheduler(self.settings())
        now = self.now()
        with self.db.session() as session:
            rows = session.execute(self._active_cards(kind)).all()
            return {
                card.item_id: (float(scheduler.get_card_retrievability(to_fsrs(card), now)) if card.reps else 0.0)
                for card, _ in rows
            }

