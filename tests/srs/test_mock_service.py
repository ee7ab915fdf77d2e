"""Mock interviews end to end with a fixed clock: assembly, answers, timeout, abandon and
resume, finish feeding the scheduler, report, "review these", history, exact read-back."""

from __future__ import annotations

import pytest
import srs_fake_engine as fake
from conftest import reopen
from fsrs import Rating
from pydantic import ValidationError
from sqlalchemy import func, select

from quizapp.content.bilingual import keywords_of
from quizapp.srs.clock import to_naive_utc
from quizapp.srs.drills import DrillService
from quizapp.srs.mock import MockConfig, MockError, MockNotFound, MockService
from quizapp.srs.scheduling import make_scheduler, restore, to_fsrs
from quizapp.store.models import Card, DrillAttempt, MockAnswer, Review

pytestmark = pytest.mark.both_backends

QA_IDS = {"t-softmax-axis", "t-scaling", "t-shapes", "t-causal", "t-padding", "t-qkv"}
MCQ_IDS = {"t-mcq-shape", "t-mcq-axis", "t-mcq-scale", "t-mcq-mask", "t-mcq-qkv"}


def full_answer(question) -> str:
    """A typed answer that mentions one keyword of every key point."""
    return "；".join(keywords_of(point["keywords"])[0] for point in question.item["key_points"])


def shape(view):
    return [(q.kind, q.item_id, q.spec) for q in view.questions]


def _count(db, model) -> int:
    with db.session() as session:
        return session.scalar(select(func.count()).select_from(model))


# -- config and assembly -------------------------------------------------------


def test_defaults_give_a_30_minute_interview():
    config = MockConfig()
    assert (config.total_minutes, config.n_qa, config.n_mcq, config.n_drill) == (30, 5, 4, 1)
    assert config.planned_seconds <= config.total_seconds
    assert config.time_limit("qa") >= 180 and config.time_limit("mcq") >= 45 and config.time_limit("drill") >= 300
    assert config.favour_weak and config.topics == [] and config.drill_difficulty == 2
    with pytest.raises(ValidationError):
        MockConfig(n_qa=0, n_mcq=0, n_drill=0)
    assert MockConfig(topics=[" mask ", "mask", ""]).topics == ["mask"]


def test_default_interview_shape(mocks):
    view = mocks.create(MockConfig(seed=11))
    assert [q.kind for q in view.questions] == ["qa"] * 5 + ["mcq"] * 4 + ["drill"]
    assert [q.position for q in view.questions] == list(range(10))
    assert {q.item_id for q in view.questions if q.kind == "qa"} <= QA_IDS
    assert len({q.item_id for q in view.questions}) == 10
    assert view.status == "in_progress" and view.elapsed_s == 0 and view.remaining_s == 1800
    assert view.next_position == 0 and view.seed == 11
    qa = view.questions[0]
    assert qa.spec == {"time_limit_s": 240} and qa.item["key_points"] and qa.question
    drill = view.questions[-1]
    assert set(drill.spec) == {"time_limit_s", "type", "seed", "difficulty"}
    assert drill.spec["difficulty"] == 2 and drill.item_id == f"drill:{drill.spec['type']}"
    chosen_drills = {d for q in view.questions if q.kind == "qa" for d in q.item["drills"]}
    assert drill.spec["type"] in chosen_drills
    assert drill.item["prompt"] and drill.item["parts"]  # problem JSON from the engine


def test_same_seed_same_interview(mocks, study):
    fixed = MockConfig(seed=42, favour_weak=False)
    first = mocks.create(fixed)
    assert shape(mocks.create(fixed)) == shape(first)
    # Progress changes nothing when weak items are not favoured ...
    for item_id in sorted(QA_IDS)[:3]:
        study.answer(study.next_card("qa", only_item=item_id).card.card_id, int(Rating.Again), mode="study")
    assert shape(mocks.create(fixed)) == shape(first)
    # ... and with weak items favoured the seed repeats while the progress is unchanged.
    weak = MockConfig(seed=42)
    assert shape(mocks.create(weak)) == shape(mocks.create(weak))
    others = {tuple(map(str, shape(mocks.create(MockConfig(seed=s, favour_weak=False))))) for s in range(5)}
    assert len(others) > 1


def test_repeat_asks_exactly_the_same_questions(mocks):
    first = mocks.create(MockConfig(seed=3))
    again = mocks.repeat(first.mock_id)
    assert again.mock_id != first.mock_id and shape(again) == shape(first) and again.seed == first.seed


