"""One drill problem on paper, shared by the Drill screen and a mock's calculation question.

It owns the prompt, the given inputs, the eˣ table (`h`), the answer parts (`PartList`),
the checks of what was typed, and after grading the marks, result, diagnosed mistake,
heatmap and worked solution (`w`/`W`). It never grades or stores: `submit()` posts
`Submitted`; the owner calls `DrillService.submit` in a worker and hands the verdict back
to `show_verdict` (or `show_format_errors`). Content is always `Text`, never markup.
"""

from __future__ import annotations

from enum import StrEnum
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from quizapp.engine.family import problem_prompt, problem_steps
from quizapp.i18n.formatting import num
from quizapp.tui.localized import LocalizedMixin, translate_bindings
from quizapp.tui.widgets.after_layout import after_layout
from quizapp.tui.widgets.cjk_wrap import CJKWrapped
from quizapp.tui.widgets.given_grid import GivenGrid
from quizapp.tui.widgets.heatmap import Heatmap
from quizapp.tui.widgets.key_scroll import KeyScroll
from quizapp.tui.widgets.matrix_grid import CellInput
from quizapp.tui.widgets.matrix_view import hint_tables
from quizapp.tui.widgets.part_entry import PartEntry, PartList
from quizapp.tui.widgets.removal import being_removed
from quizapp.tui.widgets.sheet_texts import (
    attention_weights,
    meta_line,
    part_header,
    part_status,
    result_content,
    steps_text,
    truth_text,
)

if TYPE_CHECKING:
    from quizapp import engine


class SheetPhase(StrEnum):
    SOLVING = "solving"
    GRADED = "graded"


