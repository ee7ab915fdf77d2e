"""The problem types, and the two ways to get a problem: from a seed or from given inputs.

The order of the types is `quizapp.drill_types.DRILL_TYPES` (content validation uses that
dependency-free list; a test checks the two agree).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from quizapp.drill_types import DRILL_TYPES
from quizapp.engine.degenerate import degenerate
from quizapp.engine.family import Family, run_stages
from quizapp.engine.generators import ALL_FAMILIES
from quizapp.engine.ops import Calc, sqrt_table
from quizapp.engine.parse import to_array
from quizapp.engine.sampling import MAX_TRIES
from quizapp.engine.types import Hint, InputError, Params, Problem, Scalar, TypeInfo
from quizapp.i18n import Translator

DIFFICULTIES = (1, 2, 3)

FAMILIES: dict[str, Family] = {family.id: family for family in ALL_FAMILIES}
if tuple(FAMILIES) != DRILL_TYPES:  # pragma: no cover - caught by the registry test too
    raise RuntimeError("engine families are out of step with quizapp.drill_types.DRILL_TYPES")

_TYPE_INFOS = [TypeInfo(f.id, f.title_zh, f.title_en, DIFFICULTIES) for f in ALL_FAMILIES]


def list_types() -> list[TypeInfo]:
    return list(_TYPE_INFOS)


def family(type_id: str) -> Family:
    try:
        return FAMILIES[type_id]
    except KeyError:
        raise ValueError(f"unknown problem type {type_id!r}; known types: {', '.join(FAMILIES)}") from None


def _check_difficulty(difficulty: int) -> int:
    if isinstance(difficulty, bool) or not isinstance(difficulty, (int, np.integer)) or difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be 1, 2 or 3, got {difficulty!r}")
    return int(difficulty)


def generate(type_id: str, seed: int, difficulty: int = 1) -> Problem:
    """A fresh problem; the same (type, seed, difficulty) gives the same problem everywhere."""
    fam = family(type_id)
    difficulty = _check_difficulty(difficulty)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    rng = np.random.default_rng(int(seed))
    for _ in range(MAX_TRIES):  # the same generator draws on: still deterministic
        given, params = fam.sample(rng, difficulty)
        problem = _build(fam, given, params, int(seed), difficulty)
        if degenerate(problem) is None:
            break
    return problem


def from_given(type_id: str, given: Mapping[str, Any], difficulty: int = 1,
               params: Mapping[str, Any] | None = None) -> Problem:
    """A problem on inputs chosen by a user or teacher (e.g. a textbook's X and W_Q).

    Values may be nested lists (as in YAML/JSON, with "-inf" as a string), numbers, matrix
    text or arrays. For types defined by scalars only (shapes, params, memory) the scalars
    may come in `given` or in `params`. Scalars the problem derives itself (d_k, h, bytes)
    may be restated if they agree, so `{**json["given"], **json["params"]}` of
    `problem_to_json` rebuilds the same problem. Raises ValueError naming the offending input.
    """
    fam = family(type_id)
    difficulty = _check_difficulty(difficulty)
    accepted = set(fam.required) | set(fam.optional)
    accepted_params = set(fam.required_params) | set(fam.param_defaults)
    arrays: dict[str, np.ndarray] = {}
    scalars: dict[str, Scalar | None] = dict(fam.param_defaults)
    restated: dict[str, tuple[str, Any]] = {}  # perhaps derived scalars: checked once derived
    for kind, values in (("parameter", dict(params or {})), ("input", given)):
        for name, value in values.items():
            if kind == "input" and name in accepted:
                arrays[name] = _in_range(to_array(value, name), name)
            elif name in accepted_params:
                scalars[name] = _param_value(fam, name, value)
            else:
                restated[name] = (kind, value)
    missing = [name for name in (*fam.required, *fam.required_params) if name not in arrays and name not in scalars]
    if missing:
        for name, (kind, _) in restated.items():
            raise _unknown(fam, kind, name)
        raise InputError("engine.input.needs", type=fam.id, names=", ".join(missing))
    fam.check(arrays, scalars)
    if restated:
        derived = fam.derive(arrays, scalars)
        for name, (kind, value) in restated.items():
            if name not in derived or not isinstance(derived[name], (int, float, str)):
                raise _unknown(fam, kind, name)
            if _same_scalar(value, derived[name]) is False:
                raise InputError("engine.input.derived", name=name, derived=repr(derived[name]), value=repr(value))
    ordered = {name: arrays[name] for name in (*fam.required, *fam.optional) if name in arrays}
    return _build(fam, ordered, scalars, None, difficulty)


def _unknown(fam: Family, kind: str, name: str) -> InputError:
    """An input or parameter the type does not take, naming those it does (in both languages)."""

    def names(lang: str) -> str:
        t = Translator(lang)
        inputs = [*fam.required, *(t("engine.input.optional", name=n) for n in fam.optional)]
        params = [*fam.required_params, *(t("engine.input.optional", name=p) for p in fam.param_defaults)]
        listed = inputs + [t("engine.input.as_parameter", name=p) for p in params]
        return t("engine.list_sep").join(listed) or t("engine.input.none")

    return InputError(f"engine.input.unknown_{kind}", name=repr(name), type=fam.id,
                      names={lang: names(lang) for lang in ("en", "zh")})


def _same_scalar(value: Any, derived: Scalar) -> bool:
    if isinstance(derived, str):
        return value == derived
    try:
        return float(value) == float(derived)
    except (TypeError, ValueError):
        return False


# Range checks on given inputs: a hand-calculation problem never needs more, and larger
# numbers overflow the arithmetic (products of parameters, eˣ, the number formatter).
MAX_INPUT = 1e12  # |cell| of a given matrix (−1e9 as a mask stand-in fits; −∞ stays allowed where a mask may be)
MAX_PARAM = 1e9  # |scalar parameter| (sequence lengths, model sizes, batch)


def _in_range(arr: np.ndarray, name: str) -> np.ndarray:
    finite = arr[np.isfinite(arr)]
    if finite.size and float(np.abs(finite).max()) > MAX_INPUT:
        raise InputError("engine.input.too_large", name=name, limit=f"{MAX_INPUT:.0e}")
    if (arr == np.inf).any():
        raise InputError("engine.input.plus_inf", name=name)
    return arr


def _param_value(fam: Family, name: str, value: Any) -> Scalar:
    default = fam.param_defaults.get(name)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise InputError("engine.input.param_text", name=name, value=repr(value))
        return value
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = float(value)
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise InputError("engine.input.param_number", name=name, value=repr(value)) from None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InputError("engine.input.param_number", name=name, value=repr(value))
    if not math.isfinite(float(value)) or abs(float(value)) > MAX_PARAM:
        raise InputError("engine.input.param_range", name=name, limit=f"{MAX_PARAM:.0e}", value=repr(value))
    if float(value) == int(value):
        return int(value)
    return float(value)


def _root_hints(roots: set[float]) -> list[Hint]:
    return _root_hints_of(frozenset(roots)) if roots else []


@functools.lru_cache(maxsize=1024)
def _root_hints_of(roots: frozenset[float]) -> list[Hint]:
    # few distinct roots occur (√2 in most problems): memoised; Hints are immutable and callers only read them
    rows = sqrt_table(set(roots))
    return [Hint("sqrt_table", rows)] if rows else []


def _build(fam: Family, given: dict[str, np.ndarray], params: Params,
           seed: int | None, difficulty: int) -> Problem:
    extras = fam.derive(given, params)
    stages = fam.stages(given, params)
    roots: set[float] = set()
    env = run_stages(stages, {**given, **params, **extras}, Calc(roots=roots))
    specs = fam.part_specs(given, params)
    shown = {**params, **{k: v for k, v in extras.items() if isinstance(v, (int, float, str))}}
    solution = {spec.name: env[spec.name] for spec in specs}
    for value in (*given.values(), *solution.values()):
        value.flags.writeable = False  # grading relies on them: callers get views they cannot corrupt
    return Problem(
        type=fam.id, seed=seed, difficulty=difficulty, given=given, params=shown, parts=specs,
        solution=solution,
        hints=fam.hints(env) + _root_hints(roots | fam.extra_roots(env)),
        _family=fam, _env=env, _stages=stages,
    )
