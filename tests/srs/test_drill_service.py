"""Drill attempts: stored exactly, format errors not counted, skill cards rated by score."""

from __future__ import annotations

import json

import numpy as np
import pytest
import srs_fake_engine as fake
from conftest import reopen
from fsrs import Rating
from sqlalchemy import func, select

from quizapp.srs.drills import DrillService
from quizapp.srs.rating import drill_rating as rating_for_score
from quizapp.srs.scheduling import make_scheduler, restore, to_fsrs
from quizapp.store import attempts as attempts_store
from quizapp.store import reviews as reviews_store
from quizapp.store.models import Card, DrillAttempt, Review

pytestmark = pytest.mark.both_backends


def _count(db, model) -> int:
    with db.session() as session:
        return session.scalar(select(func.count()).select_from(model))


def _skill_card(db, type_id):
    with db.session() as session:
        return session.scalar(select(Card).where(Card.item_id == f"drill:{type_id}"))


@pytest.mark.parametrize(
    ("score", "duration_ms", "difficulty", "rating"),
    [
        (1.0, 30_000, 1, Rating.Easy),
        (1.0, 90_000, 1, Rating.Good),
        (1.0, 90_000, 2, Rating.Easy),
        (1.0, None, 2, Rating.Good),
        (0.8, 10_000, 2, Rating.Hard),
        (0.75, 10_000, 2, Rating.Hard),
        (0.74, 10_000, 2, Rating.Again),
        (0.0, 10_000, 2, Rating.Again),
    ],
)
def test_score_maps_to_rating(score, duration_ms, difficulty, rating):
    assert rating_for_score(score, duration_ms, difficulty) == int(rating)


@pytest.mark.parametrize("score", [1.0, 0.9, 0.5])
def test_a_diagnosed_mistake_rates_again_whatever_the_score(score):
    assert rating_for_score(score, 5_000, 1, mistake=True) == int(Rating.Again)


def test_attempt_reads_back_exactly_after_reopening(drills, db_path, clock, engine):
    problem = engine.generate("softmax", 7, 2)
    answers = {"A": "1 2 x3"}  # unreadable → format error first, costs nothing
    assert drills.record_attempt(problem, answers, engine.grade(problem, answers), 5_000) is None
    wrong = {"A": " ".join(f"{v:g}" for v in problem.given["x"])}  # forgot to double
    verdict = engine.grade(problem, wrong)
    stored = drills.record_attempt(problem, wrong, verdict, 61_000)
    assert stored is not None
    assert stored.diagnosis == [
        {"part": "A", "mistake": "no_scaling", "message_zh": "忘了乘 2", "message_en": "forgot to double"}
    ]
    expected_cells = [bool(v == 0) for v in problem.given["x"]]  # only 0 = 2·0 is right
    assert stored.verdict["parts"]["A"] == {
        "score": sum(expected_cells) / 3, "cells": expected_cells, "error": None
    }
    assert "diagnosis" not in stored.verdict and stored.verdict["hint_keys"] == []
    assert (stored.type, stored.seed, stored.difficulty, stored.given) == ("softmax", 7, 2, None)
    assert stored.answers == wrong and stored.duration_ms == 61_000
    drills.db.close()

    again = reopen(db_path, clock)
    try:
        service = DrillService(again.db, clock, engine=engine)
        [read] = service.attempts()
        assert read == stored
        assert service.attempt(stored.attempt_id) == stored
    finally:
        again.db.close()


def test_format_error_is_not_stored_and_does_not_rate(drills, engine):
    problem = engine.generate("scores", 1, 1)
    verdict = engine.grade(problem, {"A": "??"})
    assert verdict.has_format_error
    assert drills.record_attempt(problem, {"A": "??"}, verdict, 1_000) is None
    assert _count(drills.db, DrillAttempt) == 0
    assert _count(drills.db, Review) == 0
    assert _skill_card(drills.db, "scores").reps == 0


def test_reviewing_rates_the_skill_card_as_fsrs_does(drills, engine, clock):
    problem = engine.generate("attention", 3, 2)
    answers = fake.solution_text(problem)
    attempt = drills.record_attempt(problem, answers, engine.grade(problem, answers), 200_000)
    assert attempt.score == 1.0 and attempt.rating == int(Rating.Good)  # right but slow
    with drills.db.session() as session:
        review = session.get(Review, attempt.review_id)
        card = session.get(Card, review.card_id)
        assert card.item_id == "drill:attention"
        assert (review.mode, review.rating, review.score, review.duration_ms) == ("drill", 3, 1.0, 200_000)
        assert review.answer == {"type": "attention", "seed": 3, "difficulty": 2}
        before = Card(id=card.id, item_id=card.item_id)
        restore(before, review.prev_card)
        expected, _ = make_scheduler(drills.study.settings()).review_card(
            to_fsrs(before), Rating.Good, review_datetime=clock.now()
        )
        assert card.state == int(expected.state)
        assert card.stability == pytest.approx(expected.stability)
        assert card.due.replace(tzinfo=None) == expected.due.replace(tzinfo=None)
        assert card.reps == 1


def test_without_review_nothing_is_rated_and_mock_is_linked(drills, engine, mocks):
    mock = mocks.create()
    problem = engine.generate("softmax", 5, 1)
    answers = fake.solution_text(problem)
    attempt = drills.record_attempt(problem, answers, engine.grade(problem, answers), 3_000,
                                    review_card=False, mock_id=mock.mock_id)
    assert attempt.review_id is None and attempt.rating is None and attempt.mock_id == mock.mock_id
    assert _count(drills.db, Review) == 0
    assert [a.attempt_id for a in drills.attempts(mock_id=mock.mock_id)] == [attempt.attempt_id]


