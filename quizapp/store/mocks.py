"""Mock interviews' reads for choosing and scoring questions (quizapp.srs.mock_selection,
quizapp.srs.mock_topics): ORM statements on the Tx's session (a cold path: once per
interview or report), but for the two that Stats' first figures read."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, literal_column, select, update
from sqlalchemy.orm import Session, object_session

from quizapp.store.codes import json_value
from quizapp.store.models import Card, Item, MockAnswer, MockInterview, Review
from quizapp.store.tx import Tx

AGAIN = 1  # fsrs.Rating.Again


def cards_of(tx: Tx, item_ids: list[str]) -> list[tuple[str, int, int]]:
    """(item id, card id, reps) of these items' cards."""
    return [(i, c, r) for i, c, r in tx.session().execute(
        select(Card.item_id, Card.id, Card.reps).where(Card.item_id.in_(item_ids)))]


def again_cards_since(tx: Tx, since: datetime) -> list[int]:
    """The card of each Again answer since `since` (ix_reviews_lapses: partial, so the
    rating is a literal, not a parameter). Counted by the caller, not grouped here: a GROUP
    BY would walk every review in card order."""
    return list(tx.session().scalars(select(Review.card_id).where(
        Review.rating == literal_column(str(AGAIN)), Review.reviewed_at >= since)))


def misses_per_item(tx: Tx, below: float) -> dict[str, int]:
    """Per item, the mock answers given that scored under `below`."""
    return {str(item_id): int(n) for item_id, n in tx.session().execute(
        select(MockAnswer.item_id, func.count(MockAnswer.id))
        .where(MockAnswer.answered_at.is_not(None), MockAnswer.score < below)
        .group_by(MockAnswer.item_id))}


def shown_items(tx: Tx, kind: str) -> list[Item]:
    """Active, unsuspended items of `kind`, by id."""
    return list(tx.session().scalars(
        select(Item).join(Card, Card.item_id == Item.id)
        .where(Item.kind == kind, Item.retired_at.is_(None), Card.suspended.is_(False))
        .order_by(Item.id)))


def suspended_items_like(tx: Tx, prefix: str) -> set[str]:
    """Item ids starting with `prefix` whose card is suspended."""
    return set(tx.session().scalars(select(Card.item_id).where(Card.item_id.like(f"{prefix}%"),
                                                                Card.suspended.is_(True))))


# The next two are on the driver, not the ORM: Stats' first figures read them, and an ORM
# statement's first compile (and the mappers' configuration) cost that screen ~20 ms.
def active_qa_payloads(tx: Tx) -> list[tuple[Any, Any]]:
    """(payload, tags) of the active Q&A items, by id."""
    return [(json_value(p), json_value(t)) for p, t in tx.execute(
        "SELECT payload, tags FROM items WHERE kind = 'qa' AND retired_at IS NULL ORDER BY id")]


def answers_of_mocks(tx: Tx, status: str) -> list[tuple[str, Any, float | None, Any]]:
    """(kind, spec, score, the item's tags) of every answer of the interviews in `status`."""
    return [(k, json_value(s), sc, json_value(t)) for k, s, sc, t in tx.execute(
        "SELECT a.kind, a.spec, a.score, i.tags FROM mock_answers a "
        "JOIN mock_interviews m ON m.id = a.mock_id LEFT OUTER JOIN items i ON i.id = a.item_id "
        "WHERE m.status = :status", {"status": status})]


def shown_bank_tags(tx: Tx) -> list[tuple[str, Any]]:
    """(item id, tags) of the active, unsuspended Q&A and MCQ items."""
    return [(i, t) for i, t in tx.session().execute(
        select(Item.id, Item.tags).join(Card, Card.item_id == Item.id)
        .where(Item.kind.in_(("qa", "mcq")), Item.retired_at.is_(None), Card.suspended.is_(False)))]


# -- the interview's own rows ------------------------------------------------------------
def session_of(row: Any) -> Session:
    """The session a loaded row belongs to (the caller's Tx's)."""
    session = object_session(row)
    assert session is not None
    return session


def bank_tags(session: Session) -> list[Any]:
    """The tag lists of the active Q&A and MCQ items (the set-up's topics)."""
    return list(session.scalars(select(Item.tags).where(Item.kind.in_(("qa", "mcq")), Item.retired_at.is_(None))))


def items_by_id(session: Session, item_ids: list[str]) -> dict[str, Item]:
    return {item.id: item for item in session.scalars(select(Item).where(Item.id.in_(item_ids)))}


def card_ids_of(session: Session, item_ids: list[str]) -> dict[str, int]:
    return {item_id: card_id for item_id, card_id in session.execute(
        select(Card.item_id, Card.id).where(Card.item_id.in_(item_ids)))}


def answer_if_unanswered(session: Session, answer: MockAnswer, values: dict[str, Any], elapsed_s: float) -> bool:
    """Compare-and-swap: store `values` on the answer only if it is still unanswered (the
    UPDATE checks it), and add `elapsed_s` to the interview's time in SQL (never
    read-modify-written). False, and nothing written, when it was answered elsewhere."""
    result = session.execute(
        update(MockAnswer).where(MockAnswer.id == answer.id, MockAnswer.answered_at.is_(None)).values(**values)
        .execution_options(synchronize_session="fetch"))
    if result.rowcount != 1:  # type: ignore[attr-defined]
        return False
    session.execute(
        update(MockInterview).where(MockInterview.id == answer.mock_id)
        .values(elapsed_s=func.coalesce(MockInterview.elapsed_s, 0.0) + float(elapsed_s))
        .execution_options(synchronize_session="fetch"))
    return True


def confirm_answer(session: Session, answer: MockAnswer, values: dict[str, Any]) -> bool:
    """Compare-and-swap on the provisional answer's own answered_at: False when it changed."""
    result = session.execute(
        update(MockAnswer).where(MockAnswer.id == answer.id, MockAnswer.answered_at == answer.answered_at)
        .values(**values).execution_options(synchronize_session="fetch"))
    return result.rowcount == 1  # type: ignore[attr-defined]


def answer_counts(session: Session) -> dict[int, tuple[int, int]]:
    """Per interview: (questions, answered)."""
    return {mock_id: (int(total), int(answered)) for mock_id, total, answered in session.execute(
        select(MockAnswer.mock_id, func.count(MockAnswer.id), func.count(MockAnswer.answered_at))
        .group_by(MockAnswer.mock_id))}


def newest_mocks(session: Session, limit: int) -> list[MockInterview]:
    return list(session.scalars(
        select(MockInterview).order_by(MockInterview.started_at.desc(), MockInterview.id.desc()).limit(limit)))


def completed_scores(session: Session, status: str, limit: int) -> list[tuple[datetime, float | None]]:
    """(started at, score) of the last `limit` scored interviews in `status`, newest first."""
    return [(started, score) for started, score in session.execute(
        select(MockInterview.started_at, MockInterview.score)
        .where(MockInterview.status == status, MockInterview.score.is_not(None))
        .order_by(MockInterview.started_at.desc(), MockInterview.id.desc()).limit(limit))]
