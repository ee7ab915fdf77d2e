"""The NumPy attention engine: fresh hand-calculation problems, grading, diagnosis, solutions.

Knows nothing of the store or the UI (no Textual, no SQLAlchemy). Public API::

    list_types() -> list[TypeInfo]
    generate(type_id, seed, difficulty=1) -> Problem
    from_given(type_id, given, difficulty=1, params=None) -> Problem
    grade(problem, answers) -> Verdict
    parse_answer(text, shape, allow_inf) -> np.ndarray       # raises AnswerFormatError
    format_answer(value) -> str                               # a value in answer syntax, 3 decimals
    problem_prompt(problem, lang="zh") -> str                 # the problem's statement
    problem_steps(problem, lang="zh") -> list[str]            # its worked solution
    mistake_variants(problem) -> {mistake: {part: value}}     # what each classic mistake gives
    problem_to_json(problem, solution=False, lang="zh") -> dict
    verdict_to_json(verdict, lang="zh") -> dict
    status_from_json(stored_part) -> CellStatus grid          # also for attempts stored before statuses

Every graded cell is a `CellStatus` (right / carried / wrong / blank): see `PartVerdict.status`.
"""

from quizapp.engine.family import problem_prompt, problem_steps
from quizapp.engine.grade import grade
from quizapp.engine.mistakes import HINTS, MISTAKES, hint_message
from quizapp.engine.parse import MAX_ANSWER_CHARS, format_answer, parse_answer
from quizapp.engine.registry import from_given, generate, list_types
from quizapp.engine.serialize import problem_to_json, status_from_json, verdict_to_json
from quizapp.engine.types import (
    CARRIED_CREDIT,
    AnswerFormatError,
    CellStatus,
    Diagnosis,
    FormatError,
    Hint,
    PartSpec,
    PartVerdict,
    Problem,
    TypeInfo,
    Verdict,
)
from quizapp.engine.variants import mistake_variants

__all__ = [
    "CARRIED_CREDIT", "HINTS", "MAX_ANSWER_CHARS", "MISTAKES", "AnswerFormatError", "CellStatus", "Diagnosis",
    "FormatError", "Hint", "PartSpec", "PartVerdict", "Problem", "TypeInfo", "Verdict", "format_answer",
    "from_given", "generate", "grade", "hint_message", "list_types", "mistake_variants", "parse_answer",
    "problem_prompt", "problem_steps", "problem_to_json",
    "status_from_json", "verdict_to_json",
]
