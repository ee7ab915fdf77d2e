"""The plain objects the engine hands to its callers (TUI, CLI, store, tests).

They hold NumPy arrays and strings only, so a caller can display, store or serialise them
without knowing how a problem family computes anything. They are data only: what is
computed from a `Problem` (its prompt and worked steps, `family.problem_prompt/_steps`; its
mistake variants, `variants.mistake_variants`) lives in the module that computes it. A
`Problem` keeps a handle on its family and solver stages for those modules, so that they can
be computed on demand: none is needed to grade a correct answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from quizapp.i18n import translate
from quizapp.i18n.localized_error import LocalizedError

if TYPE_CHECKING:  # pragma: no cover
    from quizapp.engine.family import Family, Stage

Scalar = int | float | str
# A problem's scalar parameters; None where an optional one is derived (memory's kv_heads).
Params = Mapping[str, Scalar | None]


@dataclass(frozen=True)
class TypeInfo:
    """One problem type as listed by `list_types()`."""

    id: str
    title_zh: str
    title_en: str
    difficulties: tuple[int, ...] = (1, 2, 3)

    def title(self, lang: str = "zh") -> str:
        return self.title_zh if lang == "zh" else self.title_en


@dataclass(frozen=True)
class PartSpec:
    """A named answer the user types: a scalar (shape ()), a vector or a matrix."""

    name: str
    shape: tuple[int, ...]
    allow_inf: bool = False
    integer: bool = False
    label_zh: str = ""
    label_en: str = ""

    def label(self, lang: str = "zh") -> str:
        text = self.label_zh if lang == "zh" else self.label_en
        return text or self.name

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1


@dataclass(frozen=True)
class Hint:
    """A table offered with the problem, e.g. the eˣ values a softmax needs.

    `rows` are (x, f(x)) pairs rounded to 3 decimals; `kind` says what f is (today only
    "exp_table": eˣ; the field leaves room for other tables).
    """

    kind: str
    rows: list[tuple[float, float]]


@dataclass(frozen=True)
class FormatError:
    """Why an answer could not be read; `row`/`col` are 1-based positions in what was typed."""

    part: str | None
    row: int | None
    col: int | None
    message_zh: str
    message_en: str

    def message(self, lang: str = "zh") -> str:
        return self.message_zh if lang == "zh" else self.message_en

    def with_part(self, part: str) -> FormatError:
        return FormatError(part, self.row, self.col, self.message_zh, self.message_en)


class InputError(LocalizedError, ValueError):
    """A given input or parameter the engine refuses (`quizapp drill --given`, a deck's
    drill inputs): `str(error)` is English, `error.message(lang)` the catalogue's text
    (`engine.input.*`). A value may itself be a {lang: text} mapping (a parse error's
    reason, written in both languages where it is found)."""

    def __init__(self, key: str, /, **values: object) -> None:
        self.key, self.values, self.input_key = key, values, key
        ValueError.__init__(self, self.message("en"))

    def message(self, lang: str) -> str:
        filled = {k: v.get(lang, v.get("en")) if isinstance(v, Mapping) else v for k, v in self.values.items()}
        return translate(lang, self.input_key, **filled)


class AnswerFormatError(ValueError):
    """Raised by `parse_answer`; carries a located `FormatError` (also via attributes)."""

    def __init__(self, error: FormatError) -> None:
        super().__init__(error.message_en)
        self.error = error

    part = property(lambda self: self.error.part)
    row = property(lambda self: self.error.row)
    col = property(lambda self: self.error.col)
    message_zh = property(lambda self: self.error.message_zh)
    message_en = property(lambda self: self.error.message_en)

    def message(self, lang: str = "zh") -> str:
        return self.error.message(lang)


@dataclass(frozen=True)
class Diagnosis:
    """A classic mistake the user's answer for `part` matches exactly."""

    part: str
    mistake: str
    message_zh: str
    message_en: str

    def message(self, lang: str = "zh") -> str:
        return self.message_zh if lang == "zh" else self.message_en


class CellStatus(StrEnum):
    """How one graded cell stands.

    * RIGHT   — matches the true value by the README's rule (`rule.py`: within the rounding
      of a careful hand path, at most `rule.BOUND` off; exact for integers, ±∞);
    * CARRIED — wrong against the truth, but consistent with the user's own earlier parts
      (follow-through): it earns partial credit (`CARRIED_CREDIT`) and is never "right";
    * WRONG   — neither;
    * BLANK   — left empty (a whole part unanswered, or single cells typed as `_` / `?`,
      or NaN cells in an array answer).

    A StrEnum: the values are the strings `grade --json` prints and attempts store.
    """

    RIGHT = "right"
    CARRIED = "carried"
    WRONG = "wrong"
    BLANK = "blank"


