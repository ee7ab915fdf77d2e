"""Five remarks of the expert review of 7 Dec (R1 #1 for q06, #5, #8, #10; R2 #5), each found in
the item's text in both languages, with the old wording gone, and recomputed where it is a
number or a formula:

* q06: low-rank attention (Linformer) also changes the complexity: with K and V projected to
  k rows the score matrix is S × k, so doubling S doubles it instead of quadrupling it;
* q12 and q29: PE(pos+k) is a linear function of PE(pos) (one rotation per sin/cos pair that
  depends only on k), not "a linear combination" of it, and the relative-position benefit was
  the authors' hypothesis (learned embeddings did as well, Table 3 (E));
* q04: longer vectors push the score further from zero: up when cosθ > 0, down when cosθ < 0;
* q03: a shared Q/K projection still runs and trains (not "can still be computed").
"""

from __future__ import annotations

import itertools

import numpy as np

from tests.content.bank import item as _item


def _works(item) -> list[str]:
    return [ref.work for ref in item.references]


# q06 ------------------------------------------------------------------------------------


def test_q06_names_low_rank_attention_among_what_changes_the_complexity():
    long = _item("q06").long_answer
    assert "稀疏、低秩（Linformer）或线性 Attention" in long.zh
    assert "only sparse, low-rank (Linformer) or linear attention changes" in long.en
    assert "稀疏/线性 Attention" not in long.zh
    assert "only sparse or linear attention" not in long.en
    assert "Linformer: Self-Attention with Linear Complexity" in _works(_item("q06"))


def test_a_linformer_projection_makes_the_score_matrix_grow_linearly():
    rng = np.random.default_rng(0)
    d, k = 16, 8

    def score_elements(s: int, low_rank: bool) -> int:
        q, key = rng.standard_normal((s, d)), rng.standard_normal((s, d))
        if low_rank:
            key = rng.standard_normal((k, s)) @ key  # E K: k × d, whatever S is
        return (q @ key.T).size

    assert score_elements(512, False) * 4 == score_elements(1024, False)
    assert score_elements(512, True) * 2 == score_elements(1024, True)


# q12 and q29 ----------------------------------------------------------------------------


def _sinusoidal(positions: np.ndarray, d: int) -> np.ndarray:
    freqs = 1.0 / 10000 ** (np.arange(0, d, 2) / d)
    pe = np.zeros((len(positions), d))
    pe[:, 0::2] = np.sin(positions[:, None] * freqs)
    pe[:, 1::2] = np.cos(positions[:, None] * freqs)
    return pe


def test_pe_of_pos_plus_k_is_a_rotation_of_pe_of_pos_not_a_multiple_of_it():
    d, k = 8, 5
    positions = np.arange(40, dtype=float)
    pe, shifted = _sinusoidal(positions, d), _sinusoidal(positions + k, d)
    freqs = 1.0 / 10000 ** (np.arange(0, d, 2) / d)
    rotation = np.zeros((d, d))
    for i, w in enumerate(freqs):
        c, s = np.cos(w * k), np.sin(w * k)
        rotation[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, s], [-s, c]]
    # one matrix, built from k alone, maps every position: a linear function of PE(pos)
    assert np.allclose(pe @ rotation.T, shifted)
    assert np.allclose(rotation @ rotation.T, np.eye(d))
    # the same map found by least squares from the positions alone
    fitted, *_ = np.linalg.lstsq(pe, shifted, rcond=None)
    assert np.allclose(pe @ fitted, shifted)
    # "a linear combination of PE(pos)", read literally, is c·PE(pos): false
    for p in (0, 7, 23):
        assert np.linalg.matrix_rank(np.stack([pe[p], shifted[p]])) == 2


