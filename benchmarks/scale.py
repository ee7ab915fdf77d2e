"""quizapp against Anki's own backend at 1k, 10k and 100k cards with FSRS review histories.

Both collections hold the same cards — n clones of the built-in bank (so the text is the
real Chinese/English mix) with the same simulated histories, plus the built-in items as
new cards — and the same histories: 400 FSRS-simulated review sequences (10 reviews each,
the `fsrs` package with random ratings), shifted in time per card so that about a tenth
of the cards are due.

The notes hold the same text as quizapp's items: every text an item stores, in both
languages (question, answer, long answer, key points with their keywords, MCQ options and
explanation, source, drill types, computation checks; tags as Anki tags), one field per
text and language in a Q&A and an MCQ note type whose card shows them all (`ANKI_FIELDS`).
So file size, search and export compare the same content (Anki searches all of it;
quizapp's index holds the question, answer, tags and id).

How the collections are built (once; cached by size, and for quizapp by schema revision):

* quizapp: the n items are written as a user deck (YAML files, as a user's own deck would
  be) and the app itself opens it (`open_backend`: migrations, content sync, the search
  index and `cards.kind` filled by the schema's triggers, the content cache). The cards'
  FSRS states and the review rows are then written with plain sqlite3 in one transaction,
  each value converted by the app's own column types (SQLAlchemy bind processors), and a
  check opens the result with the app's service (an answer and its undo, search, stats)
  and compares a real answer's row with the bulk-written ones.
* Anki: the two note types, the notes through the backend (`add_notes`), then the card
  states and the revlog with plain sqlite3 in one transaction.

Each measurement runs in a fresh process per (system, size), interleaved run by run, so
both see the same machine load; the machine is shared, so read medians, not minimums. The
measurements run on a private copy of each cached collection (several people may measure
at once); the copy's first open is not measured.

    pip install -e ".[bench]"
    python benchmarks/scale.py [--sizes 1000,10000,100000] [--runs 3] [--ops open,review_step]
                               [--compare-with REF] [--backend postgresql] [--json] [--save results.json]

`--compare-with main~5` measures that commit's quizapp too, in the same interleaved runs
(a before/after on one machine load); its collections are its own schema revision's, cloned
from this checkout's bank (written once to the cache as bank-HASH.json), so both compare
the same text. Only the built-in items each version ships besides the n clones differ.

`--backend postgresql` measures quizapp on PostgreSQL too, beside SQLite and Anki: each
size's collection is the SQLite one moved with `quizapp db copy` (quizapp.store.copy) into
a database of a local server on a unix socket — one this script starts
(tests/pg_server.py: Debian's `postgresql` binaries, a temporary folder), or the server
of `--pg-url URL` (a role that may CREATE DATABASE). Home's first figures read SQLite
directly, so on PostgreSQL "open" is the full open.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import functools
import gc
import hashlib
import html
import inspect
import json
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
BUILD_VERSION = 3  # bump when the collections' shape changes (3: cloned from one bank file, BANK_ENV)
ANKI_BUILD_VERSION = 1  # bump when only Anki's collections change (1: its notes hold all of an item's text)
REVIEWS_PER_CARD = 10
TEMPLATES = 400
MAX_SPAN = timedelta(days=730)  # a review history covers at most two years
STEPS = 5  # review steps (and TUI steps) per run, undone afterwards
ITEMS_PER_FILE = 200  # content files are limited to 2 MB each (400 of today's items are more)
SEARCHES = ("attention", "注意力", "Q24")
ANSWERS = 50  # answers in a row per run and sync setting (answers_full, answers_normal), undone afterwards
SYNCS = (("answers_full", "FULL"), ("answers_normal", "NORMAL"))
BANK_ENV = "QUIZAPP_BENCH_BANK"  # the bank file every build clones (set by main() for its children)
ANCHOR_MAX_AGE = timedelta(hours=24)  # older collections are rebuilt (their "now" has drifted)

OPS = (
    ("open", "open + Home counts (warm start to Home's figures)"),
    ("review_step", "one review step (next card + answer + commit)"),
    ("tui_step", "the Study screen's step (answer, then next card, counts, previews)"),
    ("answers_full", f"{ANSWERS} Study steps in a row, synchronous=FULL (both ship it: an fsync per answer), median"),
    ("answers_normal", f"{ANSWERS} Study steps in a row, synchronous=NORMAL (no fsync per answer), median"),
    ("undo", "undo of the last answer (the service call of the Study screen's `u`; Anki: col.undo())"),
    ("tui_undo", "the Study screen's `u` (undo, then the card, counts, previews)"),
    ("search_attention", 'search "attention"'),
    ("search_zh", 'search "注意力"'),
    ("search_q24", 'search "Q24"'),
    ("stats", "stats screen data, drawn first (Anki: graphs())"),
    ("export", "export (quizapp JSON backup; Anki .apkg with scheduling)"),
)
# Not timed per run: file size and bytes per review, read once per size.
ALL_OPS = (*(key for key, _ in OPS), "size")


# -- simulated histories ------------------------------------------------------------
def simulate_templates(seed: int = 7) -> list[list[dict[str, Any]]]:
    """FSRS review sequences: per review the card before it, the rating and the card after.

    Only sequences spanning at most MAX_SPAN are kept (about half): with FSRS's default
    36,500-day maximum interval, ten mostly-Good answers otherwise span decades, and a
    collection with reviews from the 17th century is nobody's.
    """
    from fsrs import Card, Rating, Scheduler

    rng = random.Random(seed)
    scheduler = Scheduler(enable_fuzzing=False)
    start = datetime(2020, 1, 1, tzinfo=UTC)
    templates: list[list[dict[str, Any]]] = []
    attempt = 0
    while len(templates) < TEMPLATES:
        attempt += 1
        # An explicit id (fsrs otherwise sleeps 1 ms to make one) and due date (else "now").
        card = Card(card_id=attempt, due=start)
        moment = start
        steps = []
        for _ in range(REVIEWS_PER_CARD):
            rating = rng.choices(
                (Rating.Again, Rating.Hard, Rating.Good, Rating.Easy), weights=(10, 15, 60, 15)
            )[0]
            before = card
            card, _log = scheduler.review_card(card, rating, review_datetime=moment)
            steps.append({"at": moment, "rating": int(rating), "before": before, "after": card})
            # The next review happens at the due time, give or take a little.
            moment = card.due + timedelta(minutes=rng.randint(0, 600))
        if card.due - start <= MAX_SPAN:
            templates.append(steps)
    return templates


def plan_cards(n: int, seed: int = 11) -> list[dict[str, Any]]:
    """Per card: which template, and where its final due falls (about 10% due now)."""
    rng = random.Random(seed)
    return [{"template": index % TEMPLATES, "fraction": rng.uniform(-0.1, 0.9), "ms": index,
             "gap_s": rng.uniform(60, 20 * 3600)} for index in range(n)]


def day_start(now: datetime, rollover_hour: int = 4) -> datetime:
    """Start of the study day (both apps' default: 4 am local time)."""
    local = now.astimezone()
    start = local.replace(hour=rollover_hour, minute=0, second=0, microsecond=0)
    return start - timedelta(days=1) if local < start else start


def card_timeline(steps: list[dict[str, Any]], plan: dict[str, Any], now: datetime) -> tuple[datetime, timedelta]:
    """(the card's final due, the shift that maps the template's times onto real time).

    No review falls today: the collection is opened in the morning, before any study (both
    apps would otherwise count today's answers differently — quizapp from its reviews,
    Anki from counters that a bulk-written revlog does not touch). A card whose last
    review would be today is moved back before the day's start (so it is overdue).
    """
    last = steps[-1]["after"]
    interval = last.due - last.last_review
    due = now + interval * plan["fraction"] + timedelta(milliseconds=plan["ms"])
    shift = due - last.due
    start = day_start(now)
    if last.last_review + shift >= start:
        shift = start - timedelta(seconds=plan["gap_s"]) - last.last_review
    return last.due + shift, shift


def history(n: int, now: datetime) -> Iterator[tuple[int, list[dict[str, Any]], datetime, timedelta]]:
    """(card index, template steps, final due, time shift) for each of the n cards."""
    templates = simulate_templates()
    for index, plan in enumerate(plan_cards(n)):
        steps = templates[plan["template"]]
        due, shift = card_timeline(steps, plan, now)
        yield index, steps, due, shift


def lapses_before(steps: list[dict[str, Any]]) -> list[int]:
    """Lapses (Again on a review card) before each step, and the total after the last."""
    counts = [0]
    for step in steps:
        counts.append(counts[-1] + int(step["rating"] == 1 and int(step["before"].state) == 2))
    return counts


# -- content ------------------------------------------------------------------------
def builtin_payloads() -> list[dict[str, Any]]:
    """This checkout's built-in bank, as validated content (JSON-ready dicts). Fields left
    at None are left out, so that older code, whose models may not know a newer optional
    field (`variant_of`), validates the same items."""
    from quizapp.content.loader import load_builtin

    return [item.model_dump(mode="json", exclude_none=True) for item in load_builtin().items]


def base_payloads() -> list[dict[str, Any]]:
    """The items every collection is cloned from: the bank file main() wrote (BANK_ENV), so
    that `--compare-with` code builds from the same content as this checkout (each commit's
    own bank differs in size: the file size, open and search would compare other text)."""
    bank = os.environ.get(BANK_ENV)
    if bank:
        return json.loads(Path(bank).read_text(encoding="utf-8"))
    return builtin_payloads()


def common_bank(payloads: list[dict[str, Any]], drill_types: set[str]) -> list[dict[str, Any]]:
    """`payloads` as every compared version validates them: drill types that older code does
    not know (a type added since) are left out of `drills` and of the computation checks."""
    common = []
    for payload in payloads:
        payload = dict(payload)
        if "drills" in payload:
            payload["drills"] = [d for d in payload["drills"] if d in drill_types]
        if "checks" in payload:
            payload["checks"] = [c for c in payload["checks"] if c["type"] in drill_types]
        common.append(payload)
    return common


def write_bank(cache: Path, repos: list[Path]) -> tuple[Path, str]:
    """This checkout's bank, as every quizapp of `repos` validates it, written once into the
    cache and named by its hash (its path, the hash)."""
    proc = subprocess.run([sys.executable, __file__, "--dump-bank"], capture_output=True, text=True,
                          env=_child_env(REPO), check=True)
    drill_types = set.intersection(*(set(ask(repo, "','.join(DRILL_TYPES)", "quizapp.drill_types").split(","))
                                     for repo in repos))
    text = json.dumps(common_bank(json.loads(proc.stdout), drill_types), ensure_ascii=False, sort_keys=True)
    digest = hashlib.sha256(text.encode()).hexdigest()[:10]
    path = cache / f"bank-{digest}.json"
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".tmp")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    return path, digest


