"""Cram session: the Study (Q&A) or Multiple-choice screen over a chosen set (quizapp.srs.cram).

Each card of the set is shown once, in the set's order; one rated Again comes back at the
end, until every card is passed. By default the answers leave the schedule as it was, so
the rating buttons show no intervals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.widgets import Static

from quizapp.tui.screens.quiz import QuizScreen
from quizapp.tui.screens.session import SessionScreen
from quizapp.tui.screens.session_record import Answer
from quizapp.tui.screens.study import StudyScreen
from quizapp.tui.widgets.rating_bar import RatingBar

if TYPE_CHECKING:
    from quizapp.srs.views import AnswerResult, StudyCard


class CramSession(SessionScreen):
    """What a cram session changes in a session screen: the cards come from the chosen set,
    the answers are stored by `quizapp.srs.cram`, and nothing comes due into the set."""

    MODE = "cram"
    FETCH_WITH_ANSWER = False  # its own store_answer and _fetch

    def __init__(self, card_ids: list[int], reschedule: bool = False) -> None:
        super().__init__()
        self.reschedule = reschedule
        self.pending = list(card_ids)
        # Per answer of this session: (card id, whether Again put it back at the end), for undo.
        self.steps: list[tuple[int, bool]] = []

    def _fetch(self, answered: int) -> SessionScreen.Loaded:
        from quizapp.srs.cram import cram_card

        card = cram_card(self.study, self.pending[0]) if self.pending else None
        preview = self.study.preview(card.card.card_id) if card is not None and self.reschedule else {}
        return self.Loaded(card, preview, len(self.pending), None)

    def store_answer(self, card: StudyCard, rating: int, duration_ms: int,
                     answer: dict[str, Any] | None) -> AnswerResult:
        from quizapp.srs.cram import cram_answer

        result = cram_answer(self.study, card.card.card_id, rating, reschedule=self.reschedule,
                             expected_version=card.card.version, duration_ms=duration_ms)
        # In the worker, before the next card is fetched from `pending`.
        self.pending.remove(card.card.card_id)
        if rating == 1:
            self.pending.append(card.card.card_id)
        self.steps.append((card.card.card_id, rating == 1))
        return result

    @work(thread=True, exclusive=True, exit_on_error=False, group="session")
    def undo_last(self, answer: Answer) -> None:
        from quizapp.srs.cas import StaleCard
        from quizapp.srs.service import UndoError

        try:
            self.db_write(lambda: self.study.undo(answer.review_id))
        except (UndoError, StaleCard):
            self.post_message(self.Problem("cram.undo_refused"))
            self.post_message(self.Loaded(self.current, self.preview, self.remaining, None))
            return
        card_id, requeued = self.steps.pop()
        if requeued:
            del self.pending[len(self.pending) - 1 - self.pending[::-1].index(card_id)]
        self.pending.insert(0, card_id)
        self.post_message(self.Undone(answer.review_id))
        self.post_message(self._fetch(len(self.history)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "recheck":
            return False  # the set is fixed: nothing comes due into it
        return super().check_action(action, parameters)


class CramScreen(CramSession, StudyScreen):
    """Q&A cards: reveal, then rate 1–4."""

    def render_card_texts(self) -> None:
        super().render_card_texts()
        if not self.reschedule:  # the schedule stays: no interval to show
            self.query_one(RatingBar).set_labels({r: f"{r} {self.t(f'rating.{r}')}" for r in (1, 2, 3, 4)})


class CramQuizScreen(CramSession, QuizScreen):
    """Multiple-choice cards: the choice rates itself, as in Multiple choice."""

    def render_card_texts(self) -> None:
        super().render_card_texts()
        card = self.current
        if self.reschedule or card is None or self.chosen is None or self.rating is None:
            return
        # No "next in …": the schedule stays.
        correct = card.item.get("answer")
        head = self.t("quiz.right") if self.chosen == correct else self.t("quiz.wrong", answer=correct)
        rated = self.t("cram.rated", rating=self.t(f"rating.{self.rating}"))
        self.query_one("#quiz-verdict", Static).update(Text(f"{head}\n{rated}"))
