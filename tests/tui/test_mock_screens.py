"""Pilot tests of the mock interview screens: set-up, a whole timed interview on a fixed
clock (with a timeout), quitting and resuming, the report ("review these", export) and
the history. Nothing sleeps: time moves only when a test advances the FixedClock and
calls the run screen's `tick()`.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from textual import events
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static, TextArea

from quizapp.i18n.locales import mock_en, mock_zh
from quizapp.tui.app import QuizApp, make_app
from quizapp.tui.widgets.score_bars import ScoreBars
from tests.tui.conftest import SIZE, open_service, press, settle

TUI_DIR = Path(__file__).resolve().parents[2] / "quizapp" / "tui"
MOCK_FILES = [
    TUI_DIR / "screens" / "mock_setup.py",
    TUI_DIR / "screens" / "mock_run.py",
    TUI_DIR / "widgets" / "qa_pane.py",
    TUI_DIR / "widgets" / "mcq_pane.py",
    TUI_DIR / "widgets" / "drill_pane.py",
    TUI_DIR / "widgets" / "question_pane.py",
    TUI_DIR / "screens" / "mock_quit.py",
    TUI_DIR / "widgets" / "key_points.py",
    TUI_DIR / "screens" / "mock_report.py",
    TUI_DIR / "screens" / "mock_history.py",
]

# Seed 3 on the frozen deck, weak items not favoured: t-q24 (Q&A), t-s10 (Q&A),
# t-mcq-02 (MCQ, answer C) and a scaled_scores calculation — always in this order.
SMALL = {"total_minutes": "10", "n_qa": "2", "qa_seconds": "120", "n_mcq": "1", "mcq_seconds": "60",
         "n_drill": "1", "drill_seconds": "300", "drill_difficulty": "2"}
SEED = "3"


@pytest.fixture(autouse=True)
def user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "user-data"
    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(path))
    return path


def mocks_of(db: Path, clock):
    from quizapp.srs.mock import MockService

    service = open_service(db, clock)
    return MockService(service.db, clock)


async def open_setup(pilot: Pilot, **options) -> None:
    from quizapp.tui.screens.mock_setup import MockSetupScreen

    await settle(pilot)
    if not isinstance(pilot.app.screen, MockSetupScreen):
        # As open_mode does: the study service first (Home's figures need none).
        await pilot.app.wait_for_backend()
        pilot.app.push_screen(MockSetupScreen(**options))
        await settle(pilot)


def fill_form(app: QuizApp, values: dict[str, str], seed: str | None = SEED, favour_weak: bool = False) -> None:
    from textual.widgets import Checkbox

    screen = app.screen
    for name, value in values.items():
        screen.query_one(f"#mock-setup-{name.replace('_', '-')}", Input).value = value
    screen.query_one("#mock-setup-seed", Input).value = seed or ""
    screen.query_one("#mock-setup-weak", Checkbox).value = favour_weak


async def start_small_mock(pilot: Pilot) -> None:
    await open_setup(pilot)
    fill_form(pilot.app, SMALL)
    await settle(pilot)
    await press(pilot, "ctrl+s")
    assert type(pilot.app.screen).__name__ == "MockRunScreen"
    assert answering(pilot.app)


def footer_text(app: QuizApp) -> str:
    """The keys the Footer offers now, as the user reads them."""
    return " ".join(
        f"{binding.key_display or binding.key} {binding.description}"
        for _, binding, enabled, _ in app.screen.active_bindings.values()
        if binding.show and enabled
    )


def answering(app: QuizApp) -> bool:
    footer = footer_text(app)
    return ("提交" in footer or "ctrl+s" in footer or "a A" in footer) and "下一题" not in footer


def reviewing(app: QuizApp) -> bool:
    return "确认要点" in footer_text(app)


def showing_result(app: QuizApp) -> bool:
    return "下一题" in footer_text(app)


def shown_position(app: QuizApp) -> tuple[int, str]:
    """(question number, kind) as the bar over the question shows them."""
    text = text_of(app, "#mock-run-position")
    match = re.search(r"(\d+)/\d+ 题 · (\S+)", text)
    assert match, text
    return int(match.group(1)), match.group(2)


def pane(app: QuizApp):
    return run_screen(app).pane


def run_screen(app: QuizApp):
    from quizapp.tui.screens.mock_run import MockRunScreen

    screen = app.screen
    assert isinstance(screen, MockRunScreen), type(screen).__name__
    return screen


def text_of(app: QuizApp, selector: str) -> str:
    """What a Static shows, as plain text (strings, Text and Rich tables alike)."""
    import io

    from rich.console import Console

    content = app.screen.query_one(selector, Static).content
    if isinstance(content, str):
        return content
    console = Console(width=160, color_system=None, file=io.StringIO(), record=True)
    console.print(content)
    return console.export_text()


async def type_text(pilot: Pilot, text: str) -> None:
    """Type character by character, as the terminal delivers what an input method commits:
    one Key event per character, with the character itself (full-width punctuation
    included, which `pilot.press` cannot send)."""
    from textual.keys import _character_to_key

    for char in text:
        pilot.app.post_message(events.Key(_character_to_key(char), char))
        await pilot.pause()
    await settle(pilot)


def drill_answer(screen) -> dict[str, str]:
    """The right answer of the current drill in the 'rows on separate lines' format."""
    from quizapp.engine import format_answer

    problem = screen.pane.problem
    return {part.name: format_answer(problem.solution[part.name]) for part in problem.parts}


def drill_zeros(screen) -> dict[str, str]:
    """A wrong but readable answer: every cell 0."""
    import numpy as np

    from quizapp.engine import format_answer

    problem = screen.pane.problem
    return {part.name: format_answer(np.zeros(part.shape)) for part in problem.parts}


async def answer_drill(pilot: Pilot, answers: dict[str, str]) -> None:
    """Paste each part into its text field (ctrl+t mode) and submit."""
    screen = run_screen(pilot.app)
    for entry in screen.pane.sheet.entries():
        entry.to_text()
        entry.text_area.text = answers[entry.spec.name]
    await press(pilot, "ctrl+s")


async def type_into_cells(pilot: Pilot, answers: dict[str, str]) -> None:
    """Type every cell of every part, tab between cells, enter on the last one submits."""
    screen = run_screen(pilot.app)
    cells = [value for entry in screen.pane.sheet.entries() for value in answers[entry.spec.name].split()]
    for index, value in enumerate(cells):
        await type_text(pilot, value)
        await press(pilot, "enter" if index == len(cells) - 1 else "tab")


def part_status(app: QuizApp, index: int) -> str:
    entry = run_screen(app).pane.sheet.entries()[index]
    return str(entry.query_one(".part-status", Static).content)


# -- a whole interview ------------------------------------------------------------------------
async def test_whole_mock_with_a_timeout_and_the_report(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await start_small_mock(pilot)
        screen = run_screen(app)
        mock_id = screen.mock_id
        assert shown_position(app) == (1, "问答") and "/4 题" in text_of(app, "#mock-run-position")
        assert screen.query_one("#mock-q-clock").text.endswith("2:00 ▮▮▮▮▮▮▮▮▮▮")
        assert "10:00" in screen.query_one("#mock-total-clock").text

        # Q1 (Q&A): typed in Chinese, 90 s; two of three key points are found automatically.
        assert app.focused is screen.query_one("QAPane TextArea", TextArea)
        await type_text(pilot, "点积的方差随维度增大，softmax 会饱和")
        assert screen.query_one("QAPane TextArea", TextArea).text == "点积的方差随维度增大，softmax 会饱和"
        clock.advance(seconds=90)
        screen.tick()
        assert "0:30" in screen.query_one("#mock-q-clock").text
        assert "8:30" in screen.query_one("#mock-total-clock").text
        await press(pilot, "ctrl+s")
        assert reviewing(app)
        assert [("☑" in text_of(app, f"#mock-point-{i}")) for i in range(3)] == [True, True, False]
        assert "1–3" in footer_text(app)  # as many keys as there are key points
        assert "☑" in text_of(app, "#mock-point-0") and "☐" in text_of(app, "#mock-point-2")
        assert "2/3" in text_of(app, ".mock-score")
        clock.advance(seconds=30)  # reading the reference does not use the question's time
        screen.tick()
        assert "0:30" in screen.query_one("#mock-q-clock").text
        await press(pilot, "3")  # the user says they covered the third point too
        assert all("☑" in text_of(app, f"#mock-point-{i}") for i in range(3))
        await press(pilot, "enter")

        # Q2 (Q&A): typed, then the time runs out; the text is saved and the interview moves on.
        assert shown_position(app)[0] == 2 and answering(app)
        await type_text(pilot, "减去最大值")
        clock.advance(seconds=121)
        screen.tick()
        await settle(pilot)
        # Q3 (MCQ): right answer in 12 s.
        assert shown_position(app) == (3, "选择")
        clock.advance(seconds=12)
        await press(pilot, "c")
        assert showing_result(app)
        assert "✓" in text_of(app, ".mock-verdict")
        await press(pilot, "enter")

        # Q4 (drill): the right matrices, typed one row per line.
        assert shown_position(app) == (4, "计算")
        assert "93883" in text_of(app, ".sheet-meta")
        clock.advance(seconds=200)
        await type_into_cells(pilot, drill_answer(screen))
        assert showing_result(app)
        assert "100%" in text_of(app, ".sheet-result")
        assert "9/9" in part_status(app, 0) and "9/9" in part_status(app, 1)
        await press(pilot, "enter")
        await settle(pilot)

        # The report replaces the interview.
        assert type(app.screen).__name__ == "MockReportScreen"
        report = app.screen.report
        assert report.status == "completed"
        rows = {row.position: row for row in report.questions}
        assert rows[0].score == 1.0 and rows[0].time_used_s == 90 and not rows[0].over_time
        assert rows[1].over_time and rows[1].time_used_s == 121 and rows[1].score == pytest.approx(1 / 3)
        assert rows[2].score == 1.0 and rows[2].time_used_s == 12
        assert rows[3].score == 1.0 and rows[3].time_used_s == 200
        assert report.over_time_count == 1
        assert report.score == pytest.approx((1 + 1 / 3 + 1 + 1) / 4)
        summary = text_of(app, "#mock-report-summary")
        assert "83%" in summary and "7:03" in summary and "10:00" in summary
        questions = text_of(app, "#mock-report-questions")
        assert "⚠" in questions and "2:01 / 2:00" in questions
        assert "Softmax" in text_of(app, "#mock-report-topics")  # the tag by its catalog name
        # each Q&A answer's key points with the words behind the ticks, and the hand-made change
        points = text_of(app, "#mock-report-points")
        assert "要点 3/3" in points and "其中 1 处由你手动更正" in points and "«最大值»" in points
        assert rows[0].corrected == 1 and rows[1].corrected == 0

    # Read back from the database: the typed texts and the timeout are stored exactly.
    mocks = mocks_of(db, clock)
    try:
        view = mocks.get(mock_id)
        assert view.status == "completed"
        first, second = view.questions[0].answer, view.questions[1].answer
        assert first["text"] == "点积的方差随维度增大，softmax 会饱和"
        assert first["auto_points"] == [True, True, False] and first["points"] == [True, True, True]
        assert first["confirmed"] is True
        assert isinstance(second.pop("review_id"), int)  # fed to the scheduler when finished
        assert second == {"text": "减去最大值", "auto_points": [True, False, False], "points": [True, False, False],
                          "confirmed": False, "timed_out": True, "statuses": ["stated", "absent", "absent"],
                          "evidence": ["最大值", None, None]}
        assert view.questions[2].answer["choice"] == "C"
        assert view.questions[3].answer["attempt_id"] is not None
        missed = mocks.study.item_detail("t-s10").reviews[-1]
        assert (missed.rating, missed.mode) == (1, "mock")  # a missed item is rated Again
    finally:
        mocks.db.close()


async def test_the_interview_clock_ending_finishes_the_interview(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        fill_form(app, {**SMALL, "total_minutes": "1", "qa_seconds": "120"})
        await press(pilot, "ctrl+s")
        screen = run_screen(app)
        await type_text(pilot, "方差")
        clock.advance(seconds=61)  # the interview (1 min) ends before the question (2 min)
        screen.tick()
        await settle(pilot)
        report = app.screen.report
        assert report.status == "completed"
        assert report.questions[0].answered and report.questions[0].over_time
        assert [row.answered for row in report.questions] == [True, False, False, False]


async def test_mcq_timeout_without_a_choice_and_a_drill_format_error(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        fill_form(app, {**SMALL, "n_qa": "0"})
        await press(pilot, "ctrl+s")
        screen = run_screen(app)
        assert shown_position(app) == (1, "选择")
        clock.advance(seconds=60)
        screen.tick()
        await settle(pilot)
        assert shown_position(app) == (2, "计算")

        # A format error is shown where it is and costs nothing; the clock keeps running.
        right = drill_answer(screen)
        await answer_drill(pilot, {name: "[[1, 2], [3" for name in right})
        assert answering(app)
        assert screen.pane.sheet.entries()[0].text_area.text == "[[1, 2], [3"
        name = screen.pane.sheet.entries()[0].spec.name
        assert part_status(app, 0).startswith(f"{name}：缺少")
        # … and so is a cell that cannot be read, typed in the grid.
        entry = screen.pane.sheet.entries()[0]
        entry.to_cells()  # the unreadable text stays in the text field
        entry.text_area.text = ""
        entry.to_cells()
        entry.grid.cell(0, 0).focus()
        await type_text(pilot, "1x")
        await press(pilot, "ctrl+s")
        assert answering(app)
        assert entry.grid.cell(0, 0).has_class("-error")
        assert part_status(app, 0).startswith(f"{name} 第 1 行第 1 列")
        clock.advance(seconds=30)
        await answer_drill(pilot, right)
        assert showing_result(app)
        mock_id = screen.mock_id
    mocks = mocks_of(db, clock)
    try:
        from sqlalchemy import func, select

        from quizapp.store.models import DrillAttempt

        view = mocks.get(mock_id)
        assert view.questions[0].answer["choice"] is None and view.questions[0].over_time
        assert view.questions[1].time_used_s == 30
        with mocks.db.session() as session:
            # the unreadable answer was not an attempt
            assert session.scalar(select(func.count(DrillAttempt.id))) == 1
    finally:
        mocks.db.close()


# -- quitting and resuming -------------------------------------------------------------------------
async def test_an_abandoned_mock_is_resumed_where_it_stopped(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await start_small_mock(pilot)
        screen = run_screen(app)
        mock_id = screen.mock_id
        await type_text(pilot, "方差")
        clock.advance(seconds=40)
        await press(pilot, "ctrl+s", "enter")
        assert shown_position(app)[0] == 2
        await type_text(pilot, "还没想好")
        clock.advance(seconds=20)
        await press(pilot, "escape")
        assert type(app.screen).__name__ == "QuitMockModal"
        await press(pilot, "n")  # changed their mind: the interview goes on
        assert app.screen is screen and answering(app)
        await press(pilot, "escape", "y")
        assert type(app.screen).__name__ == "MockSetupScreen"
        assert f"#{mock_id}" in text_of(app, "#mock-setup-resume")

    mocks = mocks_of(db, clock)
    try:
        view = mocks.get(mock_id)
        assert view.status == "abandoned"
        assert view.answered_count == 1 and view.questions[0].answer["text"] == "方差"
        assert view.elapsed_s == 60  # 40 s answered + 20 s spent on the unfinished question
        assert [s.mock_id for s in mocks.resumable()] == [mock_id]
    finally:
        mocks.db.close()

    # A new run of the app: set-up offers the interview; ctrl+r continues at question 2.
    clock.advance(hours=2)
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        await press(pilot, "ctrl+r")
        screen = run_screen(app)
        assert screen.mock_id == mock_id and shown_position(app)[0] == 2
        # The unsubmitted draft and the question's clock are kept (issue 27 item 16).
        field = screen.query_one("QAPane TextArea", TextArea)
        assert field.text == "还没想好"
        assert "1:40" in screen.query_one("#mock-q-clock").text  # 2:00 − the 20 s spent before the quit
        assert "9:00" in screen.query_one("#mock-total-clock").text  # 10:00 − 60 s already used
        field.clear()
        await type_text(pilot, "减去最大值，结果不变")
        await press(pilot, "ctrl+s", "enter")
        await press(pilot, "c", "enter")
        await answer_drill(pilot, drill_answer(screen))
        await press(pilot, "enter")
        report = app.screen.report
        assert report.status == "completed"
        assert [row.answered for row in report.questions] == [True, True, True, True]
        assert report.questions[0].score == pytest.approx(1 / 3)


async def test_quitting_during_the_review_keeps_the_submitted_answer(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await start_small_mock(pilot)
        screen = run_screen(app)
        mock_id = screen.mock_id
        await type_text(pilot, "方差 饱和")
        clock.advance(seconds=50)
        await press(pilot, "ctrl+s", "escape", "y")
    mocks = mocks_of(db, clock)
    try:
        view = mocks.get(mock_id)
        assert view.status == "abandoned"
        assert view.questions[0].answer["text"] == "方差 饱和" and view.questions[0].time_used_s == 50
        assert view.questions[0].score == pytest.approx(2 / 3)
    finally:
        mocks.db.close()


async def test_a_late_stored_answer_for_an_earlier_question_does_not_redraw_the_current_one(db, clock):
    """A stored-answer message that arrives after the screen moved on (a retried write) must
    not move on again: that remounted the open question and dropped what was typed."""
    from quizapp.tui.screens.mock_saver import AnswerStored

    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await start_small_mock(pilot)
        screen = run_screen(app)
        await type_text(pilot, "方差 饱和")
        await press(pilot, "ctrl+s", "enter")
        assert screen.position == 1
        pane = screen.pane
        await type_text(pilot, "草稿")
        screen.post_message(AnswerStored(screen.view.questions[0]))
        await settle(pilot)
        assert screen.position == 1 and screen.pane is pane
        assert "草稿" in pane.partial()


async def test_quitting_the_app_mid_question_keeps_the_mock_abandoned_with_its_time(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await start_small_mock(pilot)
        screen = run_screen(app)
        mock_id = screen.mock_id
        await type_text(pilot, "方差")
        clock.advance(seconds=40)
        await press(pilot, "ctrl+s", "enter")
        assert shown_position(app)[0] == 2 and answering(app)
        await type_text(pilot, "还没想好")
        clock.advance(seconds=25)
        await pilot.press("ctrl+q")  # quits the whole app, not just the interview
        await pilot.pause()
    assert app.return_code == 0

    mocks = mocks_of(db, clock)
    try:
        view = mocks.get(mock_id)
        assert view.status == "abandoned"
        assert view.answered_count == 1 and view.questions[0].answer["text"] == "方差"
        assert view.elapsed_s == 65  # 40 s answered + 25 s on the question left open
        assert [s.mock_id for s in mocks.resumable()] == [mock_id]
    finally:
        mocks.db.close()

    # The next run resumes it at question 2 with the time already used counted.
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        await press(pilot, "ctrl+r")
        screen = run_screen(app)
        assert screen.mock_id == mock_id and shown_position(app)[0] == 2 and answering(app)
        assert screen.query_one("QAPane TextArea", TextArea).text == "还没想好"  # kept by ctrl+q too
        assert "1:35" in screen.query_one("#mock-q-clock").text  # 2:00 − 25 s
        assert "8:55" in screen.query_one("#mock-total-clock").text  # 10:00 − 65 s
        clock.advance(seconds=10)
        await press(pilot, "ctrl+s", "enter")
        assert shown_position(app)[0] == 3
    mocks = mocks_of(db, clock)
    try:
        view = mocks.get(mock_id)
        assert view.answered_count == 2 and view.elapsed_s == 75
    finally:
        mocks.db.close()


async def test_quitting_the_app_from_the_quit_dialog_or_the_review_keeps_the_mock(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await start_small_mock(pilot)
        screen = run_screen(app)
        mock_id = screen.mock_id
        await type_text(pilot, "方差 饱和")
        clock.advance(seconds=50)
        await press(pilot, "ctrl+s", "escape")  # in the review, with the quit dialog open
        assert type(app.screen).__name__ == "QuitMockModal"
        await pilot.press("ctrl+q")
        await pilot.pause()
    mocks = mocks_of(db, clock)
    try:
        view = mocks.get(mock_id)
        assert view.status == "abandoned"
        assert view.questions[0].answer["text"] == "方差 饱和" and view.questions[0].time_used_s == 50
        assert view.elapsed_s == 50
    finally:
        mocks.db.close()


# -- the report ----------------------------------------------------------------------------------------
async def finish_with_misses(pilot: Pilot, clock) -> int:
    """A small interview answered badly (empty Q&A, wrong MCQ, empty drill)."""
    await start_small_mock(pilot)
    screen = run_screen(pilot.app)
    mock_id = screen.mock_id
    for _ in range(2):
        clock.advance(seconds=10)
        await press(pilot, "ctrl+s", "enter")
    await press(pilot, "a", "enter")
    await answer_drill(pilot, drill_zeros(screen))
    await press(pilot, "enter")
    assert type(pilot.app.screen).__name__ == "MockReportScreen"
    return mock_id


async def test_review_these_makes_the_weakest_topics_items_due_now(db, clock):
    # Study the whole deck once (Easy), then move on a day: nothing is due.
    service = open_service(db, clock)
    try:
        for kind in ("qa", "mcq"):
            while (card := service.next_card(kind)) is not None:
                service.answer(card.card.card_id, 4, mode="study")
        clock.advance(days=1)
        assert service.due_counts().qa == 0 and service.due_counts().mcq == 0
    finally:
        service.db.close()

    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await finish_with_misses(pilot, clock)
        report = app.screen.report
        weak = {topic.topic for topic in report.weakest}
        assert weak and "softmax" in weak
        items = sorted({item for topic in report.weakest for item in topic.item_ids})
        assert "t-mcq-01" not in items  # #shapes was not asked
        assert "t-mcq-03" in items  # #scaling was missed; this item of the bank was not asked
        assert "r" in text_of(app, "#mock-report-review-hint")
        await press(pilot, "r")
        assert app.screen.reviewed == len(items)
        assert "✓" in text_of(app, "#mock-report-review-hint")

    service = open_service(db, clock)
    try:
        now = clock.now()
        for item_id in items:
            detail = service.item_detail(item_id)
            assert detail.card.due <= now, item_id
        assert service.due_counts().mcq == 2  # t-mcq-02 (asked, missed) and t-mcq-03 (same topic)
        untouched = service.item_detail("t-mcq-01")
        assert untouched.card.due > now
    finally:
        service.db.close()


async def test_export_writes_the_markdown_report_to_the_user_data_folder(db, clock, user_data):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        mock_id = await finish_with_misses(pilot, clock)
        await press(pilot, "e")
        path = app.screen.exported
    assert path == user_data / "reports" / f"mock-{mock_id}-20260105-0900.md"
    text = path.read_text(encoding="utf-8")
    assert text.startswith(f"# 模拟面试报告 #{mock_id}")
    assert "| 4 | 计算 |" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_export_toast_breaks_the_path_only_after_a_slash_80x24(db, clock, tmp_path, monkeypatch, lang):
    """At 80×24 the toast is 40 cells wide and folded the report's path inside its file name
    (`…/reports/mock-1-2` / `0261203-0552.md`), found in tmux. It breaks after a `/` now."""
    from textual.widgets._toast import Toast, ToastRack

    deep = tmp_path / "a-rather-long-user-data-folder" / "quizapp-data"
    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(deep))
    app = make_app(db_path=db, clock=clock, lang=lang)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await finish_with_misses(pilot, clock)
        await press(pilot, "e")
        path = str(app.screen.exported)
        for _ in range(200):
            await pilot.pause()
            if app.screen.get_child_by_type(ToastRack).query(Toast):
                break
        toast = app.screen.get_child_by_type(ToastRack).query(Toast).last()
        width = toast.content_region.width
        shown = [line for line in toast._notification.message.split("\n") if line]
        assert "".join(shown[1:]) == path  # the whole path, below the words
        for line in shown[1:-1]:
            assert line.endswith("/"), line
        assert all(len(line) <= width for line in shown), (width, shown)


# -- history ---------------------------------------------------------------------------------------------
async def test_history_lists_interviews_with_a_trend_and_reopens_a_report(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        first = await finish_with_misses(pilot, clock)
        await press(pilot, "escape")
        clock.advance(days=1)
        await start_small_mock(pilot)
        await press(pilot, "escape", "y")  # an abandoned one
        await press(pilot, "ctrl+o")
        assert type(app.screen).__name__ == "MockHistoryScreen"
        table = app.screen.query_one(DataTable)
        assert table.row_count == 2
        assert [s.status for s in app.screen.history] == ["abandoned", "completed"]
        assert "1 次" in text_of(app, "#mock-history-trend-text")
        assert not app.screen.query_one(ScoreBars).display  # one score is not a trend yet
        await press(pilot, "down", "enter")
        assert type(app.screen).__name__ == "MockReportScreen"
        assert app.screen.mock_id == first and app.screen.report.status == "completed"
        await settle(pilot)
        await press(pilot, "escape")
        assert type(app.screen).__name__ == "MockHistoryScreen"  # one Esc back to the history
        await press(pilot, "up", "c")  # continue the abandoned one from the history
        assert type(app.screen).__name__ == "MockRunScreen" and shown_position(app)[0] == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_history_says_it_is_loading_not_that_there_is_none(db, clock, monkeypatch, lang):
    """The trend line said "No finished mock interviews yet" until the history was read:
    in tmux under load, for a second or more after one had just been finished."""
    import threading

    from quizapp.srs.mock import MockService

    gate = threading.Event()
    real = MockService.history

    def held(self, *args, **kwargs):
        assert gate.wait(30)
        return real(self, *args, **kwargs)

    app = make_app(db_path=db, clock=clock, lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        await finish_with_misses(pilot, clock)
        monkeypatch.setattr(MockService, "history", held)
        await pilot.press("h")
        for _ in range(100):
            await pilot.pause()
            if type(app.screen).__name__ == "MockHistoryScreen" and text_of(app, "#mock-history-trend-text"):
                break
        waiting = text_of(app, "#mock-history-trend-text")
        gate.set()
        await settle(pilot)
        assert waiting.strip() == app.tr("session.loading")
        assert "1" in text_of(app, "#mock-history-trend-text")


async def test_history_trend_and_repeat(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        first = await finish_with_misses(pilot, clock)
        await press(pilot, "escape")
        clock.advance(days=1)
        await finish_with_misses(pilot, clock)
        await press(pilot, "h")
        assert app.screen.query_one(ScoreBars).display
        scores = [s.score for s in reversed(app.screen.history)]
        assert app.screen.query_one(ScoreBars).scores == scores and len(scores) == 2
        table = app.screen.query_one(DataTable)
        table.move_cursor(row=1)
        await press(pilot, "p")
        screen = run_screen(app)
        assert screen.mock_id != first
        mocks = mocks_of(db, clock)
        try:
            old, new = mocks.get(first), mocks.get(screen.mock_id)
            assert [(q.item_id, q.spec) for q in old.questions] == [(q.item_id, q.spec) for q in new.questions]
        finally:
            mocks.db.close()


# -- set-up -----------------------------------------------------------------------------------------------
async def test_setup_defaults_plan_and_validation(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        screen = app.screen
        assert "= 30:00（总时长 30:00）" in text_of(app, "#mock-setup-plan")
        topics = [tag for tag, _ in screen.topics]
        assert topics == ["basics", "complexity", "kv-cache", "multi-head", "scaling", "shapes", "softmax"]
        fill_form(app, {"n_qa": "0", "n_mcq": "0", "n_drill": "0"})
        await press(pilot, "ctrl+s")
        assert app.screen is screen
        assert "至少要有一道题" in text_of(app, "#mock-setup-errors")
        fill_form(app, {"n_qa": "5", "n_mcq": "4", "n_drill": "1", "total_minutes": "999"})
        await press(pilot, "ctrl+s")
        assert "“总时长”应在 1 到 240 之间" in text_of(app, "#mock-setup-errors")
        fill_form(app, {"total_minutes": "20"})
        await settle(pilot)
        assert "⚠" in text_of(app, "#mock-setup-plan")
    mocks = mocks_of(db, clock)
    try:
        assert mocks.history() == []
    finally:
        mocks.db.close()


async def test_a_kind_asked_no_questions_needs_no_valid_time_or_difficulty(db, clock):
    """Q&A set to 0 with its seconds left at 0 or blank started nothing: "Seconds per Q&A
    must be between 10 and 3600", about a field the interview never uses. Such fields take
    their default; a kind that is asked still needs valid values."""
    from quizapp.srs.mock import MockConfig

    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        screen = app.screen
        fill_form(app, {"n_qa": "0", "qa_seconds": "0", "n_drill": "0", "drill_seconds": "",
                        "drill_difficulty": "9", "n_mcq": "2", "mcq_seconds": "45"})
        result = screen.read_form()
        assert result.errors == []
        assert result.config is not None
        for name in ("qa_seconds", "drill_seconds", "drill_difficulty"):
            assert getattr(result.config, name) == MockConfig.model_fields[name].default
        assert (result.config.n_mcq, result.config.mcq_seconds) == (2, 45)
        await press(pilot, "ctrl+s")
        assert app.screen is not screen  # the interview started
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        fill_form(app, {"n_qa": "1", "qa_seconds": "0", "n_drill": "1", "drill_seconds": "5", "drill_difficulty": "9"})
        errors = app.screen.read_form().errors
        assert len(errors) == 3, errors  # Q&A's seconds, the drill's seconds and difficulty
        assert "“Seconds per Q&A” must be between 10 and 3600" in errors
        fill_form(app, {"n_qa": "1", "qa_seconds": "", "n_drill": "0"})
        assert len(app.screen.read_form().errors) == 1  # Q&A's blank seconds: it is asked


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_setup_errors_and_plan_are_on_screen_at_80x24(db, clock, lang):
    """The plan and a field's error sit under the form: below the topic list they were off
    the 80×24 screen, and ctrl+s seemed to do nothing (issue 27)."""
    app = make_app(db_path=db, clock=clock, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = app.screen
        visible = screen.region

        def on_screen(selector: str) -> bool:
            widget = screen.query_one(selector)
            return widget.display and visible.contains_region(widget.region) and widget.region.height > 0

        assert on_screen("#mock-setup-plan")
        fill_form(app, {"total_minutes": "0"})
        await press(pilot, "ctrl+s")
        assert app.screen is screen
        assert text_of(app, "#mock-setup-errors")
        assert on_screen("#mock-setup-errors")
        assert not screen.query_one("#mock-setup-plan").display  # no blank rows above the error


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_setup_has_one_scroller_at_80x24(db, clock, lang):
    """At 80×24 the page and the topic list both scrolled (English: two scrollbars, the list's
    end under the fold). The page fits the screen; only the topic list scrolls, and all of it,
    frame included, is on screen (issue 27)."""
    from textual.widgets import SelectionList

    app = make_app(db_path=db, clock=clock, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        await settle(pilot)
        screen = app.screen
        body = screen.query_one("#mock-setup-body")
        assert body.max_scroll_y == 0, body.virtual_size
        topics = screen.query_one(SelectionList)
        assert screen.region.contains_region(topics.region) and topics.region.height >= 5
        assert topics.max_scroll_y > 0  # the list scrolls its many topics itself
        for selector in ("#mock-setup-plan", "#mock-setup-seed", "#mock-setup-weak", "#mock-setup-topics-hint"):
            assert body.region.contains_region(screen.query_one(selector).region), selector


async def test_setup_topics_and_seed_option(db, clock):
    from textual.widgets import Checkbox, SelectionList

    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot, seed=42)
        screen = app.screen
        assert screen.query_one("#mock-setup-seed", Input).value == "42"
        assert screen.query_one("#mock-setup-weak", Checkbox).value is False
        assert "Planned" in text_of(app, "#mock-setup-plan")
        screen.query_one(SelectionList).select("complexity")
        fill_form(app, {"n_qa": "3", "n_mcq": "1", "n_drill": "0"}, seed="42")
        await press(pilot, "ctrl+s")
        run = run_screen(app)
        assert run.view is not None and [q.item_id for q in run.view.questions] == ["t-q06"]  # the only #complexity item
        assert "1/1 · Q&A" in text_of(app, "#mock-run-position")


async def test_every_binding_shows_in_the_footer_in_both_languages(db, clock):
    from quizapp.tui.widgets.keys_footer import KeysFooter

    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await start_small_mock(pilot)
        footer = " ".join(b.description for _, b, _, _ in app.screen.active_bindings.values() if b.show)
        assert "Submit" in footer and "Pause" in footer
        assert "Submit" in app.screen.query_one(KeysFooter).text()
        app.set_language("zh")
        await settle(pilot)
        footer = " ".join(b.description for _, b, _, _ in app.screen.active_bindings.values() if b.show)
        assert "提交" in footer and "退出（可继续）" in footer
        assert "提交" in app.screen.query_one(KeysFooter).text()
        assert "本题" in app.screen.query_one("#mock-q-clock").text


# -- catalogs ----------------------------------------------------------------------------------------------
def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_mock_catalogs_have_the_same_keys_and_placeholders():
    zh, en = mock_zh.MESSAGES, mock_en.MESSAGES
    assert sorted(set(zh) ^ set(en)) == []
    assert {key for key in zh if placeholders(zh[key]) != placeholders(en[key])} == set()


def test_mock_catalogs_do_not_override_other_strings():
    from quizapp.i18n.locales import en, zh

    for base, mock in ((zh.MESSAGES, mock_zh.MESSAGES), (en.MESSAGES, mock_en.MESSAGES)):
        clashes = {key for key in mock if key in base and base[key] != mock[key]}
        assert clashes == set()


def used_keys() -> set[str]:
    """Every catalog key the mock screens use: literal ones and the f-string families."""
    from quizapp.tui.screens.mock_setup import COUNT_ROWS, INT_FIELDS

    keys: set[str] = set()
    literal = re.compile(r"""["'](mock\.[a-z_]+\.[a-z0-9_.]+)["']""")
    for path in MOCK_FILES:
        keys.update(key for key in literal.findall(path.read_text(encoding="utf-8")) if not key.endswith("."))
    keys |= {f"mock.setup.field.{name}" for name in (*INT_FIELDS, "seed", "favour_weak")}
    keys |= {f"mock.setup.count.{kind}" for kind, _ in COUNT_ROWS}
    keys |= {f"mock.kind.{kind}" for kind in ("qa", "mcq", "drill")}
    keys |= {f"mock.status.{status}" for status in ("in_progress", "abandoned", "completed")}
    keys |= {f"mock.report.{name}_title" for name in ("questions", "points", "topics", "weak")}
    keys |= {f"mock.history.col.{c}" for c in ("id", "date", "status", "score", "time", "answered", "seed")}
    return keys


def binding_keys() -> set[str]:
    from quizapp.tui.screens import mock_history, mock_quit, mock_report, mock_run, mock_setup
    from quizapp.tui.widgets import drill_pane, mcq_pane, qa_pane

    owners = [mock_setup.MockSetupScreen, mock_run.MockRunScreen, mock_quit.QuitMockModal,
              mock_quit.FinishMockModal, mock_report.MockReportScreen, mock_history.MockHistoryScreen,
              qa_pane.QAPane, mcq_pane.MCQPane, drill_pane.DrillPane]
    ids = set()
    for owner in owners:
        for binding in owner.BINDINGS:
            assert isinstance(binding, Binding) and binding.id, f"{owner.__name__}: every binding needs an id"
            ids.add(f"binding.{binding.id}")
    return ids


@pytest.mark.parametrize("module", [mock_zh, mock_en])
def test_every_key_the_mock_screens_use_exists(module):
    from quizapp.i18n.locales import en, zh

    base = zh.MESSAGES if module is mock_zh else en.MESSAGES
    known = set(module.MESSAGES) | set(base)
    missing = (used_keys() | binding_keys()) - known
    assert sorted(missing) == []
    unused = set(module.MESSAGES) - used_keys() - binding_keys()
    assert sorted(unused) == []


# -- entry points -------------------------------------------------------------------------


async def test_home_key_opens_mock_setup(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "i")
        assert type(app.screen).__name__ == "MockSetupScreen"
        await press(pilot, "escape")
        assert app.screen.id == "home"


async def test_start_mock_with_a_seed(db, clock):
    """`quizapp --start mock --seed 42`, as the CLI builds it."""
    app = make_app(db_path=db, clock=clock, start="mock", start_options={"seed": 42})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert type(app.screen).__name__ == "MockSetupScreen"
        assert app.screen.query_one("#mock-setup-seed", Input).value == "42"


def test_countdown_formats_time_left_rounded_up_and_time_used_rounded():
    from quizapp.i18n.formatting import clock

    left = [clock(s, round_up=True) for s in (240, 239.2, 61, 0.2, 0, -5)]
    assert left == ["4:00", "4:00", "1:01", "0:01", "0:00", "0:00"]
    assert [clock(s) for s in (10.4, 59.6, 3600)] == ["0:10", "1:00", "60:00"]


async def test_drill_cells_typed_ahead_land_where_tab_moved(db, clock):
    """Keys arriving in a burst (a fast typist, a paste into the terminal): each tab moves to
    the next cell before the following digits are handled, as on the Drill screen."""
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        fill_form(app, {**SMALL, "n_qa": "0", "n_mcq": "0"})
        await press(pilot, "ctrl+s")
        screen = run_screen(app)
        assert shown_position(app)[1] == "计算"
        cells = [value for entry in screen.pane.sheet.entries() for value in drill_answer(screen)[entry.spec.name].split()]
        screen.pane.sheet.entries()[0].focus_first()
        await settle(pilot)
        names = {".": "full_stop", "-": "minus", "\t": "tab", "\n": "enter"}
        for char in "\t".join(cells) + "\n":
            app.post_message(events.Key(names.get(char, char), char))
        await settle(pilot)
        assert "100%" in text_of(app, ".sheet-result")


async def test_finish_now_asks_then_goes_to_the_report(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await start_small_mock(pilot)
        await type_text(pilot, "方差 饱和")
        clock.advance(seconds=30)
        await press(pilot, "ctrl+s", "enter")  # the first question answered
        assert "ctrl+f" in footer_text(app) or "^f" in footer_text(app)
        await press(pilot, "ctrl+f")
        assert type(app.screen).__name__ == "FinishMockModal"
        await press(pilot, "n")  # not yet
        assert type(app.screen).__name__ == "MockRunScreen" and answering(app)
        await press(pilot, "ctrl+f", "y")
        assert type(app.screen).__name__ == "MockReportScreen"
        report = app.screen.report
        assert report.status == "completed"
        assert [row.answered for row in report.questions] == [True, False, False, False]


async def test_setup_names_the_topics_as_stats_does(db, clock):
    from textual.widgets import SelectionList

    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        topics = app.screen.query_one(SelectionList)
        prompts = [str(topics.get_option_at_index(i).prompt) for i in range(topics.option_count)]
        assert any(p.startswith("KV cache (") for p in prompts)
        assert not any(p.startswith("kv-cache") for p in prompts)


async def test_a_report_reopened_from_the_history_leaves_in_one_esc_each(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await finish_with_misses(pilot, clock)
        assert type(app.screen).__name__ == "MockReportScreen"
        await press(pilot, "h")  # the history replaces the report it was opened from
        assert type(app.screen).__name__ == "MockHistoryScreen"
        await settle(pilot)
        await press(pilot, "enter")
        assert type(app.screen).__name__ == "MockReportScreen"
        await settle(pilot)
        await press(pilot, "escape")
        assert type(app.screen).__name__ == "MockHistoryScreen"
        await press(pilot, "escape")
        # Back to where the interview was set up, not to the report again under the history.
        assert type(app.screen).__name__ == "MockSetupScreen"


async def test_the_next_question_shows_loading_and_its_clock_starts_once_it_is_drawn(db, clock, monkeypatch):
    # The body under "Question 9/10" was blank while the next question was built, and the
    # calculation appeared with its clock already running (issue 27 item 5).
    from quizapp.tui.widgets.drill_pane import DrillPane

    seen: list[tuple[bool, str]] = []
    real_compose = DrillPane.compose

    def slow_compose(self):
        screen = run_screen(self.app)
        seen.append((screen.query_one("#mock-loading").display, text_of(self.app, "#mock-loading")))
        clock.advance(seconds=30)  # building the sheet takes a while
        yield from real_compose(self)

    monkeypatch.setattr(DrillPane, "compose", slow_compose)
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        fill_form(app, {**SMALL, "n_qa": "0"})
        await press(pilot, "ctrl+s")
        screen = run_screen(app)
        await press(pilot, "c")  # the MCQ
        await press(pilot, "enter")  # on to the calculation
        assert shown_position(app) == (2, "计算")
        assert seen and seen[-1][0] and seen[-1][1].strip()  # a loading line, not a blank body
        assert screen.question_used() == 0  # the 30 s of building are not the question's
        assert not screen.query_one("#mock-loading").display


def test_the_question_bar_names_its_topics_and_leaves_out_the_drill_id():
    # At 80×24 the bar said `1/3 · Q&A   #soft…` (raw ids) and `3/3 · Calculation…` (its
    # `#drill:softmax` cut); set-up and Stats name the topics (the 80×24 tour of issue 27).
    from quizapp.tui.i18n import Translator
    from quizapp.tui.screens.mock_run import position_line, topics_line

    en, zh = Translator("en"), Translator("zh")
    assert position_line(en, 0, 3, "qa") == "1/3 · Q&A"
    assert topics_line(en, ["kv-cache", "softmax"]) == "#KV cache #Softmax"
    assert position_line(en, 2, 3, "drill") == "3/3 · Calculation"
    assert topics_line(en, ["drill:softmax"]) == ""
    assert position_line(zh, 0, 3, "qa") == "第 1/3 题 · 问答"
    assert topics_line(zh, ["kv-cache"]) == "#KV 缓存"
    assert topics_line(en, ["no-such-tag"]) == "#no-such-tag"


LONG_POINT = ("Dividing by the square root of d_k brings the variance of the scores back to one, "
              "so softmax does not saturate")


def continuation_indents(lines: list[str], marker: str) -> list[int]:
    """How far each line after the one holding `marker` is indented, up to a blank line."""
    start = next(i for i, line in enumerate(lines) if marker in line)
    first = lines[start].index(marker) + len(marker)
    rest = []
    for line in lines[start + 1:]:
        if not line.strip():
            break
        rest.append(len(line) - len(line.lstrip()) - first)
    return rest


async def test_a_wrapped_key_point_keeps_its_hanging_indent_at_80x24(db, clock):
    """Its next lines start under its text, not under its number (review and report)."""
    from textual.geometry import Region

    from quizapp.tui.widgets.qa_pane import point_line

    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_small_mock(pilot)
        await type_text(pilot, "softmax")
        await press(pilot, "ctrl+s")
        row = app.screen.query_one("#mock-point-0", Static)
        row.update(point_line(app.tr, 0, LONG_POINT, True, "stated", "the variance", corrected=False))
        await settle(pilot)
        lines = [strip.text.rstrip() for strip in row.render_lines(Region(0, 0, row.size.width, row.size.height))]
        assert len(lines) >= 3, lines  # the point wraps, then the evidence
        assert continuation_indents(lines, "1 ☑ ") == [0] * (len(lines) - 1), lines


async def reviewed_answer(pilot):
    """A small mock's Q&A answer typed and scored (its key points under review): the pane,
    its shown key-point rows, and whether a widget lies wholly inside the pane's view."""
    from quizapp.tui.widgets.qa_pane import QAPane

    await start_small_mock(pilot)
    await type_text(pilot, "softmax")
    await press(pilot, "ctrl+s")
    await settle(pilot)
    pane = pilot.app.screen.query_one(QAPane)
    points = [row for row in pane.query(".mock-point") if row.display]
    view = pane.content_region

    def inside(widget) -> bool:
        return view.y <= widget.region.y and widget.region.bottom <= view.bottom

    return pane, points, inside


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_every_key_point_and_the_covered_figure_are_reachable_by_keys_at_80x24(db, clock, lang):
    """At 80×24 only point 1 showed, and PageDown, j and the wheel did not scroll (issue 27
    item 2). The figure and the points are on screen after submitting; the keys scroll the
    pane to the last point and back up to the reference answer."""

    app = make_app(db_path=db, clock=clock, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        pane, points, inside = await reviewed_answer(pilot)
        assert len(points) >= 3

        score = pane.query_one(".mock-score")
        assert inside(score) and inside(points[0]), (score.region, pane.content_region)
        for key in ("pagedown", "j"):
            top = pane.scroll_y
            for _ in range(30):
                if inside(points[-1]) or pane.scroll_y >= pane.max_scroll_y:
                    break
                await press(pilot, key)
            assert inside(points[-1]), (key, points[-1].region, pane.content_region)
            await press(pilot, "home" if key == "pagedown" else "k")
            await settle(pilot)
            assert pane.scroll_y < max(top, pane.max_scroll_y) or pane.max_scroll_y == 0
        await press(pilot, "home")
        await settle(pilot)
        assert pane.scroll_y == 0  # the reference answer above, a key away


async def test_a_point_ticked_by_its_number_is_brought_into_view_at_80x24(db, clock):
    # Pressing the number of a point scrolled off ticked it out of sight (issue 27 tour).

    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        _pane, points, inside = await reviewed_answer(pilot)
        await press(pilot, "home")
        await settle(pilot)
        last = points[-1]
        assert not inside(last), "the last point fits without scrolling: nothing to bring into view"
        ticked = "-ticked" in last.classes
        await press(pilot, str(len(points)))
        await settle(pilot)
        assert ("-ticked" in last.classes) != ticked
        assert inside(last), last.region


async def test_setup_units_agree_with_the_numbers_typed(db, clock):
    # "1 questions ×" stood after a count of 1 (found on the issue 27 tour).
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)

        def unit(selector: str) -> str:
            return str(app.screen.query_one(selector, Static).render())

        fill_form(app, {"n_qa": "1", "n_mcq": "2", "n_drill": "", "total_minutes": "1"})
        await settle(pilot)
        assert unit("#mock-setup-times-qa") == "question ×"
        assert unit("#mock-setup-times-mcq") == "questions ×"
        assert unit("#mock-setup-times-drill") == "questions ×"  # not a number yet: as for many
        assert unit("#mock-setup-unit-total") == "minute"
        fill_form(app, {"n_qa": "3"})
        await settle(pilot)
        assert unit("#mock-setup-times-qa") == "questions ×"


async def test_the_setup_form_follows_the_terminal_size(db, clock):
    """Under 30 rows the fields lose their borders (one line each), under 100 columns the
    topics go below the form: from the first frame, and again after each resize."""
    from textual.widgets import Checkbox

    def fields(app) -> list[bool]:
        return [f.compact for f in app.screen.query(".mock-setup-input, #mock-setup-weak")
                if isinstance(f, (Input, Checkbox))]

    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = app.screen
        assert screen.has_class("-short", "-narrow") and len(fields(app)) == 10 and all(fields(app))
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        assert not screen.has_class("-short") and not screen.has_class("-narrow") and not any(fields(app))
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert screen.has_class("-short", "-narrow") and all(fields(app))


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_topics_line_is_whole_at_80x24(db, clock, lang):
    """Beside the two clocks the topics were cut to `#Com…` at 80 columns (seen in a mock at
    80×24). They have the line under the bar: every name is on screen, wrapped if need be."""
    from dataclasses import replace

    from textual.geometry import Region

    from quizapp.content.loader import load_builtin
    from quizapp.tui.screens.mock_run import topics_line

    app = make_app(db_path=db, clock=clock, lang=lang)
    shipped = load_builtin().items
    widest = max((item.tags for item in shipped), key=lambda tags: len(topics_line(app.tr, tags)))
    every = sorted({tag for item in shipped for tag in item.tags})
    async with app.run_test(size=(80, 24)) as pilot:
        await start_small_mock(pilot)
        screen = run_screen(app)
        assert screen.view is not None and screen.position is not None
        for tags in (widest, every):
            screen.view.questions[screen.position] = replace(screen.current, tags=tags)
            screen.render_texts()
            await settle(pilot)
            row = screen.query_one("#mock-run-topics", Static)
            lines = [strip.text.strip() for strip in row.render_lines(Region(0, 0, row.size.width, row.size.height))]
            assert " ".join(lines) == topics_line(app.tr, tags), lines
            assert row.display and screen.region.contains_region(row.region)
        assert len(lines) > 1  # every topic at once wraps rather than runs off the edge
