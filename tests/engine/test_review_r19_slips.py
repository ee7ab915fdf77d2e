"""Review R19 #6: four classic slips that were graded wrong with no diagnosis now name their
mistake. Each slipped answer is built here with NumPy from the problem's givens (not from the
engine's own mistake variants), as the reviewer built them: difficulty 2, seeds 0 and 1."""

from __future__ import annotations

import numpy as np
import pytest

from quizapp.engine import generate, grade


def named(problem, answers) -> list[tuple[str, str]]:
    return [(d.part, d.mistake) for d in grade(problem, answers).diagnosis]


@pytest.mark.parametrize("seed", [0, 1])
def test_dropout_mask_read_with_one_as_drop(seed):
    problem = generate("dropout", seed, 2)
    x, mask, p = problem.given["x"], problem.given["mask"], float(problem.params["p"])
    answers = {"y_train": np.round(x * (1 - mask) / (1 - p), 3), "y_eval": x}
    assert named(problem, answers) == [("y_train", "dropout_mask_inverted")]
    verdict = grade(problem, answers)
    assert verdict.diagnosis[0].message("en").startswith("Read the mask the wrong way round: 1 keeps a unit")
    assert verdict.diagnosis[0].message("zh").startswith("把 mask 读反了")


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("future", ["zero", "bidirectional"])
def test_alibi_future_left_unmasked(seed, future):
    problem = generate("alibi", seed, 2)
    m = problem.solution["m"].item()
    n = int(problem.params["n"])
    i, j = np.indices((n, n))
    bias = -m * np.abs(i - j) if future == "bidirectional" else np.where(j > i, 0.0, -m * (i - j))
    answers = {"m": round(m, 4), "bias": np.round(bias, 3)}
    assert named(problem, answers) == [("bias", "alibi_future_not_masked")]
    assert grade(problem, answers).diagnosis[0].message("en").startswith("Left the future unmasked")


def _rot(x, angle):
    return np.array([x[0] * np.cos(angle) - x[1] * np.sin(angle), x[0] * np.sin(angle) + x[1] * np.cos(angle)])


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("moved", ["q", "k"])
def test_rope_dot_shifted_with_only_one_side_moved(seed, moved):
    problem = generate("rope", seed, 2)
    q, k = problem.given["q"], problem.given["k"]
    m, n, shift, theta = (float(problem.params[key]) for key in ("m", "n", "shift", "theta"))
    q_pos, k_pos = (m + shift, n) if moved == "q" else (m, n + shift)
    wrong = float(_rot(q, q_pos * theta) @ _rot(k, k_pos * theta))
    assert abs(wrong - problem.solution["dot_shifted"].item()) > 0.01  # the slip shows at this seed
    answers = {**{name: np.round(value, 3) for name, value in problem.solution.items()}, "dot_shifted": round(wrong, 3)}
    assert named(problem, answers) == [("dot_shifted", "rope_shift_one_side")]
    message = grade(problem, answers).diagnosis[0].message("en")
    assert message.startswith("Shifted only one side") and "n − m is unchanged" in message


@pytest.mark.parametrize("seed", [0, 1])
def test_positional_encoding_with_every_sine_before_every_cosine(seed):
    problem = generate("positional_encoding", seed, 2)
    pos, d = problem.params["pos"], int(problem.params["d"])
    theta = pos / 10000.0 ** (2 * np.arange(d // 2) / d)
    answers = {"theta": np.round(theta, 4), "PE": np.round(np.concatenate([np.sin(theta), np.cos(theta)]), 3)}
    assert named(problem, answers) == [("PE", "pe_concat_layout")]
    assert grade(problem, answers).diagnosis[0].message("en").startswith("Laid out every sine, then every cosine")
