"""Languages of the material and small text helpers, without pydantic.

The study service and the bilingual helpers need these on every start; the pydantic
models (`quizapp.content.models`) are loaded only when a deck is parsed.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

Lang = Literal["zh", "en"]

LANGS: tuple[Lang, ...] = ("zh", "en")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")


def has_cjk(text: str) -> bool:
    """Whether `text` contains Chinese characters or full-width CJK punctuation."""
    return bool(_CJK.search(text))


def language_of(text: str) -> Lang:
    """The language a plain (one-language) string is taken to be in."""
    return "zh" if has_cjk(text) else "en"


class Picked(NamedTuple):
    """A text in the language asked for, or the other one when it is missing."""

    text: str
    lang: Lang  # the language `text` is in
    fallback: bool  # True when `lang` is not the one asked for


_SOURCE_NO = re.compile(r"^[Qq](\d+)$")


def parse_source_ref(text: str) -> int | None:
    """`Q24` → 24, anything else → None (used by search and the command palette)."""
    match = _SOURCE_NO.match(text.strip())
    return int(match.group(1)) if match else None
