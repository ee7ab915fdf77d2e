"""Export progress to JSON / CSV / an Anki package, and import a JSON export back.

JSON is the lossless format (items' cards and every review, drill attempts, mock
interviews); importing it merges by stable item id, so exporting on one machine and
importing on another never duplicates a review.
"""

from __future__ import annotations

import csv
import hashlib
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from quizapp.store.models import Card, DrillAttempt, Item, MockInterview, Review

EXPORT_VERSION = 1
_CARD_FIELDS = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses", "suspended", "leech")


class ImportFormatError(ValueError):
    """The file is not a quizapp export; nothing was imported."""


def _iso(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _card_dict(card: Card) -> dict[str, Any]:
    return {name: _iso(getattr(card, name)) for name in _CARD_FIELDS}


def export_data(session: Session) -> dict[str, Any]:
    items = []
    for item in session.scalars(select(Item).order_by(Item.kind, Item.id)):
        card = item.card
        items.append({
            "id": item.id,
            "kind": item.kind,
            "source_no": item.source_no,
            "question": item.question,
            "retired": item.retired_at is not None,
            "card": _card_dict(card) if card else None,
            "reviews": [
                {"mode": r.mode, "rating": r.rating, "reviewed_at": _iso(r.reviewed_at), "duration_ms": r.duration_ms,
                 "score": r.score, "answer": r.answer, "prev_card": r.prev_card}
                for r in (card.reviews if card else [])
            ],
        })
    attempts = [
        {"type": a.type, "seed": a.seed, "difficulty": a.difficulty, "given": a.given, "answers": a.answers,
         "verdict": a.verdict, "diagnosis": a.diagnosis, "score": a.score, "duration_ms": a.duration_ms,
         "created_at": _iso(a.created_at)}
        for a in session.scalars(select(DrillAttempt).order_by(DrillAttempt.id))
    ]
    mocks = [
        {"seed": m.seed, "config": m.config, "status": m.status, "started_at": _iso(m.started_at),
         "finished_at": _iso(m.finished_at), "score": m.score, "elapsed_s": m.elapsed_s,
         "answers": [{"position": a.position, "kind": a.kind, "item_id": a.item_id, "spec": a.spec, "answer": a.answer,
                      "score": a.score, "time_used_s": a.time_used_s, "over_time": a.over_time,
                      "answered_at": _iso(a.answered_at)} for a in m.answers]}
        for m in session.scalars(select(MockInterview).order_by(MockInterview.id))
    ]
    return {"format": "quizapp-export", "version": EXPORT_VERSION, "items": items,
            "drill_attempts": attempts, "mock_interviews": mocks}


def write_json(session: Session, path: Path) -> int:
    data = export_data(session)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return len(data["items"])


def write_csv(session: Session, path: Path) -> int:
    rows = 0
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "kind", "source_no", "question", *_CARD_FIELDS, "reviews"])
        for item in session.scalars(select(Item).where(Item.kind.in_(("qa", "mcq"))).order_by(Item.kind, Item.id)):
            card = item.card
            values = _card_dict(card) if card else {}
            writer.writerow([item.id, item.kind, item.source_no or "", item.question,
                             *(values.get(name, "") for name in _CARD_FIELDS), len(card.reviews) if card else 0])
            rows += 1
    return rows


def _stable_id(text: str) -> int:
    # genanki needs 31-bit-ish ids that never change between exports.
    return int(hashlib.sha1(text.encode()).hexdigest()[:8], 16) >> 1


def write_apkg(session: Session, path: Path) -> int:
    import genanki

    from quizapp.content.render import to_unicode

    def html(text: object) -> str:
        import html as html_lib

        from quizapp.content.bilingual import primary_text

        return html_lib.escape(to_unicode(primary_text(text))).replace("\n", "<br>")

    qa_model = genanki.Model(
        _stable_id("quizapp-qa-model"), "quizapp Q&A",
        fields=[{"name": "Question"}, {"name": "Answer"}, {"name": "More"}],
        templates=[{"name": "Card", "qfmt": "{{Question}}", "afmt": "{{FrontSide}}<hr id=answer>{{Answer}}<br><br>{{More}}"}],
    )
    mcq_model = genanki.Model(
        _stable_id("quizapp-mcq-model"), "quizapp MCQ",
        fields=[{"name": "Question"}, {"name": "Options"}, {"name": "Answer"}, {"name": "Explanation"}],
        templates=[{"name": "Card", "qfmt": "{{Question}}<br><br>{{Options}}",
                    "afmt": "{{FrontSide}}<hr id=answer><b>{{Answer}}</b><br>{{Explanation}}"}],
    )
    deck = genanki.Deck(_stable_id("quizapp-deck"), "quizapp · Transformer Attention")
    count = 0
    for item in session.scalars(select(Item).where(Item.retired_at.is_(None), Item.kind.in_(("qa", "mcq"))).order_by(Item.id)):
        p = item.payload
        if item.kind == "qa":
            fields = [html(p["question"]), html(p["answer"]), html(p.get("long_answer") or "")]
            model = qa_model
        else:
            options = "<br>".join(f"{'ABCD'[i]}. {html(o)}" for i, o in enumerate(p["options"]))
            fields = [html(p["question"]), options, p["answer"], html(p["explanation"])]
            model = mcq_model
        deck.add_note(genanki.Note(model=model, fields=fields, guid=genanki.guid_for("quizapp", item.id), tags=p.get("tags", [])))
        count += 1
    genanki.Package(deck).write_to_file(str(path))
    return count


def _parse_dt(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) else None


def import_json(session: Session, data: Any) -> dict[str, int]:
    """Merge an export: new reviews are added, a card takes the newer of the two states."""
    if not isinstance(data, dict) or data.get("format") != "quizapp-export" or not isinstance(data.get("items"), list):
        raise ImportFormatError("not a quizapp export (expected a JSON file written by `quizapp export --format json`)")
    if data.get("version") != EXPORT_VERSION:
        raise ImportFormatError(f"unsupported export version {data.get('version')!r}")
    cards = {c.item_id: c for c in session.scalars(select(Card))}
    added = updated = skipped = 0
    for entry in data["items"]:
        if not isinstance(entry, dict):
            raise ImportFormatError("malformed item entry")
        card = cards.get(entry.get("id"))
        if card is None:
            skipped += 1
            continue
        have = {(r.reviewed_at, r.rating, r.mode) for r in card.reviews}
        for review in entry.get("reviews") or []:
            reviewed_at = _parse_dt(review.get("reviewed_at"))
            key = (reviewed_at, review.get("rating"), review.get("mode"))
            if reviewed_at is None or key in have or review.get("rating") not in (1, 2, 3, 4):
                continue
            session.add(Review(card_id=card.id, mode=str(review.get("mode") or "study"), rating=int(review["rating"]),
                               reviewed_at=reviewed_at, duration_ms=review.get("duration_ms"),
                               score=review.get("score"), answer=review.get("answer"),
                               prev_card=review.get("prev_card") or {}))
            added += 1
        incoming = entry.get("card") or {}
        theirs, ours = _parse_dt(incoming.get("last_review")), card.last_review
        if theirs is not None and (ours is None or theirs > ours):
            for name in _CARD_FIELDS:
                value = incoming.get(name)
                setattr(card, name, _parse_dt(value) if name in ("due", "last_review") else value)
            card.version += 1
            updated += 1
    session.flush()
    return {"reviews_added": added, "cards_updated": updated, "items_unknown": skipped}
