"""Cram in the TUI: Home offers it in the last 7 days before the interview; the set-up
screen chooses the set; the session leaves the schedule alone and undoes an answer."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

import pytest
from textual.widgets import Input, OptionList

from quizapp.srs.clock import FixedClock
from quizapp.tui.app import make_app
from quizapp.tui.screens.cram import CramScreen
from quizapp.tui.screens.cram_setup import CramSetupScreen
from tests.tui.conftest import SIZE, START, make_db, open_service, press, settle
from tests.tui.test_snapshots import run

SIZES = {"80x24": (80, 24), "120x36": (120, 36)}
FSRS = "item_id, state, step, stability, difficulty, due, last_review, reps, lapses"


def interview_in(days: int) -> str:
    return (START + timedelta(days=days)).date().isoformat()


def studied_db(tmp_path, clock, days: int = 5, **settings):
    """The fixture deck with its first four Q&A cards studied three days ago."""
    path = make_db(tmp_path / "cram.db", clock, interview_date=interview_in(days), **settings)
    service = open_service(path, FixedClock(current=START - timedelta(days=3)))
    try:
        done: list[int] = []
        for rating in (3, 3, 1, 4):
            card = service.next_card("qa", exclude=done)
            done.append(card.card.card_id)
            service.answer(card.card.card_id, rating, mode="study")
            service.clock.advance(minutes=30)
    finally:
        service.db.close()
    return path


def schedule(path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT {FSRS} FROM cards ORDER BY id").fetchall()


def modes(path) -> list[int]:
    with sqlite3.connect(path) as conn:
        return [row[0] for row in conn.execute("SELECT mode FROM reviews ORDER BY id")]


def menu_ids(app) -> list[str]:
    menu = app.screen.query_one("#home-menu", OptionList)
    return [menu.get_option_at_index(i).id for i in range(menu.option_count)]


@pytest.mark.parametrize(("days", "offered"), [(5, True), (7, True), (0, True), (8, False), (30, False)])
async def test_home_offers_cram_only_in_the_last_seven_days(tmp_path, clock, days, offered):
    db = make_db(tmp_path / "home.db", clock, interview_date=interview_in(days))
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert ("cram" in menu_ids(app)) is offered
        await press(pilot, "c")
        assert isinstance(app.screen, CramSetupScreen) is offered


async def test_no_interview_date_no_cram(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "cram" not in menu_ids(app)


async def open_setup(pilot) -> CramSetupScreen:
    await settle(pilot)
    await press(pilot, "c")
    assert isinstance(pilot.app.screen, CramSetupScreen)
    return pilot.app.screen


async def test_cram_session_leaves_the_schedule_and_undo_works(tmp_path, clock):
    db = studied_db(tmp_path, clock)
    before = schedule(db)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        await press(pilot, "down", "down")  # weakest N (20 by default)
        assert app.screen.query_one(Input).value == "20"
        await press(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, CramScreen) and len(screen.pending) == 4
        first = screen.current.card.item_id
        labels = [str(screen.query_one(f"#rate-{r}").label) for r in (1, 2, 3, 4)]
        assert labels == ["1 Again", "2 Hard", "3 Good", "4 Easy"]  # no interval: the schedule stays
        await press(pilot, "space", "3")
        assert len(screen.history) == 1 and modes(db)[-1] == 4
        await press(pilot, "u")
        assert screen.history == [] and screen.current.card.item_id == first
        assert modes(db).count(4) == 0
        # Again brings a card back at the end; every card passed ends the session.
        await press(pilot, "space", "1")
        for _ in range(4):
            await press(pilot, "space", "3")
        assert screen.phase == "summary" and len(screen.history) == 5
    assert schedule(db) == before
    assert modes(db).count(4) == 5


async def test_cram_with_reschedule_on_moves_the_cards(tmp_path, clock):
    db = studied_db(tmp_path, clock, cram_reschedules=True)
    before = schedule(db)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        await press(pilot, "down", "down", "enter")
        screen = app.screen
        await press(pilot, "space", "3")
        assert len(screen.history) == 1
    assert schedule(db) != before and modes(db)[-1] == 0


async def test_bad_values_are_one_line_notices(tmp_path, clock):
    db = studied_db(tmp_path, clock)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        setup = await open_setup(pilot)
        await press(pilot, "enter")  # topics, none typed
        await press(pilot, "down", "down")
        setup.query_one(Input).value = "lots"
        await press(pilot, "enter")
        setup.query_one(Input).value = "0"
        await press(pilot, "enter")
        await press(pilot, "up")
        setup.query_one(Input).value = "no-such-topic"
        await press(pilot, "enter")
        await settle(pilot)
        notices = [n.message for n in app._notifications]
        assert notices == ["name at least one topic", "Type a whole number.", "the number of cards must be 1–500",
                           "No card in that set."]
        assert app.screen is setup


CRAM_STATES = [("cram_setup", ()), ("cram_question", ("down", "down", "enter")),
               ("cram_answer", ("down", "down", "enter", "space"))]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("name", "keys"), CRAM_STATES, ids=[s[0] for s in CRAM_STATES])
def test_cram_screens_at_size(snap_compare, tmp_path, clock, size, name, keys):
    db = studied_db(tmp_path, clock)
    app = make_app(db_path=db, clock=clock, lang="en")
    assert snap_compare(app, run_before=run("c", *keys), terminal_size=SIZES[size])


async def test_ctrl_r_lets_the_answers_count_and_back(tmp_path, clock):
    from tests.tui.conftest import stored_settings

    db = studied_db(tmp_path, clock)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        setup = await open_setup(pilot)
        await press(pilot, "ctrl+r")
        assert setup.reschedule and "reschedule the cards" in str(setup.query_one("#cram-heading").render())
        assert stored_settings(db, clock).cram_reschedules is True
        await press(pilot, "down", "down", "enter")
        assert app.screen.reschedule is True
        await press(pilot, "escape", "ctrl+r")
        assert stored_settings(db, clock).cram_reschedules is False


async def test_stats_json_and_text_count_cram_answers_apart(tmp_path, clock, capsys):
    import json

    from quizapp.cli.main import main

    db = studied_db(tmp_path, clock)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        await press(pilot, "down", "down", "enter", "space", "3", "space", "1")
    capsys.readouterr()
    assert main(["--db", str(db), "stats", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["cram_reviews"] == 2 and figures["reviews_total"] == 4
    assert main(["--lang", "en", "--db", str(db), "stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "cram: 2 answers (not in the reviews above)" in lines
    assert next(line for line in lines if line.startswith("all time:")).startswith("all time: 4 reviews,")


async def test_undo_of_a_vanished_answer_is_refused_with_a_notice(tmp_path, clock):
    db = studied_db(tmp_path, clock)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        await press(pilot, "down", "down", "enter", "space", "3")
        screen = app.screen
        shown = screen.current.card.item_id
        with sqlite3.connect(db) as conn:  # gone meanwhile (another window undid it)
            conn.execute("DELETE FROM reviews WHERE mode = 4")
        await press(pilot, "u")
        assert "Nothing to undo: that answer is already gone." in [n.message for n in app._notifications]
        assert len(screen.history) == 1 and screen.current.card.item_id == shown and len(screen.pending) == 3


async def test_cram_takes_multiple_choice_cards_too_and_leaves_their_schedule(tmp_path, clock):
    """Ctrl+O on the set-up switches the set to MCQs: the Multiple-choice screen over the set,
    each choice stored as a cram answer, the schedule as it was, undo as in Q&A."""
    from quizapp.tui.screens.cram import CramQuizScreen

    path = make_db(tmp_path / "mcq.db", clock, interview_date=interview_in(3))
    service = open_service(path, FixedClock(current=START - timedelta(days=3)))
    try:
        done: list[int] = []
        for rating in (3, 1):
            card = service.next_card("mcq", exclude=done)
            done.append(card.card.card_id)
            service.answer(card.card.card_id, rating, mode="quiz")
    finally:
        service.db.close()
    before = schedule(path)
    app = make_app(db_path=path, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        setup = await open_setup(pilot)
        await press(pilot, "ctrl+o")
        assert setup.item_kind == "mcq" and "multiple choice" in str(setup.query_one("#cram-heading").render())
        await press(pilot, "down", "down", "enter")
        screen = app.screen
        assert isinstance(screen, CramQuizScreen) and len(screen.pending) == 2
        assert {screen.current.card.card_id} <= set(done)
        right = screen.current.item["answer"]
        await press(pilot, right.lower())
        verdict = str(screen.query_one("#quiz-verdict").render())
        assert "the schedule stays" in verdict and "next in" not in verdict
        assert modes(path)[-1] == 4
        await press(pilot, "u")
        assert screen.history == [] and modes(path).count(4) == 0
        await press(pilot, right.lower(), "space")
        await press(pilot, screen.current.item["answer"].lower(), "space")
        assert screen.phase == "summary"
    assert schedule(path) == before and modes(path).count(4) == 2