def test_topics_filter_questions_and_drill_types(mocks):
    view = mocks.create(MockConfig(topics=["mask"], seed=1))
    qa = {q.item_id for q in view.questions if q.kind == "qa"}
    mcq = {q.item_id for q in view.questions if q.kind == "mcq"}
    assert qa == {"t-causal", "t-padding"} and mcq == {"t-mcq-mask"}
    [drill] = [q for q in view.questions if q.kind == "drill"]
    assert drill.spec["type"] in {"causal_mask", "padding_mask"}
    # A topic that is only a drill type gives a drill-only interview.
    only = mocks.create(MockConfig(topics=["layernorm"], seed=1))
    assert [(q.kind, q.spec.get("type")) for q in only.questions] == [("drill", "layernorm")]
    with pytest.raises(MockError):
        mocks.create(MockConfig(topics=["no-such-topic"]))


def test_weak_items_are_favoured(mocks, study, clock):
    for item_id in sorted(QA_IDS - {"t-scaling"}):
        study.answer(study.next_card("qa", only_item=item_id).card.card_id, int(Rating.Easy), mode="study")
    weak = study.next_card("qa", only_item="t-scaling").card.card_id
    for _ in range(3):
        study.answer(weak, int(Rating.Again), mode="study")
    clock.advance(days=1)

    def picks(favour: bool) -> int:
        config = dict(n_qa=1, n_mcq=0, n_drill=0, favour_weak=favour)
        return sum(mocks.create(MockConfig(seed=s, **config)).questions[0].item_id == "t-scaling" for s in range(60))

    assert picks(True) >= 2 * max(1, picks(False))


# -- a whole interview -----------------------------------------------------------


def run_interview(mocks: MockService, clock, seed: int = 7):
    """Answer a default interview: Q&A (auto ticks, confirmed ticks, one timeout, one late
    blank answer), MCQs (right and wrong), a drill (a format error, then right)."""
    view = mocks.create(MockConfig(seed=seed))
    qs = view.questions
    clock.advance(seconds=100)
    mocks.answer_qa(view.mock_id, 0, full_answer(qs[0]), 100)
    n1 = len(qs[1].item["key_points"])
    clock.advance(seconds=120)
    auto = mocks.qa_coverage(view.mock_id, 1, keywords_of(qs[1].item["key_points"][0]["keywords"])[0])
    assert auto.points == [True] + [False] * (n1 - 1)
    mocks.answer_qa(view.mock_id, 1, keywords_of(qs[1].item["key_points"][0]["keywords"])[0], 120,
                    confirmed_points=[True, True] + [False] * (n1 - 2))
    clock.advance(seconds=240)
    mocks.timeout(view.mock_id, 2, keywords_of(qs[2].item["key_points"][0]["keywords"])[0], 240)
    clock.advance(seconds=250)
    mocks.answer_qa(view.mock_id, 3, "", 250)
    clock.advance(seconds=90)
    mocks.answer_qa(view.mock_id, 4, full_answer(qs[4]), 90)
    for position in (5, 6):
        clock.advance(seconds=30)
        mocks.answer_mcq(view.mock_id, position, qs[position].item["answer"], 30)
    wrong = next(letter for letter in "ABCD" if letter != qs[7].item["answer"])
    clock.advance(seconds=40)
    mocks.answer_mcq(view.mock_id, 7, wrong, 40)
    clock.advance(seconds=20)
    mocks.answer_mcq(view.mock_id, 8, "ABCD".index(qs[8].item["answer"]), 20)

    clock.advance(seconds=60)
    bad = mocks.answer_drill(view.mock_id, 9, {"A": "1, 2, oops"}, 60)
    assert bad.format_error and bad.question is None and bad.attempt_id is None
    assert _count(mocks.db, DrillAttempt) == 0 and mocks.get(view.mock_id).questions[9].answered is False
    problem = mocks.problem(view.mock_id, 9)
    clock.advance(seconds=200)
    good = mocks.answer_drill(view.mock_id, 9, fake.solution_text(problem), 300)
    assert not good.format_error and good.question.score == 1.0 and good.attempt_id is not None
    return view


