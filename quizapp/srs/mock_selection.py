"""Question assembly for a mock interview: deterministic, weak-item-weighted sampling.

Assembly is a pure function of the seed, the content, the configuration and — when
`favour_weak` is set — the learning state (retrievability, recent lapses, past mock
misses). With `favour_weak=False` the same seed and the same content always give the same
interview; with `favour_weak=True` they do so while the learning state is unchanged.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from quizapp.drill_types import DRILL_TYPES
from quizapp.srs.drills import skill_item_id
from quizapp.srs.mock_views import MISS_THRESHOLD, MockConfig
from quizapp.store import mocks
from quizapp.store.models import Item
from quizapp.store.sync import SKILL_PREFIX
from quizapp.store.tx import Tx

RECENT_LAPSE_WINDOW = timedelta(days=30)


def weighted_sample(candidates: Sequence[str], weights: Mapping[str, float], n: int, rng: random.Random) -> list[str]:
    """Up to `n` distinct candidates, each drawn with probability ∝ weight (Efraimidis–Spirakis).

    Deterministic for a given rng state: candidates are visited in sorted order.
    """
    keyed = []
    for cand in sorted(candidates):
        u = rng.random()
        w = max(weights.get(cand, 1.0), 1e-6)
        keyed.append((u ** (1.0 / w), cand))
    keyed.sort(key=lambda pair: (-pair[0], pair[1]))
    return [cand for _, cand in keyed[:n]]


def weakness_weight(retrievability: float | None, reps: int, recent_again: int, mock_misses: int) -> float:
    """Selection weight of an item when weak items are favoured (1 = a well-known item).

    Low retrievability, Again ratings in the last 30 days and past mock misses all raise it;
    a never-studied item counts as half-forgotten.
    """
    r = 0.5 if reps == 0 or retrievability is None else retrievability
    return 1.0 + 3.0 * (1.0 - r) + 1.5 * min(recent_again, 3) + 2.0 * min(mock_misses, 3)


def seeded_rng(seed: int, stream: str) -> random.Random:
    return random.Random(f"quizapp-mock:{seed}:{stream}")


def item_weights(
    session: Tx, item_ids: Sequence[str], retrievability: Mapping[str, float], now: datetime
) -> dict[str, float]:
    """Selection weight of each item (see `weakness_weight`); `now` is naive UTC."""
    card_of = {item_id: (card_id, reps) for item_id, card_id, reps in mocks.cards_of(session, list(item_ids))}
    recent = Counter(mocks.again_cards_since(session, now - RECENT_LAPSE_WINDOW))
    misses = mocks.misses_per_item(session, MISS_THRESHOLD)
    weights = {}
    for item_id in item_ids:
        card_id, reps = card_of.get(item_id, (None, 0))
        weights[item_id] = weakness_weight(
            retrievability.get(item_id), reps, recent.get(card_id, 0) if card_id is not None else 0, misses.get(item_id, 0)
        )
    return weights


def candidates(session: Tx, kind: str, topics: Sequence[str]) -> list[Item]:
    """Active, unsuspended items of `kind`, by id; only those with one of `topics` when given."""
    items = mocks.shown_items(session, kind)
    if topics:
        wanted = set(topics)
        items = [item for item in items if wanted & set(item.tags or [])]
    return items


def drill_types(
    session: Tx, chosen_qa: Sequence[Item], topics: Sequence[str], matched_any: bool
) -> list[str]:
    """Drill types practised by the chosen Q&A items, else by the topics' Q&A items, else
    topics that are themselves drill type ids, else every type — unless topics were
    given and match nothing at all (then no drill: the interview would be off-topic)."""
    known = set(DRILL_TYPES)
    types = sorted({d for item in chosen_qa for d in (item.payload or {}).get("drills", []) if d in known})
    if not types and topics:
        topic_items = candidates(session, "qa", topics)
        types = sorted({d for item in topic_items for d in (item.payload or {}).get("drills", []) if d in known})
        if not types:
            types = sorted(known & set(topics))
        if not types and not matched_any:
            return []
    return types or list(DRILL_TYPES)


def select_questions(
    session: Tx, config: MockConfig, seed: int, retrievability: Mapping[str, float], now: datetime
) -> list[dict[str, Any]]:
    """The interview's questions as {"kind", "item_id", "spec"} rows: Q&A, then MCQ, then drills.

    `retrievability` is the learning state (empty unless `config.favour_weak`); `now` is naive UTC.
    """
    chosen: dict[str, list[Item]] = {}
    matched_any = False
    for kind, n in (("qa", config.n_qa), ("mcq", config.n_mcq)):
        pool = candidates(session, kind, config.topics)
        matched_any = matched_any or bool(pool)
        by_id = {item.id: item for item in pool}
        weights = item_weights(session, list(by_id), retrievability, now) if config.favour_weak else {}
        picked = weighted_sample(list(by_id), weights, n, seeded_rng(seed, kind))
        chosen[kind] = [by_id[item_id] for item_id in picked]

    questions: list[dict[str, Any]] = []
    for kind in ("qa", "mcq"):
        for item in chosen[kind]:
            questions.append(
                {"kind": kind, "item_id": item.id, "spec": {"time_limit_s": config.time_limit(kind)}}
            )

    if config.n_drill and (types := drill_types(session, chosen["qa"], config.topics, matched_any)):
        suspended = mocks.suspended_items_like(session, SKILL_PREFIX)
        skill_ids = [skill_item_id(t) for t in types if skill_item_id(t) not in suspended] or [
            skill_item_id(t) for t in types
        ]
        weights = item_weights(session, skill_ids, retrievability, now) if config.favour_weak else {}
        rng = seeded_rng(seed, "drill")
        picked = weighted_sample(skill_ids, weights, config.n_drill, rng)
        while len(picked) < config.n_drill:  # fewer types than drills asked: repeat them
            picked.append(picked[len(picked) % len(skill_ids)])
        for skill_id in picked:
            questions.append(
                {
                    "kind": "drill",
                    "item_id": skill_id,
                    "spec": {
                        "time_limit_s": config.drill_seconds,
                        "type": skill_id[len(SKILL_PREFIX):],
                        "seed": rng.randrange(1_000_000),
                        "difficulty": config.drill_difficulty,
                    },
                }
            )
    return questions
