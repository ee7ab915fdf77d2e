"""My screens at the standard terminal (80×24) and a roomy one (120×36): Home, Study
(question and answer), Quiz, Browse, Stats, Settings and the `?` help. Drill and Mock have
their own size snapshots (tests/tui/test_drill_snapshots.py, test_mock_snapshots.py)."""

from __future__ import annotations

import pytest

from quizapp.tui.app import make_app
from tests.tui.test_snapshots import LAID_OUT, run, seed_history

SIZES = {"80x24": (80, 24), "120x36": (120, 36)}

# (name, start screen, keys pressed after it opened)
STATES = [
    ("home", None, ()),
    ("study_question", "study", ()),
    ("study_answer", "study", ("space",)),
    ("quiz", "quiz", ()),
    ("quiz_answered", "quiz", ("b",)),
    ("browse", "browse", ("down",)),
    ("stats", "stats", ()),
    ("settings", "settings", ()),
    ("help", "study", ("space", LAID_OUT, "f1")),
]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("name", "start", "keys"), STATES, ids=[s[0] for s in STATES])
def test_screen_at_size(snap_compare, db, clock, size, name, start, keys):
    if name == "stats":
        seed_history(db)
    app = make_app(db_path=db, clock=clock, start=start, lang="en")
    assert snap_compare(app, run_before=run(*keys), terminal_size=SIZES[size])