def test_whole_interview_with_a_timeout_and_the_report(mocks, clock):
    view = run_interview(mocks, clock)
    mid = mocks.get(view.mock_id)
    qs = mid.questions
    n1, n2 = len(qs[1].item["key_points"]), len(qs[2].item["key_points"])
    assert [q.score for q in qs] == pytest.approx([1.0, 2 / n1, 1 / n2, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0])
    assert [q.over_time for q in qs] == [False, False, True, True] + [False] * 6
    assert qs[1].answer["confirmed"] and qs[1].answer["auto_points"] == [True] + [False] * (n1 - 1)
    assert qs[2].answer["timed_out"] and qs[2].answer["text"] == keywords_of(qs[2].item["key_points"][0]["keywords"])[0]
    assert qs[7].answer["choice"] != qs[7].answer["correct"]
    assert qs[9].answer["answers"] == fake.solution_text(mocks.problem(view.mock_id, 9))
    assert mid.elapsed_s == pytest.approx(100 + 120 + 240 + 250 + 90 + 30 + 30 + 40 + 20 + 300)
    assert mid.next_position is None and mid.answered_count == 10

    report = mocks.finish(view.mock_id)
    expected_total = sum(q.score for q in qs) / 10
    assert report.status == "completed" and report.score == pytest.approx(expected_total)
    assert report.finished_at == clock.now() and report.over_time_count == 2
    assert [(r.position, r.kind, r.item_id) for r in report.questions] == [(q.position, q.kind, q.item_id) for q in qs]
    assert [r.time_used_s for r in report.questions] == [q.time_used_s for q in qs]
    by_topic = {t.topic: t for t in report.topics}
    for topic in by_topic.values():
        rows = [r for r in report.questions if topic.topic in r.topics]
        assert topic.score == pytest.approx(sum(r.score for r in rows) / len(rows))
    # The drill counts toward the content tags it practises, not a "drill:<type>" pseudo-topic.
    assert report.questions[9].topics and all(t in by_topic for t in report.questions[9].topics)
    assert not any(t.topic.startswith("drill:") for t in report.topics)
    assert 1 <= len(report.weakest) <= 3
    weakest_scores = [w.score for w in report.weakest]
    assert weakest_scores == sorted(weakest_scores)
    assert weakest_scores[0] == min(t.score for t in report.topics)
    assert all(w.score < 1.0 for w in report.weakest)
    for weak in report.weakest:
        assert set(by_topic[weak.topic].item_ids) <= set(weak.item_ids)

    [summary] = mocks.history()
    assert (summary.mock_id, summary.status, summary.score, summary.questions, summary.answered) == (
        view.mock_id, "completed", pytest.approx(expected_total), 10, 10)
    assert mocks.score_trend() == [(view.started_at, pytest.approx(expected_total))]
    with pytest.raises(MockError):
        mocks.answer_qa(view.mock_id, 0, "again", 1)


def test_finish_rates_missed_items_again_and_the_rest_good(mocks, clock, study):
    view = run_interview(mocks, clock)
    mocks.finish(view.mock_id)
    with mocks.db.session() as session:
        answers = session.scalars(select(MockAnswer).where(MockAnswer.mock_id == view.mock_id)).all()
        scheduler = make_scheduler(study.settings())
        for answer in answers:
            review = session.get(Review, answer.answer["review_id"])
            card = session.get(Card, review.card_id)
            assert card.item_id == answer.item_id and review.mode == "mock"
            expected_rating = Rating.Again if answer.score < 0.6 else Rating.Good
            assert review.rating == int(expected_rating) and review.score == answer.score
            before = Card(id=card.id, item_id=card.item_id)
            restore(before, review.prev_card)
            expected, _ = scheduler.review_card(to_fsrs(before), expected_rating, review_datetime=clock.now())
            assert card.state == int(expected.state) and card.step == expected.step
            assert card.due == to_naive_utc(expected.due)
            assert card.stability == pytest.approx(expected.stability)
        attempt = session.scalar(select(DrillAttempt).where(DrillAttempt.mock_id == view.mock_id))
        assert attempt.review_id == answers[9].answer["review_id"]
    reviews = _count(mocks.db, Review)
    assert reviews == 10
    mocks.finish(view.mock_id)  # finishing again rates nothing twice
    assert _count(mocks.db, Review) == reviews


def test_unanswered_questions_score_zero_and_are_not_rated(mocks, clock):
    view = mocks.create(MockConfig(seed=5, n_qa=2, n_mcq=1, n_drill=0))
    mocks.answer_mcq(view.mock_id, 2, view.questions[2].item["answer"], 10)
    report = mocks.finish(view.mock_id)
    assert report.score == pytest.approx(1 / 3)
    assert [r.answered for r in report.questions] == [False, False, True]
    assert _count(mocks.db, Review) == 1


