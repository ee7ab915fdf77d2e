"""The grader's shortcuts give exactly what the plain computations they replace give.

Over many seeds of every type and difficulty:

* a mistake rerun that keeps the exact value of stages the mistake cannot change
  (`family.reacts_to`) equals the full rerun;
* follow-through bounds that evaluate all moves of a `family.batched` stage in one call
  equal the bounds from one call per move;
* a hand path's unrounded parts, kept while the path runs (`run_stages(raw=…)`), equal a
  rerun of each part's stage on the written-down inputs without rounding;
* the plain-answer reader's fast path reads what the full reader reads.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizapp.engine import format_answer, generate, list_types, parse_answer
from quizapp.engine.family import run_stages
from quizapp.engine.follow import Interval, stage_interval, typed_interval
from quizapp.engine.ops import Calc, MissingTableValue
from quizapp.engine.parse import _plain_layout
from quizapp.engine.rule import CARRY_DECIMALS, HALF_UP, hand_path
from quizapp.engine.variants import hand_tables

CASES = [(info.id, difficulty) for info in list_types() for difficulty in (1, 2, 3)]
SEEDS = st.integers(min_value=0, max_value=2 ** 32 - 1)
PROPERTY = settings(max_examples=12, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def same(a, b) -> bool:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))


@pytest.mark.parametrize("type_id, difficulty", CASES)
@PROPERTY
@given(seed=SEEDS)
def test_mistake_reruns_skip_only_unchanged_stages(type_id, difficulty, seed):
    problem = generate(type_id, seed, difficulty)
    for mistake in problem._family.mistake_ids:
        full = run_stages(problem._stages, dict(problem._env), Calc(mistake=mistake))
        quick = run_stages(problem._stages, dict(problem._env), Calc(mistake=mistake), exact=problem._env)
        for stage in problem._stages:
            assert same(quick[stage.name], full[stage.name]), (mistake, stage.name)


def _one_call_per_move(fn):
    return lambda calc, *args: fn(calc, *args)  # the same function without its `batched` mark


@pytest.mark.parametrize("type_id, difficulty", CASES)
@PROPERTY
@given(seed=SEEDS, moves=st.lists(st.sampled_from([-0.0004, 0.0, 0.0003, 0.01, -0.2]), min_size=16, max_size=16))
def test_batched_bounds_equal_one_call_per_move(type_id, difficulty, seed, moves):
    problem = generate(type_id, seed, difficulty)
    specs = {spec.name: spec for spec in problem.parts}
    for stage in problem._stages:
        if getattr(stage.fn, "batched", None) is None:
            continue
        inputs = []
        for name in stage.inputs:
            truth = np.asarray(problem._env[name], dtype=float)
            spec = specs.get(name)
            if spec is None or spec.integer or not np.isfinite(truth).all():
                inputs.append(Interval.exact(truth))
                continue
            shift = np.resize(np.array(moves), truth.shape) if truth.shape else np.array(moves[0])
            inputs.append(typed_interval(np.round(truth + shift, 3), truth, spec, None))
        fast = stage_interval(stage.fn, inputs)
        slow = stage_interval(_one_call_per_move(stage.fn), inputs)
        for a, b in ((fast.centre, slow.centre), (fast.lo, slow.lo), (fast.hi, slow.hi)):
            assert same(a, b), stage.name


def _hand_path_by_rerun(problem, carry, half_up):
    """The hand path as first written: run with rounding, then each part's stage again without."""
    calc = Calc(round_outputs=True, hand=hand_tables(problem), written=carry, half_up=half_up)
    try:
        env = run_stages(problem._stages, dict(problem._env), calc)
        bare = Calc(hand=calc.hand)
        bare.written = None
        names = {spec.name for spec in problem.parts}
        out = {}
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            for stage in problem._stages:
                if stage.name in names:
                    out[stage.name] = np.asarray(stage.fn(bare, *[env[name] for name in stage.inputs]), dtype=float)
    except MissingTableValue:
        return None
    return [out], calc.tie


@pytest.mark.parametrize("type_id, difficulty", CASES)
@PROPERTY
@given(seed=SEEDS)
def test_hand_path_keeps_what_a_rerun_computes(type_id, difficulty, seed):
    problem = generate(type_id, seed, difficulty)
    for carry in CARRY_DECIMALS:
        for half_up in HALF_UP:
            fast, slow = hand_path(problem, carry, half_up), _hand_path_by_rerun(problem, carry, half_up)
            if slow is None:
                assert fast is None
                continue
            assert fast is not None and fast[1] == slow[1]
            assert fast[0][0].keys() == slow[0][0].keys()
            for name, value in slow[0][0].items():
                assert same(fast[0][0][name], value), name


@pytest.mark.parametrize("type_id, difficulty", CASES)
@PROPERTY
@given(seed=SEEDS, layout=st.sampled_from(["lines", "commas", "semicolons", "one line", "blank lines"]))
def test_plain_reader_reads_what_the_full_reader_reads(type_id, difficulty, seed, layout):
    problem = generate(type_id, seed, difficulty)
    for spec in problem.parts:
        text = format_answer(problem.solution[spec.name])
        if layout == "commas":
            text = text.replace(" ", ", ")
        elif layout == "semicolons":
            text = text.replace("\n", "; ")
        elif layout == "one line":
            text = text.replace("\n", " ")
        elif layout == "blank lines":
            text = "\n" + text.replace("\n", "\n\n") + "\n"
        fast = _plain_layout(text, spec.shape)
        if fast is None:
            continue  # the full reader alone decides anyway
        with mock.patch("quizapp.engine.parse._plain_layout", return_value=None):  # the full reader alone
            slow = parse_answer(text, spec.shape, spec.allow_inf)
        assert same(fast, slow), (spec.name, text)