# What a carried cell earns, relative to a right one (README: "Drill scoring").
CARRIED_CREDIT = 0.5
# PartVerdict.codes index this
STATUS_CODES = (CellStatus.WRONG, CellStatus.RIGHT, CellStatus.CARRIED, CellStatus.BLANK)


@dataclass(frozen=True)
class PartVerdict:
    """Grading of one part.

    `status` mirrors the part's shape with one `CellStatus` per cell (a bare CellStatus for
    a scalar part); it is None only when the part could not be read (`error` set).
    `cells` is the same grid as bools, True only where the status is RIGHT (so a carried
    cell is never a ✓). `score` = (right + CARRIED_CREDIT · carried) / cells; `carried_score`
    is the carried cells' share of it. `answered` is False for a missing or blank answer.
    """

    score: float
    cells: Any
    error: FormatError | None = None
    answered: bool = True
    diagnosis: tuple[Diagnosis, ...] = ()
    carried_score: float = 0.0
    # status codes per cell (index into STATUS_CODES); None: every readable cell is RIGHT.
    # The grid itself is built on first use — grading a correct answer never needs it.
    codes: Any = field(default=None, repr=False, compare=False)

    @cached_property
    def status(self) -> Any:
        if self.cells is None:
            return None
        if self.codes is None:
            return _map_grid(self.cells, lambda _: CellStatus.RIGHT)
        out = np.asarray(STATUS_CODES, dtype=object)[self.codes]
        return out.tolist() if isinstance(out, np.ndarray) else out

    def statuses(self) -> list[CellStatus]:
        """Every cell's status, flattened in row-major order ([] when unreadable)."""
        return _flatten(self.status)

    def count(self, status: CellStatus) -> int:
        return sum(1 for s in self.statuses() if s == status)

    @property
    def all_right(self) -> bool:
        cells = self.statuses()
        return bool(cells) and all(s == CellStatus.RIGHT for s in cells)


def _map_grid(grid: Any, fn: Any) -> Any:
    if isinstance(grid, list):
        return [_map_grid(cell, fn) for cell in grid]
    return fn(grid)


def _flatten(grid: Any) -> list[Any]:
    if grid is None:
        return []
    if isinstance(grid, list):
        return [cell for row in grid for cell in _flatten(row)]
    return [grid]


@dataclass(frozen=True)
class Verdict:
    """Grading of a whole answer.

    `score` is the mean of the part scores; `carried_score` is how much of it comes from
    carried cells (so `score - carried_score` is earned by right cells alone). `correct`
    is True only when every cell of every part is RIGHT: carried, wrong or blank cells all
    make it False (and `quizapp grade` exit 1). A non-empty `diagnosis` names a conceptual
    mistake; the drill skill card is then rated Again whatever the score.

    A format error is not graded: `has_format_error` is True, `score` is 0 and the caller
    must not count the attempt. `hints` are keys of `mistakes.HINTS` (e.g. "rounded_early").
    """

    score: float
    correct: bool
    parts: dict[str, PartVerdict]
    diagnosis: list[Diagnosis]
    hints: list[str] = field(default_factory=list)
    has_format_error: bool = False
    carried_score: float = 0.0

    def count(self, status: CellStatus) -> int:
        """How many cells of the whole answer have `status`."""
        return sum(pv.count(status) for pv in self.parts.values())

    @property
    def format_errors(self) -> list[FormatError]:
        return [pv.error for pv in self.parts.values() if pv.error is not None]


@dataclass(eq=False)
class Problem:
    """A generated (or teacher-given) problem with its exact solution.

    `given` are the inputs shown to the user, `params` the scalars that define the problem
    (d_k, h, dtype, ...), `solution` the exact value of every answer part.
    `variants.mistake_variants(problem)` maps each applicable mistake id to the parts (and
    their values) that mistake gets wrong.
    """

    type: str
    seed: int | None
    difficulty: int
    given: dict[str, np.ndarray]
    params: dict[str, Scalar | None]
    parts: list[PartSpec]
    solution: dict[str, np.ndarray]
    hints: list[Hint]
    _family: Family = field(repr=False)
    _env: dict[str, Any] = field(repr=False)
    _stages: Sequence[Stage] = field(repr=False)

    def part(self, name: str) -> PartSpec:
        for spec in self.parts:
            if spec.name == name:
                return spec
        raise KeyError(name)

    @property
    def value(self) -> dict[str, Any]:
        """Every value the solver computed, inputs and intermediates included (read-only use)."""
        return self._env
