"""The one rating policy: how an outcome (an MCQ answer, a drill attempt, a mock question)
becomes an FSRS rating for its card. Plain ints (fsrs.Rating's values, checked by a test),
so that the quiz screen can import this without loading fsrs."""

from __future__ import annotations

AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4  # fsrs.Rating

FAST_MS = 8_000  # an MCQ answered right within this many milliseconds counts as Easy
FAST_MS_BY_DIFFICULTY: dict[int, int] = {1: 60_000, 2: 120_000, 3: 240_000}  # a full-marks drill this fast: Easy
HARD_THRESHOLD = 0.75  # a drill scored at least this (but not full marks): Hard
MISS_THRESHOLD = 0.6  # a mock question scored below this is "missed": rated Again when finished


def mcq_rating(correct: bool, duration_ms: int) -> int:
    """wrong → Again, right → Good, right and fast → Easy."""
    if not correct:
        return AGAIN
    return EASY if duration_ms <= FAST_MS else GOOD


def drill_rating(score: float, duration_ms: int | None, difficulty: int, fast_ms: int | None = None,
                 *, mistake: bool = False, gave_up: bool = False) -> int:
    """A drill score: 1.0 → Good (Easy if fast), ≥0.75 → Hard, else Again.

    A diagnosed conceptual mistake (`mistake`: the verdict names one, e.g. no √d_k scaling)
    or giving up rates Again whatever the score: follow-through may credit the rest of a
    chain built on it, but the skill was not there. Carried cells earn half credit, so a
    score of 1.0 means every cell was right (README: "Drill scoring").
    """
    if mistake or gave_up:
        return AGAIN
    if score >= 1.0 - 1e-9:
        limit = fast_ms if fast_ms is not None else FAST_MS_BY_DIFFICULTY.get(difficulty, 120_000)
        return EASY if duration_ms is not None and duration_ms <= limit else GOOD
    return HARD if score >= HARD_THRESHOLD else AGAIN


def mock_rating(score: float, *, mistake: bool = False) -> int:
    """A finished mock's question: missed (under MISS_THRESHOLD, or a drill whose attempt
    names a conceptual mistake) → Again, else Good."""
    return AGAIN if score < MISS_THRESHOLD or mistake else GOOD
