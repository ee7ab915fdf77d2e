"""The type registry, problem generation and explicit-input mode."""

from __future__ import annotations

import numpy as np
import pytest

from quizapp.drill_types import DRILL_TYPES
from quizapp.engine import from_given, generate, list_types, problem_to_json

TYPE_IDS = [info.id for info in list_types()]


def test_registry_ids_equal_drill_types():
    assert tuple(TYPE_IDS) == DRILL_TYPES


def test_every_type_offers_three_difficulties_and_two_titles():
    for info in list_types():
        assert info.difficulties == (1, 2, 3)
        assert info.title_zh and info.title_en


@pytest.mark.parametrize("type_id", TYPE_IDS)
@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_generation_is_deterministic(type_id, difficulty):
    a, b = generate(type_id, 12345, difficulty), generate(type_id, 12345, difficulty)
    assert problem_to_json(a, solution=True) == problem_to_json(b, solution=True)
    assert a.seed == 12345 and a.difficulty == difficulty and a.type == type_id


@pytest.mark.parametrize("type_id", TYPE_IDS)
def test_seeds_give_varied_problems(type_id):
    seen = {repr(problem_to_json(generate(type_id, seed, 2))) for seed in range(12)}
    assert len(seen) >= 3


@pytest.mark.parametrize("type_id", TYPE_IDS)
@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_problem_fields_are_consistent(type_id, difficulty):
    problem = generate(type_id, 7, difficulty)
    assert [spec.name for spec in problem.parts] == list(problem.solution)
    for spec in problem.parts:
        value = problem.solution[spec.name]
        assert isinstance(value, np.ndarray) and value.shape == spec.shape
        assert spec.label("zh") and spec.label("en")
        if spec.integer:
            assert np.array_equal(value, np.round(value)), spec.name
        if not spec.allow_inf:
            assert np.isfinite(value).all(), spec.name
    for name, value in problem.given.items():
        assert isinstance(value, np.ndarray), name
    for hint in problem.hints:
        fns = {"exp_table": np.exp, "sqrt_table": np.sqrt, "sin_table": np.sin, "cos_table": np.cos}
        assert hint.kind in fns
        fn = fns[hint.kind]
        for x, fx in hint.rows:
            assert fx == pytest.approx(fn(x), rel=5e-4, abs=5e-5)  # 4 significant digits (eˣ), 4 decimals (√x)


def test_difficulty_scales_sizes():
    sizes = [generate("attention", 3, d).solution["S"].shape[0] for d in (1, 2, 3)]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]


@pytest.mark.parametrize("bad", [0, 4, -1, 1.5, True, "2"])
def test_bad_difficulty_is_rejected(bad):
    with pytest.raises(ValueError, match="difficulty"):
        generate("softmax", 1, bad)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_bad_seed_is_rejected(bad):
    with pytest.raises(ValueError, match="seed"):
        generate("softmax", bad, 1)


def test_unknown_type_is_rejected_with_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown problem type 'sofmax'.*softmax"):
        generate("sofmax", 1)
    with pytest.raises(ValueError, match="unknown problem type"):
        from_given("nope", {})


