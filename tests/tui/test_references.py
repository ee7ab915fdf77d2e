"""Study's answer side, the Quiz explanation and Browse's detail show an item's references,
one line each under a small heading; nothing is shown for an item without any."""

from __future__ import annotations

from rich.console import Console
from textual.widgets import Input

from quizapp.tui.app import make_app
from quizapp.tui.widgets.references import ReferenceList, references_renderable
from tests.tui.conftest import SIZE, press, settle

VASWANI_4 = 'Vaswani et al. 2017, "Attention Is All You Need", §4, Table 1'
VASWANI_321 = 'Vaswani et al. 2017, "Attention Is All You Need", §3.2.1, Eq. 1'
PYTORCH = 'PyTorch contributors 2024, "PyTorch documentation", torch.nn.functional.scaled_dot_product_attention'


def shown_text(widget: ReferenceList, width: int = 76) -> str:
    console = Console(width=width, record=True, color_system=None)
    assert widget.shown is not None
    console.print(widget.shown)
    return console.export_text()


def flat(text: str) -> str:
    return " ".join(text.replace("·", " ").split())


async def test_study_shows_references_with_the_answer_only(db, clock):
    app = make_app(db_path=db, clock=clock, start="study", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.current.card.item_id == "t-q01"
        refs = screen.query_one("#study-refs", ReferenceList)
        assert not refs.display  # the question side gives nothing away
        await press(pilot, "space")
        assert refs.display
        text = shown_text(refs)
        assert text.splitlines()[0] == "References"
        assert VASWANI_4 in flat(text)
        await press(pilot, "3")
        assert screen.current.card.item_id != "t-q01"
        await press(pilot, "space")
        assert not screen.query_one("#study-refs", ReferenceList).display  # this item cites nothing


async def test_quiz_shows_references_with_the_explanation(db, clock):
    app = make_app(db_path=db, clock=clock, start="quiz", lang="zh")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        refs = screen.query_one("#quiz-refs", ReferenceList)
        assert not refs.display
        await press(pilot, "b")
        assert refs.display
        text = shown_text(refs)
        assert text.splitlines()[0] == "出处"
        assert VASWANI_321 in flat(text) and flat(PYTORCH) in flat(text)


async def test_browse_detail_shows_references(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_mode("browse", item_id="t-mcq-01")
        await settle(pilot)
        refs = app.screen.query_one("#browse-refs", ReferenceList)
        assert refs.display and refs.lines == [VASWANI_321, PYTORCH]
        field = app.screen.query_one(Input)
        field.focus()
        await press(pilot, "home", "ctrl+k")
        await pilot.press(*"t-q06")
        await settle(pilot)
        assert app.screen.detail.summary.item_id == "t-q06"
        assert not app.screen.query_one("#browse-refs", ReferenceList).display


def test_a_long_reference_wraps_beside_its_bullet_and_control_characters_are_dropped():
    console = Console(width=40, record=True, color_system=None)
    console.print(references_renderable([PYTORCH, "Evil\x1b[31m et al. 2020"], "References"))
    lines = console.export_text().splitlines()
    assert lines[0] == "References"
    assert lines[1].startswith("· PyTorch")
    bullets = [n for n, line in enumerate(lines) if line.startswith("· ")]
    assert len(bullets) == 2
    # every continuation line is indented under the text, not under the bullet
    assert all(line.startswith("  ") for line in lines[2:bullets[1]])
    assert "\x1b" not in console.export_text() and "Evil[31m et al. 2020" in lines[bullets[1]]
