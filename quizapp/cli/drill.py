"""`quizapp drill` and `quizapp grade`: hand-calculation problems from the command line.

    quizapp drill --list [--json]
    quizapp drill --type T [--seed N] [--difficulty D] [--given NAME=MATRIX ...] [--param NAME=VALUE ...]
                  [--solution] [--json]
    quizapp grade --type T (--seed N | --given ...) [--difficulty D] --answer TEXT | --answer PART=TEXT ... [--json]

`grade` exits 0 when every cell is right; 1 otherwise (a carried cell — consistent with
the user's own earlier answers but not the true value — is not right); 2 on a format
error or bad usage (one line on stderr). A matrix on the command line is answer-parser text
("1 0; 0 1", "[[1,0],[0,1]]") or a JSON nested list with "-inf" as a string.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

import numpy as np

from quizapp.cli.errors import UsageError
from quizapp.engine import (
    CellStatus,
    Problem,
    Verdict,
    from_given,
    generate,
    grade,
    hint_message,
    list_types,
    problem_prompt,
    problem_steps,
    problem_to_json,
    verdict_to_json,
)
from quizapp.engine.text import block, num, shape_text, table_num
from quizapp.engine.types import InputError
from quizapp.i18n import Translator
from quizapp.i18n.formatting import percent

MAX_SEED = 2 ** 63 - 1


# --- handlers -----------------------------------------------------------------------

def run_drill(args: argparse.Namespace) -> int:
    _check_text(args)
    lang = args.lang or "zh"
    if args.list:
        return _list_types(args.json, lang)
    if not args.type_id:
        raise UsageError(key="cli.error.drill_needs_type")
    with _computable():
        problem = _problem(args, allow_random_seed=True)
        if args.json:
            _print_json(problem_to_json(problem, solution=args.solution, lang=lang))
        else:
            _print("\n".join(render_problem(problem, lang, solution=args.solution)))
    return 0


def run_grade(args: argparse.Namespace) -> int:
    _check_text(args)
    lang = args.lang or "zh"
    t = Translator(lang)
    with _computable():
        problem = _problem(args, allow_random_seed=False)
        answers = _answers(problem, args.answer)
        verdict = grade(problem, answers)
        if args.json:
            _print_json(verdict_to_json(verdict, lang))
        if verdict.has_format_error:  # not graded, not an attempt: say where, and stop
            error = verdict.format_errors[0]
            line = t("cli.error.answer_format", part=error.part, message=error.message(lang))
            print(t("cli.error_line", message=line), file=sys.stderr)
            return 2
        if not args.json:
            _print("\n".join(render_verdict(problem, verdict, lang)))
    return 0 if verdict.correct else 1


def _list_types(as_json: bool, lang: str) -> int:
    types = list_types()
    if as_json:
        _print_json([{"id": t.id, "title_zh": t.title_zh, "title_en": t.title_en,
                      "difficulties": list(t.difficulties)} for t in types])
        return 0
    width = max(len(t.id) for t in types)
    _print("\n".join(f"{t.id.ljust(width)}  {t.title(lang)}" for t in types))
    return 0


def _check_text(args: argparse.Namespace) -> None:
    """Arguments that are not valid UTF-8 (Python keeps the bytes as lone surrogates)."""
    for option in ("type_id", "given", "param", "answer"):
        value = getattr(args, option, None)
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str):
                try:
                    text.encode("utf-8")
                except UnicodeEncodeError:
                    flag = "--type" if option == "type_id" else f"--{option}"
                    raise UsageError(key="cli.error.option_not_utf8", option=flag) from None


class _computable:
    """Inputs inside the range checks can still overflow somewhere (a product of large
    parameters): one line, exit 2, never a traceback."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        if kind is not None and issubclass(kind, ArithmeticError):
            raise UsageError(key="cli.error.not_computable", reason=exc) from None


def _print(text: str) -> None:
    """Print all of `text` or, when the terminal's encoding cannot show it, nothing: exit 2."""
    encoding = sys.stdout.encoding or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        raise UsageError(f"the output cannot be shown in this terminal's encoding ({encoding}); "
                         "use a UTF-8 locale (e.g. LANG=C.UTF-8) or --json") from None
    print(text)


# --- argument handling ----------------------------------------------------------------

