"""What a problem family is: how it samples inputs, validates given ones, and solves them.

A family's solution is a list of `Stage`s, each computing one named value from givens,
params and earlier stages. Parts the user answers are stages too, which is what makes
follow-through marking generic: to grade part P "against the user's own earlier parts",
the grader reruns P's stage with the user's values for its inputs. The same stages run
under a mistake (`Calc(mistake=...)`) give that mistake's wrong answers, and with rounded
intermediates (`Calc(decimals=2)`) the answer of a user who rounded too early.

Rule for authors: a stage that is not an answer part may depend on givens and params
only, so that substituting a user's part never has to flow through hidden intermediates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NamedTuple

import numpy as np

from quizapp.engine.ops import EXACT, Calc
from quizapp.engine.types import Hint, InputError, Params, PartSpec, Problem, Scalar


class Stage(NamedTuple):
    name: str
    inputs: tuple[str, ...]
    fn: Callable[..., Any]  # fn(calc, *input_values)


def reacts_to(*mistakes: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the only mistakes (`calc.mistake` values) a stage function computes
    differently: a mistake rerun then keeps the exact value of such a stage whose inputs
    are all exact, instead of computing it again (see `run_stages`)."""
    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.mistakes = frozenset(mistakes)  # type: ignore[attr-defined]
        return fn
    return mark


