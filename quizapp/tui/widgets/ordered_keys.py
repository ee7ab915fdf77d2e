"""Text fields that apply keys in the order they were typed.

Textual's Input and TextArea insert a printable key in their own key handler, but a bound key
(backspace, End, the arrows) first bubbles up to the app, which then runs the field's binding.
In a fast burst (keys < 10 ms apart, a paste through tmux, a key held down) the next letters
are inserted while the backspace is still on its way up: `residual`, End, 8 × backspace,
`#mask` left `resid` (Textual issue #6605). Running the field's own bindings in its key handler
keeps every key in order; priority bindings were already checked before the key reached the
field, and the field is first in the binding chain anyway, so which binding runs is unchanged.
"""

from __future__ import annotations

from typing import cast

from textual import events
from textual.widget import Widget
from textual.widgets import Input, TextArea


class OrderedKeysMixin:
    # Not a Widget subclass: Textual's CSS type names follow the first DOMNode base, and the
    # fields must still match `Input`/`TextArea` in queries and stylesheets.
    async def _on_key(self, event: events.Key) -> None:
        # Textual calls `_on_key` of every class in the MRO until one prevents the default:
        # a key handled here stops there; any other goes on to Input's/TextArea's handler.
        if event.is_printable:
            return
        widget = cast(Widget, self)
        for binding in widget._bindings.key_to_bindings.get(event.key, ()):
            if not binding.priority and await widget.app.run_action(binding.action, widget):
                event.stop()
                event.prevent_default()
                return


class OrderedInput(OrderedKeysMixin, Input):
    pass


class OrderedTextArea(OrderedKeysMixin, TextArea):
    pass
