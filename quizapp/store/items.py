"""One item with its card, as ORM objects (Browse's detail: a cold path)."""

from __future__ import annotations

from quizapp.store.models import Card, Item
from quizapp.store.tx import Tx


def with_card(tx: Tx, item_id: str) -> tuple[Item, Card | None] | None:
    """The item and its card (None when the item is unknown), loaded in the Tx's session."""
    item = tx.session().get(Item, item_id)
    return None if item is None else (item, item.card)
