"""The drill and mock services with the real NumPy engine (skipped until it is importable)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import reopen

from quizapp.engine.variants import mistake_variants
from quizapp.srs.drills import DrillService
from quizapp.srs.mock import MockConfig, MockService

# The tests that open a database (the srs fixtures) run on SQLite and on PostgreSQL.
pytestmark = pytest.mark.both_backends

engine = pytest.importorskip("quizapp.engine")
if not all(hasattr(engine, name) for name in ("generate", "from_given", "grade", "problem_to_json", "verdict_to_json")):
    pytest.skip("quizapp.engine does not expose its public API yet", allow_module_level=True)


def _cell(value: float) -> str:
    value = float(value)
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    return str(int(value)) if value == int(value) else repr(value)


def typed(array) -> str:
    """An array as a user would type it: `[[a, b], [c, d]]`, a row, or a scalar."""
    array = np.asarray(array, dtype=float)
    if array.ndim == 0:
        return _cell(array)
    if array.ndim == 1:
        return "[" + ", ".join(_cell(v) for v in array) + "]"
    return "[" + ", ".join(typed(row) for row in array) + "]"


def solution_answers(problem) -> dict[str, str]:
    return {name: typed(value) for name, value in problem.solution.items()}


@pytest.fixture
def real_drills(prepared, clock, study):
    return DrillService(prepared.db, clock)  # the engine is imported on first use


def test_real_attempts_read_back_exactly(real_drills, db_path, clock):
    problem = engine.generate("attention", 5, 2)
    answers = solution_answers(problem)
    right = real_drills.record_attempt(problem, answers, engine.grade(problem, answers), 95_000)
    assert right.score == 1.0 and right.verdict["correct"] is True
    assert set(right.verdict["parts"]) == {p.name for p in problem.parts}

    wrong = dict(answers)
    first = problem.parts[0].name
    wrong[first] = typed(np.asarray(problem.solution[first], dtype=float) + 1)
    mistake = real_drills.record_attempt(problem, wrong, engine.grade(problem, wrong), 30_000)
    assert mistake.score < 1.0

    bad = {**answers, first: "[[1, 2], [3"}
    assert real_drills.record_attempt(problem, bad, engine.grade(problem, bad), 1_000) is None
    real_drills.db.close()

    again = reopen(db_path, clock)
    try:
        assert DrillService(again.db, clock).attempts() == [mistake, right]
    finally:
        again.db.close()


def test_a_diagnosed_mistake_is_stored_in_both_languages(real_drills):
    for seed in range(20):
        problem = engine.generate("softmax", seed, 1)
        variants = mistake_variants(problem)
        if variants:
            break
    mistake_id, values = next(iter(variants.items()))
    answers = solution_answers(problem)
    answers.update({name: typed(v) for name, v in values.items()})
    verdict = engine.grade(problem, answers)
    attempt = real_drills.record_attempt(problem, answers, verdict, 10_000)
    assert any(d["mistake"] == mistake_id for d in attempt.diagnosis)
    assert all(d["message_zh"] and d["message_en"] for d in attempt.diagnosis)


@pytest.mark.parametrize("type_id", ["scores", "scaled_scores", "attention", "causal_mask", "layernorm"])
def test_explicit_inputs_are_stored_and_rebuild_the_problem(real_drills, db_path, clock, type_id):
    seeded = engine.generate(type_id, 3, 2)
    given = {name: np.asarray(v).tolist() for name, v in seeded.given.items()}
    problem = engine.from_given(type_id, given, 2)
    answers = solution_answers(problem)
    attempt = real_drills.record_attempt(problem, answers, engine.grade(problem, answers), 20_000)
    assert attempt.seed is None and set(attempt.given) == {"given", "params"}
    assert set(attempt.given["given"]) == set(problem.given)
    real_drills.db.close()
    again = reopen(db_path, clock)
    try:
        [read] = DrillService(again.db, clock).attempts()
        assert read == attempt
        rebuilt = DrillService(again.db, clock).rebuild(read)
    finally:
        again.db.close()
    for name, value in problem.solution.items():
        np.testing.assert_allclose(rebuilt.solution[name], value)


def test_a_mock_drill_with_the_real_engine(prepared, clock, study):
    mocks = MockService(prepared.db, clock)
    view = mocks.create(MockConfig(topics=["attention"], n_drill=2, seed=6))
    assert [q.kind for q in view.questions] == ["drill", "drill"]
    assert view.questions[0].item["parts"]  # the problem JSON for the screen
    problem = mocks.problem(view.mock_id, 0)
    outcome = mocks.answer_drill(view.mock_id, 0, {problem.parts[0].name: "[[1, 2"}, 30)
    assert outcome.format_error and outcome.question is None
    outcome = mocks.answer_drill(view.mock_id, 0, solution_answers(problem), 300)
    assert outcome.question.score == 1.0 and outcome.attempt_id is not None

    second = mocks.problem(view.mock_id, 1)
    names = [p.name for p in second.parts]
    partial = {names[0]: typed(second.solution[names[0]])}
    if len(names) > 1:
        partial[names[1]] = "[[1, 2"  # unreadable: counts as blank
    q = mocks.timeout(view.mock_id, 1, partial, 360)
    assert q.over_time and 0 < q.score < 1 and q.answer["answers"] == partial
    report = mocks.finish(view.mock_id)
    assert report.questions[0].score == 1.0


def test_a_consistent_no_mask_chain_rates_the_skill_card_again(real_drills):
    """causal_mask with S_masked = S and its softmax: A is carried, not right, and the
    diagnosed forgot_mask rates the skill Again although most cells earn credit."""
    problem = engine.generate("causal_mask", 2, 1)
    s = np.asarray(problem.given["S"], dtype=float)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    answers = {"S_masked": typed(s), "A": typed((e / e.sum(axis=1, keepdims=True)).round(3))}
    verdict = engine.grade(problem, answers)
    assert verdict.parts["A"].count(engine.CellStatus.CARRIED) > 0 and verdict.score > 0.5
    attempt = real_drills.record_attempt(problem, answers, verdict, 5_000)
    assert attempt.rating == 1  # Again
    assert attempt.verdict["correct"] is False and "carried" in str(attempt.verdict["parts"]["A"]["status"])


def test_a_mock_drill_with_a_diagnosed_mistake_rates_again(prepared, clock, study):
    """Most of the chain carried, but the scores were never scaled: the skill is missed."""
    mocks = MockService(prepared.db, clock)
    view = mocks.create(MockConfig(topics=["attention"], n_drill=1, seed=6))
    problem = mocks.problem(view.mock_id, 0)
    answers = {name: np.asarray(value, dtype=float) for name, value in problem.solution.items()}
    no_scaling = mistake_variants(problem).get("no_scaling")
    if no_scaling is None:
        pytest.skip("this seed's problem has no no-scaling variant")
    answers.update(no_scaling)
    outcome = mocks.answer_drill(view.mock_id, 0, {k: typed(v) for k, v in answers.items()}, 100)
    assert outcome.question.score >= 0.6  # a pass by score alone
    mocks.finish(view.mock_id)
    from quizapp.srs.drills import DrillService

    [attempt] = DrillService(prepared.db, clock).attempts()
    assert attempt.diagnosis and attempt.rating == 1  # Again