def test_drill_timeouts_score_what_was_typed(mocks, engine):
    view = mocks.create(MockConfig(seed=9, n_qa=0, n_mcq=1, n_drill=3, favour_weak=False))
    problem = mocks.problem(view.mock_id, 1)
    half = fake.solution_text(problem)["A"].split()
    half[0] = "999"
    q = mocks.timeout(view.mock_id, 1, {"A": " ".join(half)}, 420)
    assert q.over_time and q.answer["timed_out"] and q.answer["attempt_id"] is not None
    assert q.score == pytest.approx(engine.grade(problem, {"A": " ".join(half)}).score)
    q = mocks.timeout(view.mock_id, 2, {"A": "1 2 ??"}, 400)  # unreadable: kept, scored 0, no attempt
    assert q.score == 0 and q.answer["format_error"] and q.answer["answers"] == {"A": "1 2 ??"}
    q = mocks.timeout(view.mock_id, 3, {}, 400)
    assert q.score == 0 and q.answer["attempt_id"] is None
    q = mocks.timeout(view.mock_id, 0, None, 60)  # MCQ with nothing selected
    assert q.score == 0 and q.answer["choice"] is None and q.over_time
    assert [a.mock_id for a in DrillService(mocks.db, mocks.clock, engine=engine).attempts()] == [view.mock_id]


def test_abandon_and_resume_after_reopening(mocks, clock, db_path, engine):
    view = mocks.create(MockConfig(seed=21))
    clock.advance(seconds=80)
    mocks.answer_qa(view.mock_id, 0, full_answer(view.questions[0]), 80)
    clock.advance(seconds=70)
    mocks.answer_qa(view.mock_id, 1, "不知道", 70)
    clock.advance(seconds=45)
    abandoned = mocks.abandon(view.mock_id, elapsed_s=195)
    assert abandoned.status == "abandoned" and abandoned.elapsed_s == 195 and abandoned.answered_count == 2
    with pytest.raises(MockError):
        mocks.answer_qa(view.mock_id, 2, "late", 10)
    assert [s.mock_id for s in mocks.resumable()] == [view.mock_id]
    mocks.db.close()

    again = reopen(db_path, clock)
    try:
        service = MockService(again.db, clock, engine=engine)
        stored = service.get(view.mock_id)
        assert stored == abandoned
        assert stored.questions[0].score == 1.0 and stored.questions[1].answer["text"] == "不知道"
        assert service.resume(view.mock_id) == 2
        assert service.get(view.mock_id).status == "in_progress"
        assert service.get(view.mock_id).remaining_s == 1800 - 195
        for q in stored.questions[2:]:
            if q.kind == "qa":
                service.answer_qa(view.mock_id, q.position, full_answer(q), 60)
            elif q.kind == "mcq":
                service.answer_mcq(view.mock_id, q.position, q.item["answer"], 20)
            else:
                problem = service.problem(view.mock_id, q.position)
                service.answer_drill(view.mock_id, q.position, fake.solution_text(problem), 200)
        assert service.resume(view.mock_id) is None
        report = service.finish(view.mock_id)
        assert report.status == "completed" and report.score == pytest.approx(9 / 10)
        assert service.resumable() == []
        with pytest.raises(MockError):
            service.abandon(view.mock_id)
    finally:
        again.db.close()


def test_results_read_back_exactly_after_reopening(mocks, clock, db_path, engine):
    view = run_interview(mocks, clock)
    mocks.finish(view.mock_id)
    before = (mocks.get(view.mock_id), mocks.report(view.mock_id), mocks.history(), mocks.score_trend(),
              DrillService(mocks.db, clock, engine=engine).attempts(mock_id=view.mock_id))
    mocks.db.close()
    again = reopen(db_path, clock)
    try:
        service = MockService(again.db, clock, engine=engine)
        after = (service.get(view.mock_id), service.report(view.mock_id), service.history(), service.score_trend(),
                 DrillService(again.db, clock, engine=engine).attempts(mock_id=view.mock_id))
        assert after == before
    finally:
        again.db.close()


