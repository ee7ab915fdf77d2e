"""Your card's form in a TextArea: the browser's way (no terminal editor to suspend to), and
the terminal's when no $VISUAL/$EDITOR is set. The same YAML form, checked the same way
(quizapp.srs.user_cards); its problems are listed above it, the text stays as written."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static, TextArea

from quizapp.content.models import QAItem
from quizapp.srs import user_cards
from quizapp.srs.card_editing import Plan
from quizapp.tui.screens.base import BaseModal
from quizapp.tui.widgets.keys_footer import KeysFooter
from quizapp.tui.widgets.ordered_keys import OrderedTextArea


class CardEditorScreen(BaseModal[QAItem | None]):
    """Ctrl+S checks and saves (dismissed with the card), Esc cancels (None)."""

    DEFAULT_CSS = """
    CardEditorScreen > Vertical {
        width: 100%;
        height: 100%;
        background: $surface;
    }
    CardEditorScreen #card-editor-title {
        text-style: bold;
        color: $text-primary;
        padding: 0 1;
    }
    CardEditorScreen #card-editor-note {
        color: $text-muted;
        padding: 0 1;
    }
    CardEditorScreen #card-editor-problems {
        color: $text-error;
        padding: 0 1;
        height: auto;
        max-height: 6;
    }
    CardEditorScreen TextArea {
        height: 1fr;
    }
    """

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True, id="card_editor.save"),
        # priority: the TextArea (tab indents) takes Esc to move the focus on, to itself.
        Binding("escape", "cancel", "Cancel", priority=True, id="card_editor.cancel"),
    ]

    def __init__(self, plan: Plan, note_key: str | None = None) -> None:
        super().__init__()
        self.plan = plan
        self.note_key = note_key  # why the form is here and not in the editor
        self.problems: tuple[str, ...] = ()

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="card-editor-title")
            yield Static(id="card-editor-note")
            yield Static(id="card-editor-problems")
            yield OrderedTextArea(self.plan.form, id="card-editor-text", soft_wrap=True, show_line_numbers=True,
                           tab_behavior="indent")
            yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(TextArea).focus()

    def render_texts(self) -> None:
        title = "cards.title_new" if self.plan.is_new and self.plan.variant_of is None else (
            "cards.title_variant" if self.plan.is_new else "cards.title_edit")
        self.query_one("#card-editor-title", Static).update(
            self.t(title, id=self.plan.item_id, original=self.plan.variant_of or ""))
        note = self.query_one("#card-editor-note", Static)
        note.update(self.t(self.note_key) if self.note_key else "")
        note.display = self.note_key is not None
        self._show_problems()

    def _show_problems(self) -> None:
        box = self.query_one("#card-editor-problems", Static)
        box.update("\n".join(self.problems))
        box.display = bool(self.problems)

    def action_save(self) -> None:
        text = self.query_one(TextArea).text
        result = user_cards.read_form(text, self.plan.item_id, self.plan.variant_of, template=self.plan.form)
        if result.cancelled:
            self.dismiss(None)
        elif result.item is not None:
            self.dismiss(result.item)
        else:
            self.problems = result.problems
            self._show_problems()

    def action_cancel(self) -> None:
        self.dismiss(None)
