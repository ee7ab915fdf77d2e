"""中文：间隔与时长（`quizapp.i18n.formatting`）。键必须与 `interval_en.py` 一致。"""

MESSAGES: dict[str, str] = {
    "interval.minutes": "{n}分钟",
    "interval.hours": "{n}小时",
    "interval.days": "{n}天",
    "interval.months": "{n}个月",
    "interval.years": "{n}年",
}
