"""The built-in bank, loaded once per test process, for the content tests that read an item's
text: loading it costs ~0.13 CPU-s, and those tests look items up about a hundred times."""

from __future__ import annotations

from functools import cache

from quizapp.content.loader import ContentSet, load_builtin
from quizapp.content.models import MCQItem


@cache
def bank() -> ContentSet:
    loaded = load_builtin()
    assert loaded.errors == []
    return loaded


def item(item_id: str):
    """A built-in Q&A item or MCQ, by id."""
    return next(found for found in bank().items if found.id == item_id)


def mcqs() -> dict[str, MCQItem]:
    """The built-in MCQs by id."""
    return {found.id: found for found in bank().mcq}