class AnswerSheet(LocalizedMixin, Widget):
    """A drill problem: given inputs and answer entry, then marks, result and solution."""

    DEFAULT_CSS = """
    AnswerSheet { height: 1fr; }
    AnswerSheet > .sheet-meta { color: $text-muted; padding: 0 2; margin-top: 1; }
    AnswerSheet > .sheet-prompt { padding: 0 2; text-style: bold; margin-bottom: 1; }
    AnswerSheet > .sheet-body { height: 1fr; }
    AnswerSheet .sheet-work { width: 1fr; height: 1fr; padding: 0 1 0 2; }
    AnswerSheet .sheet-feedback { width: 46; height: 1fr; padding: 0 1; border-left: vkey $panel-lighten-2; }
    AnswerSheet .sheet-section { color: $text-primary; text-style: bold; }
    AnswerSheet .sheet-params, AnswerSheet .sheet-hints { height: auto; margin-bottom: 1; }
    AnswerSheet .sheet-hints { color: $text-accent; }
    AnswerSheet .sheet-parts, AnswerSheet .sheet-result { height: auto; }
    AnswerSheet .sheet-heatmap-title { margin-top: 1; }
    AnswerSheet Heatmap { margin-bottom: 1; }
    AnswerSheet .sheet-steps { height: auto; margin-bottom: 1; }
    AnswerSheet .sheet-truth { height: auto; margin-top: 1; color: $text-warning; }
    AnswerSheet.-narrow .sheet-feedback.-solving { display: none; }
    AnswerSheet .sheet-feedback.-wide { width: 1fr; border-left: none; }
    AnswerSheet .sheet-feedback.-behind { display: none; }
    AnswerSheet.-stacked { height: auto; }
    AnswerSheet.-stacked > .sheet-meta, AnswerSheet.-stacked > .sheet-prompt { padding: 0 1; }
    AnswerSheet.-stacked > .sheet-body { layout: vertical; height: auto; }
    AnswerSheet.-stacked .sheet-work, AnswerSheet.-stacked .sheet-feedback {
        width: 1fr; height: auto; overflow-y: hidden; padding: 0 1; border-left: none;
    }
    """

    BINDINGS = [
        Binding("w", "give_up", "Give up", id="drill.give_up"),
        Binding("w", "step", "Next step", id="drill.step"),
        # Off the keys' line (the result's own line names them: `drill.result.next_keys`),
        # so that the graded drill's keys fit 80 columns, every one with its word.
        Binding("v", "toggle_truth", "True values", show=False, id="drill.truth"),
        Binding("W", "all_steps", "All steps", show=False, id="drill.all_steps"),
        Binding("h", "toggle_hints", "eˣ table", id="drill.hints"),
        Binding("a", "show_answers", "Your answer", id="drill.show_answers"),
        Binding("a", "show_result", "Result", id="drill.show_result"),
    ]

    phase: reactive[SheetPhase] = reactive(SheetPhase.SOLVING, bindings=True, init=False)
    steps_shown: reactive[int] = reactive(0, init=False)
    show_hints: reactive[bool] = reactive(False, init=False)
    show_truth: reactive[bool] = reactive(False, init=False)

    class Submitted(Message):
        """The typed parts passed the sheet's own checks; the screen grades and stores them."""

        def __init__(self, sheet: AnswerSheet, answers: dict[str, str]) -> None:
            super().__init__()
            self.sheet = sheet
            self.answers = answers

    class GaveUp(Submitted):
        """`w` before submitting: the owner stores what is typed as given up and the sheet
        shows the worked solution."""

    def __init__(self, problem: engine.Problem, *, stacked: bool = False, labels: tuple[str, ...] = (),
                 id: str | None = None) -> None:
        super().__init__(id=id, classes="-stacked" if stacked else None)
        self.problem = problem
        self.labels = labels  # extra words on the meta line ("due review", "3 of 16")
        self.verdict: engine.Verdict | None = None
        self.status = ""  # under the result: saving / saved / rated
        self.checking = False  # submitted, its verdict not back yet
        # Folded (under 100 columns, graded or checking): one column at a time, the result
        # or, after `a`, the answers. Shown by the two columns' own styles, not a class on
        # the sheet: that restyled every cell of the sheet at each change (~36 ms at 80×24).
        self.folded = False
        self.answers_shown = False
        self.next_keys = ""  # under the status: what the owner's keys do next
        self.can_give_up = False  # the owner stores a given-up attempt (the Drill screen)
        self.set_reactive(AnswerSheet.show_hints, bool(problem.hints))

    # -- layout -----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        # Narrow from the first frame: the sheet is never wider than the terminal, and its
        # own first Resize can come seconds after the first paint under load, which drew the
        # how-to column over half of 80 columns and the given matrices stacked meanwhile.
        # Set here, before its parts are mounted: the same class set in on_mount restyled
        # every part again (~20 ms a sheet, as long as the sheet's own first layout).
        self._set_narrow(self.app.size.width)
        yield Static(classes="sheet-meta", markup=False)
        yield Static(classes="sheet-prompt", markup=False)
        with Horizontal(classes="sheet-body"):
            yield from self._compose_work()
            yield from self._compose_feedback()

    def _compose_work(self) -> ComposeResult:
        problem = self.problem
        with KeyScroll(classes="sheet-work"):
            given = Static(classes="sheet-section sheet-given-title", markup=False)
            given.display = bool(problem.given)
            yield given
            grid = GivenGrid(problem.given, classes="sheet-given")
            grid.display = bool(problem.given)
            yield grid
            yield Static(classes="sheet-params", markup=False)
            yield Static(classes="sheet-hints", markup=False)
            yield Static(classes="sheet-section sheet-answer-title", markup=False)
            yield PartList(problem.parts, classes="sheet-parts")

    def _compose_feedback(self) -> ComposeResult:
        with KeyScroll(classes="sheet-feedback -solving"):
            yield Static(classes="sheet-result", markup=False)
            truth = Static(classes="sheet-truth", markup=False)
            truth.display = False
            yield truth
            yield Static(classes="sheet-section sheet-heatmap-title", markup=False)
            yield Heatmap()
            yield Static(classes="sheet-steps", markup=False)

    def on_mount(self) -> None:
        if being_removed(self):
            return  # removed before all its parts were mounted: nothing to draw
        self.render_texts()

    def on_resize(self) -> None:
        self._set_narrow(self.size.width)

    def _set_narrow(self, width: int) -> None:
        # Under 100 columns the how-to column folds away while typing (`?` lists the keys),
        # and after grading the result takes the whole width, the answers behind `a`: side
        # by side, each got half of 80 columns and the matrices wrapped into garbage.
        self.set_class(width < 100, "-narrow")
        self._fold()

    def _fold(self) -> None:
        folded = self.has_class("-narrow") and not self.has_class("-stacked") and (
            self.phase == SheetPhase.GRADED or self.checking)
        if folded != self.folded:
            self.folded = folded
            self._show_columns()
            self.refresh_bindings()

    def _show_columns(self) -> None:
        if not self.query(".sheet-feedback"):
            return  # in compose: the columns do not exist yet (and nothing is folded)
        self.work.display = not self.folded or self.answers_shown
        self.feedback.set_class(self.folded, "-wide")
        self.feedback.set_class(self.folded and self.answers_shown, "-behind")

    # -- helpers ------------------------------------------------------------------------
    def _static(self, name: str) -> Static:
        return self.query_one(f".sheet-{name}", Static)

    @property
    def work(self) -> KeyScroll:
        return self.query_one(".sheet-work", KeyScroll)

    @property
    def feedback(self) -> KeyScroll:
        return self.query_one(".sheet-feedback", KeyScroll)

    @property
    def parts(self) -> PartList:
        return self.query_one(PartList)

    def entries(self) -> list[PartEntry]:
        return self.parts.entries()

    def entry(self, name: str) -> PartEntry:
        return self.query_one(f"#part-{name}", PartEntry)

    def answers(self) -> dict[str, str]:
        """What is typed in each part (cells or text), as answer text."""
        return {entry.spec.name: entry.answer_text() for entry in self.entries()}

    def focus_first(self) -> None:
        entries = self.entries()
        if entries:
            entries[0].focus_first()

    def focus_in_answers(self) -> bool:
        return self.parts.has_focus_within

    # -- submitting ---------------------------------------------------------------------
    def submit(self, *, require_answer: bool = True) -> bool:
        """Check what is typed; if every typed cell reads, post `Submitted`. A sheet with
        nothing typed is refused when `require_answer` (the Drill screen), and handed on
        as unanswered otherwise (a mock question ends either way)."""
        if self.phase != SheetPhase.SOLVING:
            return False
        for entry in self.entries():
            entry.clear_feedback()
        if self._show_cell_problems():
            return False
        answers = self.answers()
        if require_answer and not any(text.strip() for text in answers.values()):
            self.notify(self.t("drill.nothing_typed"), severity="warning", timeout=3)
            return False
        self.post_message(self.Submitted(self, answers))
        return True

    def _show_cell_problems(self) -> bool:
        """Point at every grid cell that is empty or unreadable; True if there was one."""
        first: tuple[PartEntry, int, int] | None = None
        for entry in self.entries():
            if entry.text_mode:
                continue
            problem = entry.cell_problem()
            if problem is None:
                continue
            message = problem.error.message(self.lang) if problem.error else self.t("drill.cell_empty")
            entry.show_error_at_cell(problem.row, problem.col)
            status = self.t(
                "drill.cell_error", part=entry.spec.name, row=problem.row + 1, col=problem.col + 1, message=message
            )
            entry.set_status(Text(status), "error")
            first = first or (entry, problem.row, problem.col)
        if first is None:
            return False
        entry, row, col = first
        entry.grid.focus_cell(row, col)
        self.notify(self.t("drill.format_error"), severity="warning", timeout=4)
        return True

    def show_checking(self, on: bool) -> None:
        """The answer went to be graded and stored (on), or came back unread (off)."""
        self.checking = on
        # "Checking…" is written where the result will be, which is folded away while typing
        # under 100 columns: show that column now, or the screen stays as it was (for ~20 s
        # in tmux under load).
        if self.phase != SheetPhase.GRADED:
            self.feedback.set_class(not on, "-solving")
        self._fold()
        self._render_result()
        if on:
            self.call_after_refresh(self.feedback.scroll_visible, animate=False)

    def show_format_errors(self, verdict: engine.Verdict) -> None:
        """Errors the engine found in a part typed as text (or in cells, as a safety net)."""
        self.show_checking(False)
        first = None
        for name, part in verdict.parts.items():
            if part.error is None:
                continue
            entry = self.entry(name)
            if entry.text_mode:
                entry.show_text_error(True)
            elif part.error.row is not None and part.error.col is not None:
                entry.show_error_at_cell(part.error.row - 1, part.error.col - 1)
            entry.set_status(Text(self.t("drill.part_error", part=name, message=part.error.message(self.lang))), "error")
            first = first or entry
        if first is not None:
            first.focus_first()
        self.notify(self.t("drill.format_error"), severity="warning", timeout=4)

    def show_verdict(self, verdict: engine.Verdict, status: str = "") -> None:
        """Mark every cell, lock the entry and show the result (focus moves to the result,
        so that single-letter keys are keys again, not text)."""
        self.verdict = verdict
        self.status = status
        for entry in self.entries():
            if entry.text_mode:
                entry.to_cells()  # it parsed: show the values in cells, to be marked
            part = verdict.parts.get(entry.spec.name)
            if part is not None and part.cells is not None:
                entry.grid.mark(part.cells, part.status)
        self.parts.set_locked(True)
        self.phase = SheetPhase.GRADED
        self.feedback.remove_class("-solving")
        self._fold()
        self.render_texts()
        # Focus without Textual's immediate scroll: that one measures the layout before the
        # class change above has reflowed it, so where the screen ended up varied from run to
        # run. The feedback is brought into view once the new layout is in place.
        self.feedback.focus(scroll_visible=False)
        after_layout(self, partial(self.feedback.scroll_visible, animate=False), key=self.feedback)

    # -- keys ---------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        solving = self.phase == SheetPhase.SOLVING
        focused = self.screen.focused
        if action == "give_up":
            return solving and self.can_give_up and not isinstance(focused, CellInput)
        if action in ("step", "all_steps"):
            return not solving
        if action == "toggle_truth":
            return not solving and self.verdict is not None and not self.verdict.correct
        if action == "toggle_hints":
            return bool(self.problem.hints)
        if action in ("show_answers", "show_result"):
            return self.folded and self.answers_shown == (action == "show_result")
        return True

    def action_show_answers(self) -> None:
        self.answers_shown = True
        self._show_columns()
        self.work.focus(scroll_visible=False)
        self.refresh_bindings()

    def action_show_result(self) -> None:
        self.answers_shown = False
        self._show_columns()
        self.feedback.focus(scroll_visible=False)
        self.refresh_bindings()

    def action_step(self) -> None:
        total = len(problem_steps(self.problem, self.lang))
        if self.steps_shown >= total:
            self.notify(self.t("drill.steps.all_shown"), timeout=2)
            return
        self.steps_shown += 1

    def show_solution(self) -> None:
        """The whole worked solution, scrolled to its start (after giving up)."""
        self.set_reactive(AnswerSheet.steps_shown, len(problem_steps(self.problem, self.lang)))
        self._render_steps()
        steps = self._static("steps")
        after_layout(
            self, partial(self.feedback.scroll_to_widget, steps, top=True, animate=False), key=self.feedback
        )

    def action_all_steps(self) -> None:
        self.steps_shown = len(problem_steps(self.problem, self.lang))

    def action_give_up(self) -> None:
        if self.phase == SheetPhase.SOLVING and self.can_give_up:
            self.post_message(self.GaveUp(self, self.answers()))

    def action_toggle_truth(self) -> None:
        self.show_truth = not self.show_truth

    def watch_show_truth(self) -> None:
        self._render_result()

    @on(PartList.LastCellEntered)
    def _last_cell_entered(self, event: PartList.LastCellEntered) -> None:
        event.stop()
        self.submit(require_answer=not self.has_class("-stacked"))

    @on(PartList.Toggled)
    def _part_toggled(self, event: PartList.Toggled) -> None:
        event.stop()
        entry, error = event.entry, event.error
        if error is not None:
            message = error.message(self.lang)
            entry.set_status(Text(self.t("drill.part_error", part=entry.spec.name, message=message)), "error")
        else:
            self._render_part_header(entry)

    def action_toggle_hints(self) -> None:
        self.show_hints = not self.show_hints

    def watch_steps_shown(self) -> None:
        self._render_steps()
        self.feedback.scroll_end(animate=False)

    def watch_show_hints(self) -> None:
        self._render_hints()

    # -- texts ----------------------------------------------------------------------------
    def render_texts(self) -> None:
        """Every text of the sheet in the current language (on mount and on a switch)."""
        translate_bindings(self, self.quiz_app.tr)
        translate_bindings(self.parts, self.quiz_app.tr)
        problem = self.problem
        self._static("meta").update(meta_line(problem, self.labels, self.t, self.lang))
        # Wrapped between Chinese characters too, never inside an inline vector (cjk_wrap.py).
        self._static("prompt").update(CJKWrapped(Text(problem_prompt(problem, self.lang))))
        self._static("given-title").update(Text(self.t("drill.given")))
        params = [f"{name} = {v if isinstance(v, str) else num(float(v or 0))}" for name, v in problem.params.items()]
        params_widget = self._static("params")
        params_widget.update(Text(self.t("drill.params", params=", ".join(params))) if params else "")
        params_widget.display = bool(params)
        self._render_hints()
        self._static("answer-title").update(Text(self.t("drill.answer")))
        for entry in self.entries():
            self._render_part_header(entry)
            entry.set_placeholder(self.t("drill.text_placeholder", part=entry.spec.name))
            self._render_part_status(entry)
        self._render_result()
        self._render_heatmap()
        self._render_steps()

    def _render_part_header(self, entry: PartEntry) -> None:
        entry.set_header(part_header(entry.spec, entry.text_mode, self.t, self.lang))

    def _render_part_status(self, entry: PartEntry) -> None:
        part = self.verdict.parts.get(entry.spec.name) if self.verdict is not None else None
        if part is not None:
            entry.set_status(*part_status(part, self.t))

    def _render_hints(self) -> None:
        hints = self._static("hints")
        problem = self.problem
        text = hint_tables(problem.hints, lambda kind: self.t(f"drill.hint.{kind}")) if self.show_hints else None
        hints.update(text if text is not None else "")
        hints.display = text is not None

    def _render_result(self) -> None:
        result = self._static("result")
        verdict = self.verdict
        if verdict is None:
            # Grading and storing run in a worker: say so at once, or the screen looks
            # unchanged for as long as they take (issue 27 item 5).
            checking = Text(self.t("drill.checking"), style="bold")
            result.update(checking if self.checking else Text(self.t("drill.entry_help")))
            return
        result.update(result_content(verdict, self.t, self.lang, self.status, self.next_keys))
        truth = self._static("truth")
        values = truth_text(self.problem, verdict, self.t) if self.show_truth else None
        truth.update(values if values is not None else "")
        truth.display = values is not None

    def _render_heatmap(self) -> None:
        weights = attention_weights(self.problem)
        shown = self.verdict is not None and weights is not None
        heatmap = self.query_one(Heatmap)
        title = self._static("heatmap-title")
        title.display = shown
        heatmap.display = shown
        if shown:
            title.update(Text(self.t("drill.heatmap.title")))
            heatmap.set_values(weights)

    def _render_steps(self) -> None:
        steps_widget = self._static("steps")
        steps_widget.display = self.verdict is not None
        if self.verdict is not None:
            steps_widget.update(CJKWrapped(steps_text(self.problem, self.lang, self.steps_shown, self.t)))
