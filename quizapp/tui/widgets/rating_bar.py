"""The four rating buttons of a flashcard, each with the interval it would give."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button

RATINGS: tuple[int, ...] = (1, 2, 3, 4)
VARIANTS = {1: "error", 2: "warning", 3: "success", 4: "primary"}


class RatingBar(Horizontal):
    """Click or press 1–4 (the screen's bindings); a click posts `RatingBar.Rated`."""

    DEFAULT_CSS = """
    RatingBar {
        height: 3;
        width: 100%;
        align-horizontal: center;
    }
    RatingBar > Button {
        width: 1fr;
        max-width: 24;
        margin: 0 1;
    }
    """

    class Rated(Message):
        def __init__(self, rating: int) -> None:
            super().__init__()
            self.rating = rating

    def compose(self) -> ComposeResult:
        for rating in RATINGS:
            button = Button("", id=f"rate-{rating}", variant=VARIANTS[rating])  # type: ignore[arg-type]
            # Keys drive the screen; focusable buttons would steal space/enter.
            button.can_focus = False
            yield button

    def set_labels(self, labels: dict[int, str]) -> None:
        for rating, label in labels.items():
            self.query_one(f"#rate-{rating}", Button).label = label

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id:
            self.post_message(self.Rated(int(event.button.id.removeprefix("rate-"))))