def bench_id(index: int) -> str:
    return f"bench-{index:06d}"


def clone_payload(base: list[dict[str, Any]], index: int) -> dict[str, Any]:
    """Card `index`: a clone of a built-in item with its own id and no bank number."""
    payload = json.loads(json.dumps(base[index % len(base)]))
    payload["id"] = bench_id(index)
    if "source_no" in payload:
        payload["source_no"] = None
    return payload


_PLACEHOLDER = "bench-zzzzzz"  # as wide as bench_id(), so PyYAML lays the item out the same


def write_deck(folder: Path, n: int, base: list[dict[str, Any]]) -> None:
    """The n clones as YAML deck files, exactly as `yaml.dump` writes them (block style).

    PyYAML's representer is pure Python (~2 ms an item): each built-in item is dumped once
    with a placeholder id and its text reused for every clone, with the id put in.
    """
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    blocks = []
    for payload in base:
        template = json.loads(json.dumps(payload)) | {"id": _PLACEHOLDER}
        if "source_no" in template:
            template["source_no"] = None
        text = yaml.dump([template], Dumper=dumper, allow_unicode=True, sort_keys=False)
        assert text.count(_PLACEHOLDER) == 1, payload["id"]
        blocks.append((payload["kind"], text))
    folder.mkdir(parents=True, exist_ok=True)
    for number, start in enumerate(range(0, n, ITEMS_PER_FILE)):
        parts: dict[str, list[str]] = {"qa": [], "mcq": []}
        for index in range(start, min(n, start + ITEMS_PER_FILE)):
            kind, text = blocks[index % len(blocks)]
            parts[kind].append(text.replace(_PLACEHOLDER, bench_id(index)))
        text = "".join(f"{kind}:\n" + "".join(texts) if texts else f"{kind}: []\n" for kind, texts in parts.items())
        if number == 0:
            # The shortcut must give what yaml.dump gives for the same data.
            data = {kind: [clone_payload(base, i) for i in range(start, min(n, start + ITEMS_PER_FILE))
                           if base[i % len(base)]["kind"] == kind] for kind in ("qa", "mcq")}
            assert text == yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False)
        (folder / f"bench-{number:04d}.yaml").write_text(text, encoding="utf-8")


# -- building quizapp's collection ------------------------------------------------------
def _binders(table: Any) -> dict[str, Callable[[Any], Any]]:
    """Per column, the app's own conversion of a Python value to what SQLite stores."""
    from sqlalchemy.dialects import sqlite

    dialect = sqlite.dialect()
    binders = {}
    for column in table.columns:
        processor = column.type.bind_processor(dialect)
        binders[column.name] = processor if processor is not None else (lambda value: value)
    return binders


_COLUMNS: dict[tuple[str, frozenset[str], tuple[str, ...]], list[str]] = {}


def _rows(table: Any, values: dict[str, Any], skip: tuple[str, ...] = ("id",)) -> tuple[list[str], list[Any]]:
    """(column names, stored values) for the columns of `table` that `values` names."""
    key = (table.name, frozenset(values), skip)
    names = _COLUMNS.get(key)
    if names is None:
        missing = [c.name for c in table.columns if c.name not in values and c.name not in skip
                   and not c.nullable and c.default is None and c.server_default is None]
        if missing:
            raise SystemExit(f"benchmarks/scale.py does not know how to fill {table.name}.{', '.join(missing)}: "
                             "update quizapp_history_rows() for the new schema")
        names = _COLUMNS[key] = [c.name for c in table.columns if c.name in values and c.name not in skip]
    return names, [values[name] for name in names]


def quizapp_history_rows(n: int, now: datetime, card_ids: dict[str, int]) -> tuple[str, list, str, list]:
    """The UPDATE of the cards' FSRS states and the INSERT of their reviews, with their rows.

    Values are what `StudyService.answer` stores (mode study, 8 s, no answer/score, the card
    before the answer as its snapshot), converted by the models' column types. Reviews are
    inserted in time order, as a collection used day by day has them.
    """
    from quizapp.srs.clock import to_naive_utc
    from quizapp.store.models import Card, Review

    card_bind, review_bind = _binders(Card.__table__), _binders(Review.__table__)
    review_columns = set(Review.__table__.columns.keys())
    card_sql = card_names = None
    review_names: list[str] | None = None
    card_rows, review_rows = [], []
    for index, steps, due, shift in history(n, now):
        card_id = card_ids[bench_id(index)]
        last = steps[-1]["after"]
        lapses = lapses_before(steps)
        card = {
            "state": int(last.state), "step": last.step, "stability": last.stability,
            "difficulty": last.difficulty, "due": to_naive_utc(due),
            "last_review": to_naive_utc(last.last_review + shift), "reps": len(steps), "lapses": lapses[-1],
            "suspended": False, "leech": False, "version": len(steps),
        }
        names, values = _rows(Card.__table__, card, skip=("id", "item_id", "kind"))
        if card_names is None:
            card_names = names
            card_sql = f"UPDATE cards SET {', '.join(f'{c} = ?' for c in names)} WHERE id = ?"
        card_rows.append([card_bind[c](v) for c, v in zip(names, values)] + [card_id])
        for reps, step in enumerate(steps):
            before = step["before"]
            prev = {
                "state": int(before.state), "step": before.step, "stability": before.stability,
                "difficulty": before.difficulty, "due": to_naive_utc(before.due + shift),
                "last_review": to_naive_utc(before.last_review + shift) if before.last_review else None,
                "reps": reps, "lapses": lapses[reps], "leech": False, "suspended": False,
            }
            row: dict[str, Any] = {
                "card_id": card_id, "mode": "study", "rating": step["rating"],
                "reviewed_at": to_naive_utc(step["at"] + shift), "duration_ms": 8000, "answer": None, "score": None,
                **{f"prev_{key}": value for key, value in prev.items()},
            }
            if "prev_card" in review_columns:  # the JSON snapshot of schema 0001/0002
                row["prev_card"] = {key: value.isoformat() if isinstance(value, datetime) else value
                                    for key, value in prev.items()}
            names, values = _rows(Review.__table__, row)
            review_names = review_names or names
            review_rows.append((row["reviewed_at"], [review_bind[c](v) for c, v in zip(names, values)]))
    review_rows.sort(key=lambda pair: pair[0])
    assert card_sql is not None and review_names is not None
    review_sql = f"INSERT INTO reviews ({', '.join(review_names)}) VALUES ({', '.join('?' * len(review_names))})"
    return card_sql, card_rows, review_sql, [values for _, values in review_rows]


def build_quizapp(folder: Path, n: int, now: datetime) -> dict[str, Any]:
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        timings[name] = round(time.perf_counter() - clock, 1)
        clock = time.perf_counter()

    base = base_payloads()
    deck = folder / "deck"
    write_deck(deck, n, base)
    lap("deck_s")
    db_path = folder / "quizapp.db"
    try:
        first_sync(db_path, deck, n, base)
    except (ImportError, AttributeError, TypeError) as exc:
        # The app's start-up changed shape: its full first open does the same, parsing the YAML.
        print(f"scale.py: fast first sync unavailable ({exc!r}); the app's first open instead",
              file=sys.stderr, flush=True)
        from quizapp.tui.backend import open_backend

        backend = open_backend(db_path, [deck], None)
        errors = backend.content_errors
        backend.close()
        if errors:
            raise SystemExit(f"the bench deck has content errors: {errors[:3]}") from None
    lap("app_first_sync_s")

    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        card_ids = dict(conn.execute("SELECT item_id, id FROM cards WHERE item_id LIKE 'bench-%'"))
        assert len(card_ids) == n, (len(card_ids), n)
        card_sql, card_rows, review_sql, review_rows = quizapp_history_rows(n, now, card_ids)
        lap("rows_s")
        # Bulk load only: no fsync, one transaction. The file stays in WAL mode, as the app made it.
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(card_sql, card_rows)
        conn.executemany(review_sql, review_rows)
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        lap("insert_s")
        _vacuum_if_loose(conn)
    finally:
        conn.close()
    lap("vacuum_s")
    return timings


