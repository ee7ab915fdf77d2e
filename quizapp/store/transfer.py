"""Export progress to JSON / CSV / an Anki package, and import a JSON export back.

JSON is the lossless format (quizapp.store.export_schema): cards, every review, settings,
drill attempts, mock interviews with their answers. It is written as it is read (one
record at a time, never the whole tree in memory), into a temporary file that replaces
the target only when complete (quizapp.atomic). Importing validates the whole file
against the schema first — nothing is written if any field is bad — then merges by
stable keys in one short write transaction, so importing twice adds nothing.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import lzma
import math
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime, timedelta
from operator import attrgetter
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol, overload

from pydantic import ValidationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from quizapp.atomic import atomic_path, atomic_write
from quizapp.store import export_schema as schema
from quizapp.store import import_stream, review_gaps
from quizapp.store.export_items import CARD_FIELDS as _CARD_FIELDS
from quizapp.store.export_items import dumps as _dumps
from quizapp.store.export_items import write_items
from quizapp.store.models import (
    Card,
    DrillAttempt,
    Item,
    MockAnswer,
    MockInterview,
    Review,
    Setting,
)

if TYPE_CHECKING:
    from quizapp.store.database import Database

EXPORT_VERSION = schema.VERSION
_MIN = datetime.min
_BATCH = 2000  # rows fetched at a time while exporting


class ImportFormatError(ValueError):
    """The file is not a valid quizapp export; nothing was imported. `errors` are located
    one-line messages (`items[3].reviews[17].rating: must be 1–4`)."""

    def __init__(self, errors: list[str] | str) -> None:
        self.errors = [errors] if isinstance(errors, str) else list(errors)
        super().__init__(self.errors[0] if self.errors else "invalid export")


def _utc(value: datetime | None) -> str | None:
    """A stored (naive UTC) time as ISO text with its offset."""
    return value.replace(tzinfo=UTC).isoformat() if value is not None else None


@overload
def _naive(value: datetime) -> datetime: ...
@overload
def _naive(value: None) -> None: ...
def _naive(value: datetime | None) -> datetime | None:
    return value.astimezone(UTC).replace(tzinfo=None) if value is not None else None


# -- JSON export (streamed) ----------------------------------------------------------------


def _grouped(rows: Iterable[Any], key: Callable[[Any], Any]) -> Iterator[tuple[Any, list[Any]]]:
    """Consecutive rows with the same `key(row)`, as (key, rows)."""
    current: Any = object()
    group: list[Any] = []
    for row in rows:
        value = key(row)
        if value != current:
            if group:
                yield current, group
            current, group = value, []
        group.append(row)
    if group:
        yield current, group


def _write_attempts(session: Session, out: IO[str], review_refs: dict[int, int], mock_refs: dict[int, int]) -> dict[int, int]:
    attempt_refs: dict[int, int] = {}
    attempts = DrillAttempt.__table__
    rows = session.execute(select(attempts).order_by(attempts.c.created_at, attempts.c.id))
    for row in rows:
        ref = attempt_refs[row.id] = len(attempt_refs) + 1
        record = {
            "ref": ref, "type": row.type, "seed": row.seed, "difficulty": row.difficulty, "given": row.given,
            "answers": row.answers, "verdict": row.verdict, "diagnosis": row.diagnosis, "score": row.score,
            "duration_ms": row.duration_ms, "created_at": _utc(row.created_at),
            "review_ref": review_refs.get(row.review_id) if row.review_id is not None else None,
            "mock_ref": mock_refs.get(row.mock_id) if row.mock_id is not None else None,
        }
        out.write(("\n" if ref == 1 else ",\n") + _dumps(record))
    return attempt_refs


def _mock_answer_refs(data: dict[str, Any] | None, attempt_refs: dict[int, int], review_refs: dict[int, int]) -> Any:
    """Row ids inside a mock answer become refs of the file (and back on import)."""
    if not data:
        return data
    data = dict(data)
    for key, refs in (("attempt_id", attempt_refs), ("review_id", review_refs)):
        if data.get(key) is not None:
            data[key] = refs.get(data[key])
    return data


def _write_mocks(
    session: Session, out: IO[str], mock_refs: dict[int, int], attempt_refs: dict[int, int], review_refs: dict[int, int]
) -> None:
    mocks, mock_answers = MockInterview.__table__, MockAnswer.__table__
    order = (mocks.c.started_at, mocks.c.id)
    answers = _grouped(session.execute(
        select(mock_answers).join(mocks, mocks.c.id == mock_answers.c.mock_id)
        .order_by(*order, mock_answers.c.position)
    ), attrgetter("mock_id"))
    pending = next(answers, None)
    for row in session.execute(select(mocks).order_by(*order)):
        mine: list[Any] = []
        if pending is not None and pending[0] == row.id:
            mine = pending[1]
            pending = next(answers, None)
        record = {
            "ref": mock_refs[row.id], "seed": row.seed, "config": row.config, "status": row.status,
            "started_at": _utc(row.started_at), "finished_at": _utc(row.finished_at), "score": row.score,
            "elapsed_s": row.elapsed_s,
            "answers": [
                {"position": a.position, "kind": a.kind, "item_id": a.item_id, "spec": a.spec,
                 "answer": _mock_answer_refs(a.answer, attempt_refs, review_refs), "score": a.score,
                 "time_used_s": a.time_used_s, "over_time": a.over_time, "answered_at": _utc(a.answered_at)}
                for a in mine
            ],
        }
        out.write(("\n" if record["ref"] == 1 else ",\n") + _dumps(record))


def stream_json(session: Session, out: IO[str], now: datetime | None = None) -> int:
    """Write the whole export to `out` record by record; returns the number of items."""
    exported_at = (now or datetime.now(UTC)).astimezone(UTC).isoformat()
    # Core selects of the tables throughout (here and in export_items): an export needs no
    # ORM mapper configured, which a process's first ORM statement pays for (~10 ms).
    stored, mocks = Setting.__table__, MockInterview.__table__
    settings = {key: value for key, value in session.execute(select(stored.c.key, stored.c.value).order_by(stored.c.key))}
    out.write(f'{{"format":"{schema.FORMAT}","version":{schema.VERSION},"exported_at":{_dumps(exported_at)},\n')
    out.write(f'"settings":{_dumps(settings)},\n"items":[')
    mock_ids = session.scalars(select(mocks.c.id).order_by(mocks.c.started_at, mocks.c.id)).all()
    mock_refs = {mock_id: n for n, mock_id in enumerate(mock_ids, 1)}
    review_refs: dict[int, int] = {}
    count = write_items(session, out, review_refs)
    out.write('],\n"drill_attempts":[')
    attempt_refs = _write_attempts(session, out, review_refs, mock_refs)
    out.write('],\n"mock_interviews":[')
    _write_mocks(session, out, mock_refs, attempt_refs, review_refs)
    out.write("]}\n")
    return count


# The compressed JSON exports, by file name (import tells them by their first bytes):
# `.json.xz` is the smallest (about half of Anki's zstd .apkg of the same collection: LZMA's
# window spans many items), `.json.gz` the quickest (gzip's 32 KiB window sees one item
# at a time: a little larger than the .apkg when a collection repeats much of its text).
COMPRESSIONS = ("gz", "xz")
GZIP_LEVEL = 6
XZ_PRESET = 1  # of 0-9: most of the gain at a fraction of the default's (6) time


def compression_of(path: Path | str) -> str | None:
    """'gz' or 'xz' for an export to a name ending in `.gz` / `.xz`, else None (plain JSON)."""
    suffix = str(path).lower().rsplit(".", 1)[-1]
    return suffix if suffix in COMPRESSIONS else None


def write_json(session: Session, path: Path, now: datetime | None = None, compress: str | None = "auto") -> int:
    """The JSON export, written through `compress` ('gz', 'xz', None; by default as the file
    name says: `compression_of`). Import reads every form as it is."""
    codec = compression_of(path) if compress == "auto" else compress
    if codec is None:
        with atomic_write(path) as out:
            return stream_json(session, out, now)
    with atomic_write(path, "wb") as raw:
        packed: gzip.GzipFile | lzma.LZMAFile = (gzip.GzipFile("", "wb", GZIP_LEVEL, raw, mtime=0) if codec == "gz"
                             else lzma.LZMAFile(raw, mode="wb", preset=XZ_PRESET))  # noqa: SIM115 - closed below
        with packed:
            out = io.TextIOWrapper(packed, encoding="utf-8")
            count = stream_json(session, out, now)
            out.flush()
            out.detach()  # `packed` is closed (its trailer written) by its own `with`
    return count


# fsrs.State's values, as Card.state stores them (named here: the store does not load fsrs).
_STATE_NAMES = {1: "learning", 2: "review", 3: "relearning"}


def _csv_state(state: int, reps: int) -> str:
    """The FSRS state by name; a card never answered is "new" (it is stored as learning)."""
    if not reps:
        return "new"
    return _STATE_NAMES.get(state, str(state))


def _csv_card(card: dict[str, Any]) -> list[Any]:
    """A card's CSV cells: times with their UTC offset (they are stored naive), state by name."""
    card = {**card, "state": _csv_state(card["state"], card["reps"] or 0)}
    return [_utc(value) if isinstance(value, datetime) else value for value in card.values()]


