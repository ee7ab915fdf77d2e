"""Study service: queues, answering (one transaction per card), undo, limits, search.

Screens call these methods (from worker threads) and get plain objects back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from fsrs import Rating, State
from sqlalchemy import and_, case, column, func, select, table
from sqlalchemy import text as text_clause
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
KINDS = ("qa", "mcq", "skill")


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
        # Streak of the days before today, keyed by (today, rollover hour): answers land in
        # today, so past days only change by undo (which clears it) or by an import run in
        # another process while this one is open (seen after the next day starts).
        self._past_streak: tuple[tuple[datetime, int], int] | None = None
        # Today's counters, keyed by (day start, newest review id): an answer (here or in
        # another process) makes a new id; undo here clears it. One study step asks for them
        # four times (next card twice, due counts, new allowance) and reads them once.
        self._today_memo: tuple[tuple[datetime, int | None], dict[str, tuple[int, int]]] | None = None

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
    def _today_by_kind(self, session: Session, day_start: datetime) -> dict[str, tuple[int, int]]:
        """kind -> (new cards introduced, reviews of known cards) in the study day from `day_start`.

        Starts from ix_reviews_reviewed_at and reads only today's reviews. The day has an
        end as well as a start: reviews stamped in the future (the clock ran ahead, then
        was put right) belong to their own day, not to every day until then.
        Daily limits apply per kind, as Anki's apply per deck: finishing today's new Q&A
        cards must not use up the new multiple-choice questions.
        """
        newest = session.scalar(select(func.max(Review.id)))
        key = (day_start, newest)
        if self._today_memo is not None and self._today_memo[0] == key:
            return self._today_memo[1]
        # One row of sums, computed in SQLite over today's index range (no rows to Python,
        # no GROUP BY sort). A card's first answer is the one review with prev_reps = 0.
        window = (Review.reviewed_at >= day_start, Review.reviewed_at < day_start + timedelta(days=1))
        sums = []
        for kind in KINDS:
            is_kind = Card.kind == kind
            sums.append(func.coalesce(func.sum(case((and_(is_kind, Review.prev_reps == 0), 1), else_=0)), 0))
            sums.append(func.coalesce(func.sum(case((and_(is_kind, Review.prev_reps > 0), 1), else_=0)), 0))
        row = session.execute(
            select(*sums).select_from(Review).join(Card, Card.id == Review.card_id).where(*window)
        ).one()
        counts = {kind: (int(row[2 * i]), int(row[2 * i + 1])) for i, kind in enumerate(KINDS)}
        self._today_memo = (key, counts)
        return counts

    def _today_counts(self, session: Session, day_start: datetime, kind: str | None = None) -> tuple[int, int]:
        """(new cards introduced, reviews of known cards) today, for one kind or all."""
        by_kind = self._today_by_kind(session, day_start)
        if kind is not None:
            return by_kind.get(kind, (0, 0))
        return sum(n for n, _ in by_kind.values()), sum(r for _, r in by_kind.values())

    def _streak(self, session: Session, settings: Settings) -> int:
        """Consecutive study days ending today (or yesterday): one index probe per day.

        A long streak means hundreds of probes, so they go straight to the driver
        (a few microseconds each on ix_reviews_reviewed_at) rather than through the ORM.
        """
        hour = settings.day_rollover_hour
        today = self.day_start(None, hour)
        cursor = session.connection().connection.driver_connection.cursor()  # type: ignore[union-attr]
        probe = "SELECT 1 FROM reviews WHERE reviewed_at >= ? AND reviewed_at < ? LIMIT 1"

        def stored(moment: datetime) -> str:
            return moment.strftime("%Y-%m-%d %H:%M:%S.%f")  # SQLAlchemy's DateTime text on SQLite

        def studied(start: datetime, end: datetime) -> bool:
            return cursor.execute(probe, (stored(start), stored(end))).fetchone() is not None

        def previous(start: datetime) -> datetime:
            # The day before, found through the zone (a day is 23 or 25 hours across DST).
            return self.day_start(from_naive_utc(start - timedelta(hours=1)), hour)

        key = (today, hour)
        if self._past_streak is not None and self._past_streak[0] == key:
            past = self._past_streak[1]
        else:
            past = 0
            start, end = previous(today), today
            while studied(start, end):
                past += 1
                start, end = previous(start), start
            self._past_streak = (key, past)
        if studied(today, today + timedelta(days=1)):
            return past + 1
        return past

    def _active_cards(self, kind: str | None = None):
        query = select(Card, Item.kind).join(Item).where(Item.retired_at.is_(None), Card.suspended.is_(False))
        if kind:
            query = query.where(Item.kind == kind)
        return query

    def _active_ids(self, kind: str):
        """Card ids of `kind` that can be studied (filters only; callers add the index terms)."""
        return (
            select(Card.id)
            .join(Item, Item.id == Card.item_id)
            .where(Card.kind == kind, Item.retired_at.is_(None), Card.suspended.is_(False))
        )

    def _bounded_count(self, session: Session, query, limit: int | None) -> int:
        """COUNT over `query`, stopping at `limit`: a count capped by a daily limit never
        needs to walk past it (a 10,000-card backlog with 200 reviews a day reads 200 rows)."""
        if limit is not None:
            if limit <= 0:
                return 0
            query = query.limit(limit)
        return session.scalar(select(func.count()).select_from(query.subquery())) or 0

    def due_counts(self) -> DueCounts:
        settings = self.settings()
        now = to_naive_utc(self.now())
        with self.db.session() as session:
            day_start = self.day_start(None, settings.day_rollover_hour)
            today = self._today_by_kind(session, day_start)
            counts = {}
            new_left_by_kind = {}
            for kind in ("qa", "mcq", "skill"):
                kind_new_done, kind_reviews_done = today.get(kind, (0, 0))
                new_left = max(0, settings.new_per_day - kind_new_done)
                reviews_left = max(0, settings.reviews_per_day - kind_reviews_done)
                active = self._active_ids(kind)
                learning = sum(
                    self._bounded_count(session, active.where(Card.state == state, Card.due <= now, Card.reps > 0), None)
                    for state in (int(State.Learning), int(State.Relearning))
                )
                review_due = self._bounded_count(
                    session, active.where(Card.state == int(State.Review), Card.due <= now, Card.reps > 0), reviews_left
                )
                new = self._bounded_count(session, active.where(Card.reps == 0), new_left)
                counts[kind] = learning + review_due + new
                new_left_by_kind[kind] = new
            return DueCounts(
                qa=counts["qa"],
                mcq=counts["mcq"],
                skill=counts["skill"],
                new_left=new_left_by_kind["qa"] + new_left_by_kind["mcq"],
                new_done_today=sum(n for n, _ in today.values()),
                reviews_done_today=sum(r for _, r in today.values()),
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
        Each candidate query walks an index in the order it wants and stops at the first
        card that fits (ix_cards_kind_state_due, ix_items_kind_order), so the cost does not
        grow with the collection.
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
            active = self._active_ids(kind)
            if excluded:
                active = active.where(Card.id.not_in(excluded))
            learning_states = (int(State.Learning), int(State.Relearning))

            def earliest(states: Sequence[int], until: datetime) -> int | None:
                # One ordered index walk per state, then the earlier of the two.
                best: tuple[datetime, int] | None = None
                for state in states:
                    row = session.execute(
                        active.add_columns(Card.due)
                        .where(Card.state == state, Card.reps > 0, Card.due <= until)
                        .order_by(Card.due)
                        .limit(1)
                    ).first()
                    if row is not None and (best is None or row[1] < best[0]):
                        best = (row[1], row[0])
                return best[1] if best else None

            def first_new() -> int | None:
                if session.scalar(active.where(Card.reps == 0).limit(1)) is None:
                    return None
                numbered = active.where(Card.reps == 0)
                # Driven from items (bank order) with the kind on items, not cards.
                numbered = numbered.where(Item.kind == kind)
                for query in (
                    numbered.where(Item.source_no.is_not(None)).order_by(Item.kind, Item.source_no, Item.id),
                    numbered.where(Item.source_no.is_(None)).order_by(Item.kind, Item.source_no, Item.id),
                ):
                    card_id = session.scalar(query.limit(1))
                    if card_id is not None:
                        return card_id
                return None

            card_id = earliest(learning_states, now)
            if card_id is None and reviews_done < settings.reviews_per_day:
                card_id = earliest((int(State.Review),), now)
            if card_id is None and new_done < settings.new_per_day:
                card_id = first_new()
            if card_id is None:
                card_id = earliest(learning_states, now + LEARN_AHEAD)
            if card_id is None:
                return None
            card = session.get_one(Card, card_id)
            item = session.get_one(Item, card.item_id)
            return StudyCard(card_view(card, item.kind), dict(item.payload))

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
        self._past_streak = None
        self._today_memo = None
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
        """Items matching `text`: `Q24` by bank number, else a full-text match, best first.

        The text index (items_fts, FTS5 with the trigram tokenizer) holds every string of
        an item in every language it has (question, answers, options, key points, tags,
        id), so Chinese and English both match as substrings. Trigrams need 3 characters;
        shorter text (common in Chinese: 方差, 掩码) is matched with LIKE on the same
        index's text, stopping at `limit`.
        """
        text = text.strip()
        with self.db.session() as session:
            # Only the columns a summary shows (the payload's question, not the whole item):
            # a search may return hundreds of rows.
            query = select(
                Item.id, Item.kind, Item.source_no, Item.group, Item.section, Item.question, Item.tags,
                Item.retired_at, Card.suspended, Item.payload["question"].label("question_payload"),
            ).outerjoin(Card)
            query = query.where(Item.kind == kind) if kind else query.where(Item.kind.in_(("qa", "mcq")))
            if not include_retired:
                query = query.where(Item.retired_at.is_(None))
            number = parse_source_ref(text) if text else None
            order = (Item.kind.desc(), Item.source_no.is_(None), Item.source_no, Item.id)
            if number is not None:
                query = query.where(Item.source_no == number).order_by(*order)
            elif text:
                fts = table("items_fts", column("rowid"), column("body"), column("rank"))
                if len(text) >= 3:
                    phrase = '"' + text.replace('"', '""') + '"'
                    hits = select(fts.c.rowid, fts.c.rank).where(text_clause("items_fts MATCH :q").bindparams(q=phrase))
                    ranked = hits.subquery()
                    query = query.join(ranked, ranked.c.rowid == Card.id).order_by(ranked.c.rank, *order)
                else:
                    like = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
                    hits = select(fts.c.rowid).where(fts.c.body.like(like, escape="\\")).limit(limit * 4)
                    query = query.where(Card.id.in_(hits)).order_by(*order)
            else:
                query = query.order_by(*order)
            return [
                ItemSummary(
                    item_id=row.id, kind=row.kind, source_no=row.source_no, group=row.group, section=row.section,
                    question=row.question, tags=list(row.tags or []), suspended=bool(row.suspended),
                    retired=row.retired_at is not None, question_texts=texts_of(row.question_payload),
                )
                for row in session.execute(query.limit(limit))
            ]

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

