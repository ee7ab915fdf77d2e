"""A focus change restyles the widget, not its whole subtree, unless a rule needs that.

Textual 8.2.8 (pinned exactly) restyles a widget *and every descendant* whenever it gains or
loses focus (`Widget.watch_has_focus` → `update_node_styles`), in case a rule selects
descendants of a focused widget (`Select:focus > SelectCurrent`). The drill's answer sheet is
a focusable scroll of ~200 widgets (cells, their marks, texts), focused after each graded
answer and left at the next key: each change restyled all of them, ~60 ms of a key press on
this machine.

Here a widget that gains or loses focus is restyled alone, unless some rule of the app's
stylesheet has `:focus` or `:blur` on a compound that could match it before the last part of
its selector (then Textual's full restyle, as before). A rule whose last part is a component
class (`DataTable:focus > .datatable--cursor`) styles the widget's own rendering, not a
descendant, and needs only the widget itself. The rules are read from the stylesheet each
time they change, so a new rule of that kind is honoured without a change here;
tests/tui/test_focus_styles.py checks that the result is what Textual's full restyle gives.
"""

from __future__ import annotations

from collections.abc import Callable

from textual._context import NoActiveAppError
from textual.css.model import CombinatorType, Selector, SelectorType
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.widget import Widget

_FOCUS = frozenset({"focus", "blur"})
Compound = tuple[Selector, ...]


def _compounds(stylesheet: Stylesheet) -> list[Compound]:
    """The selector compounds that carry :focus / :blur before a descendant part."""
    found: list[Compound] = []
    for rule in stylesheet.rules:
        for selector_set in rule.selector_set:
            selectors = selector_set.selectors
            last = selectors[-1]
            if last.type == SelectorType.CLASS and "--" in last.name:
                continue  # a component class: the widget's own rendering
            for index, selector in enumerate(selectors[:-1]):
                if not (_FOCUS & selector.pseudo_classes):
                    continue
                start = index
                while start > 0 and selectors[start].combinator == CombinatorType.SAME:
                    start -= 1
                end = index + 1
                while end < len(selectors) - 1 and selectors[end].combinator == CombinatorType.SAME:
                    end += 1
                found.append(tuple(selectors[start:end]))
    return found


# Per stylesheet: its rules list (a new list after every parse) and the compounds in it.
_SCANNED: dict[int, tuple[object, list[Compound]]] = {}


def _focus_compounds(stylesheet: Stylesheet) -> list[Compound]:
    rules = stylesheet.rules
    cached = _SCANNED.get(id(stylesheet))
    if cached is not None and cached[0] is rules:
        return cached[1]
    compounds = _compounds(stylesheet)
    if len(_SCANNED) > 64:  # one per app; the tests start hundreds in a process
        _SCANNED.clear()
    _SCANNED[id(stylesheet)] = (rules, compounds)
    return compounds


def _may_match(compound: Compound, node: DOMNode) -> bool:
    """Whether `node` may be what the compound selects (names only; a pseudo-class is state,
    so a compound that names the node counts whatever its state)."""
    return all(selector.type == SelectorType.NESTED or selector._check(node) for selector in compound)


def needs_subtree(stylesheet: Stylesheet, node: DOMNode) -> bool:
    return any(_may_match(compound, node) for compound in _focus_compounds(stylesheet))


_textuals_watch_has_focus: Callable[[Widget, bool], None] = Widget.watch_has_focus


def _watch_has_focus(self: Widget, has_focus: bool) -> None:
    try:
        stylesheet = self.app.stylesheet
    except NoActiveAppError:
        return
    if needs_subtree(stylesheet, self):
        _textuals_watch_has_focus(self, has_focus)
    else:
        stylesheet.update_nodes([self], animate=True)


def apply() -> None:
    """Restyle only the widget on a focus change where no rule needs more (idempotent)."""
    Widget.watch_has_focus = _watch_has_focus  # type: ignore[method-assign, assignment]
