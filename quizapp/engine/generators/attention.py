"""`attention`: the whole chain X → Q, K, V → S → S/√d_k → A → O (seed 002 §7.12).

Given X, W_Q, W_K, W_V; parts Q, K, V, S, S_scaled, A, O, each graded, later ones with
follow-through (a slip in S does not cost A and O). d_k = columns of W_Q: the classic 2 at
difficulty 1–2 (with the eˣ table), 4 at difficulty 3. Mistakes: `transposed_projection`
(X·Wᵀ, square W only), `no_scaling`, `divided_by_dk`, `transposed_scores`,
`softmax_wrong_axis`, `used_k_not_v`, `transposed_attention` (AᵀV).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from quizapp.engine.explain import matmul_lines, scale_lines, scores_lines, softmax_lines, weighted_sum_lines
from quizapp.engine.family import Family, Stage
from quizapp.engine.generators import toy
from quizapp.engine.generators.common import all_int, answer_rule, exp_hint, part
from quizapp.engine.generators.qkv import QKVFamily, project
from quizapp.engine.generators.scaled_scores import scale_stage
from quizapp.engine.generators.scores import score_stage
from quizapp.engine.generators.softmax import softmax_stage
from quizapp.engine.generators.weighted_sum import output_stage
from quizapp.engine.sampling import MAX_TRIES, distinct_rows, draw_below
from quizapp.engine.text import mat, shape_text
from quizapp.i18n import Translator

# Difficulty 1-2: the textbook's setting (seed 002 §7.12, see `toy`): d_model = d_k = d_v = 2.
# Difficulty 3: d_model = 3, d_k = 4 (√d_k = 2), entries -1/0/1 with sparse weights.
NONZERO_ROWS3 = np.array([r for r in itertools.product((-1.0, 0.0, 1.0), repeat=3) if any(r)])
W_SPARSE = np.array([-1.0, 0, 0, 1])  # W_Q, W_K: sparse, so that scores stay small
W_DENSE = np.array([-1.0, 0, 1])  # W_V: dense, so that tokens get different values
# one generator call per attempt: an ordered choice of 3 distinct rows of X, then the cells
# of W_Q, W_K, W_V
_ROWS = len(NONZERO_ROWS3)
_SPARSE_HIGHS = np.array([_ROWS, _ROWS - 1, _ROWS - 2] + [len(W_SPARSE)] * 24)
TOKENS = {1: 2, 2: 3, 3: 3}
MAX_SCALED = 3.0  # keeps eˣ below ~20, friendly for a hand-made table


def _good(x: np.ndarray, wq: np.ndarray, wk: np.ndarray, wv: np.ndarray) -> np.ndarray:
    """Which candidates of a batch (axis 0) make a good problem: small scores for the eˣ
    table, S not symmetric (so KQᵀ is a different answer), W_K ≠ W_V (so A·K differs from
    A·V), and distinct tokens keeping distinct rows in X, Q, K, V and S.

    Vectorised, for enumerating the toy inputs once; `_pleasant` is the same test for one
    candidate, fast enough to run per draw (a test checks that the two agree)."""
    q, k, v = x @ wq, x @ wk, x @ wv
    s = q @ k.transpose(0, 2, 1)
    good = np.abs(s).max(axis=(1, 2)) <= MAX_SCALED * np.sqrt(wq.shape[2])
    good &= (s != s.transpose(0, 2, 1)).any(axis=(1, 2))
    if wk.shape == wv.shape:
        good &= (wk != wv).any(axis=(1, 2))
    first, second = np.array(list(itertools.combinations(range(x.shape[1]), 2))).T
    for values in (x, q, k, v, s):  # every pair of rows differs somewhere
        good &= (values[:, first] != values[:, second]).any(axis=2).all(axis=1)
    return good


def _pleasant(x: np.ndarray, wq: np.ndarray, wk: np.ndarray, wv: np.ndarray) -> bool:
    """`_good` for a single candidate."""
    return _pleasant_scores(x, wq, wk) and _pleasant_values(x, wk, wv)


def _pleasant_scores(x: np.ndarray, wq: np.ndarray, wk: np.ndarray) -> bool:
    q, k = x @ wq, x @ wk
    s = q @ k.T
    if np.abs(s).max() > MAX_SCALED * math.sqrt(wq.shape[1]) or (s == s.T).all():
        return False
    return distinct_rows(x, q, k, s)


def _pleasant_values(x: np.ndarray, wk: np.ndarray, wv: np.ndarray) -> bool:
    return not (wk.shape == wv.shape and (wk == wv).all()) and distinct_rows(x @ wv)


def _small_inputs(n: int, order: int, iq: int, ik: int, iv: int):
    return toy.tokens(order, n), toy.INVERTIBLE01[iq], toy.INVERTIBLE01[ik], toy.INVERTIBLE01[iv]


@functools.cache
def _good_small_choices(n: int) -> np.ndarray:
    """Every good (token order, W_Q, W_K, W_V) choice of toy inputs.

    There are only 6⁴ choices, so they are checked once, all at a time, instead of
    rejection-sampling on every call.
    """
    m = len(toy.INVERTIBLE01)
    choices = np.array(list(itertools.product(range(len(toy.ORDERS[n])), range(m), range(m), range(m))))
    x = toy.ROWS01[toy.ORDERS[n][choices[:, 0]]]
    w = [toy.INVERTIBLE01[choices[:, i]] for i in (1, 2, 3)]
    return choices[_good(x, *w)]


def _sample_sparse(rng):
    """Difficulty 3: draw X, W_Q, W_K until the scores are pleasant, then W_V until the
    values are (two stages, so that a dull V does not throw away good scores)."""
    for _ in range(MAX_TRIES):
        idx = draw_below(rng, _SPARSE_HIGHS)
        remaining = list(range(_ROWS))
        rows = [remaining.pop(i) for i in idx[:3]]  # an ordered choice of 3 distinct tokens
        x = NONZERO_ROWS3[rows]
        wq, wk = W_SPARSE[idx[3:15]].reshape(3, 4), W_SPARSE[idx[15:27]].reshape(3, 4)
        if _pleasant_scores(x, wq, wk):
            break
    for _ in range(MAX_TRIES):
        wv = W_DENSE[rng.integers(0, len(W_DENSE), size=(3, 2))]
        if _pleasant_values(x, wk, wv):
            break
    return x, wq, wk, wv


STAGES = (  # shared by every attention problem: they depend on nothing but names
    Stage("Q", ("X", "W_Q"), project), Stage("K", ("X", "W_K"), project), Stage("V", ("X", "W_V"), project),
    Stage("S", ("Q", "K"), score_stage), Stage("S_scaled", ("S", "d_k"), scale_stage),
    Stage("A", ("S_scaled",), softmax_stage), Stage("O", ("A", "V", "K"), output_stage),
)


@functools.lru_cache(maxsize=64)
def _specs(n: int, d_k: int, d_v: int, integer: bool) -> tuple:
    return (part("Q", (n, d_k), integer=integer), part("K", (n, d_k), integer=integer),
            part("V", (n, d_v), integer=integer), part("S", (n, n), integer=integer),
            part("S_scaled", (n, n)), part("A", (n, n)), part("O", (n, d_v)))


class AttentionFamily(Family):
    id = "attention"
    title_zh = "完整 Self-Attention 手算"
    title_en = "Full self-attention by hand"
    required = ("X", "W_Q", "W_K", "W_V")
    mistake_ids = ("transposed_projection", "no_scaling", "divided_by_dk", "transposed_scores", "softmax_wrong_axis",
                   "used_k_not_v", "transposed_attention")

    def sample(self, rng, difficulty):
        if difficulty < 3:
            n = TOKENS[difficulty]
            choices = _good_small_choices(n)
            x, wq, wk, wv = _small_inputs(n, *choices[rng.integers(len(choices))])
        else:
            x, wq, wk, wv = _sample_sparse(rng)
        return {"X": x, "W_Q": wq, "W_K": wk, "W_V": wv}, {}

    def check(self, given, params):
        QKVFamily().check(given, params)

    def derive(self, given, params):
        return {"d_k": int(given["W_Q"].shape[1])}

    def stages(self, given, params):
        return STAGES

    def part_specs(self, given, params):
        n = given["X"].shape[0]
        return list(_specs(n, given["W_Q"].shape[1], given["W_V"].shape[1], all_int(*given.values())))

    def hints(self, env):
        return exp_hint(env["S_scaled"])

    def prompt(self, problem, lang):
        t = Translator(lang)
        n, d_model = problem.given["X"].shape
        return t("engine.attention.prompt", n=n, d_model=d_model, d_k=problem.params["d_k"], rule=answer_rule(t))

    def steps(self, problem, lang):
        return attention_steps(problem, Translator(lang))


def attention_steps(problem, t: Translator) -> list[str]:
    g, env = problem.given, problem.value
    lines = [t("engine.attention.step_projections")]
    for name in ("Q", "K", "V"):
        lines += matmul_lines(t, name, g["X"], g[f"W_{name}"], "X", f"W_{name}")
    lines.append(t("engine.attention.step_scores"))
    lines += scores_lines(t, env["Q"], env["K"])
    lines.append(t("engine.attention.step_scale"))
    lines += scale_lines(t, env["S"], problem.params["d_k"], env["S_scaled"])
    lines.append(t("engine.attention.step_softmax"))
    lines += softmax_lines(t, env["S_scaled"], env["A"])
    lines.append(t("engine.attention.step_values"))
    lines += weighted_sum_lines(t, env["A"], env["V"])
    shapes = " → ".join(f"({shape_text(env[name].shape).replace('×', ',')})"
                        for name in ("X", "Q", "S", "S_scaled", "A", "O"))
    lines.append(t("engine.attention.shapes", shapes=shapes, O=mat(env["O"])))
    return lines
