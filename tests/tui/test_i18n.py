"""Every catalog key the TUI uses exists (completeness of the catalog itself: tests/test_i18n.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.binding import Binding

from quizapp.srs.settings import Settings
from quizapp.tui.i18n import LANGUAGES, catalog
from quizapp.tui.screens.stats import KINDS, STATE_COLUMNS

TUI_DIR = Path(__file__).resolve().parents[2] / "quizapp" / "tui"


def literal_keys() -> set[str]:
    keys = set()
    pattern = re.compile(r"""(?:\bt|\btr|\.tr)\(\s*["']([a-z_]+\.[a-z0-9_.]+)["']""")
    for path in TUI_DIR.rglob("*.py"):
        keys.update(pattern.findall(path.read_text(encoding="utf-8")))
    return keys


def dynamic_keys() -> set[str]:
    """Keys built with f-strings in the code, enumerated here."""
    from quizapp.tui.app import MODES
    from quizapp.tui.screens.home import MENU, TILES
    from quizapp.tui.screens.settings import CHOICE_FIELDS, TEXT_FIELDS

    keys = {f"rating.{r}" for r in (1, 2, 3, 4)}
    keys |= {f"kind.{k}" for k in KINDS} | {f"kind.short.{k}" for k in KINDS}
    keys |= {f"{mode}.title" for mode in MODES}
    keys |= {f"palette.help.{mode}" for mode in MODES}
    keys |= {f"home.tile.{tile}" for tile in TILES} | {f"home.menu.{mode}" for mode, _ in MENU}
    keys |= {f"settings.field.{name}" for name, _ in TEXT_FIELDS} | {f"settings.field.{n}" for n in CHOICE_FIELDS}
    keys |= {f"stats.state.{column}" for column in STATE_COLUMNS}
    keys |= {f"mode.{m}" for m in ("study", "quiz", "drill", "mock")}
    keys |= {"state.new", "state.learning", "state.review", "state.relearning", "state.leech"}
    keys |= {"settings.error.int", "settings.error.float", "settings.error.steps"}
    return keys


def binding_keys() -> set[str]:
    from quizapp.tui.app import QuizApp
    from quizapp.tui.screens import (
        browse,
        confirm,
        cram_setup,
        drill,
        drill_picker,
        error,
        home,
        mock_history,
        mock_quit,
        mock_report,
        mock_run,
        mock_setup,
        quiz,
        settings,
        stats,
        study,
    )
    from quizapp.tui.widgets.answer_sheet import AnswerSheet
    from quizapp.tui.widgets.drill_pane import DrillPane
    from quizapp.tui.widgets.mcq_pane import MCQPane
    from quizapp.tui.widgets.qa_pane import QAPane

    owners = [
        QuizApp, home.HomeScreen, study.StudyScreen, quiz.QuizScreen, browse.BrowseScreen,
        settings.SettingsScreen, stats.StatsScreen, error.ErrorScreen, confirm.ConfirmScreen,
        drill.DrillScreen, drill_picker.DrillPickerScreen, drill_picker.TypeList, mock_quit.FinishMockModal, AnswerSheet, QAPane, MCQPane, DrillPane, mock_setup.MockSetupScreen, mock_run.MockRunScreen,
        mock_quit.QuitMockModal, mock_report.MockReportScreen, mock_history.MockHistoryScreen,
        cram_setup.CramSetupScreen,
    ]
    ids = set()
    for owner in owners:
        for binding in owner.BINDINGS:
            assert isinstance(binding, Binding) and binding.id, f"{owner.__name__}: every binding needs an id"
            ids.add(f"binding.{binding.id}")
    return ids


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_code_uses_exists(lang):
    messages = catalog(lang)
    used = literal_keys() | dynamic_keys() | binding_keys()
    assert sorted(used - set(messages)) == []


def test_settings_fields_all_have_a_label():
    fields = {f"settings.field.{name}" for name in Settings.model_fields}
    assert fields <= set(catalog("zh"))
