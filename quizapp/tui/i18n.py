"""UI strings: one catalog per language (`locales/zh.py`, `locales/en.py`).

Every string a user reads comes from a catalog through a `Translator`. Keys are dotted
(`home.title`); values are `str.format` templates. Binding descriptions use the key
`binding.<binding id>`, so the Footer follows the language too.
"""

from __future__ import annotations

import importlib
import logging
from functools import cache

LANGUAGES: tuple[str, ...] = ("zh", "en")
DEFAULT_LANGUAGE = "zh"

log = logging.getLogger(__name__)


@cache
def catalog(lang: str) -> dict[str, str]:
    """The language's catalog: `locales/<lang>.py`, plus the screen-specific parts
    (`locales/<part>_<lang>.py`, e.g. `drill_zh.py`) merged in. Parts add keys; they
    never replace one (the catalog tests check that)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    messages = dict(importlib.import_module(f"quizapp.tui.locales.{lang}").MESSAGES)
    for part in catalog_parts(lang):
        for key, value in importlib.import_module(f"quizapp.tui.locales.{part}").MESSAGES.items():
            messages.setdefault(key, value)
    return messages


def catalog_parts(lang: str) -> list[str]:
    import pkgutil

    from quizapp.tui import locales

    suffix = f"_{lang}"
    return sorted(m.name for m in pkgutil.iter_modules(locales.__path__) if m.name.endswith(suffix))


class Translator:
    """`tr("session.done_count", n=3)` → the catalog's template for the current language, filled in."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang
        self.messages = catalog(lang)

    def __call__(self, key: str, /, **values: object) -> str:
        text = self.messages.get(key)
        if text is None:
            # A missing key is a bug the catalog test catches; show the key, never crash.
            log.warning("missing UI string %r for language %s", key, self.lang)
            return key
        return text.format(**values) if values else text

    def has(self, key: str) -> bool:
        return key in self.messages