def test_a_drill_counts_toward_the_content_tags_it_practises(mocks, clock):
    # t-causal (tags [mask, causal]) is the only Q&A item listing the causal_mask drill.
    view = mocks.create(MockConfig(topics=["causal"], n_qa=1, n_mcq=0, n_drill=1, seed=3, favour_weak=False))
    qa, drill = view.questions
    assert (qa.item_id, drill.item_id) == ("t-causal", "drill:causal_mask")
    mocks.answer_qa(view.mock_id, 0, "", 30)  # blank: 0
    problem = mocks.problem(view.mock_id, 1)
    mocks.answer_drill(view.mock_id, 1, fake.solution_text(problem), 60)  # right: 1
    report = mocks.finish(view.mock_id)

    assert report.questions[1].topics == ["mask", "causal"]
    by_topic = {t.topic: t for t in report.topics}
    assert set(by_topic) == {"mask", "causal"}
    for tag in ("mask", "causal"):
        assert by_topic[tag].questions == 2
        assert by_topic[tag].score == pytest.approx(0.5)  # mean of the Q&A's 0 and the drill's 1
        assert by_topic[tag].item_ids == ["drill:causal_mask", "t-causal"]

    # "Review these" still pulls forward the weak tag's bank items (and the missed skill).
    weak = {w.topic: set(w.item_ids) for w in report.weakest}
    assert weak["mask"] == {"t-causal", "t-padding", "t-mcq-mask", "drill:causal_mask"}
    assert weak["causal"] == {"t-causal", "t-mcq-mask", "drill:causal_mask"}
    # Of the four, t-causal and the skill were answered (so rescheduled) and now become due;
    # t-padding and t-mcq-mask were never studied: they stay new, not due.
    assert mocks.review_weak(view.mock_id) == 2


def test_a_drill_no_item_lists_keeps_its_drill_topic(mocks):
    view = mocks.create(MockConfig(topics=["layernorm"], n_qa=1, n_mcq=1, n_drill=1, seed=1))
    [drill] = view.questions
    assert drill.spec["type"] == "layernorm"
    mocks.answer_drill(view.mock_id, 0, {"A": "0"}, 60)
    report = mocks.report(view.mock_id)
    assert report.questions[0].topics == ["drill:layernorm"]
    assert [(t.topic, t.item_ids) for t in report.topics] == [("drill:layernorm", ["drill:layernorm"])]
    assert [(w.topic, w.item_ids) for w in report.weakest] == [("drill:layernorm", ["drill:layernorm"])]


def test_review_weak_makes_the_weakest_topics_due_now(mocks, clock, study):
    for item_id in sorted(QA_IDS | MCQ_IDS):
        study.answer(study.next_card("qa", only_item=item_id).card.card_id, int(Rating.Easy), mode="study")
    clock.advance(hours=1)
    assert study.due_counts().qa == 0 and study.due_counts().mcq == 0

    view = mocks.create(MockConfig(seed=4, n_drill=0))
    for q in view.questions:  # everything wrong or blank
        if q.kind == "qa":
            mocks.answer_qa(view.mock_id, q.position, "", 30)
        else:
            wrong = next(letter for letter in "ABCD" if letter != q.item["answer"])
            mocks.answer_mcq(view.mock_id, q.position, wrong, 10)
    report = mocks.finish(view.mock_id)
    weak_ids = sorted({i for w in report.weakest for i in w.item_ids})
    assert weak_ids
    interview_ids = {q.item_id for q in view.questions}
    # Bank items of a weak topic the interview did not ask are pulled forward too.
    untouched = [i for i in weak_ids if i not in interview_ids]

    clock.advance(minutes=30)  # the missed items' relearning step is over; nothing else is due
    now = to_naive_utc(clock.now())
    with mocks.db.session() as session:
        due_before = {c.item_id: c.due for c in session.scalars(select(Card).where(Card.item_id.in_(weak_ids)))}
    assert any(due > now for due in due_before.values())
    counts_before = study.due_counts()

    became_due = mocks.review_weak(view.mock_id)

    with mocks.db.session() as session:
        due_after = {c.item_id: c.due for c in session.scalars(select(Card).where(Card.item_id.in_(weak_ids)))}
    assert all(due <= now for due in due_after.values())
    counts_after = study.due_counts()
    pulled = sum(1 for i in weak_ids if due_before[i] > now)
    assert counts_after.qa + counts_after.mcq == counts_before.qa + counts_before.mcq + pulled
    # The toast's count is what Home's due counts rise by (not every weak item).
    rise = sum(counts_after.due(k) - counts_before.due(k) for k in ("qa", "mcq", "skill"))
    assert became_due == rise == pulled
    seen, shown = [], study.next_card("qa")
    while shown is not None and len(seen) < 20:
        seen.append(shown.card.item_id)
        shown = study.next_card("qa", exclude=[study.next_card("qa", only_item=i).card.card_id for i in seen])
    assert {i for i in weak_ids if i in QA_IDS} <= set(seen)
    for item_id in untouched:
        assert due_after[item_id] <= now < due_before[item_id]


