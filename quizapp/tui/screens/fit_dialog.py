"""The fit, before it is saved: defaults (and the parameters in force) vs fitted, on the
user's own reviews; `y` uses the fitted parameters, `n`/`escape` keeps the current ones."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from quizapp.tui.screens.base import BaseModal

if TYPE_CHECKING:
    from quizapp.srs.optimize import Evaluation, Fit


class FitDialog(BaseModal[bool]):
    DEFAULT_CSS = """
    FitDialog {
        align: center middle;
    }
    FitDialog > Vertical {
        width: 72;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $primary;
        background: $surface;
        padding: 1 2;
    }
    FitDialog #fit-table {
        margin: 1 0;
    }
    FitDialog Horizontal {
        height: auto;
    }
    FitDialog Button {
        margin-right: 2;
    }
    """

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, fit: Fit) -> None:
        super().__init__()
        self.fit = fit
        self.saving = fit.worth_saving

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="fit-title")
            yield Static(id="fit-summary")
            yield Static(id="fit-table")
            yield Static(id="fit-question")
            with Horizontal():
                yield Button(id="fit-save", variant="primary")
                yield Button(id="fit-cancel")

    def render_texts(self) -> None:
        fit = self.fit
        self.query_one("#fit-title", Static).update(Text(self.t("optimize.title"), style="bold"))
        self.query_one("#fit-summary", Static).update(Text(self.t(
            "optimize.summary", usable=fit.usable_reviews, cards=fit.cards, reviews=fit.reviews)))
        table = Table(box=None, padding=(0, 3, 0, 0), show_edge=False, header_style="bold")
        table.add_column(self.t("optimize.col.parameters"))
        table.add_column(self.t("optimize.col.log_loss"), justify="right")
        table.add_column(self.t("optimize.col.rmse"), justify="right")
        rows: list[tuple[str, Evaluation]] = [("defaults", fit.defaults)]
        if fit.in_force is not None:
            rows.append(("in_force", fit.in_force))
        rows.append(("fitted", fit.fitted))
        for name, figures in rows:
            table.add_row(self.t(f"optimize.row.{name}"), f"{figures.log_loss:.4f}", f"{figures.rmse_bins:.2%}",
                          style="bold" if name == "fitted" else None)
        self.query_one("#fit-table", Static).update(table)
        self.query_one("#fit-question", Static).update(
            self.t("optimize.question") if self.saving else self.t("optimize.worse"))
        save = self.query_one("#fit-save", Button)
        save.label = self.t("optimize.save")
        save.display = self.saving
        self.query_one("#fit-cancel", Button).label = self.t("optimize.cancel" if self.saving else "optimize.close")

    def on_mount(self) -> None:
        # (BaseModal's on_mount, which Textual also runs, translates the bindings and texts.)
        self.query_one("#fit-save" if self.saving else "#fit-cancel", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "fit-save" and self.saving)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes and self.saving)
