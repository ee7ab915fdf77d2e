"""Pick an item's material in one language for display: the one helper every screen uses.

Items reach the screens as their validated JSON payload, where every text is
`{"zh": …, "en": …}` (either may be missing in a user deck); payloads written before the
bilingual schema, and skill payloads, hold plain strings. `localize_item` turns such a
payload into the same dict with plain strings in the chosen languages, so screens render
it as before.

The material mode (a setting) decides the languages:
* "ui": the material follows the interface language (the default);
* "zh" / "en": always that language;
* "both": the question in the interface language, the answer in it too, with the other
  language's answer one key (`t`) away — for practising the interview language.

A text missing in the language asked for falls back to the other one and is marked with
a short notice naming the language actually shown, "(中文)" or "(English)".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from quizapp.content.lang import LANGS, Lang, Picked, language_of

MaterialMode = Literal["ui", "zh", "en", "both"]
MATERIAL_MODES: tuple[MaterialMode, ...] = ("ui", "zh", "en", "both")

# Each notice is written in the language it names, so it needs no translation.
NOTICE: dict[str, str] = {"zh": "(中文)", "en": "(English)"}

# Fields of a payload shown with the question, and the ones revealed with the answer.
_QUESTION_SIDE = ("question",)
_ANSWER_SIDE = ("answer", "long_answer", "explanation")


def other_lang(lang: str) -> Lang:
    return "en" if lang == "zh" else "zh"


def texts_of(value: Any) -> dict[str, str]:
    """{lang: text} of a payload text: a `{zh, en}` mapping, a plain string, or None."""
    if value is None:
        return {}
    if isinstance(value, str):
        return {language_of(value): value} if value else {}
    if isinstance(value, Mapping):
        return {lang: value[lang] for lang in LANGS if isinstance(value.get(lang), str) and value[lang]}
    dumped = getattr(value, "model_dump", None)  # a Localized model
    return texts_of(dumped()) if dumped else {}


def pick_text(value: Any, lang: str) -> Picked | None:
    """The text in `lang`, or in the other language with `fallback=True`; None if empty."""
    texts = texts_of(value)
    if lang in texts:
        return Picked(texts[lang], lang, False)  # type: ignore[arg-type]
    for other in LANGS:
        if other in texts:
            return Picked(texts[other], other, True)
    return None


def text_in(value: Any, lang: str) -> str:
    """Just the text (possibly the other language's); "" when there is none."""
    picked = pick_text(value, lang)
    return picked.text if picked else ""


def primary_text(value: Any) -> str:
    """Chinese if given, else English: what one-language places (the items.question column) keep."""
    return text_in(value, "zh")


def keywords_of(value: Any) -> list[str]:
    """Every keyword of a key point, both languages: a `{zh, en}` mapping or a plain list."""
    if value is None:
        return []
    if isinstance(value, Mapping):
        return [str(w) for lang in LANGS for w in (value.get(lang) or [])]
    if isinstance(value, (list, tuple)):
        return [str(w) for w in value]
    all_words = getattr(value, "all", None)  # a Keywords model
    return list(all_words()) if all_words else []


@dataclass(frozen=True)
class MaterialLangs:
    """The languages a screen shows an item in."""

    question: Lang
    answer: Lang
    alternate: Lang | None = None  # "both" mode: what `t` switches the answer to

    @property
    def toggles(self) -> bool:
        return self.alternate is not None

    def flipped(self, on: bool) -> MaterialLangs:
        """The answer side in the alternate language when `on` (the `t` key in "both" mode)."""
        if not on or self.alternate is None:
            return self
        return MaterialLangs(self.question, self.alternate, self.answer)


def material_langs(ui_lang: str, mode: str = "ui") -> MaterialLangs:
    ui: Lang = "en" if ui_lang == "en" else "zh"
    if mode in ("zh", "en"):
        return MaterialLangs(mode, mode)  # type: ignore[arg-type]
    if mode == "both":
        return MaterialLangs(ui, ui, other_lang(ui))
    return MaterialLangs(ui, ui)


def _with_notice(picked: Picked, block: bool) -> str:
    if not picked.fallback:
        return picked.text
    sep = "\n\n" if block else " "
    return f"{picked.text.rstrip()}{sep}{NOTICE[picked.lang]}"


def localize_item(item: Mapping[str, Any], langs: MaterialLangs) -> dict[str, Any]:
    """A copy of an item payload with every text a plain string in `langs`.

    Question and options in `langs.question`; answer, long answer, explanation and
    key-point texts in `langs.answer`. Keywords become one list of both languages (a typed
    answer may use either). `material_fallback` lists the languages fallen back to.
    """
    out = dict(item)
    fell_back: set[str] = set()
    mcq = item.get("kind") == "mcq"

    def pick(value: Any, lang: str, block: bool) -> str | None:
        picked = pick_text(value, lang)
        if picked is None:
            return None
        if picked.fallback:
            fell_back.add(picked.lang)
        return _with_notice(picked, block)

    for name in _QUESTION_SIDE:
        if name in item:
            out[name] = pick(item[name], langs.question, block=False)
    for name in _ANSWER_SIDE:
        if name in item and not (mcq and name == "answer"):  # an MCQ's answer is its letter
            out[name] = pick(item[name], langs.answer, block=True)
    if isinstance(item.get("options"), Sequence):
        # Options stay unmarked (the question carries the notice): they must read alike.
        out["options"] = [text_in(option, langs.question) for option in item["options"]]
    if isinstance(item.get("key_points"), Sequence):
        points = []
        for point in item["key_points"]:
            if not isinstance(point, Mapping):
                continue
            picked = pick_text(point.get("text"), langs.answer)
            if picked is not None and picked.fallback:
                fell_back.add(picked.lang)
            points.append({**point, "text": picked.text if picked else "", "keywords": keywords_of(point.get("keywords"))})
        out["key_points"] = points
    out["material_fallback"] = sorted(fell_back)
    return out


def material_for(item: Mapping[str, Any], ui_lang: str, mode: str = "ui", flipped: bool = False) -> dict[str, Any]:
    """The shared entry point: an item payload in the languages of `ui_lang` + `mode`."""
    return localize_item(item, material_langs(ui_lang, mode).flipped(flipped))
