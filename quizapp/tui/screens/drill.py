"""Drill: hand-calculation problems typed into cell grids, graded cell by cell, stored.

Two views in one screen. The picker lists the problem types (and "study the due drill
skills"), with the difficulty on `1`–`3`/`d`. The problem view shows the prompt, the seed,
the given matrices and one `PartEntry` per answer part. `ctrl+s` (or enter on the last
cell) grades the answer with the engine on the UI thread — it is pure NumPy and takes
milliseconds — and hands the result to `DrillService.record_attempt` in a worker.

A format error is not an attempt: it is shown at the cell it concerns and nothing is
stored. A graded answer locks the cells (so that `w`, `h`, `n`, `r` are keys again, not
text), marks them ✓/✗, names a diagnosed mistake, shows the attention weights as a
heatmap, and lets `w` unfold the worked solution.

Free practice stores attempts without touching the schedule; "study the due drill
skills" takes the next due skill card and its first graded attempt rates the card.
"""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING

import numpy as np
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Footer, Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from quizapp import engine
from quizapp.i18n.formatting import num
from quizapp.tui.screens.base import BaseScreen, translate_bindings
from quizapp.tui.widgets.heatmap import Heatmap
from quizapp.tui.widgets.matrix_grid import CellInput, PartEntry, toggle_focused_entry
from quizapp.tui.widgets.matrix_view import MatrixView, hint_tables, shape_label

if TYPE_CHECKING:
    from quizapp.srs.drills import AttemptView
    from quizapp.srs.views import StudyCard

DIFFICULTIES = (1, 2, 3)
DUE_OPTION = "due"
MAX_SEED = 100_000


def new_seed() -> int:
    return random.randrange(1, MAX_SEED)


def attention_weights(problem: engine.Problem) -> np.ndarray | None:
    """The problem's attention weights A (the answer part, else a given), if it has them."""
    if "A" in problem.solution:
        return problem.solution["A"]
    return problem.given.get("A")


def percent(score: float) -> str:
    """0.625 → '62.5%', 1.0 → '100%' (no rounding that turns 62.5 into 62)."""
    value = round(score * 100, 1)
    return f"{value:.0f}%" if value == int(value) else f"{value:.1f}%"


def mistake_parts(message: str, lang: str) -> tuple[str, str]:
    """An engine mistake message is 'name：explanation' (zh) / 'name: explanation' (en)."""
    head, sep, tail = message.partition("：" if lang == "zh" else ": ")
    return (head, tail) if sep else ("", message)


class DrillFooter(Footer):
    """A Footer that rebuilds only when the keys it shows change.

    Moving between cells changes the focus, which signals a bindings refresh; Textual's
    Footer then recomposes, and each recompose re-lays out the whole screen (every cell).
    The keys on show are the same from cell to cell, so those rebuilds are skipped.
    """

    _shown: tuple[tuple[str, str, bool], ...] | None = None

    def bindings_changed(self, screen: Screen) -> None:
        shown = tuple(
            (key, binding.description, enabled)
            for key, (_, binding, enabled, _) in screen.active_bindings.items()
            if binding.show
        )
        if shown == self._shown:
            return
        if screen.app.app_focus:
            self._shown = shown
        super().bindings_changed(screen)


class TypeList(OptionList):
    """The problem types; enter starts the highlighted one (shown in the Footer)."""

    BINDINGS = [Binding("enter", "select", "Start", id="drill.start")]


