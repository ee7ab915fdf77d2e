"""`quizapp.srs.stats` against a hand-built review history (numbers worked out by hand)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from fsrs import Card as FsrsCard
from fsrs import Scheduler
from sqlalchemy import select

from quizapp.drill_types import DRILL_TYPES
from quizapp.srs.stats import study_stats
from quizapp.store.models import Card, DrillAttempt, MockAnswer, MockInterview, Review

pytestmark = pytest.mark.both_backends

INTERVIEW = "2026-03-12"
T = datetime  # naive UTC, as stored


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def add_history(db) -> None:
    with db.session() as session, session.begin():
        cards = {c.item_id: c for c in session.scalars(select(Card))}

        def review(item: str, when: str, rating: int) -> None:
            session.add(Review(card_id=cards[item].id, mode="study", rating=rating, reviewed_at=at(when),
                               duration_ms=1000, prev_card={}))

        review("t-scaling", "2026-02-01 10:00", 3)
        review("t-scaling", "2026-02-04 10:00", 3)  # gap 3 d: passed, bucket 1-6d
        review("t-scaling", "2026-02-20 10:00", 1)  # gap 16 d: failed, bucket 7-20d
        review("t-padding", "2026-01-01 09:00", 3)
        review("t-padding", "2026-02-01 09:00", 4)  # gap 31 d: passed, 21-89d
        review("t-padding", "2026-03-02 07:00", 3)  # gap 29 d: passed, 21-89d; today
        review("t-mcq-axis", "2026-03-02 03:00", 1)  # before the 04:00 rollover: yesterday
        scaling = cards["t-scaling"]
        scaling.state, scaling.reps, scaling.stability, scaling.difficulty = 2, 3, 10.0, 5.0
        scaling.last_review, scaling.due = at("2026-02-20 10:00"), at("2026-03-03 10:00")  # 11 d interval
        padding = cards["t-padding"]
        padding.state, padding.reps, padding.stability, padding.difficulty = 2, 3, 40.0, 4.0
        padding.last_review, padding.due = at("2026-03-02 07:00"), at("2026-04-10 07:00")  # 39 d
        axis = cards["t-mcq-axis"]
        axis.state, axis.reps, axis.stability, axis.difficulty = 1, 1, 0.5, 7.0
        axis.last_review, axis.due = at("2026-03-02 03:00"), at("2026-03-02 03:10")  # overdue

        def attempt(kind: str, score: float, mistakes: list[str], when: str) -> None:
            session.add(DrillAttempt(type=kind, seed=1, difficulty=1, answers={}, verdict={}, score=score,
                                     diagnosis=[{"part": "A", "mistake": m} for m in mistakes],
                                     created_at=at(when)))

        attempt("softmax", 1.0, [], "2026-02-25 10:00")
        attempt("softmax", 0.5, ["softmax_wrong_axis"], "2026-02-26 10:00")
        attempt("softmax", 0.5, ["softmax_wrong_axis"], "2026-01-10 10:00")  # older than 30 days
        attempt("attention", 0.0, ["no_scaling", "softmax_wrong_axis"], "2026-02-27 10:00")
        mock = MockInterview(seed=1, config={}, status="completed", started_at=at("2026-02-25 11:30"),
                             finished_at=at("2026-02-25 12:00"), score=0.5, elapsed_s=1800)
        mock.answers = [
            MockAnswer(position=0, kind="qa", item_id="t-scaling", spec={}, score=1.0),
            MockAnswer(position=1, kind="qa", item_id="t-padding", spec={}, score=0.0),
        ]
        abandoned = MockInterview(seed=2, config={}, status="abandoned", started_at=at("2026-02-26 11:30"),
                                  score=None, elapsed_s=60)
        session.add_all([mock, abandoned])


def recall(stability: float, last: str, moment: datetime) -> float:
    """What fsrs itself says (the reference the SQL must match)."""
    card = FsrsCard(stability=stability, difficulty=5.0, last_review=at(last).replace(tzinfo=UTC))
    return Scheduler().get_card_retrievability(card, moment)


@pytest.fixture
def stats(prepared, study, clock):
    add_history(prepared.db)
    settings = study.settings().model_copy(update={"interview_date": INTERVIEW})
    study.save_settings(settings)
    return study_stats(prepared.db, clock, study.settings())


def test_readiness_per_topic_is_fsrs_retrievability_now_and_on_the_interview_day(stats, clock):
    now = clock.now()  # 2026-03-02 08:00 UTC
    interview = datetime(2026, 3, 12, 4, 0, tzinfo=UTC)  # that study day starts at the 04:00 rollover
    assert stats.today == date(2026, 3, 2)
    assert stats.days_left == 10
    topics = {t.topic: t for t in stats.topics}
    softmax = topics["softmax"]  # t-softmax-axis, t-scaling, t-mcq-axis, t-mcq-scale
    assert (softmax.items, softmax.studied) == (4, 2)
    expected_now = (recall(10.0, "2026-02-20 10:00", now) + recall(0.5, "2026-03-02 03:00", now)) / 4
    assert softmax.recall_now == pytest.approx(expected_now)
    expected_then = (recall(10.0, "2026-02-20 10:00", interview) + recall(0.5, "2026-03-02 03:00", interview)) / 4
    assert softmax.recall_at_interview == pytest.approx(expected_then)
    assert softmax.recall_at_interview < softmax.recall_now  # forgetting, with no more reviews
    mask = topics["mask"]  # t-causal, t-padding, t-mcq-mask
    assert mask.recall_now == pytest.approx(1 / 3)  # t-padding reviewed an hour ago: R = 1
    assert mask.recall_at_interview == pytest.approx(recall(40.0, "2026-03-02 07:00", interview) / 3)
    assert (mask.mock_score, mask.mock_answers) == (0.0, 1)
    assert (topics["scaling"].mock_score, topics["scaling"].mock_answers) == (1.0, 1)
    assert topics["qkv"].recall_now == 0.0 and topics["qkv"].studied == 0
    assert "drill" not in topics  # drill skills are measured by accuracy, not recall
    # Overall: the 11 Q&A and MCQ items.
    assert stats.readiness_now == pytest.approx((recall(10.0, "2026-02-20 10:00", now) + 1 + 1) / 11)


def test_forecast_heatmap_retention_intervals(stats):
    forecast = dict(stats.forecast)
    assert len(stats.forecast) == 30 and stats.forecast[0][0] == date(2026, 3, 2)
    assert forecast[date(2026, 3, 2)] == 1  # the overdue MCQ
    assert forecast[date(2026, 3, 3)] == 1  # t-scaling
    assert sum(forecast.values()) == 2  # t-padding is due in 39 days: outside the window
    heat = dict(stats.heatmap)
    assert len(stats.heatmap) == 365 and stats.heatmap[-1][0] == date(2026, 3, 2)
    assert {d: n for d, n in heat.items() if n} == {
        date(2026, 1, 1): 1, date(2026, 2, 1): 2, date(2026, 2, 4): 1, date(2026, 2, 20): 1,
        date(2026, 3, 1): 1, date(2026, 3, 2): 1,
    }
    retention = {b.label: (b.reviews, b.passed) for b in stats.retention}
    assert retention == {"1-6d": (1, 1), "7-20d": (1, 0), "21-89d": (2, 2), "90d+": (0, 0)}
    assert dict(stats.intervals)["1-2w"] == 1 and dict(stats.intervals)["1-3m"] == 1
    assert sum(n for _, n in stats.intervals) == 2
    assert stats.states["qa"]["review"] == 2 and stats.states["mcq"]["learning"] == 1
    assert stats.states["qa"]["new"] == 4 and stats.states["skill"]["new"] == len(DRILL_TYPES)
    assert stats.streak == 2 and stats.reviews_total == 7


def test_drill_accuracy_mistakes_and_mock_trend(stats):
    skills = {s.type: s for s in stats.skills}
    assert (skills["softmax"].attempts, skills["softmax"].correct) == (3, 1)
    assert skills["softmax"].mean_score == pytest.approx(2 / 3)
    assert (skills["softmax"].recent_attempts, skills["softmax"].recent_mean_score) == (2, 0.75)
    assert skills["attention"].mean_score == 0.0
    top = stats.mistakes[0]
    assert (top.type, top.mistake, top.count) == ("softmax", "softmax_wrong_axis", 2)
    assert {(m.type, m.mistake) for m in stats.mistakes[1:]} == {
        ("attention", "no_scaling"), ("attention", "softmax_wrong_axis")}
    assert [(p.day, p.score) for p in stats.mock_trend] == [(date(2026, 2, 25), 0.5)]


def test_local_time_zone_moves_reviews_to_their_local_day(prepared, study, clock):
    """At UTC+8 the 03:00 UTC review is 11:00 local: after the rollover, so 2026-03-02."""
    from datetime import timezone

    add_history(prepared.db)
    clock.tz = timezone(timedelta(hours=8))
    stats = study_stats(prepared.db, clock, study.settings())
    heat = dict(stats.heatmap)
    assert heat[date(2026, 3, 2)] == 2  # 03:00 and 07:00 UTC
    assert heat[date(2026, 3, 1)] == 0


def test_stats_json_from_the_cli_has_the_same_figures(prepared, study, clock, db_path, monkeypatch, capsys):
    add_history(prepared.db)
    study.save_settings(study.settings().model_copy(update={"interview_date": INTERVIEW}))
    expected = study_stats(prepared.db, clock, study.settings()).to_json()
    monkeypatch.setattr("quizapp.srs.clock.Clock.now", lambda self: clock.now())
    monkeypatch.setattr("quizapp.srs.clock.Clock.local_tz", lambda self: UTC)
    from quizapp.cli.main import main

    assert main(["--db", str(db_path), "stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("readiness", "forecast", "retention", "heatmap", "intervals", "drill_skills", "mock_trend",
                "drill_mistakes", "days_left", "interview_date"):
        assert data[key] == expected[key], key
    softmax = next(t for t in data["readiness"]["topics"] if t["topic"] == "softmax")
    assert softmax["items"] == 4 and softmax["studied"] == 2
    assert data["days_left"] == 10


def test_interview_date_is_validated():
    from pydantic import ValidationError

    from quizapp.srs.settings import Settings

    assert Settings(interview_date="2026-03-12").interview_date == "2026-03-12"
    assert Settings(interview_date="").interview_date is None
    with pytest.raises(ValidationError):
        Settings(interview_date="12/03/2026")


def test_a_streak_longer_than_the_heatmaps_year_is_counted_whole_as_on_home(prepared, study, clock):
    """Stats counted the streak over the heatmap's 365 days only: Home said 500, Stats 364."""
    with prepared.db.session() as session, session.begin():
        card = session.scalars(select(Card).where(Card.item_id == "t-scaling")).one()
        for back in range(500):  # 10:00 UTC on each of the 500 days ending today (2026-03-02)
            session.add(Review(card_id=card.id, mode="study", rating=3, duration_ms=1000, prev_card={},
                               reviewed_at=datetime(2026, 3, 2, 10, 0) - timedelta(days=back)))
    clock.advance(hours=4)  # 12:00: today's answer is given
    stats = study_stats(prepared.db, clock, study.settings())
    assert stats.streak == 500 == study.due_counts().streak


