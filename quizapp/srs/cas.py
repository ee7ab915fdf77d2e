"""Where the screens catch a refused write: StaleCard is raised by the card record's
compare-and-swap (quizapp.store.cards.swap), in the caller's transaction."""

from __future__ import annotations

from quizapp.store.errors import StaleCard as StaleCard

__all__ = ["StaleCard"]
