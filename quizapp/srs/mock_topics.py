"""Topics of a mock interview report: which topics each question counts toward, the
per-topic scores, the weakest topics, and the bank items "review these" pulls forward.

A Q&A or MCQ question's topics are its item's tags. A drill question's topics are the
content tags it practises: the most common tags (up to `DRILL_TOPIC_LIMIT`) of the active
Q&A items whose `drills` list names its type, so a calculation counts toward the same
topics as the questions about it. Only when no Q&A item lists the type (or those items
have no tags) does the drill fall back to the pseudo-topic `drill:<type>`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from quizapp.store import mocks
from quizapp.store.codes import COMPLETED
from quizapp.store.tx import Tx

if TYPE_CHECKING:
    # The report's views are imported where a report is made: Stats' first figures need
    # only completed_topic_scores, and the views' ~20 classes cost ~15 ms to create.
    from quizapp.srs.mock_views import ReportQuestion, TopicScore, WeakTopic

DRILL_TOPIC_LIMIT = 2  # a drill counts toward at most this many content tags
WEAKEST_LIMIT = 3


def drill_fallback_topic(drill_type: str) -> str:
    return f"drill:{drill_type}"


def drill_topics(session: Tx, drill_types: Iterable[str]) -> dict[str, list[str]]:
    """For each drill type, the content tags it practises, most common first.

    Tags are counted over the active Q&A items whose payload `drills` contains the type;
    ties go to the tag listed earlier on its items (the primary tag), then by name.
    A type no tagged item lists maps to `["drill:<type>"]`.
    """
    wanted = set(drill_types)
    counts: dict[str, Counter[str]] = {t: Counter() for t in wanted}
    first_index: dict[str, dict[str, int]] = {t: {} for t in wanted}
    if wanted:
        for payload, tags in mocks.active_qa_payloads(session):
            for drill_type in set((payload or {}).get("drills", []) or []) & wanted:
                for index, tag in enumerate(tags or []):
                    counts[drill_type][tag] += 1
                    seen = first_index[drill_type]
                    seen[tag] = min(seen.get(tag, index), index)
    result: dict[str, list[str]] = {}
    for drill_type in wanted:
        ranked = sorted(
            counts[drill_type],
            key=lambda tag: (-counts[drill_type][tag], first_index[drill_type][tag], tag),
        )
        result[drill_type] = ranked[:DRILL_TOPIC_LIMIT] or [drill_fallback_topic(drill_type)]
    return result


def question_topics(kind: str, tags: Sequence[str], drill_type: str, practised: Mapping[str, list[str]]) -> list[str]:
    """The topics one question counts toward: a drill's practised tags (`drill_topics`),
    else its item's tags."""
    return list(practised[drill_type]) if kind == "drill" else list(tags)


def completed_topic_scores(session: Tx) -> dict[str, tuple[float, int]]:
    """Per topic, the mean score and the number of questions over all completed interviews,
    counted as each report counts them (the same topics; an unanswered question scores 0), so
    Stats shows for one interview the score its report shows."""
    rows = mocks.answers_of_mocks(session, COMPLETED)
    practised = drill_topics(session, {(spec or {}).get("type", "") for kind, spec, _, _ in rows if kind == "drill"})
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for kind, spec, score, tags in rows:
        for topic in question_topics(kind, tags or [], (spec or {}).get("type", ""), practised):
            totals[topic][0] += score or 0.0
            totals[topic][1] += 1
    return {topic: (total / n, int(n)) for topic, (total, n) in totals.items()}


def topic_scores(rows: Sequence[ReportQuestion]) -> list[TopicScore]:
    """Mean score per topic over the questions with that topic, sorted by topic name."""
    from quizapp.srs.mock_views import TopicScore

    per_topic: dict[str, list[ReportQuestion]] = defaultdict(list)
    for row in rows:
        for topic in row.topics:
            per_topic[topic].append(row)
    return [
        TopicScore(
            topic=topic,
            score=sum(r.score for r in qs) / len(qs),
            questions=len(qs),
            item_ids=sorted({r.item_id for r in qs if r.item_id}),
        )
        for topic, qs in sorted(per_topic.items())
    ]


def topic_items(session: Tx, topic: str) -> list[str]:
    """Active, unsuspended bank items with this tag (make_due_now would unsuspend others)."""
    return [item_id for item_id, tags in mocks.shown_bank_tags(session) if topic in (tags or [])]


def weakest_topics(session: Tx, topics: Sequence[TopicScore]) -> list[WeakTopic]:
    """Up to three topics, lowest mean first; a topic scored 1.0 is never weak. Each one's
    items are the interview's items with that topic plus the topic's bank items."""
    from quizapp.srs.mock_views import WeakTopic

    weak = sorted((t for t in topics if t.score < 1.0), key=lambda t: (t.score, -t.questions, t.topic))
    return [
        WeakTopic(t.topic, t.score, sorted(set(t.item_ids) | set(topic_items(session, t.topic))))
        for t in weak[:WEAKEST_LIMIT]
    ]
