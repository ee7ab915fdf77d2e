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
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    return importlib.import_module(f"quizapp.tui.locales.{lang}").MESSAGES


class Translator:
    """`tr("home.due", n=3)` → the catalog's template for the current language, filled in."""

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
