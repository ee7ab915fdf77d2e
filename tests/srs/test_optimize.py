"""Personal FSRS parameters from a simulated learner with known parameters (deterministic).

The learner's memory follows `TRUE_PARAMETERS` (the `fsrs` scheduler and a seeded random
recall model, tests/srs/simulated_learner.py); the app schedules with the defaults."""

from __future__ import annotations

import itertools
import json
import math
import re
from datetime import UTC, datetime, timedelta

import pytest

from quizapp.srs import optimize
from quizapp.srs.calibration import EDGES, calibrate, recall_range, wilson
from quizapp.srs.fsrs_parameters import DEFAULTS, parameters_in_force, recall_curve
from quizapp.srs.optimize import MIN_USABLE_REVIEWS, FitStatus, NotEnoughReviews
from quizapp.srs.review_history import histories, training_set
from quizapp.srs.scheduling import make_scheduler
from quizapp.srs.settings import setting_problem
from quizapp.srs.stats import study_stats
from tests.srs.learner_db import add_learner
from tests.srs.simulated_learner import TRUE_PARAMETERS, SimulatedReview, simulate

# The tests that open a database (the srs fixtures) run on SQLite and on PostgreSQL.
pytestmark = pytest.mark.both_backends

# Before the services' clock (2026-03-02), so every simulated review is in the past.
PAST = datetime(2025, 6, 1, 9, 0, tzinfo=UTC)


def rows(reviews: list[SimulatedReview]) -> list[tuple[int, int, int]]:
    ordered = sorted(reviews, key=lambda r: (r.card_id, r.reviewed_at))
    return [(r.card_id, round(r.reviewed_at.timestamp() * 1_000_000), r.rating) for r in ordered]