def first_sync(db_path: Path, deck: Path, n: int, base: list[dict[str, Any]]) -> None:
    """The app's first start on the deck (`quizapp.srs.bootstrap.prepare`), minus the YAML parse.

    Migrations, `sync_content` (items, cards; the search index and cards.kind follow by
    the schema's triggers) and the content cache are the app's own code. Only the deck's
    items are validated from the dicts its YAML holds instead of from parsing 100k items'
    worth of YAML (minutes in PyYAML's Python constructor); the first file is parsed by
    the app's loader and must give the same items.
    """
    from quizapp.content.loader import _KINDS, content_files, load_dirs, load_file
    from quizapp.srs import bootstrap
    from quizapp.srs.clock import Clock, to_naive_utc
    from quizapp.store import content_cache
    from quizapp.store.database import open_database
    from quizapp.store.sync import sync_content

    files = content_files(deck)
    db = open_database(db_path)
    try:
        dirs = bootstrap.content_directories([deck])
        paths = [path for directory, _ in dirs if directory.is_dir() for path in content_files(directory)]
        with db.session() as session:
            cached = content_cache.load_cache(session)
        states = content_cache.current_files(paths, cached)
        content = load_dirs([directory for directory, _ in dirs if directory != deck])  # built-in content
        assert content.ok, content.errors[:3]
        for number, path in enumerate(files):
            clones = [clone_payload(base, i) for i in range(number * ITEMS_PER_FILE, min(n, (number + 1) * ITEMS_PER_FILE))]
            items = [model.model_validate(p) for kind, model in _KINDS.items() for p in clones if p["kind"] == kind]
            if number == 0:
                parsed = load_file(path)
                assert parsed.ok and [i.model_dump() for i in parsed.items] == [i.model_dump() for i in items]
            for item in items:
                (content.qa if item.kind == "qa" else content.mcq).append(item)  # type: ignore[arg-type]
                content.origin[item.id] = str(path)
        now = to_naive_utc(Clock().now())
        with db.session() as session, session.begin():
            sync_content(session, content.items, now, bootstrap.origins_for(content, [deck]))
            content_cache.remember(session, states)
    finally:
        db.close()


def _vacuum_if_loose(conn: sqlite3.Connection) -> None:
    """VACUUM only when the bulk load left free pages (it normally does not)."""
    free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    if free > pages // 50:
        conn.execute("VACUUM")


def check_quizapp(folder: Path, n: int) -> dict[str, Any]:
    """Open the built collection as the app does and check what it holds.

    Fails on anything the app would not have produced: a bulk-written row whose stored
    types differ from a real answer's, a card without its kind or search entry, a reopen
    that re-syncs. Returns the figures the check saw.
    """
    from sqlalchemy import func, select

    import quizapp.content.loader
    from quizapp.srs.stats import study_stats
    from quizapp.store.models import Card, Item, Review
    from quizapp.tui.backend import open_backend

    db_path, deck = folder / "quizapp.db", folder / "deck"
    parses = []
    # Every parse goes through the loader's load_file (the app imports the loader lazily).
    original = quizapp.content.loader.load_file

    def counting(*args: Any, **kwargs: Any) -> Any:
        parses.append(args)
        return original(*args, **kwargs)

    quizapp.content.loader.load_file = counting  # type: ignore[assignment]
    start = time.perf_counter()
    backend = open_backend(db_path, [deck], None)
    reopen = time.perf_counter() - start
    service = backend.service
    # A warm start parses nothing: if this one did, the content cache did not take the build.
    out: dict[str, Any] = {"reopen_s": round(reopen, 2), "reopen_parsed_content": bool(parses)}
    if parses:
        print("scale.py: WARNING: reopening the built collection parsed the content again", file=sys.stderr)
    try:
        with service.db.session() as session:
            out["cards"] = session.scalar(select(func.count()).select_from(Card))
            out["bench_cards"] = session.scalar(
                select(func.count()).select_from(Card).where(Card.item_id.like("bench-%")))
            out["reviews"] = session.scalar(select(func.count()).select_from(Review))
            out["items"] = session.scalar(select(func.count()).select_from(Item))
        assert out["bench_cards"] == n and out["reviews"] == n * REVIEWS_PER_CARD, out
        counts = service.due_counts()
        out["due_counts"] = {"qa": counts.qa, "mcq": counts.mcq, "new_left": counts.new_left,
                             "reviews_today": counts.reviews_done_today, "streak": counts.streak}
        card = service.next_card("qa")
        assert card is not None, "nothing to study"
        result = service.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version,
                                duration_ms=8000)
        conn = sqlite3.connect(db_path)
        try:
            def types_of(table: str, row_id: int) -> list[tuple[str, str]]:
                names = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
                kinds = conn.execute(f"SELECT {', '.join(f'typeof({c})' for c in names)} FROM {table} WHERE id = ?",
                                     (row_id,)).fetchone()
                return list(zip(names, kinds))

            bulk_review = conn.execute("SELECT id FROM reviews WHERE id != ? AND prev_reps > 0 ORDER BY id LIMIT 1",
                                       (result.review_id,)).fetchone()[0] if _has_column(conn, "reviews", "prev_reps") \
                else conn.execute("SELECT min(id) FROM reviews").fetchone()[0]
            real, bulk = types_of("reviews", result.review_id), types_of("reviews", bulk_review)
            differ = [(a, b) for a, b in zip(real, bulk) if a != b and b[1] != "null" and a[1] != "null"]
            assert not differ, f"bulk reviews are stored unlike the app's: {differ}"
            bulk_card = conn.execute("SELECT id FROM cards WHERE reps = ? AND id != ? LIMIT 1",
                                     (REVIEWS_PER_CARD, card.card.card_id)).fetchone()[0]
            real, bulk = types_of("cards", card.card.card_id), types_of("cards", bulk_card)
            differ = [(a, b) for a, b in zip(real, bulk) if a != b and b[1] != "null" and a[1] != "null"]
            assert not differ, f"bulk card states are stored unlike the app's: {differ}"
            missing_kind = conn.execute("SELECT count(*) FROM cards WHERE kind IS NULL").fetchone()[0] \
                if _has_column(conn, "cards", "kind") else 0
            assert missing_kind == 0, f"{missing_kind} cards without their kind"
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "items_fts" in tables:
                indexed = conn.execute("SELECT count(*) FROM items_fts").fetchone()[0]
                assert indexed == out["cards"], f"search index holds {indexed} of {out['cards']} cards"
            if "review_tallies" in tables:  # schema 0004: per-quarter-hour counts kept by triggers
                columns = [r[1] for r in conn.execute("PRAGMA table_info(review_tallies)")][1:]
                out["tallied_reviews"] = conn.execute(
                    f"SELECT sum({' + '.join(columns)}) FROM review_tallies").fetchone()[0]
                reviews_now = conn.execute("SELECT count(*) FROM reviews").fetchone()[0]  # the answer above included
                assert out["tallied_reviews"] == reviews_now, "the review tallies miss bulk-written reviews"
            if "review_gaps" in tables:  # schema 0005: answers per day-gap, kept by triggers
                kept = conn.execute("SELECT day, answers, passed FROM review_gaps WHERE answers != 0 ORDER BY day").fetchall()
                recomputed = conn.execute(
                    "SELECT gap / 86400000000, count(*), sum(rating > 1) FROM (SELECT rating, reviewed_at - "
                    "lag(reviewed_at) OVER (PARTITION BY card_id ORDER BY reviewed_at, id) AS gap FROM reviews) "
                    "WHERE gap IS NOT NULL GROUP BY 1 ORDER BY 1").fetchall()
                assert kept == recomputed, "the review gaps kept by triggers differ from the reviews"
                out["gap_days"] = len(kept)
            out["due_review_cards"] = conn.execute(
                "SELECT count(*) FROM cards WHERE state = 2 AND item_id LIKE 'bench-%' AND due <= ?",
                (_binders(Card.__table__)["due"](datetime.now(UTC).replace(tzinfo=None)),)).fetchone()[0]
        finally:
            conn.close()
        service.undo(result.review_id)
        out["search_hits"] = {text: len(service.search(text)) for text in SEARCHES}
        assert out["search_hits"]["attention"] > 0, out["search_hits"]
        stats = study_stats(service.db, service.clock, service.settings())
        out["stats_streak"] = getattr(stats, "streak", None)
    finally:
        backend.close()
    return out


def _has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    return any(row[1] == column for row in conn.execute(f"PRAGMA table_info({table})"))


# -- building Anki's collection ---------------------------------------------------------
# Anki's notes hold every text quizapp stores for an item, both languages, in note types a
# bilingual user would set up (a field per text and language, all shown on the card), so the
# file sizes, searches and exports compare the same content. Text goes in as Anki's text
# import puts plain text (HTML-escaped, line breaks as <br>); the drill types and the
# computation checks (compact JSON) in fields of their own, the tags as Anki tags. Not
# copied: the item id, kind and bank number (Anki has its own note id and guid).
ANKI_FIELDS = {
    "qa": ("Question", "Question (English)", "Answer", "Answer (English)", "Long answer", "Long answer (English)",
           "Key points", "Key points (English)", "Source", "Drills", "Checks"),
    "mcq": ("Question", "Question (English)", "Options", "Options (English)", "Answer", "Explanation",
            "Explanation (English)", "Source", "Checks"),
}


def _html(text: str) -> str:
    return html.escape(text, quote=False).replace("\n", "<br>")


def _text(value: Any, lang: str) -> str:
    """One language of a payload text ({zh, en} or a plain string); "" when it has none."""
    from quizapp.content.bilingual import texts_of

    return _html(texts_of(value).get(lang, ""))


def _key_points(points: list[dict[str, Any]], lang: str) -> str:
    """Each point with its keywords in that language, as a list."""
    rows = []
    for point in points:
        keywords = point.get("keywords") or {}
        words = keywords.get(lang, []) if isinstance(keywords, dict) else keywords
        text = _text(point.get("text"), lang)
        if text or words:
            rows.append(f"<li>{text} <i>({_html(', '.join(words))})</i></li>" if words else f"<li>{text}</li>")
    return f"<ul>{''.join(rows)}</ul>" if rows else ""


