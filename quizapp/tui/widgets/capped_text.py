"""A text field with a size cap: what would go past it is not inserted, and the user is told.

A 10 MB paste into a mock answer froze the app for 58 s (every key then re-measured the
whole text); no spoken answer comes near the cap, so a paste that does is a mistake, and
the part that fits goes in with a one-line notice of how much was left out.
"""

from __future__ import annotations

from typing import Any

from textual.geometry import Region
from textual.strip import Strip

from quizapp.tui.localized import LocalizedMixin
from quizapp.tui.widgets.ordered_keys import OrderedTextArea

MOCK_ANSWER_CHARS = 20_000  # about ten minutes of speech, typed


class CappedTextArea(LocalizedMixin, OrderedTextArea):
    def __init__(self, max_chars: int, **options: Any) -> None:
        super().__init__(**options)
        self.max_chars = max_chars

    def _replace_via_keyboard(self, insert: str, start: Any, end: Any) -> Any:
        # Typing and pasting both come through here (`replace`/`insert` from code do not).
        replaced = len(self.get_text_range(start, end))
        room = self.max_chars - (len(self.text) - replaced)
        if len(insert) > room:
            left_out = len(insert) - max(room, 0)
            self.notify(self.t("text.too_long", max=self.max_chars, left_out=left_out), severity="warning", timeout=6)
            if room <= 0:
                return None
            insert = insert[:room]
        return super()._replace_via_keyboard(insert, start, end)

    def render_lines(self, crop: Region) -> list[Strip]:
        # Textual 8.2.8: when the pane holding this field is replaced (the next mock
        # question), the field is pruned — detached, its component styles cleared — while the
        # screen's compositor map still holds it until the next layout; a screen update in that
        # window (the mock's clock, a notice) renders it, and TextArea's theme asks for
        # `text-area--gutter`: KeyError, the app stopped (about 1 run in 4 of
        # tests/reliability/test_full_disk.py[mock]; Textual issues #6208, #6528). A field no
        # longer in the DOM is drawn blank instead: the next layout drops it anyway.
        if not self.is_attached:
            return [Strip.blank(crop.width)] * crop.height
        return super().render_lines(crop)