def write_csv(session: Session, path: Path) -> int:
    """One row per item: its question in both languages, rendered (√d_k, QKᵀ — not LaTeX), and its card."""
    from quizapp.content.bilingual import texts_of
    from quizapp.content.render import to_unicode

    reviews = select(func.count()).where(Review.card_id == Card.id).correlate(Card).scalar_subquery()
    # One query, streamed: the payload's question only (not the whole item), the card's
    # columns, and the review count from the card_id index (no per-item loading).
    query = (
        select(Item.id, Item.kind, Item.source_no, Item.question, Item.payload["question"], Card.id,
               *(getattr(Card, name) for name in _CARD_FIELDS), reviews)
        .outerjoin(Card, Card.item_id == Item.id)
        .where(Item.kind.in_(("qa", "mcq")))
        .order_by(Item.kind, Item.id)
        .execution_options(yield_per=_BATCH)
    )
    rows = 0
    with atomic_write(path, newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "kind", "source_no", "question_zh", "question_en", *_CARD_FIELDS, "reviews"])
        for item_id, kind, source_no, question, payload_question, card_id, *card_values, count in session.execute(query):
            values = _csv_card(dict(zip(_CARD_FIELDS, card_values, strict=True))) if card_id is not None else [""] * len(_CARD_FIELDS)
            texts = texts_of(payload_question) or texts_of(question)
            questions = [to_unicode(texts.get(lang, "")) for lang in ("zh", "en")]
            writer.writerow([item_id, kind, source_no or "", *questions, *values, count if card_id is not None else 0])
            rows += 1
    return rows


