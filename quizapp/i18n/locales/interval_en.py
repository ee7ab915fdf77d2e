"""English: intervals and durations (`quizapp.i18n.formatting`). Keys match `interval_zh.py`."""

MESSAGES: dict[str, str] = {
    "interval.minutes": "{n}m",
    "interval.hours": "{n}h",
    "interval.days": "{n}d",
    "interval.months": "{n}mo",
    "interval.years": "{n}y",
}
