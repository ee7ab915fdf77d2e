"""The Drill picker: choose a problem type (or "study the due drill skills") and a difficulty.

Enter opens a `DrillScreen` on the highlighted row; the list opens on the ★ due row when a
skill is due. `1`–`3` or `d` set the difficulty. Back from a problem comes back here, with
the due count read again.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from quizapp.tui.drill_seeds import DIFFICULTIES, new_seed
from quizapp.tui.localized import translate_bindings
from quizapp.tui.screens.base import BaseScreen, translate_early
from quizapp.tui.widgets.keys_footer import KeysFooter

DUE_OPTION = "due"


def drill_types() -> list:
    from quizapp import engine

    return list(engine.list_types())


class TypeRow:
    """One type of the list: its id, then its title, which wraps under itself (a title too
    long for 80 columns went on under the ids: `FlashAttention)` under `attention_cost`).
    As text (`str`), the id padded to `width` and the title, as one line."""

    def __init__(self, type_id: str, title: str, width: int) -> None:
        self.type_id, self.title, self.width = type_id, title, width

    def __str__(self) -> str:
        return self.type_id.ljust(self.width) + self.title

    def __rich_console__(self, console: Any, options: Any) -> Any:
        row = Table.grid()
        row.add_column(width=self.width, no_wrap=True, style="dim")
        row.add_column(ratio=1)
        row.add_row(self.type_id, self.title)
        yield row


class TypeList(OptionList):
    """The problem types; enter starts the highlighted one (shown in the Footer)."""

    BINDINGS = [Binding("enter", "select", "Start", id="drill.start")]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Translated when made, as the screens' own are: translated on the screen's mount,
        # the footer's first draw said `⏎ Start` in Chinese (issue 27 item 10).
        translate_early(self)


class DrillPickerScreen(BaseScreen):
    CSS_PATH = "drill.tcss"

    BINDINGS = [
        Binding("escape", "back", "Back", id="drill.back"),
        Binding("d", "cycle_difficulty", "Difficulty", id="drill.difficulty"),
        Binding("1", "set_difficulty(1)", "Difficulty 1", show=False, id="drill.difficulty_1"),
        Binding("2", "set_difficulty(2)", "Difficulty 2", show=False, id="drill.difficulty_2"),
        Binding("3", "set_difficulty(3)", "Difficulty 3", show=False, id="drill.difficulty_3"),
    ]

    difficulty: reactive[int] = reactive(1, init=False)
    due_count: reactive[int | None] = reactive(None, init=False)

    class DueCount(Message):
        def __init__(self, count: int, new: int = 0) -> None:
            super().__init__()
            self.count = count  # skills due for review and new ones the queue introduces today
            self.new = new

    due_new = 0  # of `due_count`, the new skills

    def __init__(self, difficulty: int | None = None, seed: int | None = None) -> None:
        super().__init__(id="drill-picker")
        self.set_reactive(DrillPickerScreen.difficulty, difficulty if difficulty in DIFFICULTIES else 1)
        self.start_seed = seed  # `--start drill --seed N` without a type: for the first type picked

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="drill-picker-body"):
            yield Static(id="drill-picker-heading", markup=False)
            yield Static(id="drill-picker-difficulty", markup=False)
            yield TypeList(id="drill-types")
            yield Static(id="drill-picker-help", markup=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(TypeList).focus()
        self._load_due_count()

    def on_screen_resume(self) -> None:
        self._load_due_count()

    @work(thread=True, exclusive=True, exit_on_error=False, group="drill-due-count")
    def _load_due_count(self) -> None:
        # Opened from Home before the study service has loaded: counted without it.
        counts = (self.quiz_app.quick_counts() if self.quiz_app.backend is None else None) or self.study.due_counts()
        # Due and new apart, as Home and `stats` count them: a new skill is not "due" (a
        # type picked from the list is practice then, and the screen says so: issue 27 item 12).
        self.post_message(self.DueCount(counts.skill, counts.new_skill))

    def on_drill_picker_screen_due_count(self, message: DueCount) -> None:
        if self.quiz_app.backend is None:  # counted without the service: load it now
            self.call_after_refresh(self.quiz_app.ensure_backend)
        first = self.due_count is None
        self.due_new = message.new
        self.due_count = message.count
        if first and message.count:
            self.query_one(TypeList).highlighted = 0  # open on the due row

    def watch_due_count(self) -> None:
        self._render_types()

    def watch_difficulty(self) -> None:
        self._render_difficulty()

    # -- texts --------------------------------------------------------------------------
    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("drill.title")
        translate_bindings(self.query_one(TypeList), self.quiz_app.tr)
        self.query_one("#drill-picker-heading", Static).update(Text(self.t("drill.picker.heading")))
        self.query_one("#drill-picker-help", Static).update(Text(self.t("drill.picker.help")))
        self._render_types()
        self._render_difficulty()

    def _render_types(self) -> None:
        types = self.query_one(TypeList)
        highlighted = types.highlighted
        types.clear_options()
        if self.due_count is None:
            due = self.t("drill.picker.due_unknown")
        else:
            due = self.t("drill.picker.due", n=self.due_count - self.due_new, new=self.due_new)
        types.add_option(Option(Text(due, style="bold"), id=DUE_OPTION))
        infos = drill_types()
        width = max(len(info.id) for info in infos) + 2
        for info in infos:
            types.add_option(Option(TypeRow(info.id, info.title(self.quiz_app.tr.lang), width), id=info.id))
        types.highlighted = highlighted if highlighted is not None else 1

    def _render_difficulty(self) -> None:
        line = Text(self.t("drill.picker.difficulty") + "  ")
        for level in DIFFICULTIES:
            label = f" {level} {self.t(f'drill.difficulty.{level}')} "
            line.append(label, style="reverse bold" if level == self.difficulty else "dim")
            line.append(" ")
        self.query_one("#drill-picker-difficulty", Static).update(line)

    # -- actions ------------------------------------------------------------------------
    @on(OptionList.OptionSelected, "#drill-types")
    def _type_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id == DUE_OPTION:
            self.quiz_app.open_drill(difficulty=self.difficulty, due=True)
            return
        seed, self.start_seed = (self.start_seed if self.start_seed is not None else new_seed()), None
        self.quiz_app.open_drill(type=str(event.option.id), seed=seed, difficulty=self.difficulty)

    def action_cycle_difficulty(self) -> None:
        self.difficulty = self.difficulty % len(DIFFICULTIES) + 1

    def action_set_difficulty(self, level: int) -> None:
        if level in DIFFICULTIES:
            self.difficulty = level

    def action_back(self) -> None:
        self.dismiss()