def test_explicit_inputs_are_stored_as_given(drills, engine):
    problem = engine.from_given("causal_mask", {"x": [1.0, float("-inf"), 0.5]})
    answers = {"A": "2 -inf 1"}
    attempt = drills.record_attempt(problem, answers, engine.grade(problem, answers), 9_000)
    assert attempt.seed is None
    assert attempt.given == {"given": {"x": [1.0, "-inf", 0.5]}, "params": {}}
    assert drills.attempts(type="causal_mask")[0].given == attempt.given
    rebuilt = drills.rebuild(attempt)
    assert rebuilt.seed is None and list(rebuilt.given["x"]) == [1.0, float("-inf"), 0.5]
    seeded = drills.record_attempt(engine.generate("softmax", 4, 2), {"A": "0 0 0"},
                                   engine.grade(engine.generate("softmax", 4, 2), {"A": "0 0 0"}), 1_000)
    assert seeded.given is None and drills.rebuild(seeded).seed == 4


def test_a_failed_write_undoes_the_skill_review(drills, engine, monkeypatch):
    problem = engine.generate("softmax", 2, 1)
    answers = fake.solution_text(problem)

    def broken(tx, values):
        raise RuntimeError("disk full")

    monkeypatch.setattr(attempts_store, "insert", broken)
    with pytest.raises(RuntimeError):
        drills.submit(problem, answers, 1_000, review_card=True)
    assert _count(drills.db, Review) == 0
    assert _skill_card(drills.db, "softmax").reps == 0


def test_a_failed_review_write_leaves_no_attempt(drills, engine, monkeypatch):
    """The attempt and the skill card's review are one transaction: the review's INSERT
    failing (after the card's compare-and-swap UPDATE ran) leaves neither them nor the card
    changed."""
    problem = engine.generate("softmax", 2, 1)
    answers = fake.solution_text(problem)

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(reviews_store, "insert", broken)
    with pytest.raises(RuntimeError):
        drills.submit(problem, answers, 1_000, review_card=True)
    assert _count(drills.db, DrillAttempt) == 0
    assert _count(drills.db, Review) == 0
    assert _skill_card(drills.db, "softmax").reps == 0


def test_the_verdict_is_serialised_once(drills, engine, monkeypatch):
    """One engine JSON of the verdict, one json.dumps of it (the INSERT's), no read back; the
    attempt's view holds exactly what the database reads back."""
    problem = engine.generate("softmax", 3, 1)
    answers = {"A": " ".join(f"{v:g}" for v in problem.given["x"])}
    to_json_calls, dumped, loads = [], [], []
    real_to_json, real_dumps, real_loads = engine.verdict_to_json, json.dumps, json.loads

    def counting_to_json(verdict, lang="zh"):
        to_json_calls.append(lang)
        return real_to_json(verdict, lang)

    def counting_dumps(value, *args, **kwargs):
        dumped.append(value)
        return real_dumps(value, *args, **kwargs)

    def counting_loads(text, *args, **kwargs):
        loads.append(text)
        return real_loads(text, *args, **kwargs)

    monkeypatch.setattr(engine, "verdict_to_json", counting_to_json)
    monkeypatch.setattr(json, "dumps", counting_dumps)
    monkeypatch.setattr(json, "loads", counting_loads)
    submission = drills.submit(problem, answers, 4_000, review_card=True)
    monkeypatch.undo()
    attempt = submission.attempt
    assert attempt is not None and attempt.rating is not None
    assert to_json_calls == ["zh"]
    assert [value for value in dumped if isinstance(value, dict) and "parts" in value] == [attempt.verdict]
    assert [text for text in loads if "\"parts\"" in str(text)] == []  # (settings rows may be parsed)
    assert drills.attempt(attempt.attempt_id) == attempt


def test_attempts_filter_and_order(drills, engine, clock):
    for seed, type_id in enumerate(["softmax", "scores", "softmax"]):
        problem = engine.generate(type_id, seed, 1)
        answers = fake.solution_text(problem) if seed != 2 else {"A": "0 0"}
        drills.record_attempt(problem, answers, engine.grade(problem, answers), 1_000)
        clock.advance(minutes=1)
    assert [a.seed for a in drills.attempts()] == [2, 1, 0]
    assert [a.seed for a in drills.attempts(type="softmax")] == [2, 0]
    assert [a.seed for a in drills.attempts(limit=1)] == [2]


def test_skill_stats_per_type(drills, engine, clock):
    p1 = engine.generate("softmax", 1, 1)
    drills.record_attempt(p1, fake.solution_text(p1), engine.grade(p1, fake.solution_text(p1)), 1_000)
    clock.advance(minutes=5)
    wrong = {"A": "0 0"}
    drills.record_attempt(p1, wrong, engine.grade(p1, wrong), 1_000)
    stats = {s.type: s for s in drills.skill_stats()}
    softmax = stats["softmax"]
    assert softmax.attempts == 2
    assert softmax.mean_score == pytest.approx(np.mean([1.0, drills.attempts(limit=1)[0].score]))
    assert softmax.best_score == 1.0
    assert softmax.last_score == drills.attempts(limit=1)[0].score
    assert softmax.last_at == clock.now()
    assert stats["layernorm"].attempts == 0 and stats["layernorm"].mean_score is None