def test_per_topic_mock_score_is_the_reports_for_a_single_interview(prepared, study, clock, mocks):
    import srs_fake_engine as fake

    from quizapp.content.bilingual import keywords_of
    from quizapp.srs.mock import MockConfig

    view = mocks.create(MockConfig(seed=13, n_qa=2, n_mcq=2, n_drill=1))
    qs = view.questions
    mocks.answer_qa(view.mock_id, 0, keywords_of(qs[0].item["key_points"][0]["keywords"])[0], 95)
    mocks.answer_mcq(view.mock_id, 2, qs[2].item["answer"], 20)  # question 2 and 4 left unanswered
    mocks.answer_drill(view.mock_id, 4, fake.solution_text(mocks.problem(view.mock_id, 4)), 100)
    report = mocks.finish(view.mock_id)
    shown = {t.topic: t for t in study_stats(prepared.db, clock, study.settings()).topics}
    compared = [t for t in report.topics if t.topic in shown]
    assert compared  # the interview's tags are Stats topics
    for topic in compared:
        assert (shown[topic.topic].mock_score, shown[topic.topic].mock_answers) == (
            pytest.approx(topic.score), topic.questions), topic.topic


def test_a_mistake_made_in_several_parts_of_one_attempt_counts_once(prepared, study, clock):
    """Stats' frequent mistakes counted per part: one mistake made once showed ×3 (issue 27 item 7)."""
    with prepared.db.session() as session, session.begin():
        session.add(DrillAttempt(type="attention", seed=1, difficulty=1, answers={}, verdict={}, score=0.2,
                                 diagnosis=[{"part": p, "mistake": "no_scaling"} for p in ("S", "A", "O")],
                                 created_at=clock.now().replace(tzinfo=None) - timedelta(hours=1)))
    stats = study_stats(prepared.db, clock, study.settings())
    assert [(m.type, m.mistake, m.count) for m in stats.mistakes] == [("attention", "no_scaling", 1)]


def test_the_first_figures_read_on_the_driver_not_through_the_orm(prepared, study, clock, mocks, monkeypatch):
    """Stats draws its first figures before the calibration; the mock scores per topic were
    two ORM statements whose first compile (and the mappers' configuration) cost the screen
    ~20 ms. With a finished interview holding a calculation (its topics read every Q&A
    payload), no figure may ask a Tx for a Session."""
    import srs_fake_engine as fake

    from quizapp.srs.mock import MockConfig
    from quizapp.store.pg import PgTx
    from quizapp.store.tx import Tx

    view = mocks.create(MockConfig(seed=13, n_qa=1, n_mcq=1, n_drill=1))
    mocks.answer_drill(view.mock_id, 2, fake.solution_text(mocks.problem(view.mock_id, 2)), 100)
    mocks.finish(view.mock_id)

    def no_session(self):
        raise AssertionError("Stats' first figures opened an ORM Session")

    monkeypatch.setattr(Tx, "session", no_session)
    monkeypatch.setattr(PgTx, "session", no_session)
    stats = study_stats(prepared.db, clock, study.settings(), calibration=False)
    assert any(t.mock_answers for t in stats.topics)
