"""`quizapp.i18n.formatting`: one rule per kind of number, in both languages."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest

from quizapp.i18n.formatting import clock, interval, num, percent


@pytest.mark.parametrize(
    "value, shown",
    [
        (2, "2"), (2.0, "2"), (-1, "−1"), (0.5, "0.5"), (0.25, "0.25"), (1 / 3, "0.333"),
        (0.1404, "0.140"), (-0.0001, "0.000"), (-0.5, "−0.5"), (-math.inf, "−∞"), (math.inf, "∞"),
        (math.nan, "NaN"), (-0.0, "0"),
    ],
)
def test_num_writes_numbers_as_the_seeds_do(value, shown):
    assert num(value) == shown


@pytest.mark.parametrize(
    "fraction, decimals, shown",
    [
        (0.5, 0, "50%"), (2 / 3, 0, "67%"), (2 / 3, 1, "66.7%"), (0.5, 1, "50%"), (0.125, 0, "13%"),
        (0.005, 0, "1%"), (0.0, 0, "0%"), (1.0, 0, "100%"), (0.0049, 0, "0%"), (0.03125, 1, "3.1%"),
    ],
)
def test_percent_rounds_half_up(fraction, decimals, shown):
    assert percent(fraction, decimals) == shown


@pytest.mark.parametrize(
    "delta, zh, en",
    [
        (timedelta(seconds=5), "1分钟", "1m"), (timedelta(minutes=10), "10分钟", "10m"),
        (timedelta(hours=5), "5小时", "5h"), (timedelta(days=3), "3天", "3d"),
        (timedelta(days=45), "1.5个月", "1.5mo"), (timedelta(days=730), "2年", "2y"),
    ],
)
def test_interval_in_both_languages(delta, zh, en):
    assert interval(delta, "zh") == zh
    assert interval(delta, "en") == en


def test_clock():
    assert clock(None) == "—"
    assert clock(0) == "0:00"
    assert clock(65.4) == "1:05"
    assert clock(4500) == "75:00"


def test_num_keeps_a_tables_digits_when_asked():
    assert num(0.04979, decimals=6, trim=True) == "0.04979"
    assert num(2.718282, decimals=6, trim=True) == "2.718282"
    assert num(-0.0000001, decimals=6, trim=True) == "0"
    assert num(0.04979) == "0.050"