def test_q12_calls_the_relative_position_benefit_the_authors_hypothesis():
    long = _item("q12").long_answer
    assert "编码是位置 $pos$ 编码的线性变换" in long.zh and "is a linear function of the encoding" in long.en
    assert "作者据此**假设**" in long.zh and "the authors **hypothesised**" in long.en
    assert "可学习位置编码的结果几乎相同" in long.zh and "learned positional embeddings gave nearly identical" in long.en
    assert "Table 3 第 (E) 行" in long.zh and "Table 3, row (E)" in long.en
    assert "线性组合" not in long.zh and "linear combination" not in long.en
    assert "死记绝对位置" not in long.zh and "memorising absolute" not in long.en
    assert any("Table 3, row (E)" in ref.where for ref in _item("q12").references)


def test_q29_says_linear_function_and_keeps_the_benefit_a_hope():
    long = _item("q29").long_answer
    assert "是 $PE_{pos}$ 的线性变换（每对 sin/cos 旋转一个只取决于 $k$ 的角度）" in long.zh
    assert "a linear function of $PE_{pos}$ (each sin/cos pair is rotated by an angle that depends only on $k$)" in long.en
    assert "作者希望借此便于学习相对位置" in long.zh and "the authors hoped would make relative positions easy" in long.en
    assert "线性组合" not in long.zh and "linear combination" not in long.en
    assert "which helps learn relative positions" not in long.en


# q04 ------------------------------------------------------------------------------------


def test_longer_vectors_move_the_score_away_from_zero_in_the_sign_of_cos():
    rng = np.random.default_rng(1)
    for _ in range(200):
        q, k = rng.standard_normal(4), rng.standard_normal(4)
        cos = q @ k / (np.linalg.norm(q) * np.linalg.norm(k))
        score, longer = q @ k, (2 * q) @ (1.5 * k)
        assert abs(longer) > abs(score)
        assert (longer > score) == (cos > 0)
    # fixed lengths: the better aligned, the higher the score (also for opposed vectors)
    angles = np.linspace(0, np.pi, 7)
    scores = [np.array([3.0, 0.0]) @ (2 * np.array([np.cos(a), np.sin(a)])) for a in angles]
    assert all(a > b for a, b in itertools.pairwise(scores))


def test_q04_scopes_the_length_effect_by_the_sign_of_cos():
    answer = _item("q04").answer
    assert "向量越长，分数离 0 越远（cosθ > 0 时更高，cosθ < 0 时更负）" in answer.zh
    assert "longer vectors move it further from zero (up when cosθ > 0, down when cosθ < 0)" in answer.en
    assert "方向越对齐、向量越长，分数越高" not in answer.zh
    assert "the better aligned and the longer, the higher" not in answer.en


# q03 ------------------------------------------------------------------------------------


def test_a_shared_qk_projection_runs_and_trains():
    rng = np.random.default_rng(2)
    x, target = rng.standard_normal((4, 5)), rng.standard_normal((4, 5))
    w, w_v = 0.3 * rng.standard_normal((5, 3)), rng.standard_normal((5, 5))

    def loss(shared):
        scores = (x @ shared) @ (x @ shared).T / np.sqrt(3)
        assert np.allclose(scores, scores.T)  # symmetric raw scores: the price of sharing
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        weights /= weights.sum(axis=1, keepdims=True)
        return float(((weights @ x @ w_v - target) ** 2).mean())

    start = loss(w)
    for _ in range(30):
        grad = np.zeros_like(w)
        for index in np.ndindex(w.shape):
            step = np.zeros_like(w)
            step[index] = 1e-6
            grad[index] = (loss(w + step) - loss(w - step)) / 2e-6
        w = w - 0.05 * grad
    assert loss(w) < 0.75 * start


def test_q03_says_a_shared_projection_runs_and_trains():
    item = _item("q03")
    point = item.key_points[4].text
    assert "共享投影照样能运行、能训练" in item.answer.zh
    assert "A shared projection still runs and trains" in item.answer.en
    assert point.zh.startswith("共享投影也能运行和训练") and point.en.startswith("A shared projection still runs and trains")
    assert "共享投影可以计算" not in item.answer.zh and "can still be computed" not in item.answer.en
    assert "也能计算" not in point.zh and "still computes" not in point.en
    assert "Reformer: The Efficient Transformer" in _works(item)
