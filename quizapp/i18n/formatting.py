"""How numbers, percentages, intervals and durations are written, everywhere in the app.

One rule per kind of number, so a value reads the same in a worked solution, a given
matrix, a report and a button:

* `num`: integers bare ("2"), exact two-decimal values as they are ("0.5", "0.25"),
  everything else to 3 decimals ("0.707", "0.140"), −∞ for masked cells; U+2212 for minus.
  This is how the seed material writes numbers.
* `percent`: a fraction as a percentage, rounded half up (12.5% → 13%, never banker's
  rounding), with `decimals` places when they are not zero ("67%", "66.7%", "50%").
* `interval`: a scheduling interval as Anki shows it on its buttons ("10m", "3d", "1.5mo"),
  units from the catalog (`interval.*`).
* `clock`: a duration as m:ss ("12:05"); `—` for none; time left rounds up.
* `local_time` / `short_time`: a moment in the user's zone ("2026-12-01 09:10"; "12-01 09:10"
  within the current year); `response_time`: milliseconds as whole seconds ("12s").
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta, tzinfo
from decimal import ROUND_HALF_UP, Decimal

from quizapp.i18n import Translator

MINUS = "\u2212"
NONE = "—"


def num(x: float, decimals: int = 3, *, trim: bool = False) -> str:
    """One number, seed style (see the module docstring). Tables of looked-up values
    (`decimals=6, trim=True`) keep the digits they have: 0.04979, not 0.049790."""
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "∞" if x > 0 else MINUS + "∞"
    if x == round(x) and abs(x) < 1e15:
        text = str(int(round(x)))
    elif abs(x * 100 - round(x * 100)) < 1e-9:
        text = f"{x:.2f}".rstrip("0").rstrip(".")
    else:
        text = f"{x:.{decimals}f}"
        if trim:
            text = text.rstrip("0").rstrip(".")
    if text.startswith("-") and not text.strip("-0."):
        text = text[1:]
    return text.replace("-", MINUS)


def percent(fraction: float, decimals: int = 0) -> str:
    """0.6667 → "67%" (decimals=1: "66.7%"); 0.5 → "50%" either way; 0.125 → "13%"."""
    if math.isnan(fraction):
        return NONE
    # Decimal(str(...)) rounds the number as written, not its binary approximation.
    value = (Decimal(repr(float(fraction))) * 100).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    text = f"{value:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text == "-0":
        text = "0"
    return text.replace("-", MINUS) + "%"


def points(fraction: float) -> str:
    """A share of a drill's 100 points, to one decimal: 0.1071 → "10.7", 0.75 → "75".

    The carried part of a score is said in points ("10.7 of the 75 points"), never as a
    percentage of the score ("11% of it"), which reads as either."""
    return f"{fraction * 100:.1f}".removesuffix(".0")


def interval(delta: timedelta, lang: str) -> str:
    """A scheduling interval, at least a minute: "10m"/"10分钟", "3d", "1.5mo", "2y"."""
    t = Translator(lang)
    minutes = max(0, int(delta.total_seconds())) / 60
    if minutes < 60:
        return t("interval.minutes", n=max(1, round(minutes)))
    hours = minutes / 60
    if hours < 24:
        return t("interval.hours", n=round(hours))
    days = hours / 24
    if days < 31:
        return t("interval.days", n=round(days))
    if days < 365:
        return t("interval.months", n=f"{round(days / 30, 1):g}")
    return t("interval.years", n=f"{round(days / 365, 1):g}")


def clock(seconds: float | None, *, round_up: bool = False) -> str:
    """A duration as m:ss (minutes may exceed 59: "75:00"), never negative; `—` when there is none.

    Time used is rounded; time *left* (`round_up=True`) is rounded up, so that a fresh
    4-minute limit reads 4:00 and 0:00 appears only when the time is really over.
    """
    if seconds is None:
        return NONE
    total = max(0, math.ceil(seconds - 1e-9) if round_up else round(seconds))
    return f"{total // 60}:{total % 60:02d}"


def local_time(moment: datetime, tz: tzinfo) -> str:
    return moment.astimezone(tz).strftime("%Y-%m-%d %H:%M")


def short_time(moment: datetime, now: datetime, tz: tzinfo) -> str:
    """`01-15 09:10` within the current year, `2027-03-02` beyond it."""
    local = moment.astimezone(tz)
    if local.year == now.astimezone(tz).year:
        return local.strftime("%m-%d %H:%M")
    return local.strftime("%Y-%m-%d")


def response_time(duration_ms: int | None) -> str:
    """How long an answer took: "12s"; "–" when it was not measured."""
    if duration_ms is None:
        return "–"
    return f"{duration_ms / 1000:.0f}s"
