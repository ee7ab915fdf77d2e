"""PostgreSQL: the review gaps of an import's answers, moved at once (revision 0012).

`review_gaps` counts, per whole day between a card's consecutive answers (cram answers
apart), the answers given after that gap and those of them not rated Again. An import adds
answers anywhere in a card's history, so each added answer changes its own gap and its
successor's. Per row, that was the `reviews_gap_insert` trigger's work and most of a large
import's time on PostgreSQL; here the day counts of every card the import touched are
taken as they stood before it (its answers left out) and as they stand after, and the
difference is added in one statement.

Valid only while the import holds the write lock (quizapp.store.pg: every write takes it
first), so that the rows from `first_id` on are the import's, and nothing else changed the
cards' answers meanwhile.
"""

from __future__ import annotations

from typing import Any

from quizapp.store.codes import CRAM_MODE, DAY_US, answer_gaps

SETTING = "quizapp.bulk_gaps"
TOUCHED = " AND card_id IN (SELECT card_id FROM touched)"


_MOVE = f"""
WITH touched AS (SELECT DISTINCT card_id FROM reviews WHERE id >= %(first)s AND mode <> {CRAM_MODE}),
delta AS (
  SELECT gap / {DAY_US} AS day, 1 AS answers, (rating > 1)::int AS passed FROM ({answer_gaps(TOUCHED)}) AS now
    WHERE gap IS NOT NULL
  UNION ALL
  SELECT gap / {DAY_US}, -1, -((rating > 1)::int) FROM ({answer_gaps(TOUCHED + " AND id < %(first)s")}) AS before
    WHERE gap IS NOT NULL)
INSERT INTO review_gaps AS g (day, answers, passed)
  SELECT day, sum(answers), sum(passed) FROM delta GROUP BY day HAVING sum(answers) <> 0 OR sum(passed) <> 0
  ON CONFLICT (day) DO UPDATE SET answers = g.answers + excluded.answers, passed = g.passed + excluded.passed
"""

_TRIGGER_STANDS_ASIDE = ("SELECT 1 FROM pg_trigger WHERE tgname = 'reviews_gap_insert' "
                         f"AND tgrelid = 'reviews'::regclass AND pg_get_triggerdef(oid) LIKE '%%{SETTING}%%'")


def set_aside(cursor: Any) -> bool:
    """Have this transaction's inserts skip the per-row gap trigger; False (and nothing set)
    where the trigger does not know the setting (a schema before revision 0012)."""
    cursor.execute(_TRIGGER_STANDS_ASIDE)
    if cursor.fetchone() is None:
        return False
    cursor.execute(f"SELECT set_config('{SETTING}', 'on', true)")
    return True


def move(cursor: Any, first_id: int) -> None:
    """Add the gaps of the answers inserted from `first_id` on."""
    cursor.execute(_MOVE, {"first": first_id})


def put_back(cursor: Any) -> None:
    """The per-row trigger again, for the rest of the transaction."""
    cursor.execute(f"SELECT set_config('{SETTING}', 'off', true)")
