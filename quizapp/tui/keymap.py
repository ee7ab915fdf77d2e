"""Your own keys: the `keys` setting (binding id -> key) through Textual's keymap.

Every binding of ours has an id (`study.undo`); `App.set_keymap` replaces its key wherever
it is bound, and the footers and `?` help read the bindings, so they show the new key. A
remap that would put two bindings of one screen on the same key, or names no binding, is
left out and reported by name.

The remaps are on from the first frame: before it, `stored_keys` reads the one `keys` row
with plain sqlite3 (a millisecond; no SQLAlchemy, no pydantic) and `apply` checks them
against the screens already loaded (Home and the app). When the study service opens, the
validated setting is applied again against every screen, and what cannot be used is named.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

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


def problems(app_class: type[App], keymap: Mapping[str, str],
             screens: Iterable[type[DOMNode]] | None = None) -> dict[str, str]:
    """binding id -> why its remap is left out (an unknown id, or a clash named by id).

    `screens`: check only these (the ones loaded before the first frame); then an id none of
    them has is not judged (it may be a screen's not loaded yet)."""
    if not keymap:
        return {}  # nothing to check: the screens are not imported for nothing
    classes = list(_screen_classes()) if screens is None else list(screens)
    scopes = [(cls.__name__, [*_bindings(cls), *_bindings(app_class)]) for cls in classes]
    known = {b.id for _, bindings in scopes for b in bindings if b.id}
    found: dict[str, str] = {}
    for binding_id in keymap:
        if binding_id not in known and screens is None:
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


def apply(app: App, keymap: Mapping[str, str], screens: Iterable[type[DOMNode]] | None = None) -> list[str]:
    """Put the usable remaps on; the problems of the others, one line each."""
    bad = problems(type(app), keymap, screens)
    app.set_keymap({binding_id: keys for binding_id, keys in keymap.items() if binding_id not in bad})
    return list(bad.values())


def plain_keys(value: object) -> dict[str, str] | None:
    """The `keys` setting as the model (quizapp.srs.settings) would keep it, or None."""
    if not isinstance(value, dict):
        return None
    for binding_id, key in value.items():
        if not isinstance(binding_id, str) or not isinstance(key, str) or not binding_id.strip() \
                or not key.strip() or any(c.isspace() for c in key):
            return None
    return dict(value)


def stored_keys(path: Path) -> dict[str, str]:
    """The stored `keys` setting, read at once (read-only, no waiting on a lock); {} when
    there is none or it cannot be read now (the full open applies it, or reports why)."""
    from quizapp.store import settings
    from quizapp.store.errors import DatabaseError
    from quizapp.store.tx import read_only

    if not path.is_file():
        return {}
    try:
        with read_only(path, timeout_s=0) as tx:
            text = settings.value(tx, "keys")
        return plain_keys(json.loads(text) if isinstance(text, str) else None) or {}
    except (DatabaseError, OSError, ValueError):
        return {}


@dataclass(frozen=True)
class KeyRow:
    """One binding the user may remap: its id, its own keys, what it does, and where."""

    binding_id: str
    default: str
    description: str
    screens: tuple[str, ...]


def catalog(app_class: type[App]) -> list[KeyRow]:
    """Every binding with an id, once each, with the screens that declare it (a screen that
    inherits it, as Cram does Study's, is not listed again)."""
    found: dict[str, tuple[Binding, list[str]]] = {}
    for binding in _bindings(app_class):
        if binding.id:
            found.setdefault(binding.id, (binding, ["App"]))
    for cls in sorted(_screen_classes(), key=lambda c: c.__name__):
        for binding in cls.__dict__.get("BINDINGS") or []:
            if not isinstance(binding, Binding) or not binding.id:
                continue
            if binding.id not in found:
                found[binding.id] = (binding, [cls.__name__])
            elif cls.__name__ not in found[binding.id][1]:
                found[binding.id][1].append(cls.__name__)
    return [KeyRow(binding_id, binding.key, binding.description, tuple(screens))
            for binding_id, (binding, screens) in sorted(found.items())]


def keys_in_force(app: App, binding_id: str, default: str) -> str:
    """The key(s) a binding answers to now (the keymap's, else its own)."""
    return app._keymap.get(binding_id, default)


def key_label(app: App, binding_id: str, default: str) -> str:
    """The first key a binding answers to now, as the footer writes it (`,` for comma)."""
    keys = keys_in_force(app, binding_id, default)
    first = keys if keys == "," else keys.split(",")[0].strip()  # a lone "," is the key itself
    return app.get_key_display(Binding(first, ""))
