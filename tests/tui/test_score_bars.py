"""The mock history's trend chart: bars on a 0–100% axis (issue 27 item 8)."""

from __future__ import annotations

from quizapp.tui.widgets.score_bars import bar_lines

_EIGHTHS = " ▁▂▃▄▅▆▇█"


def _heights(lines: list[str], bars: int) -> list[int]:
    """Each bar's height in eighths of a row, read back from the drawn characters."""
    rows = [line[6:] for line in lines[:-1]]
    return [sum(_EIGHTHS.index(row[2 * i]) if len(row) > 2 * i else 0 for row in rows) for i in range(bars)]


def test_bars_are_in_proportion_to_the_score_on_a_zero_based_axis():
    lines = bar_lines([0.67, 0.83, 0.5, 1.0], height=4)
    assert lines[0].startswith("100% │") and lines[-1].startswith("  0% └")
    low, high, half, full = _heights(lines, 4)
    assert full == 32 and half == 16  # 4 rows of 8 eighths
    assert (low, high) == (round(0.67 * 32), round(0.83 * 32))  # 67% is not a sliver beside 83%


def test_only_the_latest_scores_that_fit_are_drawn():
    lines = bar_lines([0.0] * 50 + [1.0], height=2, width=20)
    assert all(len(line) <= 20 for line in lines)
    assert lines[0].rstrip().endswith("█")  # the latest interview is kept
