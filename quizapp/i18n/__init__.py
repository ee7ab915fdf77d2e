"""Every string a user reads, in Chinese and English: one catalog, one lookup.

The catalog is plain Python: per language, the `MESSAGES` dicts of the modules in
`quizapp/i18n/locales/` (`zh.py`/`en.py` for the app, `<part>_zh.py`/`<part>_en.py` for
the rest: `drill_`, `mock_`, `report_`, `interval_`, `engine_`). Keys are dotted and the
first segment names the domain (`engine.…`, `report.…`, `interval.…`; the screens' keys
are named for their screen, `home.title`). Values are `str.format` templates. A test
(`tests/test_i18n.py`) proves both languages have every key with the same placeholders.

This package imports no Textual, SQLAlchemy or NumPy: engine, content, srs and tui all
use it. A language's catalog is built on its first lookup, not on import.

How engine code (or any code) looks a string up::

    from quizapp.i18n import Translator

    t = Translator(lang)                       # "zh" or "en"; anything else raises ValueError
    t("engine.scaled_scores.prompt", d_k=4)    # the template for `lang`, filled in

* Add the key to *both* `locales/engine_zh.py` and `locales/engine_en.py`, with the same
  `{placeholders}`. Format numbers before passing them (`quizapp.i18n.formatting.num`,
  `percent`), so both languages show the same digits.
* A sentence is one key: never glue translated fragments in code, since word order differs.
  Pieces that really are separate (a list separator, a colon) have their own keys:
  `engine.colon`, `engine.semicolon`, `engine.list_sep`, `engine.row`.
* A count's noun agrees with it in English: `{n} {n:card|cards}` is "1 card", "3 cards"
  (`{n:one|many}`, the singular only for 1; a count passed as text, "1,000", works too).
  Chinese needs none: write `{n} 张`.
* A list passed as a value (a `list` or `tuple`) is joined by the language's separator
  (`engine.list_sep`: ", " or "、"); never join it in code.
* A missing key logs a warning and shows the key itself, never a traceback; the catalog
  test catches it first.
* Prefer the key in the code as a literal string, so `grep` and the tests find it.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
import string
from functools import cache

LANGUAGES: tuple[str, ...] = ("zh", "en")
DEFAULT_LANGUAGE = "zh"

log = logging.getLogger(__name__)


@cache
def catalog(lang: str) -> dict[str, str]:
    """The language's catalog: `locales/<lang>.py`, plus the parts (`locales/<part>_<lang>.py`)
    merged in. Parts add keys; they never replace one (the catalog tests check that)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (expected one of {', '.join(LANGUAGES)})")
    messages = dict(importlib.import_module(f"quizapp.i18n.locales.{lang}").MESSAGES)
    for part in catalog_parts(lang):
        for key, value in importlib.import_module(f"quizapp.i18n.locales.{part}").MESSAGES.items():
            messages.setdefault(key, value)
    return messages


def catalog_parts(lang: str) -> list[str]:
    """The part modules of a language (`drill_zh`, `report_zh`, …), sorted."""
    from quizapp.i18n import locales

    suffix = f"_{lang}"
    return sorted(m.name for m in pkgutil.iter_modules(locales.__path__) if m.name.endswith(suffix))


class _CatalogFormatter(string.Formatter):
    """`str.format`, plus the plural spec `{n:card|cards}` (the singular only for a count of 1)."""

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" in format_spec:
            one, many = format_spec.split("|", 1)
            return one if _count(value) == 1 else many
        return super().format_field(value, format_spec)


def _count(value: object) -> float | None:
    if isinstance(value, (int, float)):
        return value
    try:
        return float(str(value).replace(",", ""))
    except ValueError:
        return None


_FORMATTER = _CatalogFormatter()


def fill(template: str, values: dict[str, object]) -> str:
    """A catalog template filled in: `str.format`, with plural specs (`{n:card|cards}`)."""
    if "|" in template:  # the plural spec needs the formatter; everything else the faster str.format
        return _FORMATTER.vformat(template, (), values)
    return template.format(**values)


class Translator:
    """`tr("session.done_count", n=3)` → the catalog's template for the language, filled in."""

    __slots__ = ("lang", "messages")

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang
        self.messages = catalog(lang)

    def __call__(self, key: str, /, **values: object) -> str:
        text = self.messages.get(key)
        if text is None:
            # A missing key is a bug the catalog test catches; show the key, never crash.
            log.warning("missing string %r for language %s", key, self.lang)
            return key
        if not values:
            return text
        # A list is shown as the language's list: "a, b" in English, "a、b" in Chinese.
        sep = self.messages.get("engine.list_sep", ", ")
        return fill(text, {k: sep.join(map(str, v)) if isinstance(v, (list, tuple)) else v for k, v in values.items()})

    def has(self, key: str) -> bool:
        return key in self.messages

    @property
    def zh(self) -> bool:
        """Chinese? For the few choices that are not strings (full-width punctuation width)."""
        return self.lang == "zh"


def translate(lang: str, key: str, /, **values: object) -> str:
    """One lookup without keeping a `Translator`: `translate("en", "report.title")`."""
    return Translator(lang)(key, **values)
