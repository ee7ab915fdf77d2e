"""A question pane removed while it is still being mounted ends its mount quietly.

Textual mounts nothing into a widget being removed. So when a quit, or the next question,
removes a pane before its own children are mounted, the pane's mount finds some of them
missing; querying them stopped the app with `NoMatches` ("quizapp stopped after an unexpected
error"). CI met it when a test ended while the next Q&A was being drawn. Here a pane is
mounted and at once removed, before its task runs, as that quit did.
"""

from __future__ import annotations

import pytest

from quizapp.tui.app import make_app
from quizapp.tui.widgets.drill_pane import DrillPane
from quizapp.tui.widgets.mcq_pane import MCQPane
from quizapp.tui.widgets.qa_pane import QAPane
from tests.tui.conftest import SIZE, settle
from tests.tui.test_mock_screens import run_screen, start_small_mock

# The small mock (test_mock_screens.SMALL): Q&A, Q&A, MCQ, calculation.
PANES = {"qa": (0, QAPane), "mcq": (2, MCQPane), "drill": (3, DrillPane)}


@pytest.fixture(autouse=True)
def user_data(tmp_path, monkeypatch):
    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(tmp_path / "user-data"))


@pytest.mark.parametrize("kind", PANES)
async def test_a_pane_removed_while_mounting_raises_nothing(db, clock, kind):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await start_small_mock(pilot)
        screen = run_screen(app)
        position, pane_type = PANES[kind]
        question = screen.view.questions[position]
        pane = pane_type(question, screen.problems[position]) if kind == "drill" else pane_type(question)
        holder = screen.query_one("#mock-question")
        holder.mount(pane)  # registered, its task not yet run …
        removed = pane.remove()  # … and removed first: none of its children will be mounted
        await removed
        await settle(pilot)
        assert not pane.is_attached
        assert app._exception is None, app._exception
        # the interview goes on: its own pane is still there and answers
        assert screen.pane is not None and screen.pane.is_attached
