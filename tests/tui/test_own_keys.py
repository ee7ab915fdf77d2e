"""The `keys` setting remaps bindings by id: the new key works, the old one does nothing,
`?` help shows the new one; a clash or an unknown id is left out and named."""

from __future__ import annotations

from quizapp.tui import keymap
from quizapp.tui.app import QuizApp, make_app
from quizapp.tui.screens.help import HelpScreen
from tests.tui.conftest import make_db, press, settle


async def test_a_remapped_key_works_the_old_does_nothing_and_help_shows_it(tmp_path, clock):
    db = make_db(tmp_path / "keys.db", clock, keys={"study.reveal": "v"})
    app = make_app(db_path=db, clock=clock, lang="en", start="study")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await press(pilot, "space")
        assert app.screen.phase == "question"  # the old key: nothing
        await press(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        rows = [row for group in app.screen.groups for row in group.rows]
        assert [row.keys for row in rows if row.description == "Show answer"] == ["v"]
        await press(pilot, "escape", "v")
        assert app.screen.phase == "answer"  # the new key


def test_conflicts_and_unknown_ids_are_named():
    found = keymap.problems(QuizApp, {"study.undo": "space", "no.such": "z", "study.long": "z"})
    assert found["study.undo"] == "study.undo: space is already study.reveal (StudyScreen)"
    assert found["no.such"] == "no.such: no such binding"
    assert "study.long" not in found
