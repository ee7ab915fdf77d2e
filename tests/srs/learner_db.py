"""Write a simulated learner's reviews into a real collection (items, cards, reviews)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler
from sqlalchemy import insert, select

from quizapp.srs.clock import to_naive_utc
from quizapp.srs.scheduling import fsrs_values
from quizapp.store.database import Database
from quizapp.store.models import Card, Item, Review
from tests.srs.simulated_learner import SimulatedReview

NOW = datetime(2026, 1, 1)


def add_learner(db: Database, reviews: Sequence[SimulatedReview], prefix: str = "sim") -> int:
    """One user item and card per simulated card, and every review (the schema's triggers
    keep the tallies); returns the number of reviews written."""
    card_ids = sorted({r.card_id for r in reviews})
    states = _cards_as_scheduled(reviews)
    with db.session() as session, session.begin():
        session.execute(insert(Item), [
            {"id": f"{prefix}-{n}", "kind": "qa", "question": f"simulated {n}", "tags": [], "payload": {},
             "content_hash": "", "origin": "user", "created_at": NOW, "updated_at": NOW}
            for n in card_ids
        ])
        session.execute(insert(Card), [
            {"item_id": f"{prefix}-{n}", **states[n]} for n in card_ids
        ])
        rows = session.execute(select(Card.item_id, Card.id).where(Card.item_id.like(f"{prefix}-%")))
        ids = {item_id: card_id for item_id, card_id in rows}
        session.execute(insert(Review), [
            {"card_id": ids[f"{prefix}-{r.card_id}"], "mode": "study", "rating": r.rating,
             "reviewed_at": to_naive_utc(r.reviewed_at), "prev_state": 1, "prev_reps": 0, "prev_lapses": 0,
             "prev_leech": False, "prev_suspended": False}
            for r in reviews
        ])
    return len(reviews)


def _cards_as_scheduled(reviews: Sequence[SimulatedReview]) -> dict[int, dict[str, Any]]:
    """Each card as the app would have stored it after these reviews (its default
    scheduler, unfuzzed): what readiness and the forecast read."""
    scheduler = Scheduler(enable_fuzzing=False)
    cards: dict[int, FsrsCard] = {}
    reps: dict[int, int] = {}
    for review in sorted(reviews, key=lambda r: (r.card_id, r.reviewed_at)):
        card = cards.get(review.card_id) or FsrsCard(card_id=review.card_id)
        cards[review.card_id], _ = scheduler.review_card(card, Rating(review.rating), review_datetime=review.reviewed_at)
        reps[review.card_id] = reps.get(review.card_id, 0) + 1
    return {n: {**fsrs_values(card), "reps": reps[n]} for n, card in cards.items()}