def _pairs(items: list[str], option: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(key="cli.error.expects_pair", option=option, item=repr(item))
        if name in out:
            raise UsageError(key="cli.error.given_twice", option=f"{option} {name}")
        out[name] = value
    return out


def _problem(args: argparse.Namespace, allow_random_seed: bool) -> Problem:
    given = _pairs(args.given, "--given")
    params = _pairs(args.param, "--param")
    try:
        if given or params:
            if args.seed is not None:
                raise UsageError(key="cli.error.seed_or_given")
            return from_given(args.type_id, given, args.difficulty, params)
        if args.seed is None:
            if not allow_random_seed:
                raise UsageError(key="cli.error.grade_needs_problem")
            args.seed = random.SystemRandom().randrange(1_000_000)
        if not 0 <= args.seed <= MAX_SEED:
            raise UsageError(key="cli.error.seed_range", max=MAX_SEED)
        return generate(args.type_id, args.seed, args.difficulty)
    except InputError as exc:  # a given input refused: the catalogue's text in the CLI's language
        raise UsageError(exc.message(args.lang or "en")) from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _answers(problem: Problem, items: list[str]) -> dict[str, str]:
    if not items:
        raise UsageError(key="cli.error.grade_needs_answer")
    names = [spec.name for spec in problem.parts]
    answers: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if sep and name.strip() in names:
            name = name.strip()
        elif len(names) == 1:
            name, value = names[0], item
        else:
            raise UsageError(key="cli.error.answer_parts", type=problem.type, parts=names)
        if name in answers:
            raise UsageError(key="cli.error.given_twice", option=f"--answer {name}")
        answers[name] = value
    return answers


def _print_json(data: Any) -> None:
    ascii_only = (sys.stdout.encoding or "").lower().replace("-", "").replace("_", "") != "utf8"
    print(json.dumps(data, ensure_ascii=ascii_only))


# --- human-readable output ------------------------------------------------------------

def render_problem(problem: Problem, lang: str, solution: bool = False) -> list[str]:
    t = Translator(lang)
    title = next(info.title(lang) for info in list_types() if info.id == problem.type)
    origin = f"seed {problem.seed}" if problem.seed is not None else t("engine.cli.given_inputs")
    lines = [t("engine.cli.header", type=problem.type, title=title, difficulty=problem.difficulty, origin=origin),
             "", problem_prompt(problem, lang), ""]
    if problem.given:
        lines.append(t("engine.cli.given"))
        for name, value in problem.given.items():
            lines += ["  " + line for line in block(name, value)]
    shown = {k: v for k, v in problem.params.items() if v is not None}
    if shown:
        lines.append(t("engine.cli.params", params=[f"{k} = {_param_text(v)}" for k, v in shown.items()]))
    lines += ["", t("engine.cli.parts")]
    width = max(len(spec.name) for spec in problem.parts)
    for spec in problem.parts:
        shape = shape_text(spec.shape) if spec.shape else t("engine.cli.scalar")
        lines.append(f"  {spec.name.ljust(width)}  {shape:>6}  {spec.label(lang)}")
    for hint in problem.hints:
        rows = [(table_num(x), table_num(y)) for x, y in hint.rows]
        if hint.kind == "exp_table":
            lines += ["", t("engine.cli.exp_table")] + [f"  e^{num(x)} = {y}" for (x, _), (_, y) in zip(hint.rows, rows)]
        elif hint.kind == "sqrt_table":
            lines += ["", t("engine.cli.sqrt_table")] + [f"  √{x} = {y}" for x, y in rows]
        elif hint.kind in ("sin_table", "cos_table"):
            fn = hint.kind[:3]
            lines += ["", t(f"engine.cli.{hint.kind}")] + [f"  {fn}({x}) = {y}" for x, y in rows]
    if solution:
        lines += ["", t("engine.cli.solution")]
        for name, value in problem.solution.items():
            lines += ["  " + line for line in block(name, value)]
        lines += ["", t("engine.cli.steps")] + ["  " + step for step in problem_steps(problem, lang)]
    if problem.seed is not None:
        command = f"quizapp drill --type {problem.type} --seed {problem.seed} --difficulty {problem.difficulty}"
        lines += ["", t("engine.cli.redo", command=command)]
    return lines


def _param_text(value: Any) -> str:
    return value if isinstance(value, str) else num(value)


MARKS = {CellStatus.RIGHT: "✓", CellStatus.CARRIED: "↳", CellStatus.WRONG: "✗", CellStatus.BLANK: "·"}


def render_verdict(problem: Problem, verdict: Verdict, lang: str) -> list[str]:
    """Per-part grids of marks (✓ right, ↳ carried, ✗ wrong, · blank), part scores, the true
    value of every carried cell, diagnosis and hints (for a graded verdict)."""
    t = Translator(lang)
    lines = []
    for spec in problem.parts:
        pv = verdict.parts[spec.name]
        if not pv.answered:
            lines.append(t("engine.cli.not_answered", part=spec.name, shape=shape_text(spec.shape)))
            continue
        lines.append(t("engine.cli.part_score", part=spec.name, shape=shape_text(spec.shape), score=percent(pv.score)))
        grid = pv.status if isinstance(pv.status, list) else [pv.status]
        rows = grid if grid and isinstance(grid[0], list) else [grid]
        lines += ["  " + " ".join(MARKS[status] for status in row) for row in rows]
        truth = np.atleast_2d(problem.solution[spec.name])
        carried = [f"[{i + 1},{j + 1}] = {num(truth[i, j])}" for i, row in enumerate(rows)
                   for j, status in enumerate(row) if status == CellStatus.CARRIED]
        if carried:
            lines.append(t("engine.cli.carried_truth", cells=carried))
    for d in verdict.diagnosis:
        lines.append(t("engine.cli.diagnosis", part=d.part, mistake=d.mistake, message=d.message(lang)))
    for key in verdict.hints:
        lines.append(t("engine.cli.hint", message=hint_message(key, lang)))
    word = t("engine.cli.all_right") if verdict.correct else t("engine.cli.not_all_right")
    if verdict.carried_score > 0:
        # points of 100, not a percentage of the score: "10.7 of the 75 points", never "11% of it"
        lines.append(t("engine.cli.score_carried", score=percent(verdict.score), verdict=word,
                       points=_points(verdict.score), carried=_points(verdict.carried_score)))
    else:
        lines.append(t("engine.cli.score", score=percent(verdict.score), verdict=word))
    return lines


def _points(fraction: float) -> str:
    from quizapp.i18n.formatting import points

    return points(fraction)