class DrillScreen(BaseScreen):
    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", id="drill.submit"),
        Binding("ctrl+t", "toggle_text", "Text/cells", id="drill.text"),
        Binding("escape", "leave_cells", "Done typing", id="drill.leave"),
        Binding("escape", "back", "Back", id="drill.back"),
        Binding("w", "step", "Next step", id="drill.step"),
        Binding("W", "all_steps", "All steps", id="drill.all_steps"),
        Binding("h", "toggle_hints", "eˣ table", id="drill.hints"),
        Binding("n", "new_problem", "New problem", id="drill.new"),
        Binding("r", "retry", "Retry", id="drill.retry"),
        Binding("d", "cycle_difficulty", "Difficulty", id="drill.difficulty"),
        Binding("1", "set_difficulty(1)", "Difficulty 1", show=False, id="drill.difficulty_1"),
        Binding("2", "set_difficulty(2)", "Difficulty 2", show=False, id="drill.difficulty_2"),
        Binding("3", "set_difficulty(3)", "Difficulty 3", show=False, id="drill.difficulty_3"),
        # Moving between cells is decided when the key arrives, not after the cell has handled
        # it: keys typed ahead ("0.5<tab>0.25", a fast typist, a paste into the terminal) then
        # land in the cell the user moved to. Each applies only while a cell has the focus.
        Binding("tab", "next_field", "Next cell", show=False, priority=True, id="drill.next_field"),
        Binding("shift+tab", "previous_field", "Previous cell", show=False, priority=True, id="drill.previous_field"),
        Binding("enter", "next_cell", "Next cell", show=False, priority=True, id="drill.next_cell"),
        Binding("up", "cell_up", "Cell above", show=False, priority=True, id="drill.cell_up"),
        Binding("down", "cell_down", "Cell below", show=False, priority=True, id="drill.cell_down"),
    ]

    DEFAULT_CSS = """
    DrillScreen #drill-switcher { height: 1fr; }
    DrillScreen #drill-picker { padding: 1 2; }
    DrillScreen #drill-picker-heading { text-style: bold; color: $text-primary; margin-bottom: 1; }
    DrillScreen #drill-types { height: auto; max-height: 20; width: 72; border: round $primary 50%; }
    DrillScreen #drill-picker-difficulty { margin-top: 1; }
    DrillScreen #drill-picker-help { color: $text-muted; }
    DrillScreen #drill-problem { height: 1fr; }
    DrillScreen #drill-meta { color: $text-muted; padding: 0 2; margin-top: 1; }
    DrillScreen #drill-prompt { padding: 0 2; text-style: bold; margin-bottom: 1; }
    DrillScreen #drill-body { height: 1fr; }
    DrillScreen #drill-work { width: 1fr; height: 1fr; padding: 0 1 0 2; }
    DrillScreen #drill-feedback {
        width: 46; height: 1fr; padding: 0 1; border-left: vkey $panel-lighten-2;
    }
    DrillScreen .drill-section { color: $text-primary; text-style: bold; }
    DrillScreen #drill-given { layout: grid; grid-size: 3; grid-rows: auto; height: auto; }
    DrillScreen #drill-params, DrillScreen #drill-hints { height: auto; margin-bottom: 1; }
    DrillScreen #drill-hints { color: $text-accent; }
    DrillScreen #drill-parts { height: auto; }
    DrillScreen #drill-result { height: auto; }
    DrillScreen #drill-heatmap-title { margin-top: 1; }
    DrillScreen #drill-heatmap { margin-bottom: 1; }
    DrillScreen #drill-steps { height: auto; margin-bottom: 1; }
    """

    class DueCount(Message):
        def __init__(self, count: int) -> None:
            super().__init__()
            self.count = count

    class DueCard(Message):
        def __init__(self, card: StudyCard | None) -> None:
            super().__init__()
            self.card = card

    class Stored(Message):
        """An attempt is stored (`view` None: the service refused it as a format error)."""

        def __init__(self, token: int, view: AttemptView | None) -> None:
            super().__init__()
            self.token = token
            self.view = view

    def __init__(
        self,
        type: str | None = None,
        seed: int | None = None,
        difficulty: int | None = None,
        due: bool = False,
    ) -> None:
        super().__init__(id="drill")
        self.start_type = type
        self.start_seed = seed
        self.difficulty = difficulty if difficulty in DIFFICULTIES else 1
        self.start_due = due
        self.phase = "picker"  # picker → solving → graded (→ solving on retry / new)
        self.problem: engine.Problem | None = None
        self.verdict: engine.Verdict | None = None
        self.answers: dict[str, str] = {}
        self.due_count: int | None = None
        self.due_card: StudyCard | None = None  # set while studying the due skills
        self.due_mode = False
        self.skipped_cards: list[int] = []
        self.rated = False  # the due card of this problem was rated by an attempt
        self.stored: AttemptView | None = None
        self.saving = False
        self.token = 0  # which problem/attempt a worker's answer belongs to
        self.steps_shown = 0
        self.show_hints = False
        self.shown_at = 0.0
        self._swapping = asyncio.Lock()  # one problem replaces another at a time (its ids are reused)

    # -- layout -----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with ContentSwitcher(initial="drill-picker", id="drill-switcher"):
            with Vertical(id="drill-picker"):
                yield Static(id="drill-picker-heading", markup=False)
                yield TypeList(id="drill-types")
                yield Static(id="drill-picker-difficulty", markup=False)
                yield Static(id="drill-picker-help", markup=False)
            with Vertical(id="drill-problem"):
                yield Static(id="drill-meta", markup=False)
                yield Static(id="drill-prompt", markup=False)
                with Horizontal(id="drill-body"):
                    with VerticalScroll(id="drill-work"):
                        yield Static(id="drill-given-title", classes="drill-section", markup=False)
                        yield Widget(id="drill-given")
                        yield Static(id="drill-params", markup=False)
                        yield Static(id="drill-hints", markup=False)
                        yield Static(id="drill-answer-title", classes="drill-section", markup=False)
                        yield Vertical(id="drill-parts")
                    with VerticalScroll(id="drill-feedback"):
                        yield Static(id="drill-result", markup=False)
                        yield Static(id="drill-heatmap-title", classes="drill-section", markup=False)
                        yield Heatmap(id="drill-heatmap")
                        yield Static(id="drill-steps", markup=False)
        yield DrillFooter()

    async def on_mount(self) -> None:
        # BaseScreen.on_mount runs after this one (Textual calls the handler of every class).
        self._load_due_count()
        if self.start_due:
            self._start_due()
        elif self.start_type is not None:
            if self.start_type in {info.id for info in engine.list_types()}:
                seed, self.start_seed = (self.start_seed if self.start_seed is not None else new_seed()), None
                await self.show_problem(engine.generate(self.start_type, seed, self.difficulty))
            else:
                self.notify(self.t("drill.unknown_type", type=self.start_type), severity="error")
                self._show_picker()
        else:
            self._show_picker()

    @property
    def lang(self) -> str:
        return self.quiz_app.tr.lang

    # -- workers ------------------------------------------------------------------------
    @work(thread=True, exclusive=True, exit_on_error=False, group="drill-due-count")
    def _load_due_count(self) -> None:
        self.post_message(self.DueCount(self.service.due_counts().skill))

    @work(thread=True, exclusive=True, exit_on_error=False, group="drill-due")
    def _fetch_due(self, exclude: list[int]) -> None:
        self.post_message(self.DueCard(self.service.next_card("skill", exclude=exclude)))

    # Not exclusive: every graded attempt must be written, even if the user moves on
    # before the previous write has finished.
    @work(thread=True, exit_on_error=False, group="drill-store")
    def _store(
        self,
        token: int,
        problem: engine.Problem,
        answers: dict[str, str],
        verdict: engine.Verdict,
        duration_ms: int,
        review_card: bool,
    ) -> None:
        backend = self.quiz_app.backend
        if backend is None:
            raise RuntimeError("the database is not open yet")
        view = self.db_write(lambda: backend.drills.record_attempt(problem, answers, verdict, duration_ms, review_card=review_card))
        self.post_message(self.Stored(token, view))

    def on_drill_screen_due_count(self, message: DueCount) -> None:
        self.due_count = message.count
        if self.phase == "picker":
            self._render_picker()

    async def on_drill_screen_due_card(self, message: DueCard) -> None:
        card = message.card
        if card is None:
            self.notify(self.t("drill.no_due"), timeout=4)
            self.due_mode = False
            self.due_card = None
            self._show_picker()
            return
        self.due_mode = True
        self.due_card = card
        type_id = str(card.item.get("type") or card.card.item_id.removeprefix("drill:"))
        await self.show_problem(engine.generate(type_id, new_seed(), self.difficulty))

    def on_drill_screen_stored(self, message: Stored) -> None:
        if message.token != self.token:
            return  # an earlier problem's attempt: stored, but no longer on screen
        self.saving = False
        self.stored = message.view
        self._render_result()

    # -- picker ---------------------------------------------------------------------------
    def _show_picker(self) -> None:
        self.phase = "picker"
        self.problem = None
        self.query_one(ContentSwitcher).current = "drill-picker"
        self._render_picker()
        self.query_one(TypeList).focus()
        self.refresh_bindings()

    def _render_picker(self) -> None:
        types = self.query_one(TypeList)
        highlighted = types.highlighted
        types.clear_options()
        if self.due_count is None:
            due = self.t("drill.picker.due_unknown")
        else:
            due = self.t("drill.picker.due", n=self.due_count)
        types.add_option(Option(Text(due, style="bold"), id=DUE_OPTION))
        width = max(len(info.id) for info in engine.list_types()) + 2
        for info in engine.list_types():
            line = Text(info.id.ljust(width), style="dim")
            line.append(info.title(self.lang), style="")
            types.add_option(Option(line, id=info.id))
        types.highlighted = highlighted if highlighted is not None else 1
        self.query_one("#drill-picker-heading", Static).update(self.t("drill.picker.heading"))
        line = Text(self.t("drill.picker.difficulty") + "  ")
        for level in DIFFICULTIES:
            label = f" {level} {self.t(f'drill.difficulty.{level}')} "
            line.append(label, style="reverse bold" if level == self.difficulty else "dim")
            line.append(" ")
        self.query_one("#drill-picker-difficulty", Static).update(line)
        self.query_one("#drill-picker-help", Static).update(self.t("drill.picker.help"))

    @on(OptionList.OptionSelected, "#drill-types")
    async def _type_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id == DUE_OPTION:
            self.skipped_cards = []
            self._start_due()
            return
        self.due_mode = False
        self.due_card = None
        # `--start drill --seed N` without a type: the seed goes to the first type picked.
        seed, self.start_seed = (self.start_seed if self.start_seed is not None else new_seed()), None
        await self.show_problem(engine.generate(str(event.option.id), seed, self.difficulty))

    def _start_due(self) -> None:
        self._fetch_due(list(self.skipped_cards))

    def action_cycle_difficulty(self) -> None:
        self.action_set_difficulty(self.difficulty % len(DIFFICULTIES) + 1)

    def action_set_difficulty(self, level: int) -> None:
        if level in DIFFICULTIES:
            self.difficulty = level
            self._render_picker()

    # -- the problem --------------------------------------------------------------------------
    async def show_problem(self, problem: engine.Problem) -> None:
        """Show a fresh problem (or the same one again, on retry) with empty cells."""
        async with self._swapping:
            await self._show_problem(problem)

    async def _show_problem(self, problem: engine.Problem) -> None:
        self.token += 1
        self.problem = problem
        self.verdict = None
        self.answers = {}
        self.stored = None
        self.saving = False
        self.rated = False
        self.steps_shown = 0
        self.show_hints = bool(problem.hints)
        self.phase = "solving"
        self.query_one(ContentSwitcher).current = "drill-problem"

        given = self.query_one("#drill-given")
        await given.remove_children()
        await given.mount_all([MatrixView(name, value) for name, value in problem.given.items()])
        parts = self.query_one("#drill-parts")
        await parts.remove_children()
        await parts.mount_all([PartEntry(spec, id=f"part-{spec.name}") for spec in problem.parts])

        self.query_one("#drill-work", VerticalScroll).scroll_home(animate=False)
        self.query_one("#drill-feedback", VerticalScroll).scroll_home(animate=False)
        self.render_texts()
        self._focus_first_part()
        self.shown_at = self.quiz_app.clock.monotonic()
        self.refresh_bindings()

    def entries(self) -> list[PartEntry]:
        return list(self.query_one("#drill-parts").query(PartEntry))

    def entry(self, name: str) -> PartEntry:
        return self.query_one(f"#part-{name}", PartEntry)

    def _focus_first_part(self) -> None:
        entries = self.entries()
        if entries:
            entries[0].focus_first()

    def _focus_in_answers(self) -> bool:
        focused = self.focused
        if focused is None:
            return False
        parts = self.query_one("#drill-parts")
        return parts in focused.ancestors

    # -- submitting -----------------------------------------------------------------------------
    def action_submit(self) -> None:
        if self.phase != "solving" or self.problem is None:
            return
        entries = self.entries()
        for entry in entries:
            entry.clear_feedback()
        if self._show_cell_problems(entries):
            return
        answers = {entry.spec.name: entry.answer_text() for entry in entries}
        if not any(text.strip() for text in answers.values()):
            self.notify(self.t("drill.nothing_typed"), severity="warning", timeout=3)
            return
        verdict = engine.grade(self.problem, answers)
        if verdict.has_format_error:
            self._show_format_errors(verdict)
            return
        self._graded(answers, verdict)

    def _show_cell_problems(self, entries: list[PartEntry]) -> bool:
        """Point at every grid cell that is empty or unreadable; True if there was one."""
        first = None
        for entry in entries:
            if entry.text_mode:
                continue
            problem = entry.cell_problem()
            if problem is None:
                continue
            message = problem.error.message(self.lang) if problem.error else self.t("drill.cell_empty")
            entry.show_error_at_cell(problem.row, problem.col)
            entry.set_status(
                self.t(
                    "drill.cell_error", part=entry.spec.name, row=problem.row + 1, col=problem.col + 1, message=message
                ),
                "error",
            )
            if first is None:
                first = (entry, problem)
        if first is None:
            return False
        entry, problem = first
        entry.grid.focus_cell(problem.row, problem.col)
        self.notify(self.t("drill.format_error"), severity="warning", timeout=4)
        return True

    def _show_format_errors(self, verdict: engine.Verdict) -> None:
        """Errors the engine found in a part typed as text (or in cells, as a safety net)."""
        first = None
        for name, part in verdict.parts.items():
            if part.error is None:
                continue
            entry = self.entry(name)
            if entry.text_mode:
                entry.show_text_error(True)
            elif part.error.row is not None and part.error.col is not None:
                entry.show_error_at_cell(part.error.row - 1, part.error.col - 1)
            entry.set_status(self.t("drill.part_error", part=name, message=part.error.message(self.lang)), "error")
            first = first or entry
        if first is not None:
            first.focus_first()
        self.notify(self.t("drill.format_error"), severity="warning", timeout=4)

    def _graded(self, answers: dict[str, str], verdict: engine.Verdict) -> None:
        assert self.problem is not None
        duration_ms = max(0, int((self.quiz_app.clock.monotonic() - self.shown_at) * 1000))
        self.verdict = verdict
        self.answers = answers
        self.phase = "graded"
        for entry in self.entries():
            if entry.text_mode:
                entry.to_cells()  # it parsed: show the values in cells, to be marked
            entry.grid.mark(verdict.parts[entry.spec.name].cells)
            entry.set_locked(True)
        review_card = self.due_mode and not self.rated
        self.rated = self.rated or review_card
        self.saving = True
        self.stored = None
        self.render_texts()
        # Off the cells, so that w/h/n/r are keys again.
        self.query_one("#drill-feedback", VerticalScroll).focus()
        self.refresh_bindings()
        self._store(self.token, self.problem, dict(answers), verdict, duration_ms, review_card)

    @on(Input.Submitted, "CellInput")
    def _enter_in_cell(self, event: Input.Submitted) -> None:
        """Enter on the very last cell submits (other cells: see `action_next_cell`)."""
        event.stop()
        if event.input is self._last_cell():
            self.action_submit()
        else:
            self.focus_next()

    # -- actions ------------------------------------------------------------------------------
    def _last_cell(self) -> CellInput | None:
        entries = self.entries()
        if not entries or entries[-1].text_mode:
            return None
        last = entries[-1]
        return last.grid.cell(last.rows - 1, last.cols - 1)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("next_field", "previous_field"):
            return self.phase == "solving" and self._focus_in_answers()
        if action in ("cell_up", "cell_down"):
            return self.phase == "solving" and isinstance(self.focused, CellInput)
        if action == "next_cell":
            # Enter on the last cell is left to the cell (it submits after its typed text).
            focused = self.focused
            return self.phase == "solving" and isinstance(focused, CellInput) and focused is not self._last_cell()
        if action in ("submit", "toggle_text"):
            return self.phase == "solving"
        if action == "leave_cells":
            return self.phase == "solving" and self._focus_in_answers()
        if action in ("step", "all_steps", "retry"):
            return self.phase == "graded"
        if action == "toggle_hints":
            return self.phase != "picker" and self.problem is not None and bool(self.problem.hints)
        if action == "new_problem":
            return self.phase != "picker"
        if action in ("cycle_difficulty", "set_difficulty"):
            return self.phase == "picker"
        return True

    def action_next_field(self) -> None:
        self.focus_next()

    def action_previous_field(self) -> None:
        self.focus_previous()

    def action_next_cell(self) -> None:
        self.focus_next()

    def _move_cell(self, rows: int) -> None:
        focused = self.focused
        if isinstance(focused, CellInput):
            entry = next(entry for entry in self.entries() if entry in focused.ancestors)
            entry.grid.move_from(focused, rows)

    def action_cell_up(self) -> None:
        self._move_cell(-1)

    def action_cell_down(self) -> None:
        self._move_cell(1)

    def action_leave_cells(self) -> None:
        self.query_one("#drill-work", VerticalScroll).focus()

    def action_back(self) -> None:
        if self.phase == "picker":
            self.dismiss()
            return
        self.due_mode = False
        self.due_card = None
        self._load_due_count()
        self._show_picker()

    def action_toggle_text(self) -> None:
        if self.phase != "solving":
            return
        toggled = toggle_focused_entry(self.entries())
        if toggled is None:
            return
        entry, error = toggled
        if error is not None:
            message = error.message(self.lang)
            entry.set_status(self.t("drill.part_error", part=entry.spec.name, message=message), "error")
            return
        self._render_part_header(entry)
        entry.focus_first()

    def action_step(self) -> None:
        if self.phase != "graded" or self.problem is None:
            return
        total = len(self.problem.steps(self.lang))
        if self.steps_shown >= total:
            self.notify(self.t("drill.steps.all_shown"), timeout=2)
            return
        self.steps_shown += 1
        self._render_steps()
        self.query_one("#drill-feedback", VerticalScroll).scroll_end(animate=False)

    def action_all_steps(self) -> None:
        if self.phase != "graded" or self.problem is None:
            return
        self.steps_shown = len(self.problem.steps(self.lang))
        self._render_steps()
        self.query_one("#drill-feedback", VerticalScroll).scroll_end(animate=False)

    def action_toggle_hints(self) -> None:
        if self.problem is None or not self.problem.hints:
            return
        self.show_hints = not self.show_hints
        self._render_hints()

    async def action_new_problem(self) -> None:
        if self.problem is None:
            return
        if self.due_mode:
            if self.due_card is not None and not self.rated:
                self.skipped_cards.append(self.due_card.card.card_id)  # skipped: not again this session
            self._start_due()
            return
        await self.show_problem(engine.generate(self.problem.type, new_seed(), self.problem.difficulty))

    async def action_retry(self) -> None:
        if self.phase != "graded" or self.problem is None:
            return
        rated = self.rated
        await self.show_problem(self.problem)
        self.rated = rated  # a due card is rated once, by its first attempt

    # -- texts ----------------------------------------------------------------------------------
    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("drill.title")
        translate_bindings(self.query_one(TypeList), self.quiz_app.tr)
        if self.phase == "picker" or self.problem is None:
            self._render_picker()
            return
        problem = self.problem
        info = next((i for i in engine.list_types() if i.id == problem.type), None)
        meta = [problem.type, info.title(self.lang) if info else problem.type]
        meta.append(self.t("drill.seed", seed=problem.seed if problem.seed is not None else "—"))
        meta.append(self.t("drill.difficulty_label", level=problem.difficulty))
        if self.due_mode:
            meta.append(self.t("drill.due_review"))
        self.query_one("#drill-meta", Static).update(" · ".join(meta))
        self.query_one("#drill-prompt", Static).update(problem.prompt(self.lang))
        self.query_one("#drill-given-title", Static).update(self.t("drill.given"))
        self.query_one("#drill-given-title").display = bool(problem.given)
        self.query_one("#drill-given").display = bool(problem.given)
        params = [f"{name} = {num(v) if not isinstance(v, str) else v}" for name, v in problem.params.items()]
        params_text = self.t("drill.params", params=", ".join(params)) if params else ""
        self.query_one("#drill-params", Static).update(params_text)
        self.query_one("#drill-params").display = bool(params)
        self._render_hints()
        self.query_one("#drill-answer-title", Static).update(self.t("drill.answer"))
        for entry in self.entries():
            self._render_part_header(entry)
            entry.set_placeholder(self.t("drill.text_placeholder", part=entry.spec.name))
            self._render_part_status(entry)
        self._render_result()
        self._render_heatmap()
        self._render_steps()

    def _render_part_header(self, entry: PartEntry) -> None:
        spec = entry.spec
        header = Text()
        header.append(spec.name, style="bold")
        header.append(f"  {shape_label(spec.shape)}", style="dim")
        header.append(f"  {spec.label(self.lang)}")
        if spec.allow_inf:
            header.append(f"  {self.t('drill.inf_allowed')}", style="dim")
        if entry.text_mode:
            header.append(f"  [{self.t('drill.mode_text')}]", style="italic")
        entry.set_header(header)

    def _render_part_status(self, entry: PartEntry) -> None:
        if self.verdict is None:
            return
        part = self.verdict.parts[entry.spec.name]
        cells = np.asarray(part.cells, dtype=bool)
        right, total = int(cells.sum()), int(cells.size)
        if not part.answered:
            entry.set_status(self.t("drill.part.unanswered"), "wrong")
        elif part.score >= 1.0:
            entry.set_status(self.t("drill.part.right", right=right, total=total), "right")
        else:
            entry.set_status(self.t("drill.part.wrong", right=right, total=total, score=percent(part.score)), "wrong")

    def _render_hints(self) -> None:
        hints = self.query_one("#drill-hints", Static)
        problem = self.problem
        if problem is None or not problem.hints or not self.show_hints:
            hints.display = False
            return
        text = hint_tables(problem.hints, lambda kind: self.t(f"drill.hint.{kind}"))
        hints.update(text if text is not None else "")
        hints.display = text is not None

    def _render_result(self) -> None:
        result = self.query_one("#drill-result", Static)
        verdict = self.verdict
        if verdict is None:
            result.update(self.t("drill.entry_help"))
            return
        pieces: list[tuple[str, str] | str] = []
        if verdict.correct:
            pieces.append((self.t("drill.result.correct"), "bold $text-success"))
        else:
            pieces.append((self.t("drill.result.total", score=percent(verdict.score)), "bold"))
        for name, part in verdict.parts.items():
            cells = np.asarray(part.cells, dtype=bool)
            right = part.score >= 1.0
            if part.answered:
                detail = self.t(
                    "drill.result.part", right=int(cells.sum()), total=int(cells.size), score=percent(part.score)
                )
            else:
                detail = self.t("drill.part.unanswered")
            style = "$text-success" if right else "$text-error"
            pieces.append((f"\n{'✓' if right else '✗'} {name}  {detail}", style))
        for diagnosis in verdict.diagnosis:
            name, explanation = mistake_parts(diagnosis.message(self.lang), self.lang)
            pieces.append(("\n\n" + self.t("drill.result.mistake", part=diagnosis.part), "bold $text-warning"))
            if name:
                pieces.append(("\n" + name, "bold"))
            pieces.append("\n" + explanation)
        for key in verdict.hints:
            pieces.append(("\n\n" + self.t("drill.result.hint"), "bold $text-warning"))
            pieces.append("\n" + engine.hint_message(key, self.lang))
        status = ""
        if self.saving:
            status = self.t("drill.result.saving")
        elif self.stored is not None:
            status = self.t("drill.result.saved", id=self.stored.attempt_id)
            if self.stored.rating is not None:
                status += "  " + self.t("drill.result.rated", rating=self.t(f"rating.{self.stored.rating}"))
        pieces.append(("\n\n" + status, "$text-muted"))
        pieces.append(("\n" + self.t("drill.result.next_keys"), "$text-muted"))
        result.update(Content.assemble(*pieces))

    def _render_heatmap(self) -> None:
        weights = attention_weights(self.problem) if self.problem is not None else None
        shown = self.verdict is not None and weights is not None
        heatmap = self.query_one(Heatmap)
        self.query_one("#drill-heatmap-title").display = shown
        heatmap.display = shown
        if shown:
            self.query_one("#drill-heatmap-title", Static).update(self.t("drill.heatmap.title"))
            heatmap.set_values(weights)

    def _render_steps(self) -> None:
        steps_widget = self.query_one("#drill-steps", Static)
        if self.verdict is None or self.problem is None:
            steps_widget.display = False
            return
        steps = self.problem.steps(self.lang)
        text = Text()
        text.append(self.t("drill.steps.title", shown=self.steps_shown, total=len(steps)), style="bold")
        if self.steps_shown == 0:
            text.append("\n" + self.t("drill.steps.how"), style="dim")
        for step in steps[: self.steps_shown]:
            text.append("\n" + step)
        steps_widget.update(text)
        steps_widget.display = True
