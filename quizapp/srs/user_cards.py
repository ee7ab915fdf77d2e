"""Your own Q&A cards: the YAML form they are written in, its validation, and your deck file.

The form (`card_form`) holds what a card says — question, answer, key points with their
keywords, tags — in one or both languages; the id, group and section are the deck's business
and not in it. `read_form` validates a filled-in form into a QAItem, or returns the problems,
each located (`key_points[1].keywords (line 14): give at least one keyword`).

Your cards live in one file, `my-cards.yaml` in the decks folder, rewritten whole and
atomically (`quizapp.atomic`) on every save: a crash at any point leaves the previous file.
The file is edited as YAML data, not as items, so that an entry you broke by hand is kept as
it is (the loader reports it) rather than dropped when another card is saved.

A built-in card is never edited: `variant_of_item` copies it as a card of your own with a
new id and `variant_of` naming the original.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from quizapp.atomic import write_text
from quizapp.content.models import QAItem
from quizapp.content.safe_yaml import UnsafeYaml, safe_load
from quizapp.i18n import LANGUAGES, Translator
from quizapp.paths import user_decks_dir

DECK_NAME = "my-cards.yaml"
GROUP = "My cards"
SECTION = "my-cards"
FORM_FIELDS = ("question", "answer", "long_answer", "key_points", "tags")

def _help(lang: str) -> str:
    """The form's comment lines in `lang` (the zh UI showed them in English)."""
    return Translator(lang if lang in LANGUAGES else "en")("cards.form_help", both="{zh: ..., en: ...}")


_BLANK = {
    "question": "",
    "answer": "",
    "key_points": [{"text": "", "keywords": [""]} for _ in range(3)],
    "tags": ["mine"],
}


class DeckUnusable(Exception):
    """Your deck file cannot be read as YAML data: nothing is written over it."""


@dataclass(frozen=True)
class FormResult:
    item: QAItem | None
    problems: tuple[str, ...] = ()
    cancelled: bool = False


def deck_path(folder: Path | None = None) -> Path:
    return (folder or user_decks_dir()) / DECK_NAME


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)


def card_form(item: QAItem | None = None, lang: str = "en") -> str:
    """The form for a new card (no item) or for `item`'s texts, its comments in `lang`."""
    if item is None:
        return _help(lang) + _dump(_BLANK)
    data = item.model_dump(mode="json", include=set(FORM_FIELDS), exclude_none=True)
    for point in data["key_points"]:
        if not point.get("requires"):
            point.pop("requires", None)
    return _help(lang) + _dump({key: data[key] for key in FORM_FIELDS if key in data})


def strip_comments(text: str) -> str:
    """The form without its comment lines (ours and the error notes) and outer blank lines."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")).strip()


def with_problems(text: str, problems: tuple[str, ...] | list[str]) -> str:
    """The form again, the problems written at its top as comments (as `git commit` does)."""
    notes = "".join(f"# ERROR: {problem}\n" for problem in problems)
    body = "\n".join(line for line in text.splitlines() if not line.startswith("# ERROR: "))
    return notes + body + ("" if body.endswith("\n") else "\n")


def _line_of(text: str, loc: tuple[Any, ...]) -> int | None:
    """The line (1-based) of the node at `loc` in the form, or of its nearest parent."""
    try:
        node: Any = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return None
    line = None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            found = next((v for k, v in node.value if k.value == part), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            found = node.value[part]
        else:
            found = None
        if found is None:
            break
        node = found
        line = node.start_mark.line + 1
    return line


def _where(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the card"


def read_form(text: str, item_id: str, variant_of: str | None = None, template: str | None = None) -> FormResult:
    """Validate a filled-in form. Cancelled when it is empty or still `template`."""
    body = strip_comments(text)
    if not body or (template is not None and body == strip_comments(template)):
        return FormResult(None, cancelled=True)
    try:
        data = safe_load(body)
    except UnsafeYaml as exc:
        return FormResult(None, tuple(f"{p.where or 'the card'}: {p.message}" for p in exc.problems))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "the card"
        return FormResult(None, (f"{where}: not YAML ({getattr(exc, 'problem', None) or exc})",))
    if not isinstance(data, dict):
        return FormResult(None, ("the card: must be a mapping with question, answer, key_points and tags",))
    unknown = [str(key) for key in data if key not in FORM_FIELDS]
    if unknown:
        return FormResult(None, tuple(f"{key}: not a field of a card (use {', '.join(FORM_FIELDS)})" for key in unknown))
    fields = {"id": item_id, "group": GROUP, "section": SECTION, **data}
    if variant_of is not None:
        fields["variant_of"] = variant_of
    try:
        return FormResult(QAItem.model_validate(fields))
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            loc = tuple(error["loc"])
            line = _line_of(body, loc)
            where = _where(loc) + (f" (line {line})" if line is not None else "")
            problems.append(f"{where}: {error['msg'].removeprefix('Value error, ')}")
        return FormResult(None, tuple(dict.fromkeys(problems)))


def new_id() -> str:
    return f"my-{uuid.uuid4().hex[:10]}"


def _read_deck(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {"qa": []}
    try:
        data = safe_load(path.read_text(encoding="utf-8"))
    except (UnsafeYaml, yaml.YAMLError, UnicodeDecodeError, OSError) as exc:
        raise DeckUnusable(f"{path} cannot be read ({exc}); fix it by hand, nothing was written") from None
    if data is None:
        data = {}
    if not isinstance(data, dict) or not isinstance(data.get("qa", []), list):
        raise DeckUnusable(f"{path} is not a deck (a mapping with a qa list); nothing was written")
    data.setdefault("qa", [])
    return data


def deck_item(item_id: str, folder: Path | None = None) -> QAItem | None:
    """Your card `item_id` as your deck file holds it (None: not there, or not valid)."""
    for entry in _read_deck(deck_path(folder))["qa"]:
        if isinstance(entry, dict) and entry.get("id") == item_id:
            try:
                return QAItem.model_validate(entry)
            except ValidationError:
                return None
    return None


def in_deck(item_id: str, folder: Path | None = None) -> bool:
    return any(isinstance(e, dict) and e.get("id") == item_id for e in _read_deck(deck_path(folder))["qa"])


def save_card(item: QAItem, folder: Path | None = None) -> Path:
    """Put `item` in your deck file (replacing the card with its id), rewriting it atomically."""
    path = deck_path(folder)
    data = _read_deck(path)
    entry = item.model_dump(mode="json", exclude_defaults=True)
    entries = data["qa"]
    for n, old in enumerate(entries):
        if isinstance(old, dict) and old.get("id") == item.id:
            entries[n] = entry
            break
    else:
        entries.append(entry)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, "# Your own cards (quizapp add / edit, or n / e in Study and Browse).\n" + _dump(data))
    return path


def variant_of_item(original: QAItem) -> QAItem:
    """`original` copied as a card of your own: a new id, linked to it by `variant_of`."""
    data = original.model_dump(mode="json", include=set(FORM_FIELDS), exclude_none=True)
    return QAItem.model_validate({"id": new_id(), "group": GROUP, "section": SECTION,
                                  "variant_of": original.id, **data})
