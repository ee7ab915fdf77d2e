"""The words an `AnswerSheet` shows after grading, built from the engine's verdict.

Pure functions (a verdict and a translator in, `Text`/`Content` out), so that the sheet
widget keeps to layout and keys. Every cell has one of the engine's four statuses — right,
carried (consistent with the user's own earlier parts, half credit), wrong, blank — and
the words say how many of each there are; the 100% banner shows only when every cell of
every part is right, and a score with carried cells says how much of it is carried.

Content (prompts, mistake texts, values) is plain text here, never markup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.text import Text
from textual.content import Content

from quizapp.engine.family import problem_steps
from quizapp.i18n.formatting import percent, points
from quizapp.tui.widgets.matrix_view import bracket_rows, shape_label, value_cells

if TYPE_CHECKING:
    from quizapp import engine

Translate = Callable[..., str]


def meta_line(problem: engine.Problem, labels: tuple[str, ...], t: Translate, lang: str) -> Text:
    """`softmax · Row-wise softmax · seed 3 · difficulty 1 · practice`."""
    from quizapp import engine as engine_module

    info = next((i for i in engine_module.list_types() if i.id == problem.type), None)
    meta = [problem.type, info.title(lang) if info else problem.type]
    meta.append(t("drill.seed", seed=problem.seed if problem.seed is not None else "—"))
    meta.append(t("drill.difficulty_label", level=problem.difficulty))
    meta.extend(labels)
    return Text(" · ".join(meta))


def part_header(spec: engine.PartSpec, text_mode: bool, t: Translate, lang: str) -> Text:
    """`A  2×2  attention weights A  (-inf allowed)  [text]`."""
    header = Text()
    header.append(spec.name, style="bold")
    header.append(f"  {shape_label(spec.shape)}", style="dim")
    header.append(f"  {spec.label(lang)}")
    if spec.allow_inf:
        header.append(f"  {t('drill.inf_allowed')}", style="dim")
    if text_mode:
        header.append(f"  [{t('drill.mode_text')}]", style="italic")
    return header


def mistake_parts(message: str, lang: str) -> tuple[str, str]:
    """An engine mistake message is 'name：explanation' (zh) / 'name: explanation' (en)."""
    head, sep, tail = message.partition("：" if lang == "zh" else ": ")
    return (head, tail) if sep else ("", message)


def attention_weights(problem: engine.Problem) -> np.ndarray | None:
    """The problem's attention weights A (the answer part, else a given), if it has them."""
    if "A" in problem.solution:
        return np.asarray(problem.solution["A"])
    given = problem.given.get("A")
    return None if given is None else np.asarray(given)


def status_counts(part: Any) -> dict[str, int]:
    """How many cells of a part verdict are right / carried / wrong / blank (and in all)."""
    statuses = [str(s) for s in part.statuses()] if part.status is not None else [
        "right" if c else "wrong" for c in np.asarray(part.cells, dtype=bool).ravel()
    ]
    counts = {name: statuses.count(name) for name in ("right", "carried", "wrong", "blank")}
    counts["total"] = len(statuses)
    return counts


def part_status(part: Any, t: Translate) -> tuple[Text, str]:
    """The status line under a graded part, and its state class (right / wrong)."""
    counts = status_counts(part)
    if not part.answered:
        return Text(t("drill.part.unanswered")), "wrong"
    if counts["right"] == counts["total"]:
        return Text(t("drill.part.right", right=counts["right"], total=counts["total"])), "right"
    line = t("drill.part.wrong", right=counts["right"], total=counts["total"], score=percent(part.score, 1))
    return Text(line + _extra_counts(counts, t)), "wrong"


def _extra_counts(counts: dict[str, int], t: Translate) -> str:
    extra = ""
    if counts["carried"]:
        extra += " · " + t("drill.part.carried", n=counts["carried"])
    if counts["blank"]:
        extra += " · " + t("drill.part.blank", n=counts["blank"])
    return extra


def result_content(verdict: engine.Verdict, t: Translate, lang: str, status: str, next_keys: str) -> Content:
    """Score, one line per part, the diagnosed mistake, hints, then what the keys do next.

    Content.assemble treats every string as plain text (never markup); the styles are the
    theme's, so the marks follow the theme."""
    pieces: list[tuple[str, str] | str] = []
    if verdict.correct:
        pieces.append((t("drill.result.correct"), "bold $text-success"))
    elif verdict.carried_score > 0:
        # In points of 100, as the CLI says it: "10.7 of the 75 points", never "11% of it".
        total = t("drill.result.total_carried", score=percent(verdict.score, 1),
                  points=points(verdict.score), carried=points(verdict.carried_score))
        pieces.append((total, "bold"))
    else:
        pieces.append((t("drill.result.total", score=percent(verdict.score, 1)), "bold"))
    for name, part in verdict.parts.items():
        counts = status_counts(part)
        right = counts["right"] == counts["total"] and part.answered
        if part.answered:
            detail = t("drill.result.part", right=counts["right"], total=counts["total"],
                       score=percent(part.score, 1)) + _extra_counts(counts, t)
        else:
            detail = t("drill.part.unanswered")
        mark, style = ("✓", "$text-success") if right else ("✗", "$text-error")
        if not right and counts["carried"] and not counts["wrong"]:
            mark, style = "↳", "$text-warning"
        pieces.append((f"\n{mark} {name}  {detail}", style))
    for diagnosis in verdict.diagnosis:
        name, explanation = mistake_parts(diagnosis.message(lang), lang)
        pieces.append(("\n\n" + t("drill.result.mistake", part=diagnosis.part), "bold $text-warning"))
        if name:
            pieces.append(("\n" + name, "bold"))
        pieces.append("\n" + explanation)
    for key in verdict.hints:
        pieces.append(("\n\n" + t("drill.result.hint"), "bold $text-warning"))
        pieces.append("\n" + _hint_message(key, lang))
    pieces.append(("\n\n" + status, "$text-muted"))
    if next_keys:
        pieces.append(("\n" + next_keys, "$text-muted"))
    return Content.assemble(*pieces)


def truth_text(problem: engine.Problem, verdict: engine.Verdict, t: Translate) -> Text | None:
    """The true values of every part that is not all right (None when all are)."""
    text = Text()
    for spec in problem.parts:
        part = verdict.parts.get(spec.name)
        if part is not None and status_counts(part)["right"] == status_counts(part)["total"] and part.answered:
            continue
        text.append(("\n" if text else "") + t("drill.truth.part", part=spec.name), style="bold")
        # One digit more than answers are graded to, so a true 0.0625 is not shown as 0.062
        # (3 decimals round it half-to-even) and a learner can see which way theirs is off.
        for line in bracket_rows(value_cells(problem.solution[spec.name], 4, trim=True)):
            text.append("\n" + line)
    return text if text else None


def steps_text(problem: engine.Problem, lang: str, shown: int, t: Translate) -> Text:
    steps = problem_steps(problem, lang)
    text = Text()
    text.append(t("drill.steps.title", shown=shown, total=len(steps)), style="bold")
    if shown == 0:
        text.append("\n" + t("drill.steps.how"), style="dim")
    for step in steps[:shown]:
        text.append("\n" + step)
    return text


def _hint_message(key: str, lang: str) -> str:
    from quizapp import engine

    try:
        return str(engine.hint_message(key, lang))
    except KeyError:
        return key
