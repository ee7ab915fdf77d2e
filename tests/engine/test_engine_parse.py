"""The answer parser: every layout users type, full-width input, and located errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from quizapp.engine import MAX_ANSWER_CHARS, AnswerFormatError, format_answer, parse_answer

M22 = [[1.0, 0.5], [-2.0, 0.25]]


@pytest.mark.parametrize("text", [
    "1 0.5\n-2 0.25",
    "1, 0.5\n-2, 0.25",
    "1 0.5; -2 0.25",
    "1,0.5;-2,.25",
    "[[1, 0.5], [-2, 0.25]]",
    "[[1,0.5],[-2,0.25]]",
    "[1 0.5; -2 0.25]",
    "[1, 0.5]\n[-2, 0.25]",
    "[1 0.5] [-2 0.25]",
    "((1, 1/2), (-2, 1/4))",
    "  1   0.5  \n\n  -2  0.25  \n",
    "1 0.5 -2 0.25",  # every cell on one line, row by row
    "1 50% -2 25%",
    "1 0.5\r\n-2 0.25",
    "1\t0.5\n-2\t0.25",
    "[[1, 0.5],\n [-2, 0.25]]",
    '[["1", "0.5"], ["-2", "0.25"]]',
])
def test_layouts(text):
    assert parse_answer(text, (2, 2)).tolist() == M22


@pytest.mark.parametrize("text", [
    "１　０．５\n－２　０．２５",  # full-width digits, ideographic space
    "1，0.5；-2，0.25",
    "［1，0.5］［－2，0.25］",
    "【1、0.5】【−2、0.25】",  # IME brackets and enumeration comma, U+2212 minus
    "（（1，1／2），（－2，1／4））",
    "1 0。5\n-2 0。25",  # 。 typed as the decimal point
    "\u22122/1 0.5; \u22122 .25".replace("\u22122/1", "1"),
])
def test_full_width_and_chinese_punctuation(text):
    assert parse_answer(text, (2, 2)).tolist() == M22


@pytest.mark.parametrize("text, value", [
    ("-inf", -math.inf), ("−∞", -math.inf), ("-∞", -math.inf), ("\u2212inf", -math.inf), ("∞", math.inf),
    ("+inf", math.inf), ("inf", math.inf), ("-INF", -math.inf), ("－∞", -math.inf), ("-infinity", -math.inf),
])
def test_infinities_where_allowed(text, value):
    assert parse_answer(f"1 {text}", (2,), allow_inf=True)[1] == value


def test_masked_matrix():
    got = parse_answer("0 -inf -inf; 0.707 0.707 −∞; 0.707 1.414 2.121", (3, 3), allow_inf=True)
    assert np.isneginf(got[np.triu_indices(3, 1)]).all() and got[2, 2] == 2.121


@pytest.mark.parametrize("text, value", [
    ("0.5", 0.5), ("[0.5]", 0.5), ("[[0.5]]", 0.5), ("1/3", 1 / 3), ("-2/4", -0.5), ("66.5%", 0.665),
    (".5", 0.5), ("5.", 5.0), ("1e-3", 0.001), ("+3", 3.0), ("  7 ", 7.0), ("２", 2.0),
])
def test_scalars(text, value):
    assert float(parse_answer(text, ())) == pytest.approx(value)


def test_vectors_as_a_row_or_a_column():
    assert parse_answer("2 8 5 64", (4,)).tolist() == [2, 8, 5, 64]
    assert parse_answer("2\n8\n5\n64", (4,)).tolist() == [2, 8, 5, 64]
    assert parse_answer("[2, 8, 5, 64]", (4,)).tolist() == [2, 8, 5, 64]


def located(text, shape, allow_inf=False):
    with pytest.raises(AnswerFormatError) as info:
        parse_answer(text, shape, allow_inf)
    return info.value


def test_unreadable_cell_names_row_and_column():
    err = located("1 2 3\n4 5 abc\n7 8 9", (3, 3))
    assert (err.row, err.col) == (2, 3)
    assert err.message_zh == "第 2 行第 3 列：无法识别 'abc'"
    assert err.message_en == "row 2, column 3: cannot read 'abc'"


def test_wrong_shape_messages():
    err = located("1 2\n3 4\n5 6", (3, 3))
    assert err.message_zh == "应为 3×3，实际 3×2" and err.message_en == "expected 3×3, got 3×2"
    err = located("1 2 3\n4 5 6\n7 8", (3, 3))
    assert err.row == 3 and err.message_zh == "第 3 行：这一行有 2 个数，应为 3 个"
    assert located("1 2 3", (4,)).message_en == "expected 4 numbers, got 3"


def test_transposed_shape_names_the_likely_slip():
    """Non-square scores typed as KQᵀ: the shape error says rows and columns are swapped."""
    err = located("1 2\n3 4\n5 6", (2, 3))
    assert err.message_zh.startswith("应为 2×3，实际 3×2") and "KQᵀ" in err.message_zh
    assert "swapped" in err.message_en
    assert "swapped" not in located("1 2\n3 4\n5 6", (3, 3)).message_en
    assert located("1 2", ()).message_zh == "应为 1 个数，实际 2 个"
    assert "one row of 4" in located("1 2; 3 4", (4,)).message_en


@pytest.mark.parametrize("text, needle", [
    ("1 inf", "∞ is not allowed"),
    ("1 1/0", "divides by zero"),
    ("1 1e999", "too large"),
    ("1 nan", "cannot read 'nan'"),
    ("1 1_000", "cannot read '1_000'"),
    ("1 0x10", "cannot read"),
    ("1 2+3", "cannot read '2+3'"),
    ("1 √2", "cannot read '√2'"),
])
def test_cell_errors(text, needle):
    err = located(text, (2,))
    assert needle in err.message_en and (err.row, err.col) == (1, 2)


@pytest.mark.parametrize("text, needle", [
    ("", "empty"), ("   \n ; ", "empty"), ("[]", "empty"), ("[[1, 2], [3, 4]", "missing ']'"),
    ("[1, 2]]", "unmatched ']'"), ("[[[1]]]", "nest at most two deep"), ("1 [2, 3]", "outside the brackets"),
])
def test_structure_errors(text, needle):
    assert needle in located(text, (2,)).message_en


def test_scalar_errors_have_no_location():
    err = located("abc", ())
    assert (err.row, err.col) == (None, None) and err.message_en == "cannot read 'abc'"


def test_input_is_bounded():
    err = located("1 " * MAX_ANSWER_CHARS, (2,))
    assert "too long" in err.message_en and f"{MAX_ANSWER_CHARS}" in err.message_zh
    deep = "[" * 5000 + "]" * 5000
    assert "deep" in located(deep, (2,)).message_en


def test_format_answer_round_trips():
    value = np.array([[0.0, -np.inf], [1 / 3, 2.5]])
    text = format_answer(value)
    assert text == "0 -inf\n0.333 2.5"
    assert parse_answer(text, (2, 2), allow_inf=True)[1, 0] == 0.333
    assert format_answer(np.array(-0.0001)) == "0" and format_answer(np.array([2, 8])) == "2 8"
