"""What a review session has answered so far, and what that adds up to.

`SessionScreen` holds one `SessionRecord`: the answers it stored (newest last, so undo
takes the last), which of those cards are still in learning, when the next of them is due
again, and the lines of the end-of-session summary. It reads the app's clock (a FixedClock
in tests, given at `start`) and touches no widget, so the screen keeps the flow and this keeps the counting.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from fsrs import State

if TYPE_CHECKING:
    from quizapp.srs.clock import Clock
    from quizapp.srs.views import AnswerResult, CardView, StudyCard

LEARNING_STATES = (State.Learning, State.Relearning)


@dataclass
class Answer:
    """One answered card of this session: enough to undo it and to count it."""

    review_id: int
    card: StudyCard  # as it was shown (before the answer)
    rating: int
    after: CardView  # its state after the answer


class SessionRecord:
    """The answers of one session, oldest first, and the figures its summary shows."""

    def __init__(self) -> None:
        self.answers: list[Answer] = []
        self.clock: Clock | None = None
        self.started_at = 0.0

    def start(self, clock: Clock) -> None:
        """The session begins (the screen is mounted and the app's clock is at hand)."""
        self.clock = clock
        self.started_at = clock.monotonic()

    @property
    def _clock(self) -> Clock:
        assert self.clock is not None, "SessionRecord.start() comes first"
        return self.clock

    def add(self, result: AnswerResult, card: StudyCard) -> None:
        self.answers.append(Answer(result.review_id, card, result.rating, result.card))

    def drop(self, review_id: int) -> None:
        """Forget an undone answer (only the newest can be undone)."""
        if self.answers and self.answers[-1].review_id == review_id:
            self.answers.pop()

    def learning_views(self) -> list[CardView]:
        latest = {answer.after.card_id: answer.after for answer in self.answers}
        return [view for view in latest.values() if view.state in LEARNING_STATES]

    def has_learning_cards(self) -> bool:
        return bool(self.learning_views())

    def come_back_minutes(self) -> int | None:
        """Minutes until the next learning card of this session is due, if one is waiting."""
        now: datetime = self._clock.now()
        waiting = [view.due for view in self.learning_views() if view.due > now]
        if not waiting:
            return None
        return max(1, math.ceil((min(waiting) - now).total_seconds() / 60))

    def summary_lines(self, t: Callable[..., str], new_left: int | None, come_back: bool) -> list[str]:
        """The summary above the leave hint; `come_back` offers the wait for learning cards."""
        lines = []
        if not self.answers:
            lines.append(t("session.nothing_due"))
            if new_left == 0:
                lines.append(t("session.new_limit"))
        else:
            tally: Counter[Any] = Counter(answer.rating for answer in self.answers)
            lines.append(t("session.done_title"))
            lines.append("")
            lines.append(t("session.done_count", n=len(self.answers)))
            lines.append("  ".join(f"{t(f'rating.{r}')} {tally.get(r, 0)}" for r in (1, 2, 3, 4)))
            minutes = max(0, round((self._clock.monotonic() - self.started_at) / 60))
            lines.append(t("session.time", minutes=minutes))
        wait = self.come_back_minutes()
        if wait is not None and come_back:
            lines.append("")
            lines.append(t("session.come_back", minutes=wait))
        return lines