def _stable_id(text: str) -> int:
    # genanki needs 31-bit-ish ids that never change between exports.
    return int(hashlib.sha1(text.encode()).hexdigest()[:8], 16) >> 1


def markdown_html(text: str, inline: bool = False) -> str:
    """Anki fields are HTML: the Markdown of the content rendered by markdown-it-py (tables,
    emphasis, code), math already turned into Unicode (√dₖ, QKᵀ; display matrices are an
    indented block, so they stay aligned in <pre>). Raw HTML in content is escaped, never
    passed through."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "breaks": True}).enable(["table", "strikethrough"])
    return (md.renderInline(text) if inline else md.render(text)).strip()


def anki_tags(tags: list[object]) -> list[str]:
    """Anki tags are single words: whitespace becomes `_` (a space made genanki fail)."""
    cleaned = ("_".join(str(tag).split()) for tag in tags)
    return [tag for tag in cleaned if tag]


def write_apkg(session: Session, path: Path) -> int:
    """An Anki package: zh and en in separate fields; one card per language, its back
    revealing the other language."""
    import genanki

    from quizapp.content.bilingual import texts_of
    from quizapp.content.models import LANGS
    from quizapp.content.render import to_unicode

    def html(text: object) -> str:
        return markdown_html(to_unicode(text if isinstance(text, str) else ""))

    def inline(text: object) -> str:
        return markdown_html(to_unicode(text if isinstance(text, str) else ""), inline=True)

    def per_lang(value: object) -> list[str]:
        """[zh, en] HTML of a bilingual text ("" for a language it is not given in)."""
        texts = texts_of(value)
        return [html(texts.get(lang, "")) for lang in LANGS]

    def options(values: list, lang: str) -> str:
        shown = [texts_of(o).get(lang) for o in values]
        if not all(shown):
            return ""
        return "<br>".join(f"{'ABCD'[i]}. {inline(text)}" for i, text in enumerate(shown))

    # One card per language given: the front in that language, the back revealing the
    # answer and then the other language's version (`{{#field}}` skips what is missing).
    def templates(front: dict[str, str], back: dict[str, str]) -> list[dict[str, str]]:
        cards = []
        for lang, other in (("zh", "en"), ("en", "zh")):
            cards.append({
                "name": "中文" if lang == "zh" else "English",
                "qfmt": front[lang],
                "afmt": "{{FrontSide}}<hr id=answer>" + back[lang]
                + f"{{{{#Question_{other}}}}}<hr><div class=other lang={other}>" + front[other] + back[other]
                + f"</div>{{{{/Question_{other}}}}}",
            })
        return cards

    qa_fields = ["Question", "Answer", "More"]
    qa_model = genanki.Model(
        _stable_id("quizapp-qa-model-bilingual"), "quizapp Q&A (中文/English)",
        fields=[{"name": f"{name}_{lang}"} for name in qa_fields for lang in LANGS],
        templates=templates(
            {lang: f"{{{{#Question_{lang}}}}}{{{{Question_{lang}}}}}{{{{/Question_{lang}}}}}" for lang in LANGS},
            {lang: f"{{{{Answer_{lang}}}}}{{{{#More_{lang}}}}}<br><br>{{{{More_{lang}}}}}{{{{/More_{lang}}}}}"
             for lang in LANGS},
        ),
    )
    mcq_fields = ["Question", "Options", "Explanation"]
    mcq_model = genanki.Model(
        _stable_id("quizapp-mcq-model-bilingual"), "quizapp MCQ (中文/English)",
        fields=[{"name": f"{name}_{lang}"} for name in mcq_fields for lang in LANGS] + [{"name": "Answer"}],
        templates=templates(
            {lang: f"{{{{#Question_{lang}}}}}{{{{Question_{lang}}}}}<br><br>{{{{Options_{lang}}}}}{{{{/Question_{lang}}}}}"
             for lang in LANGS},
            {lang: f"<b>{{{{Answer}}}}</b><br>{{{{Explanation_{lang}}}}}" for lang in LANGS},
        ),
    )
    deck = genanki.Deck(_stable_id("quizapp-deck"), "quizapp · Transformer Attention")
    count = 0
    for item in session.scalars(select(Item).where(Item.retired_at.is_(None), Item.kind.in_(("qa", "mcq"))).order_by(Item.id)):
        p = item.payload
        if item.kind == "qa":
            fields = [*per_lang(p.get("question")), *per_lang(p.get("answer")), *per_lang(p.get("long_answer"))]
            model = qa_model
        else:
            fields = [*per_lang(p.get("question")), *(options(p.get("options") or [], lang) for lang in LANGS),
                      *per_lang(p.get("explanation")), str(p.get("answer", ""))]
            model = mcq_model
        deck.add_note(genanki.Note(model=model, fields=fields, guid=genanki.guid_for("quizapp", item.id),
                                   tags=anki_tags(p.get("tags") or [])))
        count += 1
    import sqlite3

    try:
        with atomic_path(path) as temp:
            genanki.Package(deck).write_to_file(str(temp))
    except sqlite3.Error as exc:  # genanki builds the package in an SQLite file of its own
        raise OSError(f"the package could not be built ({exc})") from exc
    return count


def export_to(db: Database, fmt: str, path: Path) -> int:
    """`quizapp export --format FMT` (json, csv or apkg) of `db` into `path` (atomic), read
    in one read transaction (one consistent snapshot); the number of items."""
    if fmt.startswith("json."):  # json.gz, json.xz: compressed whatever the name
        codec = fmt.split(".", 1)[1]
        with db.transaction() as tx:
            return write_json(tx.session(), path, compress=codec)
    writer = {"json": write_json, "csv": write_csv, "apkg": write_apkg}[fmt]  # json: by the name
    with db.transaction() as tx:
        return writer(tx.session(), path)


# -- JSON import ----------------------------------------------------------------------------


def parse_export(raw: bytes | str, now: datetime | None = None) -> schema.Export:
    """Validate a whole export file (no database needed); ImportFormatError with located
    errors when anything is wrong."""
    if isinstance(raw, bytes) and raw.startswith((import_stream.GZIP_MAGIC, import_stream.XZ_MAGIC)):
        try:
            raw = gzip.decompress(raw) if raw.startswith(import_stream.GZIP_MAGIC) else lzma.decompress(raw)
        except import_stream.DAMAGED as exc:
            raise ImportFormatError(import_stream.damaged(exc)) from None
    # A UTF-8 byte-order mark (editors on Windows add one) is not part of the JSON.
    if isinstance(raw, bytes) and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    elif isinstance(raw, str) and raw.startswith("\ufeff"):
        raw = raw[1:]
    # One plain sentence, never the decoder's own words ('utf-8' codec can't decode byte 0x9e…:
    # issue 27 item 10).
    try:
        head = json.loads(raw)
    except UnicodeDecodeError as exc:
        raise ImportFormatError(f"not UTF-8 text (an unreadable byte at offset {exc.start}), so not an export") from None
    except json.JSONDecodeError as exc:
        raise ImportFormatError(f"not JSON (unreadable at line {exc.lineno}, column {exc.colno})") from None
    except (ValueError, RecursionError):
        raise ImportFormatError("not JSON (unreadable or nested too deeply)") from None
    if not isinstance(head, dict) or head.get("format") != schema.FORMAT:
        raise ImportFormatError("not a quizapp export (expected a JSON file written by `quizapp export --format json`)")
    if head.get("version") != schema.VERSION:
        raise ImportFormatError(
            f"unsupported export version {head.get('version')!r} (this quizapp reads version {schema.VERSION})"
        )
    # "In the future" is measured against the later of this machine's clock and the file's
    # own `exported_at`: an export written while the clock ran ahead holds reviews "from
    # the future" that quizapp itself wrote, and is imported as written (the CLI notes the
    # skew: `clock_skew`). A review after the file's own export time is still refused.
    context = {"now": max((now or datetime.now(UTC)).astimezone(UTC), import_stream.exported_at(head) or datetime.min.replace(tzinfo=UTC))}
    try:
        return schema.Export.model_validate_json(raw, context=context)
    except ValidationError as exc:
        raise ImportFormatError(schema.located_errors(exc)) from None


def clock_skew(export: schema.Export | import_stream.Checked, now: datetime | None = None) -> timedelta | None:
    """How far the file's clock was ahead of this one's, when more than the day of slack."""
    ahead = export.exported_at - (now or datetime.now(UTC)).astimezone(UTC)
    return ahead if ahead > schema.FUTURE_SLACK else None


def check_settings(export: schema.Export | import_stream.Checked, validate: Callable[[str, Any], str | None]) -> None:
    """Located errors for settings the app would not accept (`validate` returns a message)."""
    errors = [schema.visible(f"settings.{key}: {message}") for key, value in export.settings.items()
              if (message := validate(key, value)) is not None]
    if errors:
        raise ImportFormatError(errors)


def _card_values(record: schema.CardRecord) -> dict[str, Any]:
    values = record.model_dump()
    values["due"], values["last_review"] = _naive(record.due), _naive(record.last_review)
    return values


class _Source(Protocol):
    """Validated records of an export, in the order the rows depend on each other; `mocks`
    may be read twice (the interviews, then their answers, once attempts have ids)."""

    settings: dict[str, Any]

    def items(self) -> Iterable[schema.ItemRecord]: ...
    def mocks(self) -> Iterable[schema.MockInterviewRecord]: ...
    def attempts(self) -> Iterable[schema.DrillAttemptRecord]: ...


class _ExportSource:
    """A whole Export already in memory (tests, scripts: `parse_export`)."""

    def __init__(self, export: schema.Export) -> None:
        self.export, self.settings = export, dict(export.settings)

    def items(self) -> Iterable[schema.ItemRecord]:
        return self.export.items

    def mocks(self) -> Iterable[schema.MockInterviewRecord]:
        return self.export.mock_interviews

    def attempts(self) -> Iterable[schema.DrillAttemptRecord]:
        return self.export.drill_attempts


class _FileSource:
    """A checked file (`import_stream.check_file`), read again record by record."""

    def __init__(self, checked: import_stream.Checked, progress: Callable[[float], None] | None) -> None:
        self.checked, self.settings = checked, checked.settings
        counts = checked.counts
        # The items are nearly all of the work; each other pass reads the file once more.
        passes = [("items", counts.get("items", 0))] + [
            (key, n) for key, n in (("mock_interviews", counts.get("mock_interviews", 0)),
                                    ("drill_attempts", counts.get("drill_attempts", 0)),
                                    ("mock_interviews", counts.get("mock_interviews", 0))) if n]
        self._passes = len(passes)
        self._done = 0
        self._progress = progress

    def _read(self, key: str, model: type[Any]) -> Iterator[Any]:
        def moved(fraction: float) -> None:
            if self._progress is not None:
                self._progress((self._done + fraction) / self._passes)

        if import_stream.file_stamp(self.checked.path) != self.checked.stamp:
            raise ImportFormatError("the file changed since it was checked; nothing imported")
        try:
            for index, value in import_stream.records(self.checked.path, key, moved):
                yield import_stream.validated(model, key, index, value, self.checked.now)
        except (ValidationError, import_stream.StreamFormatError):
            raise ImportFormatError("the file changed since it was checked; nothing imported") from None
        self._done += 1

    def items(self) -> Iterable[schema.ItemRecord]:
        return self._read("items", schema.ItemRecord) if self.checked.counts.get("items") else ()

    def mocks(self) -> Iterable[schema.MockInterviewRecord]:
        return self._read("mock_interviews", schema.MockInterviewRecord) if self.checked.counts.get("mock_interviews") else ()

    def attempts(self) -> Iterable[schema.DrillAttemptRecord]:
        return self._read("drill_attempts", schema.DrillAttemptRecord) if self.checked.counts.get("drill_attempts") else ()


_REVIEW_COLUMNS = ("id", "card_id", "mode", "rating", "reviewed_at", "duration_ms", "score", "answer",
                   "prev_state", "prev_step", "prev_stability", "prev_difficulty", "prev_due", "prev_last_review",
                   "prev_reps", "prev_lapses", "prev_leech", "prev_suspended")


class _ReviewWriter:
    """Reviews inserted with the driver's executemany, values through the columns' own bind
    processors (mode codes, epoch microseconds, JSON): the ORM's bulk insert took most of a
    large import's time, all of it under the write lock. Row ids are given here (the next
    after the largest), which only the holder of the write lock may do: it is inside one."""

    def __init__(self, session: Session) -> None:
        table = Review.__table__
        dialect = session.get_bind().dialect
        self.processors = [table.c[name].type._cached_bind_processor(dialect) for name in _REVIEW_COLUMNS]
        # What each column stores for None, worked out once (a review without an answer is
        # the JSON `null` of most rows: encoding it per row was a fifth of the write).
        self.nones = [None if proc is None else proc(None) for proc in self.processors]
        self.cursor = session.connection().connection.driver_connection.cursor()  # type: ignore[union-attr]
        self.next_id = (session.scalar(select(func.max(Review.id))) or 0) + 1
        self.first_id = self.next_id
        self.postgresql = dialect.name == "postgresql"
        # PostgreSQL: the review gaps of every answer added, moved at once in `finish`
        # instead of by the per-row trigger (most of a large import's time; review_gaps.py).
        self.gaps_aside = self.postgresql and review_gaps.set_aside(self.cursor)
        # The raw driver cursor reads its own placeholders: sqlite3's `?`, psycopg's `%s`.
        marks = ", ".join(("%s" if self.postgresql else "?") for _ in _REVIEW_COLUMNS)
        self.sql = f"INSERT INTO reviews ({', '.join(_REVIEW_COLUMNS)}) VALUES ({marks})"

    def row(self, card_id: int, record: schema.ReviewRecord) -> tuple[int, tuple[Any, ...]]:
        snap = record.prev_card
        values = (self.next_id, card_id, record.mode, record.rating, _naive(record.reviewed_at), record.duration_ms,
                  record.score, record.answer, snap.state, snap.step, snap.stability, snap.difficulty, snap.due,
                  snap.last_review, snap.reps, snap.lapses, snap.leech, snap.suspended)
        self.next_id += 1
        return values[0], tuple(none if value is None else value if proc is None else proc(value)
                                for proc, none, value in zip(self.processors, self.nones, values, strict=True))

    def write(self, rows: list[tuple[Any, ...]]) -> None:
        self.cursor.executemany(self.sql, rows)
        if self.postgresql and rows:
            # The ids were given here, past the id sequence: it must follow, or the next
            # answer's INSERT (the sequence's next id) meets an id an import already took.
            self.cursor.execute("SELECT setval(pg_get_serial_sequence('reviews', 'id'), %s)", (self.next_id - 1,))

    def finish(self) -> None:
        """Once every review is written: their gaps, where the trigger stood aside."""
        if self.gaps_aside:
            if self.next_id > self.first_id:
                review_gaps.move(self.cursor, self.first_id)
            review_gaps.put_back(self.cursor)
            self.gaps_aside = False


def import_export(session: Session, export: schema.Export) -> dict[str, int]:
    """Merge a validated export (held whole in memory) inside the caller's write transaction."""
    return merge(session, _ExportSource(export))


