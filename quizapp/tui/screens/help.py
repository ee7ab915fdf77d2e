"""`?`/F1: the keys of the screen underneath, read from its active bindings.

Nothing here is written by hand: the rows are the bindings Textual would dispatch on
that screen right now (the focused widget's, the screen's, the app's), with the
descriptions the Footer shows. A key that exists but does nothing at the moment is dimmed.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from quizapp.tui.screens.base import BaseModal

if TYPE_CHECKING:
    from textual.app import App
    from textual.dom import DOMNode
    from textual.screen import Screen

    from quizapp.tui.i18n import Translator


@dataclass(frozen=True)
class HelpRow:
    keys: str
    description: str
    enabled: bool


@dataclass(frozen=True)
class HelpGroup:
    scope: str  # "widget", "screen" or "app"
    widget: str  # the focused widget's class name, for "widget"
    rows: tuple[HelpRow, ...]


def widget_description(binding: Binding, tr: Translator) -> str:
    """A Textual widget's own binding (Input, DataTable…) in the UI language when the
    catalog knows its action, else Textual's English description, else the action name."""
    action = binding.action.split("(", 1)[0].rsplit(".", 1)[-1]  # "app.focus_next" → focus_next
    key = f"help.action.{action}"
    if tr.has(key):
        return tr(key)
    return binding.description or action.replace("_", " ")


@dataclass(frozen=True)
class _Named:
    keys: frozenset[str]
    descriptions: frozenset[str]


def _named_by_others(groups: Any, app: App[Any]) -> _Named:
    """The keys a row's shown form names besides its own (`j/k`: k; `1–5`: 2–5), and those
    rows' descriptions: a hidden binding among them is not a row of its own in the help
    (`j/k Scroll` was followed by `k Scroll up`, `1–5 Tick point` by `2 Tick point`…)."""
    keys: set[str] = set()
    descriptions: set[str] = set()
    for entries in groups:
        for binding, _ in entries:
            shown = binding.key_display or ""
            if "/" in shown:
                names = set(shown.split("/"))
            elif (span := re.fullmatch(r"(\d)–(\d)", shown)) is not None:
                names = {str(n) for n in range(int(span[1]), int(span[2]) + 1)}
            else:
                continue
            keys |= names - {binding.key}
            descriptions.add(binding.description)
    return _Named(frozenset(keys), frozenset(descriptions))


def binding_groups(screen: Screen[Any], app: App[Any], tr: Translator) -> list[HelpGroup]:
    """The screen's active bindings, grouped by who owns them, keys of one action merged."""
    from textual.screen import Screen as ScreenClass

    grouped: dict[int, tuple[DOMNode, dict[str, list[tuple[Binding, bool]]]]] = {}
    order: list[int] = []
    for active in screen.active_bindings.values():
        if active.binding.system:
            continue
        node = active.node
        if id(node) not in grouped:
            grouped[id(node)] = (node, defaultdict(list))
            order.append(id(node))
        grouped[id(node)][1][active.binding.action].append((active.binding, active.enabled))
    ranked: list[tuple[int, HelpGroup]] = []
    for node_id in order:
        node, by_action = grouped[node_id]
        if node is app:
            scope = "app"
        elif isinstance(node, ScreenClass):
            scope = "screen"
        else:
            scope = "widget"
        rows = []
        actions = list(by_action.values())
        for index, entries in enumerate(actions):
            binding, _ = entries[0]
            # Named by another row only: a row's own `j/k` never hides the row itself.
            named = _named_by_others(actions[:index] + actions[index + 1:], app)
            if all(not b.show and (b.key in named.keys or b.description in named.descriptions)
                   for b, _ in entries):
                continue  # already a row's `j/k` or `1–5`
            keys = " ".join(dict.fromkeys(app.get_key_display(b) for b, _ in entries))
            # Bindings with an id are ours and already translated; the rest are Textual's.
            description = binding.description if binding.id else widget_description(binding, tr)
            rows.append(HelpRow(keys, description, any(enabled for _, enabled in entries)))
        # The screen's own keys first: they are what the user asked about. Then a widget's
        # keys of ours (a mock question's ^s Submit) before a Textual widget's editing keys:
        # under a focused text field, ^s came after its forty lines (issue 27 item 13).
        ours = any(binding.id for entries in by_action.values() for binding, _ in entries)
        rank = {"screen": 0, "widget": 1 if ours else 2, "app": 3}[scope]
        ranked.append((rank, HelpGroup(scope, type(node).__name__, tuple(rows))))
    return [group for _rank, group in sorted(ranked, key=lambda pair: pair[0])]


# A focused widget's class, by the word for it in the help's group title (help.widget.*).
WIDGET_KINDS = {
    "OptionList": "list", "TypeList": "list", "ResultsTable": "list", "DataTable": "list",
    "CellInput": "cell", "Input": "field", "TextArea": "field", "CappedTextArea": "field",
    "PartEntry": "part", "PartList": "part", "AnswerSheet": "problem", "KeyScroll": "pane",
    "VerticalScroll": "pane",
}


class HelpScreen(BaseModal[None]):
    """A scrollable list of the keys; Esc, `?`, F1 or `q` closes it."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen > Vertical {
        width: 76;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $primary;
        background: $surface;
        padding: 0 1;
    }
    HelpScreen #help-title {
        text-style: bold;
        color: $text-primary;
    }
    HelpScreen VerticalScroll {
        height: auto;
        max-height: 1fr;
    }
    HelpScreen #help-hint {
        color: $text-muted;
        dock: bottom;  /* how to close it stays on screen however long the list is */
    }
    """

    BINDINGS = [
        Binding("escape,question_mark,f1,q", "close", "Close", id="help.close"),
        Binding("j,down", "scroll('down')", "Down", show=False, id="help.down"),
        Binding("k,up", "scroll('up')", "Up", show=False, id="help.up"),
    ]

    def __init__(self, screen_title: str, groups: list[HelpGroup]) -> None:
        super().__init__(id="help")
        self.screen_title = screen_title
        self.groups = groups

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="help-title")
            with VerticalScroll(id="help-scroll"):
                yield Static(id="help-table")
            yield Static(id="help-hint")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#help-scroll").focus()

    def render_texts(self) -> None:
        self.query_one("#help-title", Static).update(Text(self.t("help.title", screen=self.screen_title)))
        self.query_one("#help-table", Static).update(self._table())
        self.query_one("#help-hint", Static).update(Text(self.t("help.hint")))

    def _table(self) -> Group:
        parts: list[RenderableType] = []
        for index, group in enumerate(self.groups):
            # The user knows "the cell", not `CellInput`: a focused widget is named by what it is.
            what = self.t(f"help.widget.{WIDGET_KINDS.get(group.widget, 'other')}")
            title = self.t(f"help.scope.{group.scope}", widget=what)
            parts.append(Text(("\n" if index else "") + title, style="underline"))
            table = Table(show_header=False, box=None, padding=(0, 2, 0, 0), expand=True)
            table.add_column(no_wrap=True, min_width=10)
            table.add_column(ratio=1)
            for row in group.rows:
                style = "" if row.enabled else "dim"
                table.add_row(Text(row.keys, style=style or "bold"), Text(row.description, style=style))
            parts.append(table)
        return Group(*parts)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, direction: str) -> None:
        scroll = self.query_one("#help-scroll", VerticalScroll)
        if direction == "down":
            scroll.scroll_down(animate=False)
        else:
            scroll.scroll_up(animate=False)
