"""A question pane or drill sheet removed while it is still being mounted ends quietly.

Textual mounts nothing into a widget being removed (quizapp/tui/widgets/removal.py). So when
a quit removes the next question's pane (or the next problem's sheet) before its own
children are mounted, the code drawing it found them missing and stopped the app with
`NoMatches` ("quizapp stopped after an unexpected error"). CI met it when a test ended while
the next Q&A was being drawn. Here the holder removes what it mounts at once — before its
task runs, as that quit did — and the real transition runs on.
"""

from __future__ import annotations

import pytest
from textual.widget import Widget

from quizapp.tui.app import make_app
from quizapp.tui.widgets.drill_pane import DrillPane
from quizapp.tui.widgets.mcq_pane import MCQPane
from quizapp.tui.widgets.qa_pane import QAPane
from tests.tui.conftest import SIZE, press, settle
from tests.tui.test_drill_screen import open_drill
from tests.tui.test_mock_screens import run_screen, start_small_mock, type_text

# The small mock (test_mock_screens.SMALL): Q&A, Q&A, MCQ, calculation.
PANES = {"qa": (1, QAPane), "mcq": (2, MCQPane), "drill": (3, DrillPane)}
# How each is answered: (typed text, keys); the last key moves on to the next question.
ANSWERS = [("方差", "ctrl+s", "enter"), ("方差", "ctrl+s", "enter"), ("", "c", "enter")]


@pytest.fixture(autouse=True)
def user_data(tmp_path, monkeypatch):
    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(tmp_path / "user-data"))


def removed_at_once(holder: Widget, monkeypatch: pytest.MonkeyPatch) -> list[Widget]:
    """`holder` removes each widget it mounts straight away; returns the widgets."""
    mounted: list[Widget] = []
    mount = holder.mount

    def mount_and_remove(*widgets: Widget, **options):
        waiter = mount(*widgets, **options)
        for widget in widgets:
            mounted.append(widget)
            widget.remove()
        return waiter

    monkeypatch.setattr(holder, "mount", mount_and_remove)
    return mounted


@pytest.mark.parametrize("kind", PANES)
async def test_the_next_question_removed_while_mounting_raises_nothing(db, clock, kind, monkeypatch):
    position, pane_type = PANES[kind]
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await start_small_mock(pilot)
        screen = run_screen(app)
        for index, (text, *keys, last) in enumerate(ANSWERS[:position]):
            if text:
                await type_text(pilot, text)
            await press(pilot, *keys)
            if index == position - 1:  # its last key mounts the question under test
                mounted = removed_at_once(screen.query_one("#mock-question"), monkeypatch)
            await press(pilot, last)
        assert [type(w) for w in mounted] == [pane_type] and not mounted[0].is_attached
        assert app._exception is None, app._exception
        assert screen.position == position


async def test_the_next_problem_removed_while_mounting_raises_nothing(db, clock, monkeypatch):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="attention")
        mounted = removed_at_once(screen.query_one("#drill-sheet-holder"), monkeypatch)
        await screen.run_action("new_problem")  # a new problem, on a new sheet (key n)
        await settle(pilot)
        assert len(mounted) == 1 and not mounted[0].is_attached
        assert app._exception is None, app._exception


@pytest.mark.parametrize(("kind", "part"), [("qa", ".mock-review"), ("mcq", ".mock-verdict")])
async def test_a_pane_removed_with_only_some_children_draws_nothing(db, clock, kind, part):
    """Removed while its children were mounting, a pane had `.mock-hint` but not the review
    under it, and drawing its texts stopped the app (NoMatches, seen in CI under load). Here
    the pane loses that part, is marked for removal, and is drawn."""
    position, pane_type = PANES[kind]
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await start_small_mock(pilot)
        for text, *keys, last in ANSWERS[:position]:
            if text:
                await type_text(pilot, text)
            await press(pilot, *keys, last)
        pane = app.screen.query_one(pane_type)
        await pane.query_one(part).remove()
        pane.remove()  # marks it (and what is left under it) at once
        pane.render_texts()
        await settle(pilot)
        assert app._exception is None, app._exception
