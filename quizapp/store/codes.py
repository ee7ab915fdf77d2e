"""How some values are coded in the database: times as SQLAlchemy's DateTime text or as
integer microseconds, quarter-hours, modes, kinds and card states by position, JSON as
compact UTF-8, and the partial indexes' conditions. Defined once, here; plain Python (no
SQLAlchemy), so that the driver-level statements (`quizapp.store.cards`,
`quizapp.store.reviews`, Home's counts before the models load) share them with the models."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

EPOCH = datetime(1970, 1, 1)

# How SQLAlchemy's DateTime stores a naive-UTC datetime on SQLite (cards.due, last_review):
# text that sorts as the time does, so the queue's range conditions compare text.
TIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f"


def stored_time(moment: datetime) -> str:
    """A naive-UTC datetime as the DateTime columns store it (TIME_FORMAT, the year in four
    digits as SQLAlchemy writes it): isoformat is a third of strftime's cost, and the study
    step converts a dozen bounds per answer."""
    if moment.tzinfo is not None:  # (strftime's reading: the wall time, no offset)
        moment = moment.replace(tzinfo=None)
    return moment.isoformat(" ", "microseconds")


# The partial indexes' conditions (models.py; revision 0004 made them). SQLite uses a partial
# index only for a query that repeats its WHERE terms word for word: every such query
# includes one of these texts.
STUDIED_SHOWN = "reps > 0 AND suspended = 0 AND retired = 0"  # ix_cards_queue, ix_cards_due_studied
NEW_SHOWN = "reps = 0 AND suspended = 0 AND retired = 0"  # ix_cards_new

# cards.state: fsrs.State's values (1 Learning, 2 Review, 3 Relearning); a card never
# answered has state 1 and reps 0.
LEARNING_STATE, REVIEW_STATE, RELEARNING_STATE = 1, 2, 3
LEARNING_STATES = (LEARNING_STATE, RELEARNING_STATE)


def to_micros(value: datetime) -> int:
    """Naive-UTC datetime → integer microseconds since 1970 (exact)."""
    delta = value - EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


# A review's quarter-hour (review_tallies.quarter): every real time-zone offset is a multiple
# of 15 minutes, so any study day is a whole run of quarters.
QUARTER_US = 900_000_000


def quarter_of(value: datetime) -> int:
    return to_micros(value) // QUARTER_US


# reviews.mode stores the position; "cram" (4) is an answer that left the schedule as it was
# (quizapp.srs.cram): revision 0008 keeps it out of the day tallies and the review gaps.
MODES = ("study", "quiz", "drill", "mock", "cram")
KINDS = ("qa", "mcq", "skill")
TALLY_COLUMNS = tuple(f"{kind}_{what}" for kind in KINDS for what in ("new", "reviews"))
CRAM_MODE = MODES.index("cram")
# review_gaps.day: whole days between a card's consecutive answers (revision 0005).
DAY_US = 86_400_000_000


def answer_gaps(where: str = "") -> str:
    """`SELECT rating, gap`: each answer's rating and its time (µs) since its card's
    previous answer, cram answers apart (NULL for a card's first); `where` narrows the
    answers (" AND …"). What review_gaps counts per whole day, on either backend."""
    return ("SELECT rating, reviewed_at - lag(reviewed_at) OVER (PARTITION BY card_id ORDER BY reviewed_at, id) "
            f"AS gap FROM reviews WHERE mode <> {CRAM_MODE}{where}")


def json_text(value: Any) -> str:
    """How every JSON column is written (the engine's `json_serializer`, revision 0006, and
    the study step's own writes): UTF-8 text as itself and no spaces. Python's default
    escapes each CJK character as `\\uXXXX` (6 bytes instead of 3) and adds a space after
    every `,` and `:` — together a fifth of an item's bilingual payload."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def json_value(value: Any) -> Any:
    """A JSON column's value as read on the driver: SQLite gives its text, psycopg the value
    already decoded. (The app's JSON columns hold objects and arrays, never a bare string.)"""
    return json.loads(value) if isinstance(value, str) else value


# mock_interviews.status
IN_PROGRESS, ABANDONED, COMPLETED = "in_progress", "abandoned", "completed"


def value_ranges(bounds: Sequence[tuple[Any, Any]], cast: str | None = None) -> tuple[str, dict[str, Any]]:
    """A VALUES list of (index, low, high) rows, named w(column1, column2, column3) as both
    SQLite and PostgreSQL name them, and its parameters (with `cast`, as that type: a
    PostgreSQL VALUES list of parameters is text otherwise)."""
    def typed(name: str) -> str:
        return f"CAST(:{name} AS {cast})" if cast else f":{name}"

    rows = ", ".join(f"({i}, {typed(f'low{i}')}, {typed(f'high{i}')})" for i in range(len(bounds)))
    params: dict[str, Any] = {}
    for i, (low, high) in enumerate(bounds):
        params[f"low{i}"], params[f"high{i}"] = low, high
    return f"(VALUES {rows}) AS w", params
