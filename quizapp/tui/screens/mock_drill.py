"""The calculation (drill) question of a mock interview: given matrices, answer parts.

The answer entry is the Drill screen's: one `PartEntry` (a grid of cells, or a text field
on ctrl+t) per answer part, and the given matrices as `MatrixView`s. Unreadable cells or
text are pointed at without storing anything; a graded answer is marked cell by cell with
the solution, the diagnosed mistake and hints. A mixin of `MockRunScreen`, which owns the
state, widgets and messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from quizapp.tui.screens.mock_setup import mock_service
from quizapp.tui.widgets.matrix_view import hint_tables

if TYPE_CHECKING:
    from quizapp.srs.mock import MockQuestion
    from quizapp.tui.screens.mock_run import MockRunScreen


class MockDrillMixin:
    """Showing a drill question, checking and storing the typed parts, marking the
    result (uses the state, widgets and messages of `MockRunScreen`)."""

    async def _show_drill(self, question: MockQuestion) -> None:
        from quizapp.tui.widgets.matrix_grid import PartEntry
        from quizapp.tui.widgets.matrix_view import MatrixView

        problem = self.problems.get(question.position)
        given = self.query_one("#mock-drill-given", Horizontal)
        await given.remove_children()
        parts = self.query_one("#mock-drill-parts", Vertical)
        await parts.remove_children()
        if problem is not None:
            await given.mount_all([MatrixView(name, value) for name, value in problem.given.items()])
            await parts.mount_all([PartEntry(spec, id=f"mock-part-{index}") for index, spec in enumerate(problem.parts)])
        self.query_one("#mock-drill").scroll_home(animate=False)
        entries = self.entries()
        if entries:
            entries[0].focus_first()
        else:
            self.set_focus(None)

    def entries(self) -> list[Any]:
        """The PartEntry of every answer part of the drill on screen, in order."""
        from quizapp.tui.widgets.matrix_grid import PartEntry

        return list(self.query_one("#mock-drill-parts").query(PartEntry))

    def drill_typed(self) -> dict[str, str]:
        """What is typed in each part (cells or text), as answer text."""
        return {entry.spec.name: entry.answer_text() for entry in self.entries()}

    def _drill_title(self, question: MockQuestion) -> str:
        kind = question.spec.get("type", "")
        titles = self.titles.get(kind)
        return (titles[0] if self.quiz_app.tr.lang == "zh" else titles[1]) if titles else kind

    def _render_drill(self) -> None:
        question = self.current
        if question is None or question.kind != "drill":
            return
        lang = self.quiz_app.tr.lang
        problem = self.problems.get(question.position)
        self.query_one("#mock-drill-meta", Static).update(
            self.t("mock.run.drill_meta", title=self._drill_title(question), type=question.spec.get("type", ""),
                   seed=question.spec.get("seed"), difficulty=question.spec.get("difficulty"))
        )
        if problem is None:
            self.query_one("#mock-drill-prompt", Static).update(self.t("mock.run.drill_missing"))
            self.query_one("#mock-drill-hints").display = False
            return
        self.query_one("#mock-drill-prompt", Static).update(problem.prompt(lang))
        title = self.t("mock.run.hint_table")
        hints = hint_tables(problem.hints, lambda _kind: title)
        self.query_one("#mock-drill-hints", Static).update(hints if hints is not None else "")
        self.query_one("#mock-drill-hints").display = hints is not None
        for entry in self.entries():
            spec = entry.spec
            header = Text()
            header.append(spec.name, style="bold")
            header.append(f"  {'×'.join(str(n) for n in spec.shape) or '1'}", style="dim")
            header.append(f"  {spec.label(lang)}")
            if entry.text_mode:
                header.append(f"  [{self.t('mock.run.text_mode')}]", style="italic")
            entry.set_header(header)
            entry.set_placeholder(self.t("mock.run.text_placeholder", part=spec.name))
            self._render_part_status(entry)
        self.query_one("#mock-drill-result", Static).update(self._drill_result(problem, lang))

    def _render_part_status(self, entry: Any) -> None:
        lang = self.quiz_app.tr.lang
        name = entry.spec.name
        if self.verdict is not None and self.answered is not None:
            part = self.verdict.parts.get(name)
            if part is None:
                return
            cells = part.cells if isinstance(part.cells, list) else [part.cells]
            flat = [bool(c) for row in cells for c in (row if isinstance(row, list) else [row])]
            if not part.answered:
                entry.set_status(self.t("mock.run.part_unanswered"), "wrong")
            else:
                entry.set_status(
                    self.t("mock.run.part_score", right=sum(flat), total=len(flat), pct=f"{float(part.score):.0%}"),
                    "right" if part.score >= 1.0 else "wrong",
                )
            return
        if self.format_verdict is not None:
            part = self.format_verdict.parts.get(name)
            if part is not None and part.error is not None:
                entry.set_status(self.t("mock.run.format_error", part=name, message=part.error.message(lang)), "error")
                return
        if self.cell_errors.get(name):
            entry.set_status(self.cell_errors[name], "error")
        else:
            entry.set_status("")

    def _drill_result(self, problem: Any, lang: str) -> Any:
        """After grading: the score, the right values of the parts that were wrong, the
        diagnosed mistake and hints. Before grading: how to type an answer."""
        question = self.answered
        if question is None or question.kind != "drill":
            return Text(self.t("mock.run.drill_help"), style="dim")
        from quizapp.engine import hint_message
        from quizapp.tui.widgets.matrix_view import bracket_rows, value_cells

        verdict = self.verdict
        text = Text()
        text.append(self.t("mock.run.drill_score", pct=f"{(question.score or 0):.0%}"), style="bold")
        for part in problem.parts:
            pv = verdict.parts.get(part.name) if verdict is not None else None
            if pv is not None and pv.score >= 1.0:
                continue
            text.append("\n\n" + self.t("mock.run.solution", part=part.name), style="bold")
            for line in bracket_rows(value_cells(problem.solution[part.name])):
                text.append("\n" + line)
        if verdict is not None:
            for diagnosis in verdict.diagnosis:
                text.append("\n\n" + self.t("mock.run.diagnosis", part=diagnosis.part), style="bold yellow")
                text.append("\n" + diagnosis.message(lang))
            for key in verdict.hints:
                try:
                    text.append("\n\n" + hint_message(key, lang), style="dim")
                except KeyError:
                    continue
        return text

    def _check_cells(self) -> bool:
        """Point at every grid cell that is empty or unreadable (nothing is stored, no
        attempt is used); True if there was one."""
        lang = self.quiz_app.tr.lang
        self.cell_errors = {}
        first = None
        for entry in self.entries():
            entry.clear_feedback()
            if entry.text_mode:
                continue
            problem = entry.cell_problem()
            if problem is None:
                continue
            message = problem.error.message(lang) if problem.error else self.t("mock.run.cell_empty")
            entry.show_error_at_cell(problem.row, problem.col)
            self.cell_errors[entry.spec.name] = self.t(
                "mock.run.cell_error", part=entry.spec.name, row=problem.row + 1, col=problem.col + 1, message=message
            )
            entry.set_status(self.cell_errors[entry.spec.name], "error")
            first = first or (entry, problem)
        if first is not None:
            entry, problem = first
            entry.grid.focus_cell(problem.row, problem.col)
        return first is not None

    def _submit_drill(self, question: MockQuestion) -> None:
        self.format_verdict = None
        if self._check_cells():
            self.notify(self.t("mock.run.format_notice"), severity="warning", timeout=4)
            return
        self.busy = True
        self._store_drill(question.position, self.drill_typed(), self.question_used())
        self.refresh_bindings()

    def action_toggle_text(self) -> None:
        """Switch the focused part between its cells and a text field (paste a whole matrix)."""
        if self.phase != "answering" or self.current is None or self.current.kind != "drill":
            return
        from quizapp.tui.widgets.matrix_grid import toggle_focused_entry

        toggled = toggle_focused_entry(self.entries())
        if toggled is None:
            return
        entry, error = toggled
        if error is not None:
            entry.set_status(self.t("mock.run.format_error", part=entry.spec.name,
                                    message=error.message(self.quiz_app.tr.lang)), "error")
            return
        self._render_drill()
        entry.focus_first()

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-run")
    def _store_drill(self, position: int, typed: dict[str, str], used: float) -> None:
        from quizapp.srs.mock import MockError

        try:
            outcome = self.db_write(lambda: mock_service(self).answer_drill(self.mock_id, position, typed, used))
        except MockError as exc:
            self.post_message(self.Refused(str(exc)))
            return
        if outcome.format_error:
            self.post_message(self.FormatError(outcome.verdict))
        else:
            self.post_message(self.Answered(outcome.question, outcome.verdict))

    def on_mock_run_screen_format_error(self, message: MockRunScreen.FormatError) -> None:
        # Not an attempt: the clock keeps running, the user fixes the part and submits again.
        self.busy = False
        self.format_verdict = message.verdict
        first = None
        for entry in self.entries():
            part = message.verdict.parts.get(entry.spec.name)
            if part is None or part.error is None:
                continue
            if entry.text_mode:
                entry.show_text_error(True)
            elif part.error.row is not None and part.error.col is not None:
                entry.show_error_at_cell(part.error.row - 1, part.error.col - 1)
            first = first or entry
        self._render_drill()
        if first is not None:
            first.focus_first()
        self.notify(self.t("mock.run.format_notice"), severity="warning", timeout=4)
        self.refresh_bindings()
        self.tick()