def import_file(session: Session, checked: import_stream.Checked,
                progress: Callable[[float], None] | None = None) -> dict[str, int]:
    """Merge a file that passed `import_stream.check_file`, reading it again record by record
    (memory stays that of one record), inside the caller's write transaction; `progress`
    hears the fraction done."""
    return merge(session, _FileSource(checked, progress))


def merge(session: Session, source: _Source) -> dict[str, int]:
    """Merge validated records inside the caller's (write) transaction.

    New reviews, attempts and interviews are added (matched by time and kind, so importing
    twice adds nothing); a card takes the file's state when the file's last review is at
    least as recent as ours; settings take the file's values. Only the database's own rows
    (cards, interviews, attempts: a collection's size) and one record at a time are held in
    memory; which row each ref of the file became is kept in a temporary file.
    """
    refs = import_stream.Refs()
    try:
        return _merge(session, source, refs)
    finally:
        refs.close()


def _merge(session: Session, source: _Source, refs: import_stream.Refs) -> dict[str, int]:
    cards = {card.item_id: card for card in session.scalars(select(Card))}
    known_items = set(session.scalars(select(Item.id)))
    session.flush()
    writer = _ReviewWriter(session)
    added = updated = skipped = 0
    for entry in source.items():
        card = cards.get(entry.id)
        if card is None:
            skipped += 1
            continue
        # This card's reviews only (the card_id index): memory is one card's, not the file's.
        have = {
            (reviewed_at, rating, mode): review_id
            for review_id, reviewed_at, rating, mode in session.execute(
                select(Review.id, Review.reviewed_at, Review.rating, Review.mode).where(Review.card_id == card.id))
        }
        known: list[tuple[int, int]] = []  # (ref of the file, row id)
        rows: list[tuple[Any, ...]] = []
        for record in entry.reviews:
            review_key = (_naive(record.reviewed_at), record.rating, record.mode)
            existing = have.get(review_key)  # also one the file holds twice
            if existing is None:
                existing, row = writer.row(card.id, record)
                have[review_key] = existing
                rows.append(row)
            known.append((record.ref, existing))
        if rows:
            writer.write(rows)
            added += len(rows)
        refs.set(refs.REVIEW, known)
        if entry.card is not None:
            theirs = _card_values(entry.card)
            if (theirs["last_review"] or _MIN) >= (card.last_review or _MIN) and any(
                getattr(card, name) != value for name, value in theirs.items()
            ):
                for name, value in theirs.items():
                    setattr(card, name, value)
                card.version += 1  # an answer shown before the import is now stale
                updated += 1
    writer.finish()
    session.flush()

    stored = {row.key: row for row in session.scalars(select(Setting))}
    for key, value in source.settings.items():
        if key in stored:
            if stored[key].value != value:
                stored[key].value = value
        else:
            session.add(Setting(key=key, value=value))
    session.flush()

    mocks_have = {(m.started_at, m.seed): m.id for m in session.scalars(select(MockInterview))}
    mocks_added = 0
    for mock_record in source.mocks():
        mock_key = (_naive(mock_record.started_at), mock_record.seed)
        if mock_key in mocks_have:
            refs.set(refs.MOCK, [(mock_record.ref, -mocks_have[mock_key])])  # negative: kept, not new
            continue
        mock = MockInterview(seed=mock_record.seed, config=mock_record.config, status=mock_record.status,
                             started_at=mock_key[0], finished_at=_naive(mock_record.finished_at),
                             score=mock_record.score, elapsed_s=mock_record.elapsed_s)
        session.add(mock)
        session.flush()
        mocks_have[mock_key] = mock.id
        refs.set(refs.MOCK, [(mock_record.ref, mock.id)])
        session.expunge(mock)
        mocks_added += 1

    attempts_have = {(a.type, a.seed, a.created_at): a.id for a in session.scalars(select(DrillAttempt))}
    attempts_added = 0
    for attempt_record in source.attempts():
        attempt_key = (attempt_record.type, attempt_record.seed, _naive(attempt_record.created_at))
        if attempt_key in attempts_have:
            refs.set(refs.ATTEMPT, [(attempt_record.ref, attempts_have[attempt_key])])
            continue
        mock_id = _mock_row(refs, attempt_record.mock_ref)
        attempt = DrillAttempt(
            type=attempt_record.type, seed=attempt_record.seed, difficulty=attempt_record.difficulty,
            given=attempt_record.given, answers=attempt_record.answers, verdict=attempt_record.verdict,
            diagnosis=[d.model_dump() for d in attempt_record.diagnosis], score=attempt_record.score,
            duration_ms=attempt_record.duration_ms, created_at=attempt_key[2],
            review_id=refs.get(refs.REVIEW, attempt_record.review_ref) if attempt_record.review_ref is not None else None,
            mock_id=mock_id,
        )
        session.add(attempt)
        session.flush()
        attempts_have[attempt_key] = attempt.id
        refs.set(refs.ATTEMPT, [(attempt_record.ref, attempt.id)])
        session.expunge(attempt)
        attempts_added += 1

    if mocks_added:
        attempt_map, review_map = refs.mapping(refs.ATTEMPT), refs.mapping(refs.REVIEW)
        for mock_record in source.mocks():
            new_id = refs.get(refs.MOCK, mock_record.ref)  # None: the interview was already here
            if new_id is None:
                continue
            rows_added = []
            for answer in mock_record.answers:
                answer_row = MockAnswer(
                    mock_id=new_id, position=answer.position, kind=answer.kind,
                    item_id=answer.item_id if answer.item_id in known_items else None, spec=answer.spec,
                    answer=_mock_answer_refs(answer.answer, attempt_map, review_map),  # type: ignore[arg-type]
                    score=answer.score, time_used_s=answer.time_used_s, over_time=answer.over_time,
                    answered_at=_naive(answer.answered_at),
                )
                session.add(answer_row)
                rows_added.append(answer_row)
            session.flush()
            for answer_row in rows_added:  # written: not kept in the session (memory stays flat)
                session.expunge(answer_row)
    session.flush()
    return {"reviews_added": added, "cards_updated": updated, "items_unknown": skipped,
            "drill_attempts_added": attempts_added, "mock_interviews_added": mocks_added}


