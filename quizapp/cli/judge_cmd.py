"""`quizapp judge ITEM_ID --answer TEXT|-`: judge a typed answer against a Q&A item's key
points with the mock interview's matcher (`quizapp.srs.coverage`).

Exit 0 when every key point is stated, 1 otherwise, 2 on bad usage (unknown item, an MCQ,
an empty answer): one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from quizapp.cli.errors import UsageError

_MARK = {"stated": "✓", "contradicted": "✗", "absent": "·"}
_LABEL = {
    "zh": {"stated": "说到了", "contradicted": "说错了", "absent": "没说到"},
    "en": {"stated": "stated", "contradicted": "stated wrongly", "absent": "absent"},
}


def _read_answer(value: str) -> str:
    text = sys.stdin.read() if value == "-" else value
    if not text.strip():
        raise UsageError(key="cli.error.empty_answer")
    return text


def run_judge(args: argparse.Namespace) -> int:
    from quizapp.content.models import QAItem, has_cjk
    from quizapp.content.render import to_unicode
    from quizapp.srs.bootstrap import load_all_content
    from quizapp.srs.coverage import key_point_coverage

    answer = _read_answer(args.answer)
    dirs = [Path(d) for d in (args.content or [])]
    for d in dirs:
        if not d.is_dir():
            raise UsageError(key="cli.error.content_folder_missing", folder=d)
    item = load_all_content(dirs).by_id().get(args.item_id)
    if item is None:
        raise UsageError(key="cli.error.no_item", id=repr(args.item_id))
    if not isinstance(item, QAItem):
        raise UsageError(key="cli.error.item_is_mcq", id=args.item_id)
    coverage = key_point_coverage(answer, item.key_points)
    if args.json:
        points = [j.as_json() for j in coverage.judgements]
        print(json.dumps({"item": item.id, "points": points}, ensure_ascii=False))
    else:
        # The language of the answer, unless given: the key points are printed in it.
        lang = args.answer_lang or ("zh" if has_cjk(answer) else "en")
        labels = _LABEL[lang]
        width = max(len(label) for label in labels.values())
        for n, (point, judgement) in enumerate(zip(item.key_points, coverage.judgements), 1):
            text = " ".join(to_unicode(point.text.get(lang).text).split())
            print(f"{n}. {_MARK[judgement.status]} {labels[judgement.status]:<{width}}  {text}")
            if judgement.evidence:
                print(f"      «{judgement.evidence}»")
        print(f"{coverage.covered}/{len(coverage.judgements)}")
    return 0 if coverage.covered == len(coverage.judgements) else 1


def register(sub: argparse._SubParsersAction) -> None:
    judge = sub.add_parser(
        "judge", help="judge a typed answer against a Q&A item's key points",
        description="Judge a typed (spoken-style) answer against a Q&A item's key points, as the mock "
                    "interview does. Exit 0 if every point is stated, 1 if not, 2 on bad usage.")
    judge.add_argument("item_id", metavar="ITEM_ID", help="a Q&A item's id (see `quizapp content list --kind qa`)")
    judge.add_argument("--answer", required=True, metavar="TEXT | -", help="the typed answer, or - to read it from stdin")
    judge.add_argument("--lang", dest="answer_lang", choices=["zh", "en"], default=None,
                       help="language of the answer, for the key points printed (default: from the answer)")
    judge.add_argument("--content", action="append", dest="sub_content", default=[], metavar="DIR",
                       help="extra content folder")
    judge.add_argument("--json", action="store_true", help="machine-readable output")
    judge.set_defaults(handler=run_judge)