def anki_fields(payload: dict[str, Any]) -> dict[str, str]:
    """The fields of the Anki note holding a quizapp item's texts (see ANKI_FIELDS)."""
    kind = payload["kind"]
    fields: dict[str, str] = {}
    for lang, suffix in (("zh", ""), ("en", " (English)")):
        fields["Question" + suffix] = _text(payload.get("question"), lang)
        if kind == "qa":
            fields["Answer" + suffix] = _text(payload.get("answer"), lang)
            fields["Long answer" + suffix] = _text(payload.get("long_answer"), lang)
            fields["Key points" + suffix] = _key_points(payload.get("key_points") or [], lang)
        else:
            options = "".join(f"<li>{_text(option, lang)}</li>" for option in payload.get("options") or [])
            fields["Options" + suffix] = f'<ol type="A">{options}</ol>'
            fields["Explanation" + suffix] = _text(payload.get("explanation"), lang)
    if kind == "mcq":
        fields["Answer"] = _html(str(payload.get("answer") or ""))
    source = [str(payload[key]) for key in ("source", "group", "section", "source_no") if payload.get(key)]
    fields["Source"] = _html(" · ".join(source))
    if kind == "qa":
        fields["Drills"] = _html(" ".join(payload.get("drills") or []))
    checks = payload.get("checks") or []
    fields["Checks"] = _html(json.dumps(checks, ensure_ascii=False, separators=(",", ":"))) if checks else ""
    assert set(fields) == set(ANKI_FIELDS[kind]), (kind, sorted(fields))
    return fields


def add_notetype(col: Any, kind: str) -> Any:
    """A note type for quizapp's `kind` items: every field on the card, the answer side below a rule."""
    names = ANKI_FIELDS[kind]
    notetype = col.models.new(f"quizapp {kind} (zh/en)")
    for name in names:
        col.models.add_field(notetype, col.models.new_field(name))

    def block(name: str) -> str:  # a titled section, left out when the field is empty
        return f"{{{{#{name}}}}}<h4>{name}</h4><div>{{{{{name}}}}}</div>{{{{/{name}}}}}"

    template = col.models.new_template("Card 1")
    template["qfmt"] = "<div>{{Question}}</div><div class=en>{{Question (English)}}</div>"
    template["afmt"] = "{{FrontSide}}<hr id=answer>" + "".join(block(name) for name in names[2:])
    col.models.add_template(notetype, template)
    notetype["css"] += ".en { color: #555; }\n"
    col.models.add(notetype)
    return col.models.by_name(notetype["name"])


def build_anki(folder: Path, n: int, now: datetime) -> dict[str, Any]:
    from anki.collection import AddNoteRequest, Collection

    timings: dict[str, float] = {}
    clock = time.perf_counter()
    path = folder / "collection.anki2"
    base = base_payloads()
    col = Collection(str(path))
    try:
        col.set_config("fsrs", True)
        notetypes = {kind: add_notetype(col, kind) for kind in ANKI_FIELDS}
        deck_id = col.decks.id("bench")

        def note_for(payload: dict[str, Any]) -> Any:
            note = col.new_note(notetypes[payload["kind"]])
            for name, text in anki_fields(payload).items():
                note[name] = text
            note.tags = list(payload.get("tags") or [])
            return AddNoteRequest(note=note, deck_id=deck_id)

        # The n clones first (their cards are the first n by note id), then the built-in
        # items, which quizapp also has, as new cards.
        payloads = [clone_payload(base, i) for i in range(n)] + base
        for start in range(0, len(payloads), 5000):
            col.add_notes([note_for(p) for p in payloads[start : start + 5000]])
        conf = col.decks.config_dict_for_deck_id(deck_id)
        conf["new"]["perDay"] = 20  # quizapp's defaults
        conf["rev"]["perDay"] = 200
        col.decks.update_config(conf)
        col.decks.select(deck_id)
        today = col.sched.today
        rollover = int(col.get_config("rollover", 4) or 4)
    finally:
        col.close()
    timings["notes_s"] = round(time.perf_counter() - clock, 1)
    clock = time.perf_counter()

    def day_number(moment: datetime) -> int:
        return (moment.astimezone() - timedelta(hours=rollover)).date().toordinal()

    today_number = day_number(now)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        card_ids = [row[0] for row in conn.execute("SELECT id FROM cards ORDER BY nid, ord LIMIT ?", (n,))]
        card_updates, revlog = [], []
        for (_, steps, due, shift), cid in zip(history(n, now), card_ids):
            last = steps[-1]["after"]
            last_review = last.last_review + shift
            ivl = max(1, round((last.due - last.last_review).total_seconds() / 86400))
            data = json.dumps({"s": round(last.stability, 4), "d": round(last.difficulty, 3), "dr": 0.9,
                               "lrt": int(last_review.timestamp())}, separators=(",", ":"))
            if int(last.state) == 2:
                ctype, queue, due_value, left = 2, 2, today + day_number(due) - today_number, 0
            else:  # learning (1) or relearning (3): due is a timestamp, one step left
                ctype, queue, due_value, left = (1 if int(last.state) == 1 else 3), 1, int(due.timestamp()), 1
            card_updates.append((ctype, queue, due_value, ivl, 2500, len(steps), lapses_before(steps)[-1], left,
                                 data, cid))
            previous_ivl = 0
            for step in steps:
                after = step["after"]
                seconds = (after.due - step["at"]).total_seconds()
                step_ivl = round(seconds / 86400) if int(after.state) == 2 else -int(seconds)
                kind = {1: 0, 2: 1, 3: 2}[int(step["before"].state)]
                revlog.append((int((step["at"] + shift).timestamp() * 1000), cid, step["rating"],
                               step_ivl, previous_ivl, int(after.difficulty * 100), 8000, kind))
                previous_ivl = step_ivl
        revlog.sort()
        # Anki's revlog id is the answer's time in ms, unique: bump collisions as Anki does.
        previous = 0
        for position, entry in enumerate(revlog):
            if entry[0] <= previous:
                revlog[position] = (previous + 1, *entry[1:])
            previous = revlog[position][0]
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(
            "UPDATE cards SET type=?, queue=?, due=?, ivl=?, factor=?, reps=?, lapses=?, left=?, data=? WHERE id=?",
            card_updates,
        )
        conn.executemany(
            "INSERT INTO revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) "
            "VALUES (?, ?, -1, ?, ?, ?, ?, ?, ?)",
            revlog,
        )
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _vacuum_if_loose(conn)
    finally:
        conn.close()
    timings["history_s"] = round(time.perf_counter() - clock, 1)
    return timings


def check_anki(folder: Path, n: int) -> dict[str, Any]:
    from anki.collection import Collection

    col = Collection(str(folder / "collection.anki2"))
    try:
        out = {
            "cards": col.card_count(),
            "reviews": col.db.scalar("SELECT count(*) FROM revlog"),
            "counts": list(col.sched.counts()),
            "due_review_cards": col.db.scalar("SELECT count(*) FROM cards WHERE queue = 2 AND due <= ?",
                                              col.sched.today),
            "search_hits": {text: len(col.find_cards(text)) for text in SEARCHES},
        }
    finally:
        col.close()
    assert out["reviews"] == n * REVIEWS_PER_CARD, out
    return out


# -- measuring (one process per system and size) ------------------------------------------
def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Milliseconds `fn` took, and its result, with the cyclic garbage collector off (as
    timeit measures): whether a full collection of every object the process holds (~25 ms
    with Textual, SQLAlchemy and the content loaded) falls inside an op depends on how many
    objects the ops before it made, not on the op, and it made one version's 1k export look
    37% slower than another's."""
    with collector_off():
        start = time.perf_counter()
        result = fn()
        return (time.perf_counter() - start) * 1000, result


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def peak_rss_mb() -> float:
    """This process's peak RSS (VmHWM: unlike ru_maxrss, not inherited across exec)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class ScreenStub:
    """Stands in for a mounted screen so that its own worker body runs outside Textual.

    Attributes given here (the service, a message sink) win; anything else is looked up on
    the screen class (message classes, KIND, helper methods, bound to the stub).
    """

    def __init__(self, screen: type, **attrs: Any) -> None:
        self.__dict__.update(attrs)
        self._screen = screen

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._screen, name)
        return types.MethodType(value, self) if inspect.isfunction(value) else value


def worker_body(screen: type, method: str) -> Callable[..., Any]:
    """The function under a screen's @work method (what its worker thread runs)."""
    return getattr(screen, method).__wrapped__


