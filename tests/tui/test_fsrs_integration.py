"""FSRS through the UI: what the app stores is what the `fsrs` package computes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fsrs import Card, Rating, Scheduler
from textual.widgets import Input

from quizapp.tui.app import make_app
from tests.tui.conftest import SIZE, START, make_db, open_service, press, settle


def scheduler(retention: float = 0.9) -> Scheduler:
    return Scheduler(
        desired_retention=retention,
        learning_steps=(timedelta(minutes=1), timedelta(minutes=10)),
        relearning_steps=(timedelta(minutes=10),),
        enable_fuzzing=False,
    )


def stored_card(db, clock, item_id: str):
    service = open_service(db, clock)
    try:
        return service.item_detail(item_id).card
    finally:
        service.db.close()


async def study_now(db, clock, item_id: str, rating: str) -> None:
    """Open the app, study one item from Browse's "study now", rate it, quit."""
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_mode("browse", item_id=item_id)
        await settle(pilot)
        await press(pilot, "space")
        assert app.screen.current.card.item_id == item_id
        await press(pilot, "space", rating)
        assert app.screen.phase == "summary"


async def test_stored_state_equals_fsrs_for_the_same_reviews(tmp_path, clock):
    db = make_db(tmp_path / "f.db", clock, new_per_day=1)
    expected = Card()
    fsrs = scheduler()

    def review(rating: int) -> None:
        nonlocal expected
        expected, _ = fsrs.review_card(expected, Rating(rating), review_datetime=clock.now())

    # Day 1, one study session: Again, then the two learning steps (the card comes back).
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.current.card.item_id == "t-q01"
        await press(pilot, "space", "1")
        review(1)
        assert app.screen.current.card.item_id == "t-q01"  # back within the session
        clock.advance(minutes=2)
        await press(pilot, "space", "3")
        review(3)
        assert app.screen.current.card.item_id == "t-q01"
        clock.advance(minutes=11)
        await press(pilot, "space", "3")
        review(3)
        assert app.screen.phase == "summary"  # graduated to review

    # Later reviews on later days: Hard, a lapse, relearning.
    for days, minutes, rating in ((3, 0, 2), (10, 0, 1), (0, 12, 3), (20, 0, 4)):
        clock.advance(days=days, minutes=minutes)
        await study_now(db, clock, "t-q01", str(rating))
        review(rating)

    card = stored_card(db, clock, "t-q01")
    assert card.state == int(expected.state)
    assert card.step == expected.step
    assert card.stability == pytest.approx(expected.stability, rel=1e-9)
    assert card.difficulty == pytest.approx(expected.difficulty, rel=1e-9)
    assert card.due == expected.due
    assert card.last_review == expected.last_review
    assert card.reps == 7 and card.lapses == 1


async def change_retention(db, clock, retention: str) -> None:
    app = make_app(db_path=db, clock=clock, start="settings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        field = app.screen.query_one("#field-desired_retention", Input)
        field.focus()
        await press(pilot, "home", "ctrl+k")
        await pilot.press(*retention)
        await press(pilot, "ctrl+s")


async def shown_intervals(db, clock, item_id: str) -> tuple[dict[int, timedelta], list[str]]:
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_mode("browse", item_id=item_id)
        await settle(pilot)
        await press(pilot, "space", "space")
        labels = [str(app.screen.query_one(f"#rate-{r}").label) for r in (1, 2, 3, 4)]
        return dict(app.screen.preview), labels


async def test_intervals_change_with_desired_retention(db, clock):
    await study_now(db, clock, "t-q24", "4")  # Easy: straight to review
    clock.advance(days=8)
    at_90, labels_90 = await shown_intervals(db, clock, "t-q24")
    await change_retention(db, clock, "0.8")
    at_80, labels_80 = await shown_intervals(db, clock, "t-q24")

    # Lower desired retention → longer intervals for a remembered card.
    assert at_80[3] > at_90[3] and at_80[4] > at_90[4]
    assert labels_80[2] != labels_90[2]
    # And both are exactly what fsrs computes.
    card, _ = scheduler(0.9).review_card(Card(), Rating.Easy, review_datetime=START)
    for retention, shown in ((0.9, at_90), (0.8, at_80)):
        for rating in (1, 2, 3, 4):
            reviewed, _ = scheduler(retention).review_card(card, Rating(rating), review_datetime=clock.now())
            assert shown[rating] == reviewed.due - clock.now()
