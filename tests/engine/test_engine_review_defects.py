"""The reproducers of the December 2026 engine review (../shared/reviews/engine-2026-12.md),
one test per defect; D1, D3 and D4 are in test_engine_rule.py."""

from __future__ import annotations

import re

import numpy as np

from quizapp.engine import CellStatus, from_given, generate, grade
from quizapp.engine.family import problem_prompt, problem_steps
from quizapp.engine.rule import BOUND


def test_d2_the_shifted_dot_written_as_the_dot_is_right_and_follows_the_users_dot():
    problem = generate("rope", 34, 3)
    answers = {"q_rot": "1.139 -2.589", "k_rot": "-3.134 -1.783", "dot": "1.047", "dot_shifted": "1.047"}
    assert grade(problem, answers).correct
    # a slip in q_rot carries into dot, and the same number in dot_shifted is carried, not wrong
    slipped = {**answers, "q_rot": "1.239 -2.589", "dot": f"{1.239 * -3.134 + 2.589 * 1.783:.3f}"}
    slipped["dot_shifted"] = slipped["dot"]
    verdict = grade(problem, slipped)
    assert verdict.parts["dot"].status == CellStatus.CARRIED
    assert verdict.parts["dot_shifted"].status == CellStatus.CARRIED


def test_d5_noam_tables_give_the_root_of_a_warmup_that_is_no_square():
    problem = generate("noam_lr", 12, 3)
    assert problem.params["warmup"] == 4000
    roots = dict(next(h.rows for h in problem.hints if h.kind == "sqrt_table"))
    assert roots[4000] == 63.2456
    answers = {"lr_before": "7.905", "lr_peak": "19.763", "lr_after": "6.25"}
    assert grade(problem, answers).count(CellStatus.WRONG) == 2  # the review's figures are wrong
    root = roots[4000]  # by hand from the table: (1/8)·1600/(4000·63.2456)
    by_hand = {"lr_before": f"{1600 / (8 * 4000 * root) / 1e-4:.3f}", "lr_peak": f"{1 / (8 * root) / 1e-4:.3f}",
               "lr_after": "6.25"}
    assert grade(problem, by_hand).correct
    assert "√4000" in problem_steps(problem, "en")[0]


def test_d6_the_rope_worked_solution_numbers_grade_right():
    problem = generate("rope", 7, 2)
    steps = problem_steps(problem, "en")
    # the sin/cos the steps print, used as a hand-solver would: they are the table's 4 decimals
    pairs = [tuple(float(v.replace("−", "-")) for v in re.findall(r"(?:cos|sin) [=≈] (\S+?)[,\s]", line))
             for line in steps[:2]]
    q, k = problem.given["q"], problem.given["k"]
    rot = [np.array([x[0] * c - x[1] * s, x[0] * s + x[1] * c]) for x, (c, s) in zip((q, k), pairs)]
    answers = {"q_rot": rot[0], "k_rot": rot[1], "dot": float(rot[0] @ rot[1]), "dot_shifted": float(rot[0] @ rot[1])}
    assert grade(problem, {n: np.round(np.asarray(v), 3) for n, v in answers.items()}).correct
    assert "cos ≈ 0.8776" in steps[0]


def test_d7_rounded_values_are_not_printed_as_equalities():
    alibi = "\n".join(problem_steps(generate("alibi", 4, 2), "en"))
    assert "2^−4 = 0.0625" in alibi
    layernorm = "\n".join(problem_steps(generate("layernorm", 12, 2), "en"))
    assert "24.75/4 = 6.1875" in layernorm and "σ = √6.1875 ≈ 2.4875" in layernorm
    noam = problem_steps(generate("noam_lr", 12, 3), "en")[0]
    assert "1/(4000·√4000) ≈ 1/(4000·63.2456)" in noam
    attention = "\n".join(problem_steps(generate("attention", 3, 3), "en"))
    assert "e^[" in attention and not re.search(r"e\^\[[^\]]*\] = ", attention.replace("e^[0, 0]", ""))
    assert "head = " in problem_prompt(generate("alibi", 4, 2), "en") and "2^(−8·head/H)" in problem_prompt(generate("alibi", 4, 2), "en")
    assert "θ_i = pos/10000^(2i/d) = 3/[1, 10, 100, 1000]" in "\n".join(problem_steps(generate("positional_encoding", 1, 2), "en"))