class AppPath:
    """The app's own code for each measured op, run on one open backend.

    Where the app's code can no longer be driven this way (a screen's worker changed
    shape), a replica of today's calls is used instead and `replicas` says which op.
    """

    def __init__(self, db: Path, deck: Path) -> None:
        from quizapp.tui.app import make_app

        self.db, self.deck = db, deck
        self.app = make_app(db_path=db, extra_content=[deck])  # not run: its config and open worker
        self.replicas: list[str] = []
        self.backend: Any = None

    def _replica(self, op: str, error: Exception) -> None:
        if op not in self.replicas:
            self.replicas.append(op)
            print(f"scale.py: WARNING: {op} measured with a replica of the app's calls ({error!r})", file=sys.stderr)

    def open_home(self) -> Any:
        """The CLI's pre-flight, then the app's Home figures: on an ordinary start read
        without the study service (QuizApp._read_home_figures); else, as on a start with
        something to do, the full open worker and Home's counts worker."""
        from quizapp.cli.app_cmd import preflight
        from quizapp.tui.app import QuizApp

        problem = preflight(self.db, [self.deck])
        if problem:
            raise SystemExit(problem)
        quick = getattr(QuizApp, "_read_home_figures", None)  # older code: always the full open
        figures = worker_body(QuizApp, "_read_home_figures")(self.app) if quick is not None else None
        if figures is not None:
            return figures
        self.open_service()
        return self.home_counts()

    def open_service(self) -> Any:
        """The study service, as the first mode opened loads it (QuizApp._open_backend)."""
        from quizapp.tui.app import QuizApp

        if self.backend is None:
            self.backend, _settings = worker_body(QuizApp, "_open_backend")(self.app)
        return self.backend

    def home_counts(self) -> Any:
        from quizapp.tui.screens.home import HomeScreen

        posted: list[Any] = []
        stub = ScreenStub(HomeScreen, study=self.backend.service, backend=self.backend, post_message=posted.append)
        try:
            worker_body(HomeScreen, "load_counts")(stub)
        except (AttributeError, TypeError) as error:
            self._replica("open", error)
            from quizapp.srs.stats import readiness

            service = self.backend.service
            settings = service.settings()
            return service.due_counts(), readiness(service.db, service.clock, settings)
        return posted

    def study(self) -> Any:
        """The Study screen: `first()` is the card on screen, `step(card, n)` is what one
        answer costs (SessionScreen.submit: the answer, then _fetch of the next card)."""
        from quizapp.tui.screens.study import StudyScreen

        service = self.backend.service
        posted: list[Any] = []
        stub = ScreenStub(StudyScreen, study=service, backend=self.backend, only_item=None,
                          post_message=posted.append, db_write=lambda write: write(),
                          quiz_app=types.SimpleNamespace(backend=self.backend))
        submit = worker_body(StudyScreen, "submit")

        def first() -> Any:
            return StudyScreen._fetch(stub, 0)  # type: ignore[arg-type]

        def step(card: Any, answered: int) -> tuple[int, Any]:
            posted.clear()
            try:
                submit(stub, card, 3, 8000, None, True, answered)
                result = next(m.result for m in posted if isinstance(m, StudyScreen.Answered))
                loaded = next(m for m in posted if isinstance(m, StudyScreen.Loaded))
            except (AttributeError, TypeError, StopIteration) as error:
                self._replica("tui_step", error)
                result = service.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version,
                                        duration_ms=8000, answer=None, score=None)
                loaded = StudyScreen._fetch(stub, answered + 1)  # type: ignore[arg-type]
            return result.review_id, loaded

        def undo(review_id: int, card: Any) -> None:
            """`u` on the Study screen (SessionScreen.undo_last): the undo, then the card
            shown again with its previews and the counts."""
            posted.clear()
            try:
                from quizapp.tui.screens.session_record import Answer

                worker_body(StudyScreen, "undo_last")(stub, Answer(review_id, card, 3, card.card))
                next(m for m in posted if isinstance(m, StudyScreen.Undone))
                next(m for m in posted if isinstance(m, StudyScreen.Loaded))
            except (AttributeError, TypeError, ImportError, StopIteration) as error:
                self._replica("tui_undo", error)
                service.undo(review_id)
                shown = service.next_card("qa", only_item=card.card.item_id)
                if shown is not None:
                    service.preview(shown.card.card_id)
                service.due_counts()

        return types.SimpleNamespace(first=first, step=step, undo=undo)

    def stats(self) -> Any:
        from quizapp.tui.screens.stats import StatsScreen

        # (moment, message): the screen draws the first message's figures at once; newer code
        # posts a second one when the calibration (a replay of every review) is done.
        posted: list[tuple[float, Any]] = []
        stub = ScreenStub(StatsScreen, study=self.backend.service, backend=self.backend,
                          post_message=lambda message: posted.append((time.perf_counter(), message)))
        try:
            worker_body(StatsScreen, "load")(stub)
        except (AttributeError, TypeError) as error:
            self._replica("stats", error)
            from quizapp.srs.stats import study_stats

            service = self.backend.service
            return study_stats(service.db, service.clock, service.settings())
        return posted


def measure_quizapp(folder: Path, db: Path | str, ops: set[str]) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="quizapp-bench-run-"))
    # The copy's own data folder (kept from its first open, as a user's is between starts),
    # with no user decks in it: only the bench deck. (A PostgreSQL database: one of its own.)
    data = (Path(tempfile.gettempdir()) / f"quizapp-bench-pg-data-{db.rsplit('/', 1)[-1].split('?')[0]}"
            if isinstance(db, str) else db.with_name(db.name + "-data"))
    os.environ["QUIZAPP_DATA_DIR"] = str(data)
    deck = folder / "deck"
    out: dict[str, Any] = {}
    try:
        # What the app has loaded before its open worker starts (Home is on screen by then).
        import quizapp.tui.screens.home  # noqa: F401

        path = AppPath(db, deck)
        out["rss_start_mb"] = peak_rss_mb()
        elapsed, _figures = timed(path.open_home)
        if "open" in ops:
            out["open"] = elapsed
            out["rss_home_mb"] = peak_rss_mb()
            try:  # `s` on Home: Study's first card, read before the service loads (imports counted)
                from quizapp.srs.study_view import first_view
            except ImportError:  # older code: the first card waited for the service
                pass
            else:
                clock = path.app.config.clock
                out["first_card"] = out["open"] + timed(lambda: first_view(db, [deck], clock, "qa"))[0]
        # The first mode opened: the study service loads (none if Home already opened it).
        elapsed, backend = timed(path.open_service)
        if "open" in ops:
            out["open_service"] = elapsed
            if "first_card" not in out:
                out["first_card"] = out["open"] + elapsed + timed(path.study().first)[0]
        service = backend.service
        undo: list[int] = []

        if "review_step" in ops:
            def review_step() -> None:
                card = service.next_card("qa")
                result = service.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version,
                                        duration_ms=8000)
                undo.append(result.review_id)

            out["review_step"] = statistics.median(timed(review_step)[0] for _ in range(STEPS))

        if "tui_step" in ops:
            screen = path.study()
            shown = screen.first()  # the card on screen when the user answers (not timed)

            def tui_step() -> None:
                nonlocal shown
                review_id, shown = screen.step(shown.card, len(undo))
                undo.append(review_id)

            out["tui_step"] = statistics.median(timed(tui_step)[0] for _ in range(STEPS))
        for review_id in reversed(undo):
            service.undo(review_id)
        undo.clear()

        for key, sync in SYNCS:
            if key not in ops:
                continue
            if sync != "FULL":  # the app sets FULL on connect; this runs after it, on new connections
                from sqlalchemy import event

                engine = service.db.engine
                # PostgreSQL's like of it: a COMMIT that does not wait for the WAL's fsync.
                setting = (f"PRAGMA synchronous={sync}" if engine.dialect.name == "sqlite"
                           else "SET synchronous_commit TO off")
                def on_connect(conn: Any, _record: Any, setting: str = setting) -> None:
                    conn.execute(setting)
                    if not setting.startswith("PRAGMA"):
                        conn.commit()  # a SET in a transaction rolled back is undone

                event.listen(engine, "connect", on_connect)
                engine.dispose()
            screen = path.study()
            shown = screen.first()
            steps = []
            while len(steps) < ANSWERS and shown.card is not None:
                elapsed, (review_id, shown) = timed(
                    lambda screen=screen, card=shown.card: screen.step(card, len(undo)))
                steps.append(elapsed)
                undo.append(review_id)
            out[key] = statistics.median(steps)
            out[key + "_n"] = len(steps)  # fewer than ANSWERS when the cards to study ran out
            for review_id in reversed(undo):  # (a fresh copy each (main()); a PostgreSQL database is reused)
                service.undo(review_id)
            undo.clear()

        def answered(n: int) -> list[tuple[int, Any]]:
            """n answers (not timed) to undo: (review id, the card as shown)."""
            answers = []
            for _ in range(n):
                card = service.next_card("qa")
                result = service.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version,
                                        duration_ms=8000)
                answers.append((result.review_id, card))
            return answers

        # Each answer undone newest first, as `u` pressed again and again does.
        if "undo" in ops:
            answers = answered(STEPS)
            out["undo"] = statistics.median(
                timed(lambda review_id=review_id: service.undo(review_id))[0] for review_id, _ in reversed(answers))
        if "tui_undo" in ops:
            screen = path.study()
            answers = answered(STEPS)
            out["tui_undo"] = statistics.median(
                timed(lambda review_id=review_id, card=card: screen.undo(review_id, card))[0]
                for review_id, card in reversed(answers))

        try:  # Browse's search: its first page (older code listed up to 500 rows at once)
            from quizapp.tui.screens.browse import PAGE as browse_rows
        except ImportError:
            browse_rows = 500
        for key, text in zip(("search_attention", "search_zh", "search_q24"), SEARCHES):
            if key in ops:
                out[key], found = timed(lambda text=text: service.search(text, limit=browse_rows))
                out[key + "_hits"] = len(found)
        if "stats" in ops:
            with collector_off():  # (as timed())
                start = time.perf_counter()
                posted = path.stats()
                out["stats"] = (time.perf_counter() - start) * 1000
            if isinstance(posted, list) and posted and isinstance(posted[0], tuple):
                out["stats"] = (posted[0][0] - start) * 1000
                if len(posted) > 1:
                    out["stats_calibration"] = (posted[-1][0] - posted[0][0]) * 1000
        if "export" in ops:
            from quizapp.store.transfer import write_json  # `quizapp export --format json`

            target = work / "export.json"

            def export() -> None:
                if not hasattr(service.db, "transaction"):  # code before the store's Tx (issue 21)
                    with service.db.session() as session:
                        write_json(session, target)
                    return
                with service.db.transaction() as tx:
                    write_json(tx.session(), target)

            out["export"] = timed(export)[0]
            out["export_mb"] = target.stat().st_size / 2**20
        out["rss_peak_mb"] = peak_rss_mb()
        backend.close()
        if "open" in ops:
            # The same again in this process: the data's share, without the first imports.
            path.backend = None
            elapsed, _figures = timed(path.open_home)
            out["open_again"] = elapsed
            if path.backend is not None:
                path.backend.close()
        if path.replicas:
            out["replicas"] = path.replicas
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def measure_anki(folder: Path, path: Path, ops: set[str]) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="anki-bench-run-"))
    out: dict[str, Any] = {}
    try:
        out["rss_start_mb"] = peak_rss_mb()

        def open_home() -> Any:
            # Imports counted, as quizapp's (its open imports SQLAlchemy, fsrs, pydantic).
            from anki.collection import Collection

            col = Collection(str(path))
            # Anki's home screen, the deck browser: the deck tree with its due counts, and
            # "studied N cards today" (quizapp's Home: due counts, today, streak, readiness).
            col.sched.deck_due_tree()
            col.studied_today()
            return col

        elapsed, col = timed(open_home)
        if "open" in ops:
            out["open"] = elapsed
            out["rss_home_mb"] = peak_rss_mb()

            def first_card() -> None:  # the reviewer's first card: the card, its buttons' intervals
                shown = col.sched.get_queued_cards(fetch_limit=1).cards[0]
                col.get_card(shown.card.id)
                col.sched.describe_next_states(shown.states)

            out["first_card"] = elapsed + timed(first_card)[0]
        from anki.scheduler_pb2 import CardAnswer

        answered = 0

        def answer(top: Any) -> None:
            nonlocal answered
            card = col.get_card(top.card.id)
            card.start_timer()
            col.sched.answer_card(col.sched.build_answer(card=card, states=top.states, rating=CardAnswer.GOOD))
            answered += 1

        if "review_step" in ops:
            def review_step() -> None:
                answer(col.sched.get_queued_cards(fetch_limit=1).cards[0])

            out["review_step"] = statistics.median(timed(review_step)[0] for _ in range(STEPS))
        if "tui_step" in ops:
            shown = col.sched.get_queued_cards(fetch_limit=1).cards[0]

            def tui_step() -> None:
                # The reviewer: answer the card shown, then the next card with the counts,
                # the card itself, and the answer buttons' intervals.
                nonlocal shown
                answer(shown)
                queued = col.sched.get_queued_cards(fetch_limit=1)
                shown = queued.cards[0]
                col.get_card(shown.card.id)
                col.sched.describe_next_states(shown.states)

            out["tui_step"] = statistics.median(timed(tui_step)[0] for _ in range(STEPS))
        for _ in range(answered):
            col.undo()
        answered = 0

        for key, sync in SYNCS:
            if key not in ops:
                continue
            col.db.execute(f"pragma synchronous = {sync.lower()}")  # Anki's own is FULL (2)
            queued = col.sched.get_queued_cards(fetch_limit=1).cards
            steps = []

            def anki_step(shown: Any) -> Any:
                # As tui_step: answer the card shown, then the next card, the card, the intervals.
                answer(shown)
                following = col.sched.get_queued_cards(fetch_limit=1).cards
                if following:
                    col.get_card(following[0].card.id)
                    col.sched.describe_next_states(following[0].states)
                return following

            while len(steps) < ANSWERS and queued:
                elapsed, queued = timed(lambda shown=queued[0]: anki_step(shown))
                steps.append(elapsed)
            out[key] = statistics.median(steps)
            out[key + "_n"] = len(steps)
            answered = 0  # not undone (Anki's undo keeps fewer steps): a fresh copy per answers op (main())

        def answer_some() -> None:
            for _ in range(STEPS):  # not timed
                answer(col.sched.get_queued_cards(fetch_limit=1).cards[0])

        if "undo" in ops:
            answer_some()
            out["undo"] = statistics.median(timed(col.undo)[0] for _ in range(STEPS))
        if "tui_undo" in ops:
            answer_some()

            def tui_undo() -> None:
                # The reviewer after an undo: the card again, the counts, the buttons' intervals.
                col.undo()
                shown = col.sched.get_queued_cards(fetch_limit=1).cards[0]
                col.get_card(shown.card.id)
                col.sched.describe_next_states(shown.states)

            out["tui_undo"] = statistics.median(timed(tui_undo)[0] for _ in range(STEPS))
        for key, text in zip(("search_attention", "search_zh", "search_q24"), SEARCHES):
            if key in ops:
                out[key], found = timed(lambda text=text: col.find_cards(text))
                out[key + "_hits"] = len(found)
        if "stats" in ops:
            out["stats"] = timed(lambda: col._backend.graphs(search="", days=365))[0]
        if "export" in ops:
            from anki.collection import ExportAnkiPackageOptions

            target = work / "export.apkg"
            options = ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=False,
                                               legacy=False)
            out["export"] = timed(lambda: col.export_anki_package(out_path=str(target), options=options,
                                                                  limit=None))[0]
            out["export_mb"] = target.stat().st_size / 2**20
        out["rss_peak_mb"] = peak_rss_mb()
        col.close()
        if "open" in ops:
            elapsed, col = timed(open_home)
            out["open_again"] = elapsed
            col.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def storage(system: str, path: Path) -> dict[str, Any]:
    """File size, and the bytes of the review log (table and its indexes) per review."""
    table = "reviews" if system == "quizapp" else "revlog"
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        names = [table] + [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", (table,))]
        placeholders = ", ".join("?" * len(names))
        table_bytes, used_bytes = conn.execute(
            f"SELECT sum(pgsize), sum(pgsize - unused) FROM dbstat WHERE name IN ({placeholders})", names).fetchone()
        reviews = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        conn.close()
    return {
        "file_mb": path.stat().st_size / 2**20,
        "reviews": reviews,
        "file_bytes_per_review": path.stat().st_size / max(1, reviews),
        "review_bytes_per_review": (table_bytes or 0) / max(1, reviews),
        "review_used_bytes_per_review": (used_bytes or 0) / max(1, reviews),
        "review_objects": names,
    }


# -- caching and orchestration ------------------------------------------------------------
@dataclass(frozen=True)
class System:
    """What is measured: quizapp (this checkout, or `before`: another commit's code) or Anki."""

    name: str  # quizapp | before | anki
    kind: str  # quizapp | anki
    repo: Path = REPO  # the quizapp code the processes import (PYTHONPATH)


@functools.cache
def ask(repo: Path, expression: str, module: str) -> str:
    """`expression` evaluated by `repo`'s quizapp, in a fresh process (this one imports none)."""
    code = f"from {module} import *; print({expression})"
    # Run from the repository: `python -c` puts the current folder first on sys.path.
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_child_env(repo), cwd=repo)
    if proc.returncode != 0:
        raise SystemExit(f"cannot ask {repo}'s quizapp for {expression}:\n{proc.stderr[-2000:]}")
    return proc.stdout.strip()