def learner(reviews: int, seed: int, **kwargs):
    return histories(rows(simulate(reviews // 12, reviews, seed=seed, **kwargs)))


def test_fitted_parameters_predict_held_out_reviews_better_than_the_defaults():
    train = training_set(learner(6000, seed=1))
    held_out = training_set(learner(6000, seed=2))  # other cards, another draw of the same learner
    parameters, defaults, fitted, in_force = optimize.fit_reviews(train)
    assert in_force is None
    assert fitted.log_loss < defaults.log_loss  # on the reviews it was fitted to
    assert optimize.evaluate(parameters, held_out).log_loss < optimize.evaluate(DEFAULTS, held_out).log_loss
    # The fit moved towards the truth where the data speak most clearly: the truth's
    # first-day stability after Good is about twice the default's.
    assert abs(parameters[2] - TRUE_PARAMETERS[2]) < abs(DEFAULTS[2] - TRUE_PARAMETERS[2])


def test_calibration_on_the_true_parameters_is_within_binomial_noise_of_the_diagonal():
    cards = learner(12000, seed=3)
    calibration = calibrate(cards, TRUE_PARAMETERS)
    checked = [b for b in calibration.bins if b.reviews >= 30]
    assert len(checked) >= 3  # not vacuous: several bins hold enough reviews to test
    for b in checked:
        assert b.predicted is not None and b.observed is not None
        noise = math.sqrt(b.predicted * (1 - b.predicted) / b.reviews)
        assert abs(b.observed - b.predicted) <= 3 * noise + 0.005, b
    # The figures are counts of real reviews: every later-day review is in one bin.
    assert calibration.reviews == training_set(cards).usable


def test_calibration_of_a_wrong_forgetting_curve_is_outside_the_noise():
    """The check above can fail: a model that forgets far too fast is caught."""
    cards = learner(12000, seed=3)
    wrong = list(TRUE_PARAMETERS)
    wrong[0:4] = [0.1, 0.1, 0.1, 0.1]
    wrong[8] = 0.2  # stability barely grows on success
    calibration = calibrate(cards, wrong)
    off = [b for b in calibration.bins if b.reviews >= 30 and b.observed is not None and b.predicted is not None
           and abs(b.observed - b.predicted) > 3 * math.sqrt(b.predicted * (1 - b.predicted) / b.reviews)]
    assert off


def test_same_day_reviews_stay_in_the_history_but_are_never_targets():
    when = datetime(2026, 1, 5, 9, 0)
    micros = lambda moment: round(moment.replace(tzinfo=UTC).timestamp() * 1_000_000)  # noqa: E731
    cards = histories([(1, micros(when), 1), (1, micros(when + timedelta(minutes=10)), 3),
                       (1, micros(when + timedelta(days=2)), 3), (1, micros(when + timedelta(days=2, hours=1)), 4)],
                      )
    assert cards[0].delta_t == [0, 0, 1, 0]  # 2 days after the first, 1 day 23 h 50 after the second
    data = training_set(cards)
    assert data.usable == 1 and data.reviews == 4
    # The item (fsrs-rs shows its fields only in its repr): the history up to the later-day review.
    assert repr(data.items[0]) == ("FSRSItem { reviews: [FSRSReview { rating: 1, delta_t: 0 }, "
                                   "FSRSReview { rating: 3, delta_t: 0 }, FSRSReview { rating: 3, delta_t: 1 }] }")


def test_days_are_whole_24_hour_periods_as_the_scheduler_counts_them():
    """23:00 then 08:00 the next morning is a same-day review for the `fsrs` scheduler (less
    than 24 h); 47 h later is one day; the training set agrees."""
    from fsrs import Card, Rating, Scheduler

    first = datetime(2026, 1, 5, 23, 0, tzinfo=UTC)
    moments = [first, first + timedelta(hours=9), first + timedelta(hours=9 + 47)]
    micros = [round(moment.timestamp() * 1_000_000) for moment in moments]
    cards = histories([(1, m, 3) for m in micros])
    assert cards[0].delta_t == [0, 0, 1]
    scheduler, card, elapsed = Scheduler(learning_steps=()), Card(), []
    for moment in moments:
        if card.last_review is not None:
            elapsed.append((moment - card.last_review).days)  # what the scheduler computes
        card, _ = scheduler.review_card(card, Rating.Good, review_datetime=moment)
    assert elapsed == cards[0].delta_t[1:]


def test_too_few_usable_reviews_is_refused_with_how_many_more(prepared, clock):
    add_learner(prepared.db, simulate(5, 40, seed=4, start=PAST))
    usable = optimize.usable_reviews(prepared.db, clock)
    assert 0 < usable < MIN_USABLE_REVIEWS
    with pytest.raises(NotEnoughReviews) as refused:
        optimize.fit_collection(prepared.db, clock)
    assert refused.value.needed == MIN_USABLE_REVIEWS - usable
    assert f"a fit needs {MIN_USABLE_REVIEWS}: {MIN_USABLE_REVIEWS - usable} more" in str(refused.value)


def test_a_collection_of_same_day_reviews_only_does_not_crash(prepared, clock, study):
    # 300 reviews, each card's all on one day: nothing FSRS can train on.
    reviews = [SimulatedReview(card, PAST + timedelta(days=card, minutes=5 * step), rating, 1.0)
               for card in range(1, 31) for step, rating in enumerate((1, 3, 1, 3, 3, 4, 1, 3, 3, 3))]
    add_learner(prepared.db, reviews)
    with pytest.raises(NotEnoughReviews) as refused:
        optimize.fit_collection(prepared.db, clock)
    assert refused.value.usable == 0 and refused.value.reviews == 300
    stats = study_stats(prepared.db, clock, study.settings())
    assert stats.calibration is not None and stats.calibration.reviews == 0
    assert stats.fit is not None and not stats.fit.refit_suggested


def test_cli_optimize_json_reports_then_saves_on_yes_and_everything_uses_the_parameters(
        prepared, clock, db_path, study, monkeypatch, capsys):
    from quizapp.cli.main import main

    add_learner(prepared.db, simulate(833, 10000, seed=5, start=PAST))
    monkeypatch.setattr("quizapp.srs.clock.Clock.now", lambda self: clock.now())
    monkeypatch.setattr("quizapp.srs.clock.Clock.local_tz", lambda self: UTC)

    assert main(["--db", str(db_path), "optimize", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["saved"] is False and report["usable_reviews"] > 5000
    for name in ("defaults", "fitted"):
        assert set(report[name]) == {"parameters", "log_loss", "rmse_bins"}
    assert report["fitted"]["log_loss"] < report["defaults"]["log_loss"]
    assert study.settings().fsrs_parameters is None  # nothing saved without --yes

    assert main(["--db", str(db_path), "optimize", "--json", "--yes"]) == 0
    saved = json.loads(capsys.readouterr().out)
    assert saved["saved"] is True
    settings = study.settings()
    assert settings.fsrs_parameters == saved["fitted"]["parameters"]
    assert settings.fsrs_fitted_on == "2026-03-02" and settings.fsrs_fit_reviews == saved["usable_reviews"]
    # The one function every scheduler and curve goes through now gives the fitted ones.
    assert parameters_in_force(settings) == tuple(saved["fitted"]["parameters"])
    assert make_scheduler(settings).parameters == tuple(saved["fitted"]["parameters"])
    from quizapp.srs.readiness import recall_curve as readiness_curve

    assert readiness_curve(settings) == recall_curve(saved["fitted"]["parameters"])
    # A new fit on the same reviews is not better than the one in force: nothing to save.
    assert main(["--db", str(db_path), "optimize", "--json", "--yes"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["in_force"]["parameters"] == saved["fitted"]["parameters"] and again["saved"] is False

    # The text report in the CLI's language (Chinese by default), English with --lang en.
    assert main(["--db", str(db_path), "optimize"]) == 0
    out = capsys.readouterr().out
    assert "可用的复习" in out and "对数损失" in out and "拟合出的参数：" in out and "未保存：" in out, out
    assert not re.search(r"\b(usable|reviews|fitted|saved|defaults)\b", out), out
    assert main(["--lang", "en", "--db", str(db_path), "optimize"]) == 0
    out = capsys.readouterr().out
    assert "usable reviews" in out and "Log loss" in out and "fitted parameters: " in out, out

    assert main(["--lang", "en", "--db", str(db_path), "optimize", "--reset"]) == 0
    assert "default parameters are in force" in capsys.readouterr().out
    assert study.settings().fsrs_parameters is None


def test_cli_optimize_with_too_few_reviews_exits_1_with_one_line(prepared, db_path, capsys):
    from quizapp.cli.main import main

    assert main(["--lang", "en", "--db", str(db_path), "optimize"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"a fit needs {MIN_USABLE_REVIEWS}" in err[0]
    assert main(["--lang", "zh", "--db", str(db_path), "optimize"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"quizapp：未拟合：可用的复习 0 条（距该卡上次作答一天或更久的作答，共 0 次作答）；"
                   f"拟合至少需要 {MIN_USABLE_REVIEWS} 条：还差 {MIN_USABLE_REVIEWS} 条"], err
    assert main(["--db", str(db_path), "optimize", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data == {"ok": False, "reason": "not_enough_reviews", "usable_reviews": 0, "reviews": 0,
                    "minimum": MIN_USABLE_REVIEWS, "needed": MIN_USABLE_REVIEWS}


def test_a_fit_lost_to_another_window_is_refused(prepared, clock, study):
    from quizapp.store.errors import ChangedElsewhere

    add_learner(prepared.db, simulate(250, 3000, seed=6, start=PAST))
    fit = optimize.fit_collection(prepared.db, clock)
    other = optimize.fit_collection(prepared.db, clock)
    optimize.save_fit(prepared.db, other)
    changed = fit.parameters.copy()
    changed[0] = round(changed[0] + 0.01, 4)
    with pytest.raises(ChangedElsewhere):
        optimize.save_fit(prepared.db, optimize.Fit(**{**fit.__dict__, "parameters": changed}))
    assert study.settings().fsrs_parameters == other.parameters


def test_stats_json_has_calibration_the_readiness_range_and_the_fit(prepared, clock, db_path, study, monkeypatch,
                                                                     capsys):
    from quizapp.cli.main import main

    add_learner(prepared.db, simulate(250, 3000, seed=7, start=PAST))
    expected = study_stats(prepared.db, clock, study.settings())
    monkeypatch.setattr("quizapp.srs.clock.Clock.now", lambda self: clock.now())
    monkeypatch.setattr("quizapp.srs.clock.Clock.local_tz", lambda self: UTC)
    assert main(["--db", str(db_path), "stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["calibration"] == expected.to_json()["calibration"]
    assert [(b["low"], b["high"]) for b in data["calibration"]["bins"]] == list(itertools.pairwise(EDGES))
    assert data["calibration"]["reviews"] == optimize.usable_reviews(prepared.db, clock) > 2000
    assert data["fit"] == {"fitted_on": None, "fit_reviews": None, "usable_reviews": data["calibration"]["reviews"],
                           "minimum": MIN_USABLE_REVIEWS, "refit_suggested": True}
    assert set(data["readiness"]) >= {"range_now", "range_at_interview", "is_range"}


def test_a_refit_is_suggested_once_the_usable_reviews_have_doubled():
    assert not FitStatus(None, None, MIN_USABLE_REVIEWS - 1).refit_suggested
    assert FitStatus(None, None, MIN_USABLE_REVIEWS).refit_suggested  # a first fit
    assert not FitStatus("2026-01-01", 500, 999).refit_suggested
    assert FitStatus("2026-01-01", 500, 1000).refit_suggested


def test_readiness_is_a_range_when_bins_are_thin_and_a_point_when_they_are_full():
    from quizapp.srs.calibration import Calibration, CalibrationBin

    def calibration(n: int) -> Calibration:
        # Every bin's reviews recalled exactly as predicted (its middle).
        bins = []
        for low, high in itertools.pairwise(EDGES):
            middle = (low + high) / 2
            bins.append(CalibrationBin(low, high, n, middle if n else None, round(middle * n)))
        return Calibration(bins)

    recalls = [0.92, 0.88, 0.0, 0.97]
    thin_low, thin_high = recall_range(calibration(20), recalls)
    full_low, full_high = recall_range(calibration(100_000), recalls)
    point = sum(recalls) / len(recalls)
    assert thin_high - thin_low > 0.05
    assert full_high - full_low < 0.01
    assert full_low <= point + 0.001 and full_high >= point - 0.001
    assert wilson(0, 0) == (0.0, 1.0)


def test_parameters_the_scheduler_cannot_use_are_refused_as_settings():
    assert setting_problem("fsrs_parameters", list(DEFAULTS)) is None
    assert "w20" in (setting_problem("fsrs_parameters", [*DEFAULTS[:20], 5.0]) or "")
    assert "21 parameters" in (setting_problem("fsrs_parameters", [1.0, 2.0]) or "")
    assert setting_problem("fsrs_fitted_on", "yesterday") is not None


@pytest.mark.sqlite_only  # Home's quick figures are its SQLite fast start (plain sqlite3)
def test_homes_quick_readiness_uses_the_fitted_forgetting_curve(study, clock, db_path):
    """Home's figures before the service loads: fitted parameters are read by the model,
    and readiness follows their curve (w20), as the service's does."""
    from quizapp.srs.home_figures import home_figures
    from quizapp.srs.settings_limits import home_settings

    for _ in range(4):
        card = study.next_card("qa")
        study.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version)
    clock.advance(days=9)
    before = home_figures(db_path, (), clock)
    other_curve = [*DEFAULTS[:20], 0.6]  # another forgetting curve (w20)
    study.save_settings(study.settings().model_copy(update={"fsrs_parameters": other_curve}))
    with study.db.session() as session:
        rows = session.connection().exec_driver_sql("SELECT key, value FROM settings").fetchall()
    assert home_settings(rows) is None  # left to the model
    after = home_figures(db_path, (), clock)
    assert before is not None and after is not None
    assert after.readiness.now == study.home_figures().readiness.now
    assert after.readiness.now is not None and before.readiness.now is not None
    assert after.readiness.now != before.readiness.now


def test_the_buttons_intervals_follow_the_parameters_in_force(study):
    card = study.next_card("qa")
    before = study.preview(card.card.card_id)
    fitted = list(DEFAULTS)
    fitted[2] = 6.0  # first-day stability after Good: 2.3 days by default
    study.save_settings(study.settings().model_copy(update={"fsrs_parameters": fitted, "learning_steps_min": []}))
    after_fit = study.preview(card.card.card_id)
    study.save_settings(study.settings().model_copy(update={"fsrs_parameters": list(DEFAULTS)}))
    assert after_fit[3] != study.preview(card.card.card_id)[3]
    assert before[3] != after_fit[3]


def test_saving_a_fit_restates_every_card_and_keeps_its_due_date(prepared, clock, study):
    from fsrs_rs_python import FSRS, FSRSItem, FSRSReview
    from sqlalchemy import select

    from quizapp.store.models import Card

    add_learner(prepared.db, simulate(100, 1200, seed=8, start=PAST))

    def cards() -> dict[str, tuple]:
        with prepared.db.session() as session:
            return {c.item_id: (c.stability, c.difficulty, c.due, c.version)
                    for c in session.scalars(select(Card).where(Card.item_id.like("sim-%")))}

    before = cards()
    readiness_before = study.home_figures().readiness.now
    fit = optimize.fit_collection(prepared.db, clock)
    optimize.save_fit(prepared.db, fit)
    after = cards()
    with prepared.db.transaction() as cur:
        from quizapp.store.reviews import history_rows

        ids = dict(cur.execute("SELECT id, item_id FROM cards").fetchall())
        expected = {ids[h.card_id]: FSRS(fit.parameters).memory_state(
            FSRSItem([FSRSReview(r, g) for r, g in zip(h.ratings, h.delta_t)])) for h in histories(history_rows(cur))}
    for item_id, (stability, difficulty, due, version) in after.items():
        assert stability == pytest.approx(expected[item_id].stability, rel=1e-6)
        assert difficulty == pytest.approx(expected[item_id].difficulty, rel=1e-6)
        assert due == before[item_id][2]  # moved to the new schedule only at its next review
        assert version == before[item_id][3] + 1
    assert any(after[i][0] != pytest.approx(before[i][0], rel=1e-3) for i in after)
    assert study.home_figures().readiness.now != readiness_before
    assert optimize.reset_parameters(prepared.db)
    with prepared.db.transaction() as cur:
        defaults = {ids[h.card_id]: FSRS(list(DEFAULTS)).memory_state(
            FSRSItem([FSRSReview(r, g) for r, g in zip(h.ratings, h.delta_t)])) for h in histories(history_rows(cur))}
    for item_id, (stability, _difficulty, _due, _version) in cards().items():
        assert stability == pytest.approx(defaults[item_id].stability, rel=1e-6)


def test_calibration_is_worked_out_again_when_the_reviews_change(prepared, clock, study):
    from quizapp.srs.calibration import readiness_range

    def usable_in_calibration() -> int:
        with prepared.db.transaction() as cur:
            return readiness_range(cur, clock, study.settings()).calibration.reviews

    add_learner(prepared.db, simulate(20, 240, seed=9, start=PAST))
    first = usable_in_calibration()
    assert first == usable_in_calibration() == optimize.usable_reviews(prepared.db, clock)
    add_learner(prepared.db, simulate(20, 240, seed=10, start=PAST), prefix="more")
    assert usable_in_calibration() == optimize.usable_reviews(prepared.db, clock) > first
    # Other parameters: another calibration of the same reviews.
    with prepared.db.transaction() as cur:
        other = readiness_range(cur, clock, study.settings().model_copy(
            update={"fsrs_parameters": list(TRUE_PARAMETERS)})).calibration
    with prepared.db.transaction() as cur:
        mine = readiness_range(cur, clock, study.settings()).calibration
    assert other.reviews == mine.reviews and other != mine


def test_the_replay_in_batches_gives_the_same_calibration_and_stops_when_asked(monkeypatch):
    from quizapp.srs import calibration
    from quizapp.srs.review_history import Stopped

    cards = learner(3000, seed=4)
    assert len(cards) > 8
    whole = calibrate(cards, DEFAULTS)
    monkeypatch.setattr(calibration, "BATCH", 3)  # many batches, one of them short
    assert calibrate(cards, DEFAULTS) == whole
    asked = []

    def stop() -> bool:
        asked.append(True)
        return len(asked) > 2

    with pytest.raises(Stopped):
        calibrate(cards, DEFAULTS, stop)
    with pytest.raises(Stopped):
        histories(rows(simulate(250, 3000, seed=4)), lambda: True)
    assert calibrate(cards, DEFAULTS, lambda: False) == whole
