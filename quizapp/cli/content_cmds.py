"""`quizapp content check|list`: validate the study material and list it."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizapp.cli.errors import UsageError

if TYPE_CHECKING:
    from quizapp.content.loader import ContentError, ContentSet


def _load(args: argparse.Namespace) -> ContentSet:
    # Imported here so that building the parser (every start of the TUI) stays cheap.
    from quizapp.srs.bootstrap import load_all_content

    dirs = [Path(d) for d in (args.content or [])]
    for d in dirs:
        if not d.is_dir():
            raise UsageError(key="cli.error.content_folder_missing", folder=d)
    return load_all_content(dirs)


def _is_builtin(content: ContentSet) -> Callable[[str], bool]:
    """Whether an item id was loaded from the shipped content folder (not a user deck)."""
    from quizapp.resources import content_dir

    builtin = Path(content_dir()).resolve()
    inside = {item_id: Path(file).resolve().is_relative_to(builtin) for item_id, file in content.origin.items()}
    return lambda item_id: inside.get(item_id, False)


def _missing_translations(content: ContentSet) -> tuple[list[ContentError], list[ContentError]]:
    """Texts given in one language only: (built-in ones — errors, user-deck ones — notes)."""
    from quizapp.content.loader import ContentError
    from quizapp.content.models import missing_translations

    builtin = _is_builtin(content)
    errors: list[ContentError] = []
    notes: list[ContentError] = []
    for item in content.items:
        file = content.origin.get(item.id, "")
        for field, lang in missing_translations(item):
            finding = ContentError(file, item.id, field, f"no {'English' if lang == 'en' else 'Chinese'} text ({lang})")
            (errors if builtin(item.id) else notes).append(finding)
    return errors, notes


def _missing_references(content: ContentSet) -> list[ContentError]:
    """Built-in items that name no source: what quizapp teaches must be checkable. A user's
    own deck may omit references (it is their material)."""
    from quizapp.content.loader import ContentError
    from quizapp.content.models import missing_references

    builtin = _is_builtin(content)
    return [
        ContentError(content.origin.get(item.id, ""), item.id, "references",
                     "a built-in item must give references: (work, authors, year, where) for its claims")
        for item in content.items
        if builtin(item.id) and missing_references(item)
    ]


def _weak_keywords(content: ContentSet) -> list[ContentError]:
    """Weak keywords in user decks (question echo, one Chinese character, common words,
    short stems): warnings, not errors — the deck still works, its ticks are just less sure."""
    from quizapp.content.loader import ContentError
    from quizapp.srs.keyword_check import weak_keywords

    builtin = _is_builtin(content)
    mine = [item for item in content.qa if not builtin(item.id)]
    if not mine:
        return []
    references = [text for item in content.qa if builtin(item.id) for text in (item.answer.zh, item.answer.en) if text]
    return [ContentError(content.origin.get(w.item_id, ""), w.item_id, w.field, f"keyword {w.keyword!r} {w.reason}")
            for w in weak_keywords(mine, references)]


def cmd_check(args: argparse.Namespace) -> int:
    content = _load(args)
    untranslated, notes = _missing_translations(content)
    unreferenced = _missing_references(content)
    warnings = _weak_keywords(content)
    errors = [*content.errors, *untranslated, *unreferenced]
    ok = not errors
    if args.json:
        print(json.dumps({
            "ok": ok,
            "qa": len(content.qa),
            "mcq": len(content.mcq),
            "missing_translations": {"builtin": len(untranslated), "user": len(notes)},
            "without_references": len(unreferenced),
            "errors": [e.as_dict() for e in errors],
            "notes": [e.as_dict() for e in notes],
            "warnings": [e.as_dict() for e in warnings],
        }, ensure_ascii=False, indent=2))
    else:
        from quizapp.cli.text_messages import finding_text
        from quizapp.i18n import Translator

        t = Translator(args.lang or "en")
        for key, findings in (("cli.content.error", errors), ("cli.content.note", notes),
                              ("cli.content.warning", warnings)):
            for finding in findings:
                print(t(key, finding=finding_text(finding, t.lang)))
        status = t("cli.content.ok") if ok else t("cli.content.errors", n=len(errors))
        extra = t("cli.content.one_language", n=len(notes)) if notes else ""
        extra += t("cli.content.weak_keywords", n=len(warnings)) if warnings else ""
        print(t("cli.content.summary", qa=len(content.qa), mcq=len(content.mcq), status=status, extra=extra))
    return 0 if ok else 1


def cmd_list(args: argparse.Namespace) -> int:
    from quizapp.content.render import to_unicode

    content = _load(args)
    lang = getattr(args, "lang", None) or "zh"
    items = content.items
    if args.kind:
        items = [i for i in items if i.kind == args.kind]
    rows: list[dict[str, Any]] = [
        {
            "id": item.id,
            "kind": item.kind,
            "source_no": getattr(item, "source_no", None),
            "group": getattr(item, "group", None),
            "section": item.section,
            "tags": list(item.tags),
            # Rendered (√d_k, QKᵀ), not LaTeX: this is for reading in a terminal. In the
            # language of `--lang` (Chinese by default), the other one if the item lacks it.
            "question": to_unicode(item.question.get(lang).text),
            "question_zh": to_unicode(item.question.zh) if item.question.zh else None,
            "question_en": to_unicode(item.question.en) if item.question.en else None,
        }
        for item in items
    ]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for row in rows:
            number = f"Q{row['source_no']}" if row["source_no"] else "-"
            print(f"{row['id']:<28} {row['kind']:<4} {number:<4} {row['group'] or '-':<5} "
                  f"{row['section'] or '-':<5} {','.join(row['tags']):<28} {row['question']}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    content = sub.add_parser("content", help="validate and list the study material")
    content_sub = content.add_subparsers(dest="content_command", required=True)

    check = content_sub.add_parser("check", help="validate content files and print counts")
    check.add_argument("--content", action="append", dest="sub_content", default=[], metavar="DIR",
                       help="extra content folder")
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler=cmd_check)

    lst = content_sub.add_parser("list", help="one line per item")
    lst.add_argument("--kind", choices=["qa", "mcq"])
    lst.add_argument("--content", action="append", dest="sub_content", default=[], metavar="DIR",
                     help="extra content folder")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(handler=cmd_list)
