"""Compare-and-swap writes of a card: the database, not Python, decides who wins.

`UPDATE cards SET … , version = version + 1 WHERE id = ? AND version = ?` and then the row
count, in the caller's transaction (the same one as the review insert). When another window
or process changed the card after it was shown, no row matches, the caller's transaction is
rolled back by the exception, and the user sees "changed elsewhere". This is what Anki does
(`rslib/src/storage/sqlite.rs`), and it holds even if two processes read the same version.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from quizapp.store.errors import ChangedElsewhere
from quizapp.store.models import Card


class StaleCard(ChangedElsewhere):
    """The card changed since it was shown (another window answered it); nothing was saved."""


def update_card(session: Session, card: Card, expected_version: int, values: dict[str, Any]) -> None:
    """Write `values` to `card` only if its stored version is still `expected_version`.

    The in-session `card` is brought up to date (the ORM evaluates the same WHERE).
    """
    result = session.execute(
        update(Card)
        .where(Card.id == card.id, Card.version == expected_version)
        .values(**values, version=expected_version + 1)
        .execution_options(synchronize_session="fetch")
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleCard(f"card {card.item_id} changed elsewhere since it was shown; nothing was saved")
