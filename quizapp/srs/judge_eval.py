"""How well the key-point matcher agrees with hand-labelled answers, and how specific each
key point's keywords are: what `benchmarks/coverage.py` prints and the tests enforce.

The corpus (tests/data/answers/<item id>.yaml, format in its README.md) labels every key
point of every answer `stated`, `contradicted` or `absent`. A tick is the matcher saying
"stated". Precision: of the points ticked, the share labelled stated (a contradicted point
ticked is a false tick). Recall: of the points labelled stated, the share ticked. The same
two figures are kept for "stated wrongly" (the matcher's `contradicted`, shown as ✗): of the
points it calls stated wrongly, the share labelled contradicted, and of those labelled
contradicted, the share it calls so (the others it calls absent, or ticks).

Specificity (`keyword_findings`): a key point's keywords must not be triggered by its own
item's question (either language), nor by more than `OTHER_SHARE_MAX` of the *other*
items' model answers in a language — a point ticked by answers to unrelated questions is
keyed on words every answer uses.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quizapp.srs.answer_text import AnswerText
from quizapp.srs.coverage import CONTRADICTED, STATED, key_point_coverage, states

OTHER_SHARE_MAX = 0.15
LABELS = ("stated", "contradicted", "absent")
KINDS = ("model", "paraphrase", "wrong", "echo", "partial")


@dataclass(frozen=True)
class CorpusAnswer:
    item_id: str
    lang: str
    kind: str
    text: str
    labels: tuple[str, ...]


@dataclass
class Corpus:
    answers: list[CorpusAnswer] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # answers left out, and why


def load_corpus(folder: Path, key_point_counts: Mapping[str, int]) -> Corpus:
    """Every answer of every `<id>.yaml` in `folder`. An answer whose labels do not fit its
    item (unknown id, wrong count, unknown label) is left out and named in `problems`.
    Read with the content's loader (libyaml): PyYAML's pure-Python `safe_load` took 12× as
    long, ~8 CPU-s over the 24 corpora, and the suite reads each of them about three times."""
    from quizapp.content.safe_yaml import safe_load

    corpus = Corpus()
    for path in sorted(folder.glob("*.yaml")):
        data = safe_load(path.read_text(encoding="utf-8")) or {}
        item_id = str(data.get("item") or path.stem)
        if item_id not in key_point_counts:
            corpus.problems.append(f"{path.name}: no Q&A item {item_id!r}")
            continue
        for n, entry in enumerate(data.get("answers") or []):
            labels = tuple(str(label) for label in entry.get("labels") or [])
            where = f"{path.name} answer {n + 1}"
            if len(labels) != key_point_counts[item_id]:
                corpus.problems.append(f"{where}: {len(labels)} labels for {key_point_counts[item_id]} key points")
            elif any(label not in LABELS for label in labels):
                corpus.problems.append(f"{where}: labels must be one of {', '.join(LABELS)}")
            elif entry.get("lang") not in ("zh", "en") or not str(entry.get("text") or "").strip():
                corpus.problems.append(f"{where}: needs lang zh|en and a text")
            else:
                corpus.answers.append(
                    CorpusAnswer(item_id, str(entry["lang"]), str(entry.get("kind", "")), str(entry["text"]), labels)
                )
    return corpus


@dataclass
class Tally:
    true_ticks: int = 0
    false_ticks: int = 0
    missed: int = 0

    def add(self, ticked: bool, label: str, target: str = STATED) -> None:
        """One point: `ticked` when the matcher judged it `target` (stated, or contradicted
        for the "stated wrongly" tally), `label` what the answer does with it."""
        if ticked and label == target:
            self.true_ticks += 1
        elif ticked:
            self.false_ticks += 1
        elif label == target:
            self.missed += 1

    @property
    def precision(self) -> float:
        ticks = self.true_ticks + self.false_ticks
        return self.true_ticks / ticks if ticks else 1.0

    @property
    def recall(self) -> float:
        stated = self.true_ticks + self.missed
        return self.true_ticks / stated if stated else 1.0

    @property
    def errors(self) -> int:
        return self.false_ticks + self.missed


@dataclass
class Evaluation:
    by_lang: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_item: dict[tuple[str, str], Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_point: dict[tuple[str, int, str], Tally] = field(default_factory=lambda: defaultdict(Tally))
    overall: Tally = field(default_factory=Tally)
    # "stated wrongly": a tick is the matcher's `contradicted`, the target the label's
    wrong_by_lang: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    # every disagreement about "stated wrongly", as `mistakes` below
    wrong_mistakes: list[tuple[str, int, str, str, str, str, str, str | None]] = field(default_factory=list)
    # (item, point, lang, kind, text, label, status, evidence) of every disagreement
    mistakes: list[tuple[str, int, str, str, str, str, str, str | None]] = field(default_factory=list)


def evaluate(answers: Iterable[CorpusAnswer], key_points: Mapping[str, Sequence[Any]]) -> Evaluation:
    result = Evaluation()
    for answer in answers:
        coverage = key_point_coverage(answer.text, key_points[answer.item_id])
        for n, (judgement, label) in enumerate(zip(coverage.judgements, answer.labels)):
            ticked = judgement.status == STATED
            for tally in (
                result.by_lang[answer.lang],
                result.by_item[(answer.item_id, answer.lang)],
                result.by_point[(answer.item_id, n, answer.lang)],
                result.overall,
            ):
                tally.add(ticked, label)
            result.wrong_by_lang[answer.lang].add(judgement.status == CONTRADICTED, label, CONTRADICTED)
            if (judgement.status == CONTRADICTED) != (label == CONTRADICTED):
                result.wrong_mistakes.append(
                    (answer.item_id, n, answer.lang, answer.kind, answer.text, label, judgement.status,
                     judgement.evidence)
                )
            if ticked != (label == STATED):
                result.mistakes.append(
                    (answer.item_id, n, answer.lang, answer.kind, answer.text, label, judgement.status,
                     judgement.evidence)
                )
    return result


def model_answers(items: Sequence[Any], answers: Iterable[CorpusAnswer]) -> dict[tuple[str, str], list[str]]:
    """{(item id, lang): model answers}: the corpus's, or else the item's own `answer` text."""
    found: dict[tuple[str, str], list[str]] = defaultdict(list)
    for answer in answers:
        if answer.kind == "model":
            found[(answer.item_id, answer.lang)].append(answer.text)
    for item in items:
        for lang in ("zh", "en"):
            text = getattr(item.answer, lang, None)
            if (item.id, lang) not in found and text:
                found[(item.id, lang)].append(text)
    return found


def keyword_findings(items: Sequence[Any], models: Mapping[tuple[str, str], list[str]]) -> list[str]:
    """One line per key point whose keywords its own question triggers, or that more than
    `OTHER_SHARE_MAX` of the other items' model answers (in one language) tick."""
    findings: list[str] = []
    prepared = {key: [AnswerText(text) for text in texts] for key, texts in models.items()}
    ticks: dict[tuple[str, int, str], int] = defaultdict(int)
    others: dict[str, int] = defaultdict(int)
    for lang in ("zh", "en"):
        for item in items:
            texts = models.get((item.id, lang), [])
            if not texts:
                continue
            for other in items:
                if other.id == item.id:
                    continue
                others[f"{other.id}/{lang}"] += 1
                for n, point in enumerate(other.key_points):
                    if any(states(text, point) for text in prepared[(item.id, lang)]):
                        ticks[(other.id, n, lang)] += 1
    for item in items:
        for lang in ("zh", "en"):
            question = getattr(item.question, lang, None)
            if question:
                for n, ticked in enumerate(key_point_coverage(question, item.key_points).points):
                    if ticked:
                        findings.append(f"{item.id} KP{n}: its own question ({lang}) ticks it")
            total = others.get(f"{item.id}/{lang}", 0)
            for n in range(len(item.key_points)):
                count = ticks.get((item.id, n, lang), 0)
                if total and count / total > OTHER_SHARE_MAX:
                    findings.append(
                        f"{item.id} KP{n}: ticked by {count} of {total} other items' model answers ({lang})"
                    )
    return findings