def batched(matrices: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare that a stage function, run exactly (`EXACT`), also takes one of its inputs
    with an extra leading axis of candidates and returns the stacked results, each the
    same as its own call (elementwise and last-axis work; `matrices`: a matrix product,
    stacked only when every input is a matrix, so that the product is the same kind).
    Follow-through bounds (`follow.stage_interval`) then evaluate all moves in one call."""
    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.batched = "matrices" if matrices else "any"  # type: ignore[attr-defined]
        return fn
    return mark


def run_stages(stages: Sequence[Stage], env: dict[str, Any], calc: Calc = EXACT,
               exact: dict[str, Any] | None = None, raw: dict[str, np.ndarray] | None = None) -> dict[str, Any]:
    """Compute every stage into `env` (in place) and return it.

    `exact` (the problem's exact values, which `env` starts as a copy of) lets a rerun
    under a mistake skip a stage that cannot change: one marked with `reacts_to` not
    naming the mistake, whose inputs are all still the exact objects. `raw`, when given,
    receives each stage's value before `calc.round_output` (as a float array)."""
    skip = (exact is not None and calc.mistake is not None and calc.decimals is None and calc.hand is None
            and not calc.round_outputs and calc.roots is None)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        for stage in stages:
            args = [env[name] for name in stage.inputs]
            if skip:
                mistakes = getattr(stage.fn, "mistakes", None)
                if (mistakes is not None and calc.mistake not in mistakes and stage.name in exact  # type: ignore[operator]
                        and all(value is exact[name] for name, value in zip(stage.inputs, args))):  # type: ignore[index]
                    env[stage.name] = exact[stage.name]  # type: ignore[index]
                    continue
            value = stage.fn(calc, *args)
            if raw is not None:
                raw[stage.name] = np.asarray(value, dtype=float)
            if calc.round_outputs:
                value = calc.round_output(value)
            env[stage.name] = value if isinstance(value, np.ndarray) else np.asarray(value, dtype=float)
    return env


class Family:
    """Base class of the problem families (one module each under `generators/`)."""

    id: ClassVar[str]
    title_zh: ClassVar[str]
    title_en: ClassVar[str]
    required: ClassVar[tuple[str, ...]] = ()  # given names that must be present
    optional: ClassVar[tuple[str, ...]] = ()  # given names that may be present
    required_params: ClassVar[tuple[str, ...]] = ()  # scalar params that must be given
    param_defaults: ClassVar[dict[str, Scalar | None]] = {}  # optional params (None: derived)
    mistake_ids: ClassVar[tuple[str, ...]] = ()  # mistakes worth computing for this family ("id@variant": one way of it)
    # part -> an earlier part it always equals (rope: dot_shifted = dot): what is right or
    # carried in the one is so in the other, whichever way the user got there
    equal_parts: ClassVar[dict[str, str]] = {}
    # mistake id -> (zh, en): this family's own explanation of a shared mistake (params'
    # forgot_bias counts eight bias vectors, not the FFN's b); the stored id stays the same
    mistake_texts: ClassVar[dict[str, tuple[str, str]]] = {}

    # --- to implement -------------------------------------------------------------
    def sample(self, rng: np.random.Generator, difficulty: int) -> tuple[dict[str, np.ndarray], dict[str, Scalar]]:
        raise NotImplementedError

    def check(self, given: dict[str, np.ndarray], params: Params) -> None:
        """Raise ValueError with a clear message when given inputs do not fit together."""

    def derive(self, given: dict[str, np.ndarray], params: Params) -> dict[str, Any]:
        """Extra stage inputs: defaults of optional givens, masks, derived scalars such as d_k.

        Scalars returned here are also shown with the problem's params.
        """
        return {}

    def stages(self, given: dict[str, np.ndarray], params: Params) -> Sequence[Stage]:
        raise NotImplementedError

    def part_specs(self, given: dict[str, np.ndarray], params: Params) -> list[PartSpec]:
        raise NotImplementedError

    def hints(self, env: dict[str, Any]) -> list[Hint]:
        return []

    def extra_roots(self, env: dict[str, Any]) -> set[float]:
        """Values whose √ the table shows beside those the solution takes (decoys)."""
        return set()

    def also_right(self, problem: Problem, name: str, user: np.ndarray) -> np.ndarray | None:
        """Cells of part `name` that are right though not the solution's value (a tied
        argmax: any tied column); None when the part has a single right value per cell."""
        return None

    def prompt(self, problem: Problem, lang: str) -> str:
        raise NotImplementedError

    def steps(self, problem: Problem, lang: str) -> list[str]:
        raise NotImplementedError


def problem_prompt(problem: Problem, lang: str = "zh") -> str:
    """The problem's statement, as its family words it."""
    return problem._family.prompt(problem, lang)


def problem_steps(problem: Problem, lang: str = "zh") -> list[str]:
    """The worked solution, one step a line, as its family writes it."""
    return problem._family.steps(problem, lang)


# --- validation helpers used by the families' `check` ------------------------------

def need_ndim(given: dict[str, np.ndarray], name: str, ndim: int | tuple[int, ...]) -> np.ndarray:
    arr = given[name]
    allowed = (ndim,) if isinstance(ndim, int) else ndim
    if arr.ndim not in allowed:
        key = "engine.input.ndim_" + "_or_".join(map(str, allowed))
        raise InputError(key, name=name, ndim=arr.ndim, shape="×".join(map(str, arr.shape)) or "1")
    if arr.size == 0:
        raise InputError("engine.input.empty", name=name)
    return arr


def need_finite(given: dict[str, np.ndarray], *names: str) -> None:
    for name in names:
        if name in given and not np.all(np.isfinite(given[name])):
            raise InputError("engine.input.finite", name=name)


def need_equal(what: str, a: int, b: int, a_desc: str, b_desc: str) -> None:
    if a != b:
        raise InputError("engine.input.unequal", what=what, a_desc=a_desc, a=a, b_desc=b_desc, b=b)


def need_positive_int(params: dict[str, Scalar], *names: str) -> None:
    for name in names:
        value = params[name]
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
            raise InputError("engine.input.positive_int", name=name, value=repr(value))


def need_scores(given: dict[str, np.ndarray], name: str, masked: np.ndarray | None = None) -> None:
    """Scores may already hold −∞ (masked cells), but every row needs a finite score to
    softmax — also after the cells in `masked` are hidden."""
    scores = given[name]
    if np.isnan(scores).any() or (scores == np.inf).any():
        raise InputError("engine.input.scores_values", name=name)
    visible = scores if masked is None else np.where(masked, -np.inf, scores)
    rows = visible.reshape(-1, visible.shape[-1]) if visible.ndim else visible.reshape(1, 1)
    if not np.isfinite(rows).any(axis=1).all():
        key = "engine.input.row_all_masked" if masked is not None else "engine.input.row_all_inf"
        raise InputError(key, name=name)
