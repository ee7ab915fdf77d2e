"""The Q&A question of a mock interview: a typed answer, then the key-point review.

`ctrl+s` submits the typed answer: the pane shows the reference answer and the key points,
ticked automatically where the answer states them, each with the words of the answer that
stated it — or, marked ✗, that stated it wrongly (`QAPane.Reviewing` tells the screen, whose
clock stops for the question). `1`–`n` (as many as there are key points) or a click correct
the ticks; `enter` confirms, and `QAPane.Answered` carries the text and the ticks the user
changed (None when the automatic ones were kept) to the screen, which stores them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static, TextArea

from quizapp.i18n.formatting import percent
from quizapp.tui.widgets.capped_text import MOCK_ANSWER_CHARS, CappedTextArea
from quizapp.tui.widgets.key_points import MAX_POINTS, KeyPointRow
from quizapp.tui.widgets.math_markdown import MathMarkdown, render_math, show_texts
from quizapp.tui.widgets.question_pane import QuestionPane

if TYPE_CHECKING:
    from quizapp.srs.mock import MockQuestion
    from quizapp.srs.views import MaterialPoint


EVIDENCE_CHARS = 60  # a quote longer than this is cut (…): the points must fit at 80×24


def quoted(evidence: str) -> str:
    return "«" + (evidence if len(evidence) <= EVIDENCE_CHARS else evidence[: EVIDENCE_CHARS - 1] + "…") + "»"


def point_line(t: Any, index: int, text: str, ticked: bool, status: str, evidence: str | None,
               corrected: bool) -> Table:
    """A key point with its tick (☑ stated, ☒ stated wrongly, ☐ not said) and, on the next
    line, the words of the answer behind the tick, and whether the candidate changed it.
    The number and tick are a column of their own: a wrapped point's next lines, and the
    evidence, start under its text."""
    wrong = status == "contradicted" and not ticked
    mark = Text(f"{index + 1} ")
    mark.append("☑ " if ticked else "☒ " if wrong else "☐ ", style="bold")
    line = Text(render_math(text))
    notes: list[str] = []
    if evidence and status == "contradicted":
        notes.append(t("mock.run.point_contradicted", evidence=quoted(evidence)))
    elif evidence:
        notes.append(quoted(evidence))
    if corrected:
        notes.append(t("mock.run.point_corrected"))
    if notes:  # plain strings appended as text, never parsed as markup
        line.append("\n" + "  ".join(notes), style="dim")
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(mark, line)
    return grid


class QAPane(QuestionPane):
    DEFAULT_CSS = """
    QAPane > TextArea { height: 9; margin: 0 1; }
    QAPane > TextArea.-reviewing { height: 5; }
    QAPane > .mock-review { height: auto; }
    QAPane .mock-point { padding: 0 1 0 2; height: auto; }
    QAPane .mock-point.-ticked { color: $text-success; }
    QAPane .mock-point.-corrected { text-style: italic; }
    QAPane .mock-point.-contradicted { color: $text-error; }
    QAPane .mock-score { padding: 0 1; height: auto; text-style: bold; }
    """

    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", id="mock_run.submit"),
        Binding("enter", "confirm", "Confirm ticks", id="mock_run.confirm"),
        Binding("ctrl+s", "confirm", "Confirm ticks", show=False, id="mock_run.confirm_alt"),
        Binding("1", "toggle_point(0)", "Tick", key_display="1–6", id="mock_run.toggle"),
        Binding("2", "toggle_point(1)", "Tick", show=False, id="mock_run.toggle2"),
        Binding("3", "toggle_point(2)", "Tick", show=False, id="mock_run.toggle3"),
        Binding("4", "toggle_point(3)", "Tick", show=False, id="mock_run.toggle4"),
        Binding("5", "toggle_point(4)", "Tick", show=False, id="mock_run.toggle5"),
        Binding("6", "toggle_point(5)", "Tick", show=False, id="mock_run.toggle6"),
    ]

    class Reviewing(Message):
        """The answer is submitted; the user now checks the key-point ticks."""

        def __init__(self, pane: QAPane) -> None:
            super().__init__()
            self.pane = pane

    class Answered(Message):
        def __init__(self, pane: QAPane, text: str, confirmed: list[bool] | None) -> None:
            super().__init__()
            self.pane = pane
            self.text = text
            self.confirmed = confirmed

    def __init__(self, question: MockQuestion) -> None:
        super().__init__(question)
        self.key_points: list[MaterialPoint] = []  # in the material language, keywords of both (on mount)
        self.reviewing = False
        self.confirming = False
        self.typed = ""
        self._last_text = ""  # what the answer field holds (kept for a quit, as a draft)
        self.auto_points: list[bool] = []
        self.points: list[bool] = []
        self.statuses: list[str] = []
        self.evidence: list[str | None] = []

    def compose(self) -> ComposeResult:
        yield MathMarkdown(classes="card-question")
        yield CappedTextArea(MOCK_ANSWER_CHARS, soft_wrap=True)
        yield Static(classes="mock-hint", markup=False)
        with Vertical(classes="mock-review") as review:
            review.display = False
            yield Static(classes="mock-title mock-ref-title", markup=False)
            yield MathMarkdown(classes="card-answer")
            yield Static(classes="mock-title mock-points-title", markup=False)
            # the covered figure above the points it counts: in view with them at 80×24
            yield Static(classes="mock-score", markup=False)
            self.key_points = self.material(self.question.item).key_points[:MAX_POINTS]
            for index in range(len(self.key_points)):
                yield KeyPointRow(index)

    async def on_mount(self) -> None:  # after QuestionPane.on_mount (Textual calls both)
        item = self.material(self.question.item)
        if not await show_texts(self, (".card-question", item.question or self.question.question),
                                (".card-answer", item.answer)):
            return  # removed while the texts were drawn (a quit, the next question)
        fields = self.query(TextArea)
        if not fields:
            return
        self._number_keys()
        field = fields.first()
        if isinstance(self.question.draft, str):  # typed before a quit: the resume keeps it
            field.text = self.question.draft
            field.move_cursor(field.document.end)
        field.focus()

    def _number_keys(self) -> None:
        """The footer names the keys there are: `1–4` for four key points, not `1–6`."""
        shown = f"1–{len(self.key_points)}" if len(self.key_points) > 1 else "1"
        bindings = self._bindings.key_to_bindings
        bindings["1"] = [replace(binding, key_display=shown) for binding in bindings.get("1", [])]

    def partial(self) -> str:
        fields = self.query(TextArea)
        if fields:
            self._last_text = fields.first().text
        # On ctrl+q the app unmounts the pane before the run screen keeps the draft.
        return self._last_text

    @on(TextArea.Changed)
    def _text_changed(self, event: TextArea.Changed) -> None:
        self._last_text = event.text_area.text

    def confirmed_points(self) -> list[bool] | None:
        """The ticks to store: None when the user kept the automatic ones."""
        return None if self.points == self.auto_points else list(self.points)

    # -- keys ---------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "submit":
            return not self.reviewing
        if action == "confirm":
            return self.reviewing and not self.confirming
        if action == "toggle_point":
            index = int(str(parameters[0])) if parameters else 0
            return self.reviewing and not self.confirming and index < len(self.key_points)
        return True

    def action_submit(self) -> None:
        from quizapp.srs.coverage import key_point_coverage

        if self.reviewing:
            return
        area = self.query_one(TextArea)
        self.typed = area.text
        coverage = key_point_coverage(self.typed, self.key_points)
        self.auto_points = list(coverage.points)
        self.points = list(coverage.points)
        self.statuses = list(coverage.statuses)
        self.evidence = list(coverage.evidence)
        self.reviewing = True
        area.read_only = True
        area.add_class("-reviewing")
        self.query_one(".mock-review").display = True
        self.render_texts()
        self.focus()
        self.refresh_bindings()
        self.post_message(self.Reviewing(self))
        self.call_after_refresh(self._show_review)

    def _show_review(self) -> None:
        """The reference answer from its title down; on a small terminal (80×24), the key
        points and their figure at the top instead (the answer is a scroll away)."""
        if not self.drawable():
            return  # the next question replaced it before the refresh
        title = ".mock-ref-title" if self.app.size.height > 24 else ".mock-points-title"
        self.query_one(title).scroll_visible(top=True, animate=False)

    def action_toggle_point(self, index: int) -> None:
        if self.reviewing and not self.confirming and 0 <= index < len(self.points):
            self.points[index] = not self.points[index]
            self._render_points()
            # A point ticked by its number may be scrolled off (80×24): bring it into view, so
            # that what the key changed is seen (once its new text is laid out).
            row = self.query_one(f"#mock-point-{index}", KeyPointRow)
            self.call_after_refresh(row.scroll_visible, animate=False)

    @on(KeyPointRow.Toggled)
    def _point_clicked(self, event: KeyPointRow.Toggled) -> None:
        event.stop()
        self.action_toggle_point(event.index)

    def action_confirm(self) -> None:
        if self.reviewing and not self.confirming:
            self.confirming = True
            self.refresh_bindings()
            self.post_message(self.Answered(self, self.typed, self.confirmed_points()))

    # -- texts ----------------------------------------------------------------------------
    def render_texts(self) -> None:
        super().render_texts()
        if not self.drawable():
            return  # not composed yet, or being removed: on_mount draws the texts
        for field in self.query(TextArea):
            field.placeholder = self.t("mock.run.qa_placeholder")
        if self.reviewing:
            hint = self.t("mock.run.review_hint", keys=self._bindings.key_to_bindings["1"][0].key_display or "1")
        else:
            hint = self.t("mock.run.qa_hint")
        self.query_one(".mock-hint", Static).update(Text(hint))
        self.query_one(".mock-ref-title", Static).update(Text(self.t("mock.run.reference")))
        self.query_one(".mock-points-title", Static).update(Text(self.t("mock.run.key_points")))
        self._render_points()

    def _render_points(self) -> None:
        for row in self.query(KeyPointRow):
            index = row.index
            ticked = index < len(self.points) and self.points[index]
            auto = index < len(self.auto_points) and self.auto_points[index]
            status = self.statuses[index] if index < len(self.statuses) else "absent"
            evidence = self.evidence[index] if index < len(self.evidence) else None
            row.update(point_line(self.t, index, self.key_points[index].text,
                                  ticked, status, evidence, corrected=ticked != auto))
            row.set_class(ticked, "-ticked")
            row.set_class(ticked != auto, "-corrected")
            row.set_class(status == "contradicted" and not ticked, "-contradicted")
        covered, total = sum(self.points), len(self.key_points)
        share = covered / total if total else 0.0
        score = self.t("mock.run.qa_score", covered=covered, total=total, pct=percent(share))
        self.query_one(".mock-score", Static).update(Text(score))