def collection_folder(cache: Path, system: System, n: int, bank: str) -> Path:
    """Where the collection of `system` at size n, cloned from the bank of hash `bank`, is kept."""
    if system.kind == "quizapp":
        # One collection per schema revision: a migration makes a new one.
        revision = ask(system.repo, "head_revision()", "quizapp.store.database")
        return cache / f"v{BUILD_VERSION}-quizapp-{revision}-{n}-{bank}"
    return cache / f"v{BUILD_VERSION}.{ANKI_BUILD_VERSION}-anki-{n}-{bank}"


def checkout(ref: str, cache: Path) -> Path:
    """The code of commit `ref` (a plain copy from `git archive`, kept in the cache)."""
    sha = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--verify", f"{ref}^{{commit}}"], capture_output=True,
                         text=True)
    if sha.returncode != 0:
        raise SystemExit(f"--compare-with: no commit {ref!r}")
    target = cache / f"code-{sha.stdout.strip()[:12]}"
    with locked(cache / f"{target.name}.lock"):
        if not (target / "pyproject.toml").exists():
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir(parents=True)
            archive = subprocess.run(["git", "-C", str(REPO), "archive", sha.stdout.strip()], capture_output=True,
                                     check=True)
            subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """One builder per collection, across processes (others wait, then reuse it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def built_info(folder: Path) -> dict[str, Any] | None:
    try:
        return json.loads((folder / "built.json").read_text())
    except (OSError, ValueError):
        return None


def run_build(system: str, n: int, folder: Path, now: datetime) -> dict[str, Any]:
    """In a fresh process (`--build`): build and check one collection; returns its record."""
    folder.mkdir(parents=True)
    os.environ["QUIZAPP_DATA_DIR"] = str(folder / "no-user-data")  # no user decks, as when measuring
    start = time.perf_counter()
    timings = (build_quizapp if system == "quizapp" else build_anki)(folder, n, now)
    built = time.perf_counter() - start
    check = (check_quizapp if system == "quizapp" else check_anki)(folder, n)
    info: dict[str, Any] = {"system": system, "n": n, "now": now.isoformat(), "build_s": round(built, 1),
                            "steps": timings, "check": check}
    if system == "quizapp":
        from quizapp.resources import content_dir

        info["content_dir"] = str(content_dir())
    (folder / "built.json").write_text(json.dumps(info, indent=1, ensure_ascii=False))
    return info


def ensure_built(cache: Path, systems: list[System], n: int, rebuild: bool, bank: str) -> dict[str, Path]:
    """The collections of size n, built in parallel where missing (one "now" for all)."""
    folders = {system.name: collection_folder(cache, system, n, bank) for system in systems}
    builders = {folders[system.name]: system for system in reversed(systems)}  # one build per folder
    with contextlib.ExitStack() as stack:
        for folder in sorted(builders):
            stack.enter_context(locked(cache / f"{folder.name}.lock"))
        infos = {folder: None if rebuild else built_info(folder) for folder in builders}
        anchors = [datetime.fromisoformat(info["now"]) for info in infos.values() if info]
        now = datetime.now(UTC)
        anchor = max(anchors) if anchors else now
        if now - anchor > ANCHOR_MAX_AGE:
            anchor, infos = now, dict.fromkeys(builders)
        for folder, info in infos.items():
            if info is not None and datetime.fromisoformat(info["now"]) != anchor:
                infos[folder] = None  # built for another "now": rebuild to match its partners
        procs = {}
        for folder, system in builders.items():
            if infos[folder] is not None:
                continue
            if folder.exists():
                shutil.rmtree(folder)
            print(f"building {folder.name} …", file=sys.stderr, flush=True)
            procs[folder] = subprocess.Popen(
                [sys.executable, __file__, "--build", system.kind, str(n), str(folder), anchor.isoformat()],
                stdout=subprocess.PIPE, text=True, env=_child_env(system.repo))
        failed = []
        for folder, proc in procs.items():
            stdout, _ = proc.communicate()
            if proc.returncode != 0:
                failed.append(folder.name)
                continue
            info = json.loads(stdout.strip().splitlines()[-1])
            print(f"  {folder.name}: built in {info['build_s']:.0f} s {info['steps']}; check {info['check']}",
                  file=sys.stderr, flush=True)
        if failed:
            raise SystemExit(f"building {', '.join(failed)} failed (see above)")
    return folders


def _child_env(repo: Path = REPO) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(repo) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # Bytecode cached, as for an installed quizapp (and the anki package pip compiled).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def private_copy(system: System, folder: Path, into: Path) -> Path:
    """A copy of the cached collection to measure on (the cache is never written to)."""
    name = "quizapp.db" if system.kind == "quizapp" else "collection.anki2"
    target = into / f"{system.name}-{folder.name}-{name}"
    shutil.copyfile(folder / name, target)
    if system.kind == "quizapp":
        _follow_builtin_content(folder, target, ask(system.repo, "content_dir()", "quizapp.resources"))
    return target


def _follow_builtin_content(folder: Path, db: Path, new: str) -> None:
    """Point the content cache's built-in files at this checkout's content folder.

    The cache keys files by path, and the collection may have been built from another
    checkout. The hashes are kept: if this checkout's built-in content differs, the app
    notices and syncs it on the (unmeasured) first open, as it would for a user.
    """
    info = built_info(folder) or {}
    old = info.get("content_dir")
    if not old or old == new:
        return
    conn = sqlite3.connect(db)
    try:
        with conn:
            conn.execute("UPDATE content_files SET path = ? || substr(path, ?) WHERE substr(path, 1, ?) = ?",
                         (new, len(old) + 1, len(old), old))
    except sqlite3.Error:
        pass  # another shape of cache: the first open syncs
    finally:
        conn.close()


def spawn_worker(system: System, folder: Path, db: Path, ops: list[str]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, __file__, "--worker", system.kind, str(folder), str(db), "--ops", ",".join(ops) or "none"],
        capture_output=True, text=True, env=_child_env(system.repo))
    if proc.returncode != 0:
        raise SystemExit(f"{system.name} worker failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def answers_on_fresh_copy(system: System, folder: Path, copy: Path | str, key: str) -> dict[str, Any]:
    """An answers op (ANSWERS answers, not undone) on a copy of the measuring copy, removed after."""
    if isinstance(copy, str):  # a PostgreSQL database: answered on itself (quizapp's worker undoes them)
        return spawn_worker(system, folder, copy, [key])
    fresh = copy.with_name(f"answers-{copy.name}")
    shutil.copyfile(copy, fresh)  # closed between workers: the last close checkpointed its -wal
    try:
        return spawn_worker(system, folder, fresh, [key])
    finally:
        for leftover in (fresh, Path(f"{fresh}-wal"), Path(f"{fresh}-shm")):
            leftover.unlink(missing_ok=True)


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def medians(results: dict[int, dict[str, list[dict[str, Any]]]]) -> dict[str, dict[str, dict[str, float]]]:
    out: dict[str, dict[str, dict[str, float]]] = {}
    for n, systems in results.items():
        for system, runs in systems.items():
            keys = {key for run in runs for key, value in run.items() if isinstance(value, int | float)}
            out.setdefault(str(n), {})[system] = {
                key: statistics.median(run[key] for run in runs if key in run) for key in sorted(keys)}
    return out


def table(med: dict[str, dict[str, dict[str, float]]], sizes_info: dict[str, dict[str, dict[str, Any]]],
          ops: list[str]) -> str:
    sizes = sorted(med, key=int)
    if any("postgresql" in med[n] for n in sizes):
        return _pg_table(med, sizes, ops)
    before = any("before" in med[n] for n in sizes)
    heading = "quizapp / before / Anki (ratio now; before)" if before else "quizapp / Anki (ratio)"
    lines = ["| operation | " + " | ".join(f"{int(n):,} cards: {heading}" for n in sizes) + " |",
             "| --- |" + " --- |" * len(sizes)]

    def fmt(value: float) -> str:
        return f"{value:,.1f}" if value < 100 else f"{value:,.0f}"

    def cell(q: float | None, a: float | None, unit: str, b: float | None = None) -> str:
        if q is None or a is None:
            return "–"
        ratio = f"{q / a:.1f}×" if a else "–"
        if not before:
            return f"{fmt(q)} / {fmt(a)} {unit} ({ratio})"
        was = f"{b / a:.1f}×" if a and b is not None else "–"
        return f"{fmt(q)} / {fmt(b) if b is not None else '–'} / {fmt(a)} {unit} ({ratio}; {was})"

    def row(label: str, get: Callable[[str, str], float | None], unit: str) -> None:
        lines.append(f"| {label} | " + " | ".join(
            cell(get(n, "quizapp"), get(n, "anki"), unit, get(n, "before") if before else None) for n in sizes) + " |")

    def sized(key: str) -> Callable[[str, str], float | None]:
        return lambda n, system: sizes_info.get(n, {}).get(system, {}).get(key)

    for key, label in OPS:
        if key in ops:
            row(label, lambda n, s, key=key: med[n][s].get(key), "ms")
    if "open" in ops:
        row("open + Home counts again, same process (imports done)", lambda n, s: med[n][s].get("open_again"), "ms")
        row("open to Study's first card (open + Home counts, then `s`: the card, its intervals; Anki: "
            "get_queued_cards + describe_next_states)", lambda n, s: med[n][s].get("first_card"), "ms")

        def service_ms(n: str, system: str) -> str:
            value = med[n].get(system, {}).get("open_service")
            return "–" if value is None else f"{fmt(value)} ms"

        # Home's figures no longer need the service; it loads with the first mode (Anki's open
        # has it; so had quizapp's before 8e9cb94, whose "open" row includes it).
        lines.append("| quizapp: the first mode opened loads the study service | " + " | ".join(
            service_ms(n, "quizapp") for n in sizes)
            + " |")
        row("RSS at Home (quizapp incl. Textual; Anki backend only)",
            lambda n, s: med[n][s].get("rss_home_mb"), "MB")
    if "stats" in ops:
        def calibration_ms(n: str, system: str) -> str:
            value = med[n].get(system, {}).get("stats_calibration")
            return "–" if value is None else f"{fmt(value)} ms"

        # Added to Stats after the first figures (calibration and the readiness range replay
        # every review with FSRS; since 268a303): Anki's graphs() has no such figure.
        lines.append("| quizapp: then Stats' calibration (replays every review), now / before | " + " | ".join(
            f"{calibration_ms(n, 'quizapp')} / {calibration_ms(n, 'before')}" for n in sizes) + " |")
    row("peak RSS (whole run)", lambda n, s: med[n][s].get("rss_peak_mb"), "MB")
    if "export" in ops:
        row("export file", lambda n, s: med[n][s].get("export_mb"), "MiB")
    searches = [key for key in ("search_attention", "search_zh", "search_q24") if key in ops]
    if searches:
        def hits(n: str, system: str) -> str:
            return " / ".join(f"{med[n][system].get(key + '_hits', 0):,.0f}" for key in searches)

        lines.append(f"| search hits ({' / '.join(k.removeprefix('search_') for k in searches)}), quizapp vs Anki | "
                     + " | ".join(f"{hits(n, 'quizapp')} vs {hits(n, 'anki')}" for n in sizes) + " |")
    if "size" in ops:
        lines.append("| review log objects counted | " + " | ".join(
            f"{', '.join(sizes_info.get(n, {}).get('quizapp', {}).get('review_objects', []))} vs "
            f"{', '.join(sizes_info.get(n, {}).get('anki', {}).get('review_objects', []))}" for n in sizes) + " |")
    if "size" in ops:
        row("database file", sized("file_mb"), "MiB")
        row("file bytes per review", sized("file_bytes_per_review"), "B")
        row("review log bytes per review (table + indexes)", sized("review_bytes_per_review"), "B")
    return "\n".join([*lines, "", *NOTES])


def _pg_table(med: dict[str, dict[str, dict[str, float]]], sizes: list[str], ops: list[str]) -> str:
    """quizapp on SQLite and on PostgreSQL beside Anki: ms each, and PostgreSQL ÷ SQLite."""
    lines = ["| operation | " + " | ".join(f"{int(n):,} cards: SQLite / PostgreSQL / Anki (PG ÷ SQLite)"
                                          for n in sizes) + " |", "| --- |" + " --- |" * len(sizes)]

    def fmt(value: float | None) -> str:
        if value is None:
            return "–"
        return f"{value:,.1f}" if value < 100 else f"{value:,.0f}"

    for key, label in OPS:
        if key not in ops:
            continue
        cells = []
        for n in sizes:
            q, p, a = (med[n].get(s, {}).get(key) for s in ("quizapp", "postgresql", "anki"))
            ratio = f"{p / q:.1f}×" if p is not None and q else "–"
            cells.append(f"{fmt(q)} / {fmt(p)} / {fmt(a)} ms ({ratio})")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    if "export" in ops:
        lines.append("| export file | " + " | ".join(
            f"{fmt(med[n].get('quizapp', {}).get('export_mb'))} / {fmt(med[n].get('postgresql', {}).get('export_mb'))}"
            f" / {fmt(med[n].get('anki', {}).get('export_mb'))} MiB" for n in sizes) + " |")
    return "\n".join([*lines, "", *NOTES, "* PostgreSQL: a local server on a unix socket (synchronous_commit on);",
                      "  \"open\" on PostgreSQL is the full open (Home's quick read is SQLite's)."])


NOTES = (
    "Read with care:",
    f"* answers_full / answers_normal: {ANSWERS} Study steps in a row on a fresh copy per setting (quizapp: the",
    "  screen's submit worker; Anki: answer_card, get_queued_cards, get_card, describe_next_states). Both ship",
    "  FULL; at FULL the step is mostly the fsync, which varies from process to process under load.",
    "* Both commit every answer with synchronous=FULL (an fsync of the WAL: 0.5-4 ms on this",
    "  machine, varying from process to process); quizapp before issue 26 used synchronous=NORMAL",
    "  (no fsync per answer), so a --compare-with of older code compares unequal durability.",
    "* Search: quizapp runs Browse's search (ranked, its first page of 100 rows; more are read as the list",
    "  is scrolled; older code read up to 500 at once); Anki's find_cards returns",
    "  every match, unranked. \"Q24\" is a bank label to quizapp (one lookup), text to Anki (a scan).",
    "* Open: both count importing their libraries (quizapp: the CLI pre-flight, the app's open worker",
    "  and Home's counts worker; Anki: Collection() + deck tree + studied today). The 'again' row is",
    "  the same in the same process, without the imports.",
    "* RSS at Home: quizapp's process has Textual and the app object loaded; Anki's has no GUI.",
    "* Export: quizapp writes JSON (uncompressed, both languages of every item); Anki a zstd-",
    "  compressed .apkg.",
)


class PgServer:
    """The PostgreSQL side of `--backend postgresql`: a server (started here unless a URL is
    given) and a database per size, filled from that size's SQLite copy by `db copy`."""

    def __init__(self, url: str | None) -> None:
        self.started: Any = None
        if url is None:
            sys.path.insert(0, str(REPO))
            from tests.pg_server import start_server

            self.started = start_server(durable=True)  # each commit on disk, as SQLite's synchronous=FULL
            url = self.started.url()
        self.url = url
        self.made: list[str] = []

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(sql)

    def copy_of(self, sqlite_copy: Path, n: int) -> str:
        from quizapp.store.copy import copy_collection
        from quizapp.store.database import open_database

        name = f"quizapp_bench_{n}_{os.getpid()}"
        self._admin(f"DROP DATABASE IF EXISTS {name}")
        self._admin(f"CREATE DATABASE {name}")
        self.made.append(name)
        head, _, query = self.url.partition("?")
        target = head.rsplit("/", 1)[0] + "/" + name + (f"?{query}" if query else "")
        source, dest = open_database(sqlite_copy), open_database(target)
        try:
            copy_collection(source, dest)
        finally:
            source.close()
            dest.close()
        import psycopg

        with psycopg.connect(target, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")  # the planner's statistics, as autovacuum would make them
        return target

    def stop(self) -> None:
        for name in self.made:
            with contextlib.suppress(Exception):
                self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if self.started is not None:
            self.started.stop()


def git_head(ref: str = "HEAD") -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO), "log", "-1", "--format=%h %s", ref], capture_output=True,
                              text=True).stdout.strip()[:100]
    except OSError:
        return "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated card counts")
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs per size (fresh processes)")
    parser.add_argument("--ops", default=",".join(ALL_OPS),
                        help=f"comma-separated subset of: {', '.join(ALL_OPS)} (default: all)")
    parser.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "quizapp-bench"),
                        help="where the built collections are kept between runs (shared; builds are locked)")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the collections of these sizes")
    parser.add_argument("--build-only", action="store_true", help="build (and check) the collections, measure nothing")
    parser.add_argument("--compare-with", metavar="REF",
                        help="also measure quizapp at this commit (e.g. a baseline), interleaved in the same runs")
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite",
                        help="postgresql: also measure quizapp on a local PostgreSQL server, beside SQLite")
    parser.add_argument("--pg-url", metavar="URL",
                        help="with --backend postgresql: a server to use (default: one started here)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of the table")
    parser.add_argument("--save", metavar="FILE.json", help="also write the JSON there and the table next to it (.txt)")
    parser.add_argument("--worker", nargs=3, metavar=("SYSTEM", "FOLDER", "DB"), help=argparse.SUPPRESS)
    parser.add_argument("--build", nargs=4, metavar=("SYSTEM", "N", "FOLDER", "NOW"), help=argparse.SUPPRESS)
    parser.add_argument("--dump-bank", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    ops = [op for op in options.ops.split(",") if op and op != "none"]
    unknown = sorted(set(ops) - set(ALL_OPS))
    if unknown:
        parser.error(f"unknown --ops {', '.join(unknown)} (choose from {', '.join(ALL_OPS)})")
    if options.worker:
        system, folder, db = options.worker
        if system == "quizapp":
            print(json.dumps(measure_quizapp(Path(folder), db if "://" in db else Path(db), set(ops))))
        else:
            print(json.dumps(measure_anki(Path(folder), Path(db), set(ops))))
        return 0
    if options.dump_bank:
        print(json.dumps(builtin_payloads(), ensure_ascii=False, sort_keys=True))
        return 0
    if options.build:
        system, n, folder, now = options.build
        print(json.dumps(run_build(system, int(n), Path(folder), datetime.fromisoformat(now)), ensure_ascii=False))
        return 0

    sizes = [int(s) for s in options.sizes.split(",") if s]
    cache = Path(options.cache)
    systems = [System("quizapp", "quizapp")]
    if options.compare_with:
        systems.append(System("before", "quizapp", checkout(options.compare_with, cache)))
    if options.backend == "postgresql":
        systems.append(System("postgresql", "quizapp"))
    systems.append(System("anki", "anki"))
    folders = {}
    bank_path, bank = write_bank(cache, sorted({system.repo for system in systems if system.kind == "quizapp"}))
    os.environ[BANK_ENV] = str(bank_path)  # every build clones this checkout's bank (_child_env passes it on)
    for n in sizes:
        for name, folder in ensure_built(cache, systems, n, options.rebuild, bank).items():
            folders[n, name] = folder
    if options.build_only:
        return 0

    run_dir = Path(tempfile.mkdtemp(prefix="runs-", dir=cache))
    server = PgServer(options.pg_url) if options.backend == "postgresql" else None
    try:
        copies, sizes_info, first_open = {}, {}, {}
        for n in sizes:
            for system in systems:
                if system.name == "postgresql":
                    assert server is not None
                    start = time.perf_counter()
                    copies[n, system.name] = server.copy_of(copies[n, "quizapp"], n)
                    first_open[f"copy-to-postgresql-{n}"] = round(time.perf_counter() - start, 1)
                    spawn_worker(system, folders[n, system.name], copies[n, system.name], [])
                    continue
                copies[n, system.name] = private_copy(system, folders[n, system.name], run_dir)
                if system.kind == "quizapp":
                    # The copy's first open (the content cache check, or a sync if the content
                    # changed): not counted.
                    start = time.perf_counter()
                    spawn_worker(system, folders[n, system.name], copies[n, system.name], [])
                    first_open[f"{system.name}-{n}"] = round(time.perf_counter() - start, 1)
            if "size" in ops:
                sizes_info[str(n)] = {system.name: storage(system.kind, copies[n, system.name]) for system in systems
                                      if system.name != "postgresql"}
        load: dict[str, Any] = {"start": loadavg(), "runs": []}
        results: dict[int, dict[str, list[dict[str, Any]]]] = {n: {s.name: [] for s in systems} for n in sizes}
        answer_ops = [key for key, _ in SYNCS if key in ops]
        measured = [op for op in ops if op != "size" and op not in answer_ops]
        for run in range(options.runs):
            for n in sizes:
                # Alternate the order, so no system always gets the warmer machine.
                for system in systems if run % 2 == 0 else systems[::-1]:
                    result = spawn_worker(system, folders[n, system.name], copies[n, system.name], measured) \
                        if measured else {}
                    for key in answer_ops:  # 50 answers kept: each setting on a fresh copy, in a process of its own
                        result.update(answers_on_fresh_copy(system, folders[n, system.name], copies[n, system.name], key))
                    results[n][system.name].append(result)
            load["runs"].append(loadavg())
            print(f"run {run + 1}/{options.runs} done (load {load['runs'][-1]})", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
        if server is not None:
            server.stop()

    med = medians(results)
    builds = {str(n): {system.name: built_info(folders[n, system.name]) for system in systems} for n in sizes}
    report = {
        "runs": options.runs, "ops": ops, "steps_per_run": STEPS, "code": git_head(), "at": datetime.now(UTC).isoformat(),
        "cpus": os.cpu_count(), "loadavg": load, "first_open_s": first_open, "medians": med, "storage": sizes_info,
        "builds": builds, "results": {str(n): r for n, r in results.items()},
        "before": git_head(options.compare_with) if options.compare_with else None,
    }
    compared = f" (before: {report['before']})" if report["before"] else ""
    header = (f"quizapp {report['code']}{compared} vs anki; medians of {options.runs} interleaved runs (fresh process each), "
              f"{STEPS} steps per run; load average {load['start']} at start, per run {load['runs']} "
              f"on {os.cpu_count()} CPUs (shared machine: noisy)")
    text = header + "\n\n" + table(med, sizes_info, ops)
    replicas = sorted({op for by_system in results.values() for runs in by_system.values() for run in runs
                       for op in run.get("replicas", [])})
    if replicas:
        text += f"\n* WARNING: measured with a replica of the app's calls (its screen code changed shape): {replicas}"
    if options.save:
        Path(options.save).write_text(json.dumps(report, indent=1, ensure_ascii=False))
        Path(options.save).with_suffix(".txt").write_text(text + "\n")
    print(json.dumps(report, indent=1, ensure_ascii=False) if options.json else text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
