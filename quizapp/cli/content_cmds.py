"""`quizapp content check|list`: validate the study material and list it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from quizapp.cli.errors import UsageError

if TYPE_CHECKING:
    from quizapp.content.loader import ContentSet


def _load(args: argparse.Namespace) -> ContentSet:
    # Imported here so that building the parser (every start of the TUI) stays cheap.
    from quizapp.srs.bootstrap import load_all_content

    dirs = [Path(d) for d in (args.content or [])]
    for d in dirs:
        if not d.is_dir():
            raise UsageError(f"content folder not found: {d}")
    return load_all_content(dirs)


def cmd_check(args: argparse.Namespace) -> int:
    content = _load(args)
    if args.json:
        print(json.dumps({
            "ok": content.ok,
            "qa": len(content.qa),
            "mcq": len(content.mcq),
            "errors": [e.as_dict() for e in content.errors],
        }, ensure_ascii=False, indent=2))
    else:
        for error in content.errors:
            print(f"error: {error}")
        status = "ok" if content.ok else f"{len(content.errors)} error(s)"
        print(f"{len(content.qa)} Q&A, {len(content.mcq)} MCQ — {status}")
    return 0 if content.ok else 1


def cmd_list(args: argparse.Namespace) -> int:
    content = _load(args)
    items = content.items
    if args.kind:
        items = [i for i in items if i.kind == args.kind]
    rows = [
        {
            "id": item.id,
            "kind": item.kind,
            "source_no": getattr(item, "source_no", None),
            "group": getattr(item, "group", None),
            "section": item.section,
            "tags": list(item.tags),
            "question": item.question.primary,
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
    check.add_argument("--content", action="append", default=None, metavar="DIR", help="extra content folder")
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler=cmd_check)

    lst = content_sub.add_parser("list", help="one line per item")
    lst.add_argument("--kind", choices=["qa", "mcq"])
    lst.add_argument("--content", action="append", default=None, metavar="DIR", help="extra content folder")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(handler=cmd_list)
