"""Key-point judgement against the labelled corpus: precision and recall per language, per
item and overall, the worst key points, the keyword specificity findings, and the time to
judge one answer (p50/p95 over the corpus, after the segmenter is loaded).

    python benchmarks/coverage.py [--corpus tests/data/answers] [--content DIR] [--worst 15]
                                  [--mistakes] [--wrong-mistakes] [--json]

Precision: of the points ticked, the share the answer states (a point stated wrongly and
ticked is a false tick). Recall: of the points the answer states, the share ticked. The
same two figures for "stated wrongly" (✗): of the points the matcher calls contradicted, the
share the answer does state wrongly, and of those, the share it calls so. The
target (issue 20, enforced by tests/content/test_judgement_corpus.py) is ≥ 0.90 of each
in each language; judging one answer ≤ 20 ms at the 95th percentile.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quizapp.srs import segmenter  # noqa: E402
from quizapp.srs.bootstrap import load_all_content  # noqa: E402
from quizapp.srs.coverage import key_point_coverage  # noqa: E402
from quizapp.srs.judge_eval import evaluate, keyword_findings, load_corpus, model_answers  # noqa: E402


def timings(texts: list[tuple[str, list]], repeats: int) -> list[float]:
    """Milliseconds per answer judged (text → every key point of its item), CPU time."""
    out: list[float] = []
    for _ in range(repeats):
        for text, points in texts:
            start = time.process_time()
            key_point_coverage(text, points)
            out.append((time.process_time() - start) * 1000)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "tests" / "data" / "answers")
    parser.add_argument("--content", action="append", default=[], type=Path, help="extra content folder")
    parser.add_argument("--worst", type=int, default=15, help="how many of the worst key points to list")
    parser.add_argument("--mistakes", action="store_true", help="print every disagreement with the labels")
    parser.add_argument("--wrong-mistakes", action="store_true",
                        help="print every disagreement about \"stated wrongly\" (✗)")
    parser.add_argument("--repeats", type=int, default=3, help="timing passes over the corpus")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    content = load_all_content(args.content, include_user_decks=False)
    items = {item.id: item for item in content.qa}
    key_points = {item_id: list(item.key_points) for item_id, item in items.items()}
    corpus = load_corpus(args.corpus, {item_id: len(points) for item_id, points in key_points.items()})
    load_start = time.perf_counter()
    segmenter.warm_up()
    load_s = time.perf_counter() - load_start
    result = evaluate(corpus.answers, key_points)
    times = timings([(a.text, key_points[a.item_id]) for a in corpus.answers], args.repeats)
    p95 = statistics.quantiles(times, n=20)[-1] if len(times) >= 20 else max(times, default=0.0)
    # The specificity check judges every key point against every item's model answers (the
    # slowest test of the suite until its caches were sized to the bank): timed in CPU.
    findings_start = time.process_time()
    findings = keyword_findings(list(items.values()), model_answers(list(items.values()), corpus.answers))
    findings_s = time.process_time() - findings_start
    covered = sorted({a.item_id for a in corpus.answers})
    worst = sorted(result.by_point.items(), key=lambda kv: (-kv[1].errors, kv[0]))[: args.worst]

    report = {
        "answers": len(corpus.answers),
        "items_with_answers": len(covered),
        "items_without_answers": sorted(set(items) - set(covered)),
        "problems": corpus.problems,
        "by_lang": {lang: {"precision": round(t.precision, 4), "recall": round(t.recall, 4),
                           "true_ticks": t.true_ticks, "false_ticks": t.false_ticks, "missed": t.missed}
                    for lang, t in sorted(result.by_lang.items())},
        "stated_wrongly": {lang: {"precision": round(t.precision, 4), "recall": round(t.recall, 4),
                                  "right": t.true_ticks, "false": t.false_ticks, "missed": t.missed}
                           for lang, t in sorted(result.wrong_by_lang.items())},
        "overall": {"precision": round(result.overall.precision, 4), "recall": round(result.overall.recall, 4)},
        "by_item": {f"{item_id}/{lang}": {"precision": round(t.precision, 3), "recall": round(t.recall, 3)}
                    for (item_id, lang), t in sorted(result.by_item.items())},
        "worst_points": [{"point": f"{i} KP{n} {lang}", "false_ticks": t.false_ticks, "missed": t.missed}
                         for (i, n, lang), t in worst if t.errors],
        "keyword_findings": findings,
        "judge_ms": {"p50": round(statistics.median(times), 3) if times else 0.0, "p95": round(p95, 3),
                     "answers_timed": len(times)},
        "segmenter_load_s": round(load_s, 3),
        "keyword_findings_cpu_s": round(findings_s, 3),
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(f"{report['answers']} answers to {len(covered)} of {len(items)} Q&A items"
          + (f"; no answers yet for {len(report['items_without_answers'])}" if report["items_without_answers"] else ""))
    for problem in corpus.problems:
        print(f"  left out: {problem}")
    print("\nlanguage  precision  recall   ticks ok / false / missed")
    for lang, row in report["by_lang"].items():
        print(f"{lang:<9} {row['precision']:>9.3f}  {row['recall']:>6.3f}   "
              f"{row['true_ticks']} / {row['false_ticks']} / {row['missed']}")
    print(f"overall   {report['overall']['precision']:>9.3f}  {report['overall']['recall']:>6.3f}")
    print("\n\"stated wrongly\" (✗)  precision  recall   right / false / missed")
    for lang, row in report["stated_wrongly"].items():
        print(f"{lang:<21} {row['precision']:>9.3f}  {row['recall']:>6.3f}   "
              f"{row['right']} / {row['false']} / {row['missed']}")
    print("\nper item (precision / recall):")
    line = []
    for key, row in report["by_item"].items():
        line.append(f"{key} {row['precision']:.2f}/{row['recall']:.2f}")
        if len(line) == 4:
            print("  " + "   ".join(line))
            line = []
    if line:
        print("  " + "   ".join(line))
    print("\nworst key points (false ticks, missed):")
    for row in report["worst_points"]:
        print(f"  {row['point']:<16} {row['false_ticks']} false, {row['missed']} missed")
    print(f"\nkeyword specificity: {len(findings)} finding(s), checked in {findings_s:.1f} CPU-s")
    for finding in findings:
        print(f"  {finding}")
    print(f"\njudging one answer: p50 {report['judge_ms']['p50']:.2f} ms, p95 {report['judge_ms']['p95']:.2f} ms "
          f"(CPU, {len(times)} judgements); segmenter loaded in {load_s:.2f} s; load average {report['load']}")
    shown = [("disagreements", result.mistakes)] if args.mistakes else []
    if args.wrong_mistakes:
        shown.append(("disagreements about \"stated wrongly\"", result.wrong_mistakes))
    for title, mistakes in shown:
        print(f"\n{title}:")
        for item_id, n, lang, kind, text, label, status, evidence in mistakes:
            print(f"- {item_id} KP{n} {lang} {kind}: labelled {label}, judged {status} «{evidence}»")
            print("    " + " ".join(text.split()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
