"""Spaced repetition and study services (FSRS via the `fsrs` package). No UI imports."""
