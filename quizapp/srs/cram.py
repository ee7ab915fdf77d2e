"""Cram: study a chosen set of cards ahead of their schedule, as Anki's filtered decks do.

The set is one of four kinds (`CramSet.kind`):

* ``tags`` — the studied cards whose item has any of `tags` (topics are tags);
* ``topic`` — every card of the one topic `tags[0]`, new cards too, to go through it all;
* ``weakest`` — the `count` studied cards least likely to be recalled now (FSRS retrievability);
* ``due`` — the studied cards due before the end of the study day `days` days from today.

Suspended cards and retired items are never chosen. By default (`Settings.cram_reschedules`
False) an answer leaves the card exactly as it was and is stored as a review of mode
`cram`: undo, export and the stats' separate count see it; today's limits, the streak,
the heatmap, the retention figures and the FSRS fit do not (revision 0008,
`quizapp.srs.review_history`). With the setting on, an answer is an ordinary early review
(mode `study`), rescheduling the card as Anki's "reschedule cards based on my answers".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from quizapp.srs.cas import StaleCard
from quizapp.srs.clock import to_naive_utc
from quizapp.srs.scheduling import make_scheduler, to_fsrs
from quizapp.srs.service import StudyService, card_view
from quizapp.srs.views import AnswerResult, StudyCard
from quizapp.store import cards, reviews
from quizapp.store.cards import CardRow

CramKind = Literal["tags", "topic", "weakest", "due"]
CRAM_KINDS: tuple[CramKind, ...] = ("tags", "topic", "weakest", "due")
MAX_COUNT = 500
MAX_DAYS = 60


class CramSetError(ValueError):
    """A set that cannot be chosen (no tag, a count or day span out of range): one line."""


@dataclass(frozen=True)
class CramSet:
    kind: CramKind
    tags: tuple[str, ...] = ()
    count: int = 20
    days: int = 3
    item_kind: str = "qa"

    def problem(self) -> str | None:
        if self.kind not in CRAM_KINDS:
            return f"unknown cram set {self.kind!r} (one of {', '.join(CRAM_KINDS)})"
        if self.kind in ("tags", "topic") and not [t for t in self.tags if t.strip()]:
            return "name at least one topic" if self.kind == "tags" else "name the topic"
        if self.kind == "topic" and len(self.tags) != 1:
            return "name exactly one topic"
        if self.kind == "weakest" and not 1 <= self.count <= MAX_COUNT:
            return f"the number of cards must be 1–{MAX_COUNT}"
        if self.kind == "due" and not 1 <= self.days <= MAX_DAYS:
            return f"the number of days must be 1–{MAX_DAYS}"
        return None


def choose(service: StudyService, chosen: CramSet) -> list[int]:
    """The card ids of the set, in the order they are studied (weakest or earliest first)."""
    if (problem := chosen.problem()) is not None:
        raise CramSetError(problem)
    now = service.now()
    scheduler = make_scheduler(service.settings(), fuzz=False)
    due_before = service.day_window(now + timedelta(days=chosen.days))[1] if chosen.kind == "due" else None
    with service.db.transaction() as tx:
        # (due: the end of the study day `days` days on — the day's rollover, not midnight)
        rows = cards.shown_with_items(tx, chosen.item_kind, studied=chosen.kind != "topic", due_before=due_before)
    wanted = {t.strip() for t in chosen.tags if t.strip()}
    if wanted:
        rows = [row for row in rows if wanted & set(row[1])]

    def recall(card: CardRow) -> float:
        return float(scheduler.get_card_retrievability(to_fsrs(card), now)) if card.reps else 0.0

    if chosen.kind == "due":
        ordered = sorted(rows, key=lambda r: (r[0].due, r[0].item_id))
    elif chosen.kind == "topic":
        # Studied cards weakest first, then the new ones in bank order.
        ordered = sorted(rows, key=lambda r: (r[0].reps == 0, recall(r[0]) if r[0].reps else 0.0,
                                              r[2] or 0, r[0].item_id))
    else:
        ordered = sorted(rows, key=lambda r: (recall(r[0]), r[0].item_id))
    if chosen.kind == "weakest":
        ordered = ordered[:chosen.count]
    return [card.id for card, _tags, _number in ordered]


def cram_card(service: StudyService, card_id: int) -> StudyCard | None:
    with service.db.transaction() as cur:
        found = cards.read_with_item(cur, card_id=card_id)
    return StudyCard(card_view(found[0], found[1]), found[2]) if found else None


def cram_answer(service: StudyService, card_id: int, rating: int, *, reschedule: bool,
                expected_version: int | None = None, duration_ms: int | None = None) -> AnswerResult:
    """Store one cram answer (its own transaction). Without `reschedule` the card is not
    written: the review row holds it as it was, so undo (`StudyService.undo`) restores the
    same values and deletes the row."""
    if reschedule:
        return service.answer(card_id, rating, mode="study", expected_version=expected_version,
                              duration_ms=duration_ms)
    if rating not in (1, 2, 3, 4):
        raise ValueError(f"rating must be 1–4, not {rating}")
    with service.db.transaction(write=True) as cur:
        card = cards.read(cur, card_id)
        if card is None:
            raise KeyError(card_id)
        if expected_version is not None and card.version != expected_version:
            raise StaleCard(card.item_id)
        review_id = reviews.insert(cur, card, mode="cram", rating=rating,
                                        reviewed_at=to_naive_utc(service.now()), duration_ms=duration_ms,
                                        answer=None, score=None)
    return AnswerResult(review_id=review_id, card=card_view(card, card.kind or ""), rating=rating)

