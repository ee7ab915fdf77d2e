"""One key point of a Q&A answer in the mock interview's review, with its tick.

The run screen shows up to `MAX_POINTS` of these under the reference answer; keys `1`–`6`
or a click toggle a tick, and a click is reported to the screen as `KeyPointRow.Toggled`.
"""

from __future__ import annotations

from textual.events import Click
from textual.message import Message
from textual.widgets import Static

MAX_POINTS = 6  # content has 3–6 key points per Q&A item (validated); keys 1–6 toggle them


class KeyPointRow(Static):
    """One key point of a Q&A answer with its tick; clicking it toggles the tick."""

    class Toggled(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int) -> None:
        super().__init__(id=f"mock-point-{index}", classes="mock-point")
        self.index = index

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Toggled(self.index))
