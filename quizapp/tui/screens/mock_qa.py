"""The Q&A question of a mock interview: typed answer, then the key-point review.

Submitting shows the reference answer and the key points, ticked automatically where the
typed answer already covers them; the user confirms or corrects the ticks before the
answer is stored. A mixin of `MockRunScreen`, which owns the state, widgets and messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.widgets import Static, TextArea

from quizapp.tui.screens.mock_setup import mock_service
from quizapp.tui.widgets.key_points import MAX_POINTS, KeyPointRow
from quizapp.tui.widgets.math_markdown import MathMarkdown, render_math

if TYPE_CHECKING:
    from quizapp.srs.mock import MockQuestion


class MockQAMixin:
    """Showing a Q&A question, reviewing its key points and storing the answer (uses the
    state, widgets and messages of `MockRunScreen`)."""

    async def _show_qa(self, question: MockQuestion) -> None:
        self.typed = ""
        self.auto_points, self.points, self.matched = [], [], []
        item = self.material(question.item)
        await self.query_one("#mock-qa-question", MathMarkdown).show(item.get("question") or question.question)
        await self.query_one("#mock-qa-reference", MathMarkdown).show(item.get("answer") or "")
        area = self.query_one("#mock-qa-text", TextArea)
        area.read_only = False
        area.text = ""
        area.remove_class("-reviewing")
        self.query_one("#mock-qa-review").display = False
        self.query_one("#mock-qa").scroll_home(animate=False)
        area.focus()

    def key_points(self) -> list[dict[str, Any]]:
        question = self.current
        # Texts in the material language; keywords of both languages (either may be typed).
        return list(self.material(question.item).get("key_points") or []) if question else []

    def _start_review(self) -> None:
        from quizapp.srs.coverage import key_point_coverage

        area = self.query_one("#mock-qa-text", TextArea)
        self.typed = area.text
        self.frozen_used = self.question_used()
        coverage = key_point_coverage(self.typed, self.key_points())
        self.auto_points = list(coverage.points)
        self.points = list(coverage.points)
        self.matched = list(coverage.matched)
        area.read_only = True
        area.add_class("-reviewing")
        self.set_focus(None)
        self.query_one("#mock-qa-review").display = True
        self._set_phase("review")
        self.render_texts()
        self.tick()
        self.query_one("#mock-qa-ref-title").scroll_visible(top=True, animate=False)

    def _render_points(self) -> None:
        points = self.key_points()
        for index in range(MAX_POINTS):
            row = self.query_one(f"#mock-point-{index}", KeyPointRow)
            row.display = index < len(points) and self.phase == "review"
            if index >= len(points):
                continue
            ticked = index < len(self.points) and self.points[index]
            auto = index < len(self.auto_points) and self.auto_points[index]
            text = Text(f"{index + 1} ")
            text.append("☑ " if ticked else "☐ ", style="bold")
            text.append(render_math(str(points[index].get("text", ""))))
            matched = self.matched[index] if index < len(self.matched) else None
            if ticked != auto:
                text.append("   " + self.t("mock.run.point_corrected"), style="dim")
            elif matched:
                text.append("   " + self.t("mock.run.point_matched", keyword=matched), style="dim")
            row.update(text)
            row.set_class(ticked, "-ticked")
            row.set_class(ticked != auto, "-corrected")
        covered = sum(self.points)
        total = len(points)
        share = covered / total if total else 0.0
        self.query_one("#mock-qa-score", Static).update(
            self.t("mock.run.qa_score", covered=covered, total=total, pct=f"{share:.0%}")
        )

    def _confirmed_points(self) -> list[bool] | None:
        """The ticks to store: None when the user kept the automatic ones."""
        return None if self.points == self.auto_points else list(self.points)

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-run")
    def _store_qa(self, position: int, text: str, used: float, confirmed: list[bool] | None) -> None:
        from quizapp.srs.mock import MockError

        try:
            question = self.db_write(lambda: mock_service(self).answer_qa(self.mock_id, position, text, used, confirmed))
        except MockError as exc:
            self.post_message(self.Refused(str(exc)))
            return
        self.post_message(self.Answered(question))
