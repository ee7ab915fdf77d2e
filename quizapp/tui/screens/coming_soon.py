"""Placeholder for modes another issue builds (drill, mock interview): says so, `escape` returns."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.widgets import Footer, Header, Static

from quizapp.tui.screens.base import BaseScreen


class ComingSoonScreen(BaseScreen):
    BINDINGS = [
        Binding("escape", "back", "Back", id="coming.back"),
        Binding("s", "app.open_mode('study')", "Study instead", id="coming.study"),
    ]

    def __init__(self, mode: str) -> None:
        super().__init__(id="coming-soon")
        self.mode = mode

    def compose(self) -> ComposeResult:
        yield Header()
        with Middle():
            with Center():
                yield Static(id="coming-text", classes="coming-text")
        yield Footer()

    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t(f"{self.mode}.title")
        self.query_one("#coming-text", Static).update(
            self.t("coming.text", mode=self.t(f"{self.mode}.title"))
        )

    def action_back(self) -> None:
        self.dismiss()
