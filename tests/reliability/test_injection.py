"""Text is text: markup and escape sequences in content are shown as written, never obeyed.

Every field type of a deck carries the classic injections — a click action that quits the
app, a link, an unbalanced closing tag (MarkupError) — and the app must show them
literally on every screen that shows that field. Terminal escapes (ANSI/OSC) are refused
by the loader and stripped from CLI output.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.reliability.conftest import quizapp
from tests.tui.conftest import palette_hits, press, settle

# The screens show what the database gives back: on SQLite and on PostgreSQL (the tests
# that open one).
pytestmark = pytest.mark.both_backends

CLICK = "[@click=app.quit]X[/]"
LINK = "[link=https://evil.example]Y[/link]"
CLOSE = "[/]"
INJECTIONS = f"{CLICK} {LINK} {CLOSE}"

DECK = f"""
qa:
  - id: evil-qa
    source_no: 99
    group: "G {CLICK}"
    section: "S {CLOSE}"
    question: "Question {INJECTIONS}"
    answer: "Answer {INJECTIONS}"
    long_answer: "Long {INJECTIONS}"
    key_points:
      - text: "Point {INJECTIONS}"
        keywords: ["kw {CLICK}"]
      - text: "Second {LINK}"
        keywords: [second]
      - text: "Third {CLOSE}"
        keywords: [third]
    tags: ["{CLICK}", "{CLOSE}"]
mcq:
  - id: evil-mcq
    question: "Choice {INJECTIONS}"
    options: ["{CLICK}", "{LINK}", "{CLOSE} C", "D [bold]"]
    answer: A
    explanation: "Because {INJECTIONS}"
    tags: ["{LINK}"]
    source: "{CLICK}"
"""


@pytest.fixture
def evil_deck(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "content"
    folder.mkdir()
    (folder / "evil.yaml").write_text(DECK, encoding="utf-8")
    monkeypatch.setattr("quizapp.srs.bootstrap.content_dir", lambda: folder)
    return folder


def screen_text(app) -> str:
    """The plain text every displayed widget of the current screen renders."""
    texts = []
    for widget in app.screen.query("*"):
        if not widget.display:
            continue
        try:
            texts.append(str(widget.render()))
        except Exception:  # containers and widgets that render children only
            continue
    return " ".join(" ".join(texts).split())


def assert_literal(app, *needles: str) -> None:
    assert app.is_running, "the app quit"
    shown = screen_text(app)
    for needle in needles:
        assert needle in shown, f"{needle!r} not shown literally in {shown[:2000]!r}"


def test_the_deck_is_valid_content(evil_deck):
    from quizapp.content.loader import load_dirs

    content = load_dirs([evil_deck])
    assert content.ok, content.errors
    assert {item.id for item in content.items} == {"evil-qa", "evil-mcq"}


async def test_study_shows_every_qa_field_literally(evil_deck, tmp_path, new_db):
    from quizapp.tui.app import make_app

    app = make_app(db_path=new_db, lang="en", start="study")
    async with app.run_test(size=(120, 50)) as pilot:
        await settle(pilot)
        assert_literal(app, "Question", CLICK, "#" + CLICK, "S " + CLOSE)
        await press(pilot, "space", "l")
        assert_literal(app, "Answer", "Point", "Long", LINK, "Third " + CLOSE)
        await press(pilot, "3")
        assert app.is_running


async def test_quiz_options_and_explanation_are_literal_and_a_click_does_not_quit(evil_deck, tmp_path, new_db):
    from quizapp.tui.app import make_app

    app = make_app(db_path=new_db, lang="en", start="quiz")
    async with app.run_test(size=(120, 50)) as pilot:
        await settle(pilot)
        assert_literal(app, "Choice", "A. " + CLICK, "B. " + LINK, "C. " + CLOSE, "D [bold]")
        await pilot.click("#quiz-opt-A", offset=(6, 0))  # on the would-be click action
        await settle(pilot)
        assert_literal(app, "Because", CLICK)


async def test_browse_and_palette_show_items_literally(evil_deck, tmp_path, new_db):
    from quizapp.tui.app import make_app

    app = make_app(db_path=new_db, lang="en", start="browse")
    async with app.run_test(size=(120, 50)) as pilot:
        await settle(pilot)
        from textual.widgets import Input

        app.screen.query_one(Input).value = "evil"  # one search, not one per keystroke
        await settle(pilot)
        await press(pilot, "down", "enter")
        await settle(pilot)
        assert app.is_running
        head = str(app.screen.query_one("#browse-detail-head", Static).render())
        assert CLICK in head or LINK in head
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Choice")
        await palette_hits(pilot)  # the palette's own workers searched and drew the evil items
        assert app.is_running


async def test_mock_setup_topics_are_literal(evil_deck, tmp_path, new_db):
    from quizapp.tui.app import make_app

    app = make_app(db_path=new_db, lang="en", start="mock")
    async with app.run_test(size=(120, 50)) as pilot:
        await settle(pilot)
        from textual.widgets import SelectionList

        topics = app.screen.query_one(SelectionList)
        prompts = [str(topics.get_option_at_index(i).prompt) for i in range(topics.option_count)]
        assert f"{LINK} (1)" in prompts and f"{CLICK} (1)" in prompts
        topics.focus()
        await press(pilot, "down", "space")  # selecting and drawing them is fine too
        assert app.is_running


def test_content_list_prints_markup_literally(evil_deck, tmp_path):
    result = quizapp("content", "list", "--content", str(evil_deck))
    assert result.returncode == 0, result.stderr
    assert f"Question {INJECTIONS}" in result.stdout


def test_terminal_escapes_are_refused_and_stripped_from_cli_output(tmp_path):
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "title.yaml").write_text(
        'mcq:\n  - {id: esc-1, question: "T \\e]0;pwned\\a \\e[2J", options: [a, b, c, d], answer: A,'
        " explanation: e, tags: [t], source: me}\n", encoding="utf-8")
    # A file name can carry escapes too: the file is not loaded, and the CLI names it with
    # its escapes spelt out (tests/reliability/test_deck_file_names.py).
    (folder / "evil\x1b]0;pwned\x07.yaml").write_text("qa: 3\n", encoding="utf-8")
    check = quizapp("content", "check", "--content", str(folder))
    assert check.returncode == 1
    assert "mcq[0].question: contains the control character U+001B" in check.stdout
    assert r"evil\x1b]0;pwned\x07.yaml" in check.stdout
    listed = quizapp("content", "list", "--content", str(folder))
    for stream in (check.stdout, check.stderr, listed.stdout, listed.stderr):
        assert not any(ch in stream for ch in "\x1b\x07\x9b\x00")
    assert "esc-1" not in listed.stdout
    assert sys.platform != "win32"