def _mock_row(refs: import_stream.Refs, ref: int | None) -> int | None:
    """The interview row a file's mock ref became (kept or new)."""
    if ref is None:
        return None
    row = refs.conn.execute("SELECT id FROM refs WHERE kind = ? AND ref = ?", (refs.MOCK, ref)).fetchone()
    return None if row is None or row[0] is None else abs(row[0])


def check_export_file(path: Path, now: datetime | None = None) -> import_stream.Checked:
    """Validate an export file record by record (`import_stream.check_file`): ImportFormatError
    with located errors when anything is wrong."""
    try:
        return import_stream.check_file(path, now)
    except import_stream.StreamFormatError as exc:
        raise ImportFormatError(exc.errors) from None


_INFINITE = {"\x00+inf\x00": "1e999", "\x00-inf\x00": "-1e999"}


def _json_text(data: Any) -> str:
    """`data` as JSON text; an infinite float is written as a number that overflows to it
    (1e999), as a file would hold it ("Infinity" is not JSON)."""
    def walk(value: Any) -> Any:
        if isinstance(value, float) and value in (math.inf, -math.inf):
            return "\x00+inf\x00" if value > 0 else "\x00-inf\x00"
        if isinstance(value, dict):
            return {key: walk(item) for key, item in value.items()}
        if isinstance(value, list):
            return [walk(item) for item in value]
        return value

    text = json.dumps(walk(data), ensure_ascii=False)
    for token, number in _INFINITE.items():
        text = text.replace(json.dumps(token), number)
    return text


def import_json(session: Session | None, data: Any, now: datetime | None = None) -> dict[str, int]:
    """Validate and merge an export given as parsed JSON (tests, scripts), the way the CLI
    imports a file: streamed, through a temporary file."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="quizapp-import-") as folder:
        path = Path(folder) / "export.json"
        path.write_text(_json_text(data), encoding="utf-8")
        checked = check_export_file(path, now)
        assert session is not None
        return import_file(session, checked)