class TestFromGiven:
    def test_accepts_yaml_style_lists_with_inf_strings(self):
        problem = from_given("causal_mask", {"S": [[0, "-inf"], ["1/2", 2]]})
        assert problem.seed is None
        assert problem.given["S"][1, 0] == 0.5
        assert np.isneginf(problem.solution["S_masked"][0, 1])

    def test_accepts_matrix_text_and_arrays(self):
        a = from_given("scores", {"Q": "1 0; 0 1", "K": np.array([[1, 2], [3, 4]])})
        assert a.solution["S"].tolist() == [[1, 3], [2, 4]]

    def test_unknown_input_names_the_expected_ones(self):
        with pytest.raises(ValueError, match=r"unknown input 'Wq' for attention; it takes X, W_Q, W_K, W_V"):
            from_given("attention", {"X": [[1]], "Wq": [[1]], "W_K": [[1]], "W_V": [[1]]})

    def test_missing_input_is_named(self):
        with pytest.raises(ValueError, match="attention needs W_V"):
            from_given("attention", {"X": [[1]], "W_Q": [[1]], "W_K": [[1]]})

    @pytest.mark.parametrize("type_id, given, message", [
        ("attention", {"X": [[1, 0]], "W_Q": [[1, 0, 1]], "W_K": [[1], [0]], "W_V": [[1], [0]]}, "W_Q must have one row"),
        ("scores", {"Q": [[1, 0]], "K": [[1, 0, 1]]}, "same width d_k"),
        ("scores", {"Q": [[1, 0], [2]], "K": [[1, 0]]}, "different lengths"),
        ("scores", {"Q": [[[1]]], "K": [[1]]}, "at most 2 dimensions"),
        ("scores", {"Q": [[1, "x"]], "K": [[1, 0]]}, "cannot read"),
        ("scores", {"Q": [1, 0], "K": [[1, 0]]}, "must be a matrix"),
        ("causal_mask", {"S": [[1, 2, 3], [4, 5, 6]]}, "square"),
        ("causal_mask", {"S": [["-inf", "-inf"], [1, 2]]}, "at least one finite"),
        ("padding_mask", {"S": [1, 2, 3], "mask": [1, 0]}, "3 keys"),
        ("padding_mask", {"S": [1, 2, 3], "mask": [1, 0, 2]}, "only 1"),
        ("padding_mask", {"S": [1, 2, 3], "mask": [0, 0, 0]}, "keep at least one"),
        ("layernorm", {"x": [2, 2, 2]}, "constant"),
        ("layernorm", {"x": [1, 2, 3], "gamma": [1, 2]}, "length of x"),
        ("ffn", {"x": [1, 0], "W1": [[1, 0, 1]], "W2": [[1], [0], [1]]}, "W1 needs one row"),
        ("shapes", {"B": 2, "S": 5, "d_model": 10, "h": 4, "S_dec": 3, "S_enc": 4}, "must divide"),
        ("shapes", {"B": 2, "S": 5, "d_model": 8, "h": 2, "S_dec": 3}, "needs S_enc"),
        ("params", {"d_model": 8, "h": 2, "d_ff": 32, "bias": 2}, "bias must be"),
        ("memory", {"B": 1, "S": 8, "L": 1, "h": 2, "d_head": 4, "dtype": "fp13"}, "dtype must be"),
        ("memory", {"B": 1, "S": 8, "L": 1, "h": 2, "d_head": -4}, "positive integer"),
    ])
    def test_bad_shapes_and_values_get_clear_messages(self, type_id, given, message):
        with pytest.raises(ValueError, match=message):
            from_given(type_id, given)

    def test_scalar_types_take_params_in_given_or_params(self):
        a = from_given("shapes", {"B": 2, "S": 10, "d_model": 512, "h": 8, "S_dec": 5, "S_enc": 9})
        b = from_given("shapes", {}, params={"B": 2, "S": 10, "d_model": 512, "h": 8, "S_dec": "5", "S_enc": 9})
        assert problem_to_json(a, solution=True) == problem_to_json(b, solution=True)
        with pytest.raises(ValueError, match="unknown parameter 'd_ff'"):
            from_given("shapes", {}, params={"d_ff": 3})

    def test_optional_inputs_change_the_parts(self):
        with_v = from_given("causal_mask", {"S": [[1, 2], [3, 4]], "V": [[1, 0], [0, 1]]})
        without = from_given("causal_mask", {"S": [[1, 2], [3, 4]]})
        assert [p.name for p in with_v.parts] == ["S_masked", "A", "O"]
        assert [p.name for p in without.parts] == ["S_masked", "A"]


@pytest.mark.parametrize("type_id", TYPE_IDS)
@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_json_inputs_rebuild_the_same_problem(type_id, difficulty):
    """What `problem_to_json` shows (given + params, derived ones included) is enough to
    rebuild the problem with `from_given` — the store relies on this for "retry"."""
    original = generate(type_id, 11, difficulty)
    data = problem_to_json(original)
    rebuilt = from_given(type_id, {**data["given"], **data["params"]}, difficulty)
    assert problem_to_json(rebuilt, solution=True) == {**problem_to_json(original, solution=True), "seed": None}


def test_restated_derived_scalars_must_agree():
    given = {"X": [[1, 0], [0, 1]], "W_Q": [[1, 0], [1, 1]], "W_K": [[0, 1], [1, 0]], "W_V": [[1, 0], [0, 1]]}
    assert from_given("attention", {**given, "d_k": 2}).params["d_k"] == 2
    with pytest.raises(ValueError, match="d_k is derived from the inputs"):
        from_given("attention", {**given, "d_k": 3})
    with pytest.raises(ValueError, match="unknown input 'd_model'"):
        from_given("attention", {**given, "d_model": 2})
