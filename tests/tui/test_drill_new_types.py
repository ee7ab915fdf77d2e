"""The four types of issue 24 reach the user from the registry alone: the drill picker, the
skill cards synced from DRILL_TYPES, mock interviews' calculation pool and `drill --list`."""

from __future__ import annotations

import json

from textual.widgets import OptionList

from quizapp.drill_types import DRILL_TYPES
from quizapp.srs.mock_selection import drill_types
from quizapp.tui.app import make_app
from tests.cli_process import run_quizapp
from tests.tui.test_drill_screen import SIZE, open_picker

NEW = ("online_softmax", "rmsnorm", "residual_gradient", "attention_cost")


async def test_the_picker_lists_the_new_types(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        picker = await open_picker(pilot, seed=3)
        options = picker.query_one("#drill-types", OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        for type_id in NEW:
            assert any(p.startswith(type_id) for p in prompts), type_id


def test_27_types_skill_cards_mocks_and_the_cli_list(tmp_path):
    assert len(DRILL_TYPES) == 27 and set(NEW) <= set(DRILL_TYPES)
    assert set(NEW) <= set(drill_types(None, [], [], True))  # a mock with no topic draws from every type
    out = run_quizapp(["--db", str(tmp_path / "q.db"), "drill", "--list", "--json"],
                      capture_output=True, text=True, check=True).stdout
    listed = [row["id"] for row in json.loads(out)]
    assert listed == list(DRILL_TYPES)