def test_history_is_newest_first_with_a_trend(mocks, clock):
    scores = []
    for seed, right in ((1, True), (2, False), (3, True)):
        view = mocks.create(MockConfig(seed=seed, n_qa=0, n_mcq=2, n_drill=0))
        for q in view.questions:
            answer = q.item["answer"] if right else next(x for x in "ABCD" if x != q.item["answer"])
            mocks.answer_mcq(view.mock_id, q.position, answer, 15)
        scores.append(mocks.finish(view.mock_id).score)
        clock.advance(days=1)
    running = mocks.create(MockConfig(seed=4, n_qa=1, n_mcq=0, n_drill=0))
    history = mocks.history()
    assert [h.mock_id for h in history] == [running.mock_id, 3, 2, 1]
    assert history[0].status == "in_progress" and history[0].score is None
    assert [h.score for h in history[1:]] == [1.0, 0.0, 1.0]
    assert all(h.elapsed_s == 30 for h in history[1:])
    trend = mocks.score_trend()
    assert [s for _, s in trend] == scores == [1.0, 0.0, 1.0]
    assert [d for d, _ in trend] == sorted(d for d, _ in trend)


def test_refused_answers_change_nothing(mocks):
    view = mocks.create(MockConfig(seed=8, n_qa=1, n_mcq=1, n_drill=0))
    with pytest.raises(MockError):
        mocks.answer_mcq(view.mock_id, 0, "A", 5)  # position 0 is a Q&A question
    with pytest.raises(MockError):
        mocks.answer_qa(view.mock_id, 0, "x", 5, confirmed_points=[True])  # wrong number of ticks
    with pytest.raises(MockError):
        mocks.answer_mcq(view.mock_id, 1, "E", 5)
    with pytest.raises(MockError):
        mocks.answer_qa(view.mock_id, 7, "x", 5)
    with pytest.raises(MockNotFound):
        mocks.get(999)
    mocks.answer_mcq(view.mock_id, 1, "a", 5)
    with pytest.raises(MockError):
        mocks.answer_mcq(view.mock_id, 1, "B", 5)
    assert mocks.get(view.mock_id).answered_count == 1


def test_available_topics(mocks):
    topics = dict(mocks.available_topics())
    assert topics["softmax"] == 4 and topics["mask"] == 3 and "drill" not in topics


def test_builtin_content_gives_a_full_default_interview(tmp_path, clock, engine):
    from quizapp.srs.bootstrap import prepare

    prepared = prepare(tmp_path / "builtin.db", clock=clock)
    try:
        view = MockService(prepared.db, clock, engine=engine).create(MockConfig(seed=1))
        kinds = [q.kind for q in view.questions]
        assert kinds.count("qa") == min(5, len(prepared.content.qa))
        assert kinds.count("mcq") == min(4, len(prepared.content.mcq))
        assert kinds.count("drill") == 1
    finally:
        prepared.db.close()


def test_abandon_keeps_the_open_questions_draft_and_clock_for_the_resume(mocks, clock):
    # Resuming reset the question's clock and dropped what was typed (issue 27 item 16).
    view = mocks.create(MockConfig(seed=21))
    mocks.answer_qa(view.mock_id, 0, full_answer(view.questions[0]), 80)
    abandoned = mocks.abandon(view.mock_id, elapsed_s=125, open_question=(1, 45.0, "减去最大值"))
    open_q = abandoned.questions[1]
    assert not open_q.answered and open_q.answer is None and open_q.time_used_s is None
    assert (open_q.draft, open_q.carried_s) == ("减去最大值", 45.0)
    assert abandoned.elapsed_s == 125  # the 45 s on the open question count while it is abandoned
    assert mocks.resume(view.mock_id) == 1
    resumed = mocks.get(view.mock_id)
    # …and come back as the question's clock: the interview's elapsed time leaves them out
    assert resumed.elapsed_s == 80 and resumed.questions[1].carried_s == 45.0
    mocks.answer_qa(view.mock_id, 1, "减去最大值，结果不变", 45.0 + 30)
    answered = mocks.get(view.mock_id)
    assert answered.elapsed_s == 80 + 75 and answered.questions[1].draft is None
    assert answered.questions[1].answer["text"] == "减去最大值，结果不变"
