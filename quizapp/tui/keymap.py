"""Your own keys: the `keys` setting (binding id -> key) through Textual's keymap.

Every binding of ours has an id (`study.undo`); `App.set_keymap` replaces its key wherever
it is bound, and the footers and `?` help read the bindings, so they show the new key. A
remap that would put two bindings of one screen on the same key, or names no binding, is
left out and reported by name.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping

from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode


def _screen_classes() -> Iterator[type[DOMNode]]:
    from textual.screen import Screen

    import quizapp.tui.screens as screens

    for module in pkgutil.iter_modules(screens.__path__):
        importlib.import_module(f"{screens.__name__}.{module.name}")
    seen: set[type] = set()
    todo: list[type] = [Screen]
    while todo:
        cls = todo.pop()
        sub: type
        for sub in cls.__subclasses__():
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
                if sub.__module__.startswith("quizapp."):
                    yield sub


def _bindings(cls: type[DOMNode]) -> list[Binding]:
    out: list[Binding] = []
    for base in reversed(cls.__mro__):
        for binding in getattr(base, "BINDINGS", None) or []:
            if isinstance(binding, Binding):
                out.append(binding)
    return out


def _keys(binding: Binding, keymap: Mapping[str, str]) -> set[str]:
    keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
    return {App._normalize_keymap({"x": k.strip()})["x"] for k in keys.split(",") if k.strip()}


def problems(app_class: type[App], keymap: Mapping[str, str]) -> dict[str, str]:
    """binding id -> why its remap is left out (an unknown id, or a clash named by id)."""
    scopes = [(cls.__name__, [*_bindings(cls), *_bindings(app_class)]) for cls in _screen_classes()]
    known = {b.id for _, bindings in scopes for b in bindings if b.id}
    found: dict[str, str] = {}
    for binding_id in keymap:
        if binding_id not in known:
            found[binding_id] = f"{binding_id}: no such binding"
    for scope, bindings in scopes:
        for binding in bindings:
            if binding.id is None or binding.id not in keymap or binding.id in found:
                continue
            mine = _keys(binding, keymap)
            for other in bindings:
                if other.id != binding.id and mine & _keys(other, keymap):
                    key = sorted(mine & _keys(other, keymap))[0]
                    found[binding.id] = f"{binding.id}: {key} is already {other.id or other.action} ({scope})"
                    break
    return found


def apply(app: App, keymap: Mapping[str, str]) -> list[str]:
    """Put the usable remaps on; the problems of the others, one line each."""
    bad = problems(type(app), keymap)
    app.set_keymap({binding_id: keys for binding_id, keys in keymap.items() if binding_id not in bad})
    return list(bad.values())
