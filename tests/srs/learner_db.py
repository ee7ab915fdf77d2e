"""Write a simulated learner's reviews into a real collection (items, cards, reviews)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import insert, select

from quizapp.srs.clock import to_naive_utc
from quizapp.store.database import Database
from quizapp.store.models import Card, Item, Review
from tests.srs.simulated_learner import SimulatedReview

NOW = datetime(2026, 1, 1)


def add_learner(db: Database, reviews: Sequence[SimulatedReview], prefix: str = "sim") -> int:
    """One user item and card per simulated card, and every review (the schema's triggers
    keep the tallies); returns the number of reviews written."""
    card_ids = sorted({r.card_id for r in reviews})
    with db.session() as session, session.begin():
        session.execute(insert(Item), [
            {"id": f"{prefix}-{n}", "kind": "qa", "question": f"simulated {n}", "tags": [], "payload": {},
             "content_hash": "", "origin": "user", "created_at": NOW, "updated_at": NOW}
            for n in card_ids
        ])
        session.execute(insert(Card), [
            {"item_id": f"{prefix}-{n}", "state": 2, "due": NOW, "reps": 1} for n in card_ids
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
