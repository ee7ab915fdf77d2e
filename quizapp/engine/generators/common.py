"""Small helpers the family modules share: integrality, part labels, eˣ hints, prompt tails."""

from __future__ import annotations

import functools
import math

import numpy as np

from quizapp.engine.ops import exp_table
from quizapp.engine.types import Hint, PartSpec
from quizapp.i18n import Translator

_INFINITIES = (math.inf, -math.inf)


def all_int(*arrays: np.ndarray) -> bool:
    """True when every value is an integer (or ±∞), so that products of them must be typed exactly.

    Plain Python over the cells: the arrays are tiny and this runs for every generated problem."""
    for a in arrays:
        if a is not None and a.dtype.kind == "f":  # other kinds (int, bool) are integers
            for v in a.ravel().tolist():
                if not (v.is_integer() or v in _INFINITIES):
                    return False
    return True


LABELS = {
    "Q": ("查询矩阵 Q", "queries Q"),
    "K": ("键矩阵 K", "keys K"),
    "V": ("值矩阵 V", "values V"),
    "S": ("打分矩阵 S = QKᵀ", "scores S = QKᵀ"),
    "S_scaled": ("缩放后的分数 S/√d_k", "scaled scores S/√d_k"),
    "S_masked": ("加 mask 后的分数", "masked scores"),
    "A": ("注意力权重 A（逐行 softmax）", "attention weights A (row-wise softmax)"),
    "O": ("输出 O = AV", "output O = AV"),
}


def part(name: str, shape: tuple[int, ...], *, integer: bool = False, allow_inf: bool = False,
         zh: str | None = None, en: str | None = None) -> PartSpec:
    return _part(name, tuple(int(n) for n in shape), bool(integer), allow_inf, zh, en)


@functools.lru_cache(maxsize=4096)
def _part(name: str, shape: tuple[int, ...], integer: bool, allow_inf: bool, zh: str | None,
          en: str | None) -> PartSpec:
    # PartSpecs are immutable and few distinct ones exist: share them instead of rebuilding.
    label_zh, label_en = LABELS.get(name, (name, name))
    return PartSpec(name, shape, allow_inf, integer, zh or label_zh, en or label_en)


def exp_hint(values: np.ndarray) -> list[Hint]:
    return [Hint("exp_table", exp_table(values))]


def answer_rule(t: Translator, integer_only: bool = False) -> str:
    return t("engine.answer_rule_integers") if integer_only else t("engine.answer_rule")
