"""Grading a typed answer: a status per cell, follow-through marking, mistake diagnosis, hints.

Every cell gets a `CellStatus`:

* RIGHT by the README's rule (`rule.py`): within `TOL` of the exact value (exact for
  integer parts and ±∞), or of what a hand path through the problem's own tables reaches
  carrying 3 or 4 decimals, rounded either way — never more than `rule.BOUND` off; a tied
  argmax accepts every tied column (`Family.also_right`), and a part equal to an earlier
  one (rope's dot_shifted = dot) is right wherever that one is;
* CARRIED when it is not, but follows from the user's *own* earlier parts (follow-through
  marking, as STACK does; by interval reasoning over the rounding of what they typed, and
  across blank parts — see `follow.py`): whoever slips in S still earns part of the credit
  for the softmax of their S — half (`CARRIED_CREDIT`), and the cell is never shown as right;
* BLANK when left empty, WRONG otherwise.

A part that matches, cell for cell, what a classic mistake produces is named in the
diagnosis. A wrong cell near the truth that matches a computation with intermediates
rounded to 1–2 decimals earns the "rounded too early" hint.

If any part cannot be read, nothing is graded: the verdict only carries the located
format errors, and callers must not count the attempt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from quizapp.engine.follow import Interval, follows, upstream_intervals
from quizapp.engine.mistakes import MISTAKES
from quizapp.engine.ops import close
from quizapp.engine.parse import parse_answer, to_array
from quizapp.engine.rule import right_by_hand
from quizapp.engine.text import shape_text
from quizapp.engine.types import (
    CARRIED_CREDIT,
    AnswerFormatError,
    Diagnosis,
    FormatError,
    PartSpec,
    PartVerdict,
    Problem,
    Verdict,
)
from quizapp.engine.variants import mistake_variants, rounded_solutions

EARLY_ROUNDING_REACH = 0.02  # how far from the truth an early-rounded value may land


def grade(problem: Problem, answers: Mapping[str, Any]) -> Verdict:
    """Grade `answers` (part name -> typed text, or an array) against `problem`.

    A missing or blank part is unanswered: score 0, no format error. Unknown part names
    raise ValueError (a caller bug, not a user typo).
    """
    specs = problem.parts
    names = {spec.name for spec in specs}
    unknown = [name for name in answers if name not in names]
    if unknown:
        raise ValueError(f"unknown answer part(s) {', '.join(map(repr, unknown))} for {problem.type}; "
                         f"parts are {', '.join(spec.name for spec in specs)}")

    parsed: dict[str, np.ndarray] = {}
    errors: dict[str, FormatError] = {}
    transposed: set[str] = set()
    for spec in specs:
        raw = answers.get(spec.name)
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            continue
        try:
            parsed[spec.name] = _read(raw, spec)
        except AnswerFormatError as exc:
            if _transposed_truth(problem, spec, raw):
                transposed.add(spec.name)  # KQᵀ: a shape error that is a classic mistake, graded wrong and named
            else:
                errors[spec.name] = exc.error.with_part(spec.name)
    if errors:
        return Verdict(
            score=0.0, correct=False, diagnosis=[], has_format_error=True,
            parts={spec.name: PartVerdict(0.0, None, errors.get(spec.name), spec.name in parsed or spec.name in errors)
                   for spec in specs},
        )

    part_verdicts: dict[str, PartVerdict] = {}
    upstream: dict[str, Interval] | None = None  # follow-through bounds, computed on first need
    diagnosis: list[Diagnosis] = []
    hints: list[str] = []
    for spec in specs:
        truth = problem.solution[spec.name]
        user = parsed.get(spec.name)
        if spec.name in transposed:
            info = MISTAKES["transposed_scores"]
            found: tuple[Diagnosis, ...] = (Diagnosis(spec.name, info.id, info.zh, info.en),)
            diagnosis.extend(found)
            part_verdicts[spec.name] = PartVerdict(0.0, np.zeros(truth.shape, dtype=bool).tolist(), None, True, found,
                                                   codes=np.zeros(truth.shape, dtype=np.intp))
            continue
        if user is None:
            part_verdicts[spec.name] = _unanswered(truth.shape)
            continue
        finite = not spec.allow_inf
        right = close(user, truth, spec.integer, finite)
        other = problem._family.also_right(problem, spec.name, user)
        if other is not None:
            right |= other
        n_right = np.count_nonzero(right)
        if n_right == right.size:  # the hot path: a correct part
            part_verdicts[spec.name] = PartVerdict(1.0, right.tolist(), None, True, ())
            continue
        blank = np.isnan(user)
        same = problem._family.equal_parts.get(spec.name)
        if not spec.integer:
            right |= right_by_hand(problem, spec.name, user, right)
            if same is not None:
                right |= right_by_hand(problem, same, user, right)
            n_right = np.count_nonzero(right)
        carried = np.zeros(right.shape, dtype=bool)
        if same is not None and same in parsed:  # the same number as the user's own equal part
            carried = close(user, parsed[same], spec.integer) & ~right & ~blank
        if not (right | blank).all():
            # Only now is follow-through worth computing: a cell already right needs no second chance.
            if upstream is None:
                upstream = upstream_intervals(problem, parsed)
            interval = upstream.get(spec.name)
            if interval is not None:
                carried |= follows(user, interval, spec.integer) & ~right & ~blank
        n_carried = np.count_nonzero(carried)
        found = tuple(_diagnose(problem, spec, user))
        if n_carried and (right | carried | blank).all():
            # Every cell follows from the user's own earlier parts: this part adds no mistake of
            # its own, so it names only one already named upstream. A small-integer y carried
            # from h without b₁ can equal ReLU(true y) by chance (review R14 #3).
            found = tuple(d for d in found if any(d.mistake == up.mistake for up in diagnosis))
        diagnosis.extend(found)
        credited = right | carried
        if "rounded_early" not in hints and _rounded_early(problem, spec, user, truth, credited | blank):
            hints.append("rounded_early")
        carried_score = float(CARRIED_CREDIT * n_carried / right.size)
        part_verdicts[spec.name] = PartVerdict(n_right / right.size + carried_score, right.tolist(), None,
                                               not blank.all(), found, carried_score, _status_codes(right, carried, blank))

    if len(diagnosis) > 1:
        diagnosis, part_verdicts = _prune(problem, parsed, diagnosis, part_verdicts)
    n = len(part_verdicts)
    score = sum(pv.score for pv in part_verdicts.values()) / n
    carried_score = sum(pv.carried_score for pv in part_verdicts.values()) / n
    correct = all(pv.score == 1.0 and pv.carried_score == 0.0 for pv in part_verdicts.values())
    return Verdict(score=score, correct=correct, parts=part_verdicts, diagnosis=diagnosis, hints=hints,
                   carried_score=carried_score)


def _status_codes(right: np.ndarray, carried: np.ndarray, blank: np.ndarray) -> np.ndarray:
    """Index into STATUS_CODES per cell: 3 blank, 1 right, 2 carried, else 0 wrong."""
    return np.where(blank, 3, np.where(right, 1, np.where(carried, 2, 0)))


def _unanswered(shape: tuple[int, ...]) -> PartVerdict:
    cells = np.zeros(shape, dtype=bool).tolist()
    return PartVerdict(0.0, cells, None, False, (), codes=np.full(shape, 3, dtype=np.intp))


def _read(raw: Any, spec: PartSpec) -> np.ndarray:
    if isinstance(raw, str):
        return parse_answer(raw, spec.shape, spec.allow_inf)
    try:
        value = to_array(raw, spec.name)
    except ValueError as exc:
        raise AnswerFormatError(FormatError(spec.name, None, None, str(exc), str(exc))) from None
    if not spec.allow_inf and np.isinf(value).any():
        raise AnswerFormatError(FormatError(spec.name, None, None, "这里不能填 ∞", "∞ is not allowed here"))
    # NaN cells of an array answer are cells left blank (a partly filled grid)
    if value.shape != spec.shape:
        got, want = shape_text(value.shape), shape_text(spec.shape)
        raise AnswerFormatError(FormatError(spec.name, None, None, f"应为 {want}，实际 {got}",
                                            f"expected {want}, got {got}"))
    return value


TRANSPOSABLE = ("S", "S_scaled")  # score parts whose transpose is KQᵀ (and KQᵀ/√d_k)


def _transposed_truth(problem: Problem, spec: PartSpec, raw: Any) -> bool:
    """True when an answer that does not fit a non-square score part is, read the other
    way round, exactly the transposed truth: the user computed KQᵀ (cross-attention)."""
    if spec.name not in TRANSPOSABLE or len(spec.shape) != 2 or spec.shape[0] == spec.shape[1]:
        return False
    flipped = PartSpec(spec.name, spec.shape[::-1], spec.allow_inf, spec.integer)
    try:
        value = _read(raw, flipped)
    except AnswerFormatError:
        return False
    return bool(close(value, problem.solution[spec.name].T, spec.integer).all())


def _diagnose(problem: Problem, spec: PartSpec, user: np.ndarray) -> list[Diagnosis]:
    stacked = _variant_stacks(problem).get(spec.name)
    if stacked is None:
        return []
    mistakes, wrongs = stacked
    # every variant at once; a part that takes no ∞ has none typed (the reader refuses it)
    cells = np.reshape(close(user, wrongs, spec.integer, not spec.allow_inf), (len(mistakes), -1))
    found: list[Diagnosis] = []
    for index in np.flatnonzero(cells.all(axis=1)).tolist():  # the variants the part matches, in order
        info = MISTAKES[mistakes[index].split("@")[0]]  # "rope_wrong_direction@q": one way of making it
        if all(d.mistake != info.id for d in found):
            zh, en = problem._family.mistake_texts.get(info.id, (info.zh, info.en))
            found.append(Diagnosis(spec.name, info.id, zh, en))
    return found


def _variant_stacks(problem: Problem) -> dict[str, tuple[list[str], np.ndarray]]:
    """Per part, the mistakes that change it (in `mistake_variants` order) and their values
    stacked on a leading axis, so that diagnosing a part is one comparison (cached)."""
    cache = problem.__dict__.get("_variant_stacks")
    if cache is None:
        by_part: dict[str, tuple[list[str], list[np.ndarray]]] = {}
        for mistake, changed in mistake_variants(problem).items():
            for name, wrong in changed.items():
                entry = by_part.setdefault(name, ([], []))
                entry[0].append(mistake)
                entry[1].append(wrong)
        cache = problem.__dict__["_variant_stacks"] = {
            name: (mistakes, np.array(wrongs)) for name, (mistakes, wrongs) in by_part.items()}
    return cache


def _prune(problem: Problem, parsed: dict[str, np.ndarray], diagnosis: list[Diagnosis],
           part_verdicts: dict[str, PartVerdict]) -> tuple[list[Diagnosis], dict[str, PartVerdict]]:
    """Where two mistakes explain the same part, keep those that the rest of the answer
    agrees with: halving every KV cache (forgot K or V) and caching h/g heads both give
    the same GQA figure, but a right factor h/g rules the second out. A mistake also leaves
    the parts before the one it explains at their true values unless it changes them: ReLU
    on the FFN's output keeps h and r, so an answer with h and r wrong (b₁ left out) and
    a y that both explain is the bias's, not the ReLU's (review R14 #3)."""
    order = [spec.name for spec in problem.parts]

    def right_or_blank(name: str) -> bool:
        codes = part_verdicts[name].codes
        return codes is None or bool(np.isin(codes, (1, 3)).all())

    def consistent(mistake: str, part: str) -> bool:
        before = order[:order.index(part)]
        for variant, changed in mistake_variants(problem).items():
            if variant.split("@")[0] != mistake:
                continue
            if all(name not in parsed or close(parsed[name], wrong, problem.part(name).integer).all()
                   for name, wrong in changed.items()) and all(
                    right_or_blank(name) for name in before if name in parsed and name not in changed):
                return True
        return False

    keep: list[Diagnosis] = []
    for found in diagnosis:
        rivals = [d for d in diagnosis if d.part == found.part and d.mistake != found.mistake]
        if rivals and not consistent(found.mistake, found.part) and any(
                consistent(d.mistake, d.part) for d in rivals):
            continue
        keep.append(found)
    if len(keep) == len(diagnosis):
        return diagnosis, part_verdicts
    verdicts = {name: replace(pv, diagnosis=tuple(d for d in pv.diagnosis if d in keep))
                for name, pv in part_verdicts.items()}
    return keep, verdicts


def _rounded_early(problem: Problem, spec: PartSpec, user: np.ndarray, truth: np.ndarray,
                   ok: np.ndarray) -> bool:
    """True when every wrong cell of the part is near the truth and is exactly what rounding
    the intermediates early produces (one consistent way of rounding explains them all)."""
    if spec.integer:
        return False
    wrong = ~ok
    if not wrong.any():
        return False
    with np.errstate(invalid="ignore"):
        if not (np.abs(user - truth)[wrong] <= EARLY_ROUNDING_REACH).all():
            return False
    return any(close(user, rounded[spec.name])[wrong].all() for rounded in rounded_solutions(problem))
