"""The multiple-choice question of a mock interview: options, then the verdict.

A chosen option is stored at once and the result shown with the explanation. A mixin of
`MockRunScreen`, which owns the state, widgets and messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.widgets import Static

from quizapp.tui.screens.mock_setup import mock_service
from quizapp.tui.screens.quiz import show_options
from quizapp.tui.widgets.math_markdown import MathMarkdown

if TYPE_CHECKING:
    from quizapp.srs.mock import MockQuestion


class MockMCQMixin:
    """Showing an MCQ question, marking the options and storing the choice (uses the
    state, widgets and messages of `MockRunScreen`)."""

    async def _show_mcq(self, question: MockQuestion) -> None:
        item = self.material(question.item)
        await self.query_one("#mock-mcq-question", MathMarkdown).show(item.get("question") or question.question)
        await self.query_one("#mock-mcq-explanation", MathMarkdown).show(item.get("explanation") or "")
        self.query_one("#mock-mcq").scroll_home(animate=False)
        self.set_focus(None)
        self._render_options()

    def _render_options(self) -> None:
        question = self.current
        if question is None or question.kind != "mcq":
            return
        options = self.material(question.item).get("options") or []
        correct = question.item.get("answer") if self.answered is not None else None
        shown = self.answered is not None
        show_options(self, options, correct, self.chosen, shown)
        self.query_one("#mock-mcq-explanation").display = shown
        verdict = self.query_one("#mock-mcq-verdict", Static)
        verdict.display = shown
        if shown:
            if self.chosen is None:
                head = self.t("mock.run.mcq_timeout", answer=correct)
            elif self.chosen == correct:
                head = self.t("mock.run.mcq_right")
            else:
                head = self.t("mock.run.mcq_wrong", answer=correct)
            verdict.update(head)
            verdict.set_class(self.chosen == correct, "-right")
            verdict.set_class(self.chosen != correct, "-wrong")

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-run")
    def _store_mcq(self, position: int, letter: str, used: float) -> None:
        from quizapp.srs.mock import MockError

        try:
            question = self.db_write(lambda: mock_service(self).answer_mcq(self.mock_id, position, letter, used))
        except MockError as exc:
            self.post_message(self.Refused(str(exc)))
            return
        self.post_message(self.Answered(question))