def test_d8_a_tied_argmax_accepts_every_tied_column_and_names_no_mistake():
    problem = from_given("symmetric_scores", {"X": [[1, 0], [1, 0], [0, 1]]})
    for argmax in ("1 2 3", "1 1 3", "2 1 3", "2 2 3"):
        verdict = grade(problem, {"S": "1 1 0; 1 1 0; 0 0 1", "argmax": argmax})
        assert verdict.correct and not verdict.diagnosis, argmax
    verdict = grade(problem, {"S": "1 1 0; 1 1 0; 0 0 1", "argmax": "3 2 3"})
    assert verdict.parts["argmax"].status[0] == CellStatus.WRONG


def test_d9_a_right_factor_rules_out_the_group_size_mistake():
    verdict = grade(generate("gqa_kv", 0, 1), {"kv_mha": "32", "kv_mqa": "4", "kv_gqa": "16", "factor": "2"})
    assert {d.mistake for d in verdict.diagnosis} == {"kv_forgot_two"}
    # with the factor that caching h/g heads gives (64/16 = 4), that mistake is named
    verdict = grade(generate("gqa_kv", 0, 1), {"kv_mha": "64", "kv_mqa": "8", "kv_gqa": "16", "factor": "4"})
    assert "gqa_group_size_as_heads" in {d.mistake for d in verdict.diagnosis}


def test_d10_b2_left_out_alone_is_named():
    verdict = grade(generate("ffn", 1, 1), {"h": "0 -1 1 1", "r": "0 0 1 1", "y": "-1 0"})
    assert [(d.part, d.mistake) for d in verdict.diagnosis] == [("y", "forgot_bias")]


def test_d11_rotating_the_wrong_way_at_position_zero_is_named():
    problem = generate("rope", 2, 1)
    assert problem.params["m"] == 0
    verdict = grade(problem, {"q_rot": "2 0", "k_rot": "0.540 0.841", "dot": "1.081", "dot_shifted": "-1.980"})
    assert [(d.part, d.mistake) for d in verdict.diagnosis] == [("dot_shifted", "rope_wrong_direction")]


def test_one_head_has_no_head_axis():
    problem = generate("multi_head", 0, 1)
    b, s = problem.params["B"], problem.params["S"]
    assert problem.solution["Q_head_shape"].tolist() == [b, s, problem.solution["d_head"]]
    # the label names one head without giving the answer's template away (review R14 #9);
    # the worked steps show it
    assert problem.part("Q_head_shape").label("en") == "shape of one head's Q"
    assert any("[B, S, d_head] = " in line for line in problem_steps(problem, "en"))


def test_the_root_table_does_not_give_the_variance_away():
    for seed in range(30):
        problem = generate("layernorm", seed, 2)
        rows = [x for h in problem.hints if h.kind == "sqrt_table" for x, _ in h.rows]
        if rows:
            assert len(rows) >= 3, seed  # the variance's row among its neighbours'


def test_the_carried_share_is_worded_as_points(tmp_path):
    from quizapp.cli.drill import _points

    assert _points(0.10714) == "10.7" and _points(0.75) == "75"
    from quizapp.i18n import Translator

    line = Translator("en")("engine.cli.score_carried", score="75%", verdict="not all right", points="75",
                            carried="10.7")
    assert "10.7 of the 75 points come from ↳ carried cells" in line


def test_hint_table_rows_line_up():
    from quizapp.engine.types import Hint
    from quizapp.tui.widgets.matrix_view import hint_tables

    text = hint_tables([Hint("sin_table", [(0.5, 0.4794), (1.0, 0.8415)])], lambda kind: kind).plain
    x_row, f_row = text.splitlines()[1:3]
    assert len(x_row) == len(f_row)
    assert x_row.index("0.5") + len("0.5") == f_row.index("0.4794") + len("0.4794")


def test_the_bound_is_what_the_readme_states():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert f"never more than **{BOUND:.3f}** from the exact" in readme
