"""quizapp against Anki's own backend at 1k, 10k and 100k cards with FSRS review histories.

Both collections hold the same cards (clones of the built-in bank, so the text is the
real Chinese/English mix) with the same simulated histories: a few hundred FSRS-simulated
review sequences (10 reviews each, the `fsrs` package with random ratings) shifted in
time per card so that about a tenth of the cards are due. quizapp's cards come from a
user deck folder of YAML files, as a user's own 100k-card deck would; its rows are
bulk-inserted with SQLAlchemy Core (not through the UI), Anki's through its backend
(`add_notes`) plus SQL for the card states and the revlog.

Each measurement runs in a fresh process per (system, size), interleaved run by run, so
both see the same machine load; the machine is shared, so read medians, not minimums.
The collections are built once and cached (--cache, default a folder in the temp dir).

    pip install -e ".[bench]"
    python benchmarks/scale.py [--sizes 1000,10000,100000] [--runs 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
BUILD_VERSION = 1  # bump when the collections' shape changes
REVIEWS_PER_CARD = 10
TEMPLATES = 400
STEPS = 5  # review steps (and TUI steps) per run, undone afterwards
ITEMS_PER_FILE = 400  # content files are limited to 2 MB each
SEARCHES = ("attention", "注意力", "Q24")

OPS = (
    ("open", "open + Home counts"),
    ("review_step", "one review step (next card + answer + commit)"),
    ("tui_step", "the TUI's step (answer, next, counts, previews)"),
    ("search_attention", 'search "attention"'),
    ("search_zh", 'search "注意力"'),
    ("search_q24", 'search "Q24"'),
    ("stats", "stats data (Anki: graphs())"),
    ("export", "export (quizapp JSON; Anki .apkg)"),
)


# -- simulated histories ------------------------------------------------------------
def simulate_templates(seed: int = 7) -> list[list[dict[str, Any]]]:
    """FSRS review sequences: per review the card before it, the rating and the card after.

    Times are seconds relative to the last review's due date (so each card can be shifted).
    """
    from fsrs import Card, Rating, Scheduler

    rng = random.Random(seed)
    scheduler = Scheduler(enable_fuzzing=False)
    start = datetime(2020, 1, 1, tzinfo=UTC)
    templates = []
    for _ in range(TEMPLATES):
        card = Card()
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
        final_due = card.due
        for step in steps:
            step["offset"] = (step["at"] - final_due).total_seconds()
        templates.append(steps)
    return templates


def shifted(value: datetime | None, due: datetime, template_due: datetime) -> datetime | None:
    return None if value is None else due + (value - template_due)


def plan_cards(n: int, now: datetime, seed: int = 11) -> list[dict[str, Any]]:
    """Per card: which template, and when its final due falls (about 10% due now)."""
    rng = random.Random(seed)
    plans = []
    for index in range(n):
        template = index % TEMPLATES
        plans.append({"template": template, "fraction": rng.uniform(-0.1, 0.9), "ms": index})
    return plans


def card_timeline(steps: list[dict[str, Any]], plan: dict[str, Any], now: datetime) -> tuple[datetime, datetime]:
    """(final due, template's final due): the shift maps template time onto real time."""
    last = steps[-1]["after"]
    interval = last.due - last.last_review
    due = now + interval * plan["fraction"] + timedelta(milliseconds=plan["ms"])
    return due, last.due


# -- content ------------------------------------------------------------------------
def _flat_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return " / ".join(_flat_text(v) for v in value.values() if v)
    if isinstance(value, list):
        return " ".join(_flat_text(v) for v in value)
    return "" if value is None else str(value)


def clone_payloads(n: int) -> list[dict[str, Any]]:
    """`n` content items cloned from the built-in bank (new ids, no bank numbers)."""
    from quizapp.content.loader import load_builtin

    base = [item.model_dump(mode="json") for item in load_builtin().items]
    payloads = []
    for index in range(n):
        payload = json.loads(json.dumps(base[index % len(base)]))
        payload["id"] = f"bench-{index:06d}"
        if "source_no" in payload:
            payload["source_no"] = None
        payloads.append(payload)
    return payloads


def write_deck(folder: Path, payloads: list[dict[str, Any]]) -> None:
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    folder.mkdir(parents=True, exist_ok=True)
    for start in range(0, len(payloads), ITEMS_PER_FILE):
        chunk = payloads[start : start + ITEMS_PER_FILE]
        data = {"qa": [p for p in chunk if p["kind"] == "qa"], "mcq": [p for p in chunk if p["kind"] == "mcq"]}
        text = yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False)
        (folder / f"bench-{start // ITEMS_PER_FILE:04d}.yaml").write_text(text, encoding="utf-8")


# -- building quizapp's collection ------------------------------------------------------
def build_quizapp(folder: Path, n: int, now: datetime) -> None:
    from sqlalchemy import insert

    from quizapp.content.loader import load_dirs
    from quizapp.srs.clock import to_naive_utc
    from quizapp.store.database import make_engine, upgrade_database
    from quizapp.store.models import Card, Item, Review
    from quizapp.store.sync import _row_fields

    payloads = clone_payloads(n)
    deck = folder / "deck"
    write_deck(deck, payloads)
    content = load_dirs([deck])
    assert not content.errors, content.errors[:3]
    db_path = folder / "quizapp.db"
    upgrade_database(db_path)
    templates = simulate_templates()
    plans = plan_cards(n, now)
    naive_now = to_naive_utc(now)
    engine = make_engine(db_path)
    review_columns = set(Review.__table__.columns.keys())
    with engine.begin() as conn:
        item_rows = []
        for item in content.items:
            fields = _row_fields(item)
            fields.update(id=item.id, origin="user", created_at=naive_now, updated_at=naive_now, retired_at=None)
            item_rows.append(fields)
        for start in range(0, len(item_rows), 5000):
            conn.execute(insert(Item), item_rows[start : start + 5000])
        ids = sorted(item.id for item in content.items)
        card_rows, review_rows = [], []
        for card_id, (item_id, plan) in enumerate(zip(ids, plans), start=1):
            steps = templates[plan["template"]]
            due, template_due = card_timeline(steps, plan, now)
            last = steps[-1]["after"]
            lapses = sum(1 for s in steps if s["rating"] == 1 and int(s["before"].state) == 2)
            card_rows.append({
                "id": card_id, "item_id": item_id, "state": int(last.state), "step": last.step,
                "stability": last.stability, "difficulty": last.difficulty, "due": to_naive_utc(due),
                "last_review": to_naive_utc(shifted(last.last_review, due, template_due)),
                "reps": len(steps), "lapses": lapses, "suspended": False, "leech": False, "version": len(steps),
            })
            lapses_so_far = 0
            for reps, step in enumerate(steps):
                before = step["before"]
                reviewed_at = to_naive_utc(shifted(step["at"], due, template_due))
                prev = {
                    "state": int(before.state), "step": before.step, "stability": before.stability,
                    "difficulty": before.difficulty,
                    "due": to_naive_utc(shifted(before.due, due, template_due)).isoformat(),
                    "last_review": (
                        to_naive_utc(shifted(before.last_review, due, template_due)).isoformat()
                        if before.last_review else None
                    ),
                    "reps": reps, "lapses": lapses_so_far, "leech": False, "suspended": False,
                }
                review_rows.append(review_row(review_columns, card_id, step["rating"], reviewed_at, prev))
                lapses_so_far += int(step["rating"] == 1 and int(before.state) == 2)
            if len(review_rows) >= 50_000:
                conn.execute(insert(Card), card_rows)
                conn.execute(insert(Review), review_rows)
                card_rows, review_rows = [], []
        if card_rows:
            conn.execute(insert(Card), card_rows)
        if review_rows:
            conn.execute(insert(Review), review_rows)
    # Any search index the schema keeps is filled by the first open (the content sync).
    engine.dispose()
    import sqlite3

    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")
    conn.close()


def review_row(columns: set[str], card_id: int, rating: int, reviewed_at: datetime, prev: dict[str, Any]) -> dict:
    """One reviews row in whichever shape the schema at head has."""
    row: dict[str, Any] = {"card_id": card_id, "mode": "study", "rating": rating, "reviewed_at": reviewed_at,
                           "duration_ms": 8000}
    if "prev_card" in columns:
        row.update(answer=None, score=None, prev_card=prev)
    else:
        # Compact storage: the card before the answer in plain columns.
        row.update(score=None, **{f"prev_{key}": value for key, value in prev.items()
                                  if f"prev_{key}" in columns})
        for key in ("prev_due", "prev_last_review"):
            if isinstance(row.get(key), str):
                row[key] = datetime.fromisoformat(row[key])
    return {key: value for key, value in row.items() if key in columns}


# -- building Anki's collection ---------------------------------------------------------
def build_anki(folder: Path, n: int, now: datetime) -> None:
    from anki.collection import AddNoteRequest, Collection

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "collection.anki2"
    col = Collection(str(path))
    try:
        col.set_config("fsrs", True)
        notetype = col.models.by_name("Basic")
        deck_id = col.decks.id("bench")
        payloads = clone_payloads(n)
        for start in range(0, n, 2000):
            requests = []
            for payload in payloads[start : start + 2000]:
                note = col.new_note(notetype)
                note["Front"] = _flat_text(payload.get("question"))
                answer = payload.get("answer")
                if payload["kind"] == "mcq":
                    answer = _flat_text(payload.get("options")) + " " + _flat_text(payload.get("explanation"))
                note["Back"] = _flat_text(answer)
                note.tags = list(payload.get("tags") or [])
                requests.append(AddNoteRequest(note=note, deck_id=deck_id))
            col.add_notes(requests)
        conf = col.decks.config_dict_for_deck_id(deck_id)
        conf["new"]["perDay"] = 20
        conf["rev"]["perDay"] = 200
        col.decks.update_config(conf)
        col.decks.select(deck_id)
        templates = simulate_templates()
        plans = plan_cards(n, now)
        today = col.sched.today
        card_ids = col.db.list("select id from cards order by nid")
        card_updates, revlog = [], []
        for cid, plan in zip(card_ids, plans):
            steps = templates[plan["template"]]
            due, template_due = card_timeline(steps, plan, now)
            last = steps[-1]["after"]
            ivl = max(1, round((last.due - last.last_review).total_seconds() / 86400))
            lapses = sum(1 for s in steps if s["rating"] == 1 and int(s["before"].state) == 2)
            data = json.dumps({"s": round(last.stability, 4), "d": round(last.difficulty, 3), "dr": 0.9})
            if int(last.state) == 2:
                ctype, queue, due_value = 2, 2, today + (due - now).days
            else:
                ctype, queue, due_value = 3, 1, int(due.timestamp())
            card_updates.append((ctype, queue, due_value, ivl, 2500, len(steps), lapses, data, cid))
            previous_ivl = 0
            for step in steps:
                at = shifted(step["at"], due, template_due)
                after = step["after"]
                step_ivl = round((after.due - step["at"]).total_seconds() / 86400)
                kind = {1: 0, 2: 1, 3: 2}[int(step["before"].state)]
                revlog.append((int(at.timestamp() * 1000), cid, step["rating"], step_ivl, previous_ivl,
                               int(after.difficulty * 100), 8000, kind))
                previous_ivl = step_ivl
        col.db.executemany(
            "update cards set type=?, queue=?, due=?, ivl=?, factor=?, reps=?, lapses=?, data=? where id=?",
            card_updates,
        )
        col.db.executemany(
            "insert or ignore into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) "
            "values (?, ?, -1, ?, ?, ?, ?, ?, ?)",
            revlog,
        )
    finally:
        col.close()


# -- measuring (one process per system and size) ------------------------------------------
def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return (time.perf_counter() - start) * 1000, result


def peak_rss_mb() -> float:
    """This process's peak RSS (VmHWM: unlike ru_maxrss, not inherited across exec)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure_quizapp(folder: Path) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="quizapp-bench-run-"))
    os.environ["QUIZAPP_DATA_DIR"] = str(work / "data")
    db = folder / "quizapp.db"
    out: dict[str, Any] = {}
    try:
        from quizapp.tui.backend import open_backend

        def open_home():
            # What the app's backend worker and Home's counts worker run (HomeScreen.load_counts).
            backend = open_backend(db, [folder / "deck"], None)
            home_figures(backend.service)
            return backend

        out["open"], backend = timed(open_home)
        out["rss_home_mb"] = peak_rss_mb()
        service = backend.service
        undo: list[int] = []

        def review_step():
            card = service.next_card("qa")
            result = service.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version)
            undo.append(result.review_id)

        def tui_step():
            # SessionScreen.submit then _fetch: the service calls one answer costs the TUI.
            card = service.next_card("qa")
            result = service.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version)
            undo.append(result.review_id)
            following = service.next_card("qa")
            service.due_counts()
            service.new_allowance_left("qa")
            if following is not None:
                service.preview(following.card.card_id)

        out["review_step"] = statistics.median(timed(review_step)[0] for _ in range(STEPS))
        out["tui_step"] = statistics.median(timed(tui_step)[0] for _ in range(STEPS))
        for review_id in reversed(undo):
            service.undo(review_id)
        for key, text in zip(("search_attention", "search_zh", "search_q24"), SEARCHES):
            out[key], found = timed(lambda text=text: service.search(text))
            out[key + "_hits"] = len(found)
        out["stats"] = timed(lambda: collect_quizapp_stats(service))[0]
        target = work / "export.json"
        out["export"] = timed(lambda: export_quizapp(backend, target))[0]
        out["export_mb"] = target.stat().st_size / 2**20
        out["rss_peak_mb"] = peak_rss_mb()
        out["file_mb"] = db.stat().st_size / 2**20
        out["reviews"] = _count(db, "reviews")
        backend.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def _count(db: Path, table: str) -> int:
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        return conn.execute(f"select count(*) from {table}").fetchone()[0]
    finally:
        conn.close()


def home_figures(service: Any) -> Any:
    settings = service.settings()
    try:
        from quizapp.srs.stats import readiness
    except ImportError:  # before Home showed readiness
        figures = None
    else:
        figures = readiness(service.db, service.clock, settings)
    return service.due_counts(), figures


def collect_quizapp_stats(service: Any) -> Any:
    try:
        from quizapp.srs.stats import study_stats  # the aggregate queries
    except ImportError:
        from quizapp.tui.stats_data import collect_stats  # before: a loop over items

        return collect_stats(service)
    return study_stats(service.db, service.clock, service.settings())


def export_quizapp(backend: Any, target: Path) -> None:
    from quizapp.store.transfer import write_json

    with backend.service.db.session() as session:
        write_json(session, target)


def measure_anki(folder: Path) -> dict[str, Any]:
    from anki.collection import Collection, ExportAnkiPackageOptions
    from anki.scheduler_pb2 import CardAnswer

    work = Path(tempfile.mkdtemp(prefix="anki-bench-run-"))
    path = folder / "collection.anki2"
    out: dict[str, Any] = {}
    try:
        def open_home():
            col = Collection(str(path))
            col.sched.counts()
            return col

        out["open"], col = timed(open_home)
        out["rss_home_mb"] = peak_rss_mb()

        def answer_next():
            queued = col.sched.get_queued_cards(fetch_limit=1)
            top = queued.cards[0]
            card = col.get_card(top.card.id)
            card.start_timer()
            answer = col.sched.build_answer(card=card, states=top.states, rating=CardAnswer.GOOD)
            col.sched.answer_card(answer)

        def tui_step():
            answer_next()
            queued = col.sched.get_queued_cards(fetch_limit=1)  # next card and the counts
            if queued.cards:
                col.sched.describe_next_states(queued.cards[0].states)  # the buttons' intervals

        out["review_step"] = statistics.median(timed(answer_next)[0] for _ in range(STEPS))
        out["tui_step"] = statistics.median(timed(tui_step)[0] for _ in range(STEPS))
        for _ in range(2 * STEPS):
            col.undo()
        for key, text in zip(("search_attention", "search_zh", "search_q24"), SEARCHES):
            out[key], found = timed(lambda text=text: col.find_cards(text))
            out[key + "_hits"] = len(found)
        out["stats"] = timed(lambda: col._backend.graphs(search="", days=365))[0]
        target = work / "export.apkg"
        options = ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=False,
                                           legacy=False)
        out["export"] = timed(lambda: col.export_anki_package(out_path=str(target), options=options, limit=None))[0]
        out["export_mb"] = target.stat().st_size / 2**20
        out["rss_peak_mb"] = peak_rss_mb()
        col.close()
        out["file_mb"] = path.stat().st_size / 2**20
        out["reviews"] = _count(path, "revlog")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


# -- orchestration ------------------------------------------------------------------------
def collection_folder(cache: Path, system: str, n: int) -> Path:
    if system == "quizapp":
        # One collection per schema revision, so "before" and "after" builds can coexist.
        from quizapp.store.database import head_revision

        return cache / f"v{BUILD_VERSION}-{system}-{head_revision()}-{n}"
    return cache / f"v{BUILD_VERSION}-{system}-{n}"


def ensure_built(cache: Path, system: str, n: int, now: datetime) -> Path:
    folder = collection_folder(cache, system, n)
    done = folder / "built"
    if done.exists():
        return folder
    if folder.exists():
        shutil.rmtree(folder)
    print(f"building {system} collection of {n:,} cards …", file=sys.stderr, flush=True)
    start = time.perf_counter()
    (build_quizapp if system == "quizapp" else build_anki)(folder, n, now)
    done.write_text(now.isoformat())
    print(f"  built in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    return folder


def run_worker(system: str, folder: str) -> int:
    result = (measure_quizapp if system == "quizapp" else measure_anki)(Path(folder))
    print(json.dumps(result))
    return 0


def spawn(system: str, folder: Path) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, __file__, "--worker", system, str(folder)],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"{system} worker failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def table(results: dict[int, dict[str, dict[str, list[dict[str, Any]]]]]) -> str:
    sizes = sorted(results)
    lines = ["| operation | " + " | ".join(f"{n:,} cards: quizapp / Anki (ratio)" for n in sizes) + " |",
             "| --- |" + " --- |" * len(sizes)]

    def med(n: int, system: str, key: str) -> float:
        return statistics.median(r[key] for r in results[n][system])

    def cell(n: int, key: str, unit: str = "ms") -> str:
        q, a = med(n, "quizapp", key), med(n, "anki", key)
        ratio = f"{q / a:.1f}×" if a else "–"
        fmt = "{:,.1f}" if q < 100 else "{:,.0f}"
        return f"{fmt.format(q)} / {fmt.format(a)} {unit} ({ratio})"

    for key, label in OPS:
        lines.append(f"| {label} | " + " | ".join(cell(n, key) for n in sizes) + " |")
    lines.append("| RSS after open + Home | " + " | ".join(cell(n, "rss_home_mb", "MB") for n in sizes) + " |")
    lines.append("| peak RSS (whole run) | " + " | ".join(cell(n, "rss_peak_mb", "MB") for n in sizes) + " |")
    lines.append("| database file | " + " | ".join(cell(n, "file_mb", "MiB") for n in sizes) + " |")
    per_review = []
    for n in sizes:
        q = med(n, "quizapp", "file_mb") * 2**20 / max(1, med(n, "quizapp", "reviews"))
        a = med(n, "anki", "file_mb") * 2**20 / max(1, med(n, "anki", "reviews"))
        per_review.append(f"{q:,.0f} / {a:,.0f} B ({q / a:.1f}×)")
    lines.append("| file bytes per review | " + " | ".join(per_review) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated card counts")
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs per size (fresh processes)")
    parser.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "quizapp-bench"),
                        help="where the built collections are kept between runs")
    parser.add_argument("--rebuild", action="store_true", help="rebuild quizapp's collections (after a schema change)")
    parser.add_argument("--json", action="store_true", help="print the raw results as JSON")
    parser.add_argument("--worker", nargs=2, metavar=("SYSTEM", "FOLDER"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        return run_worker(*options.worker)

    sizes = [int(s) for s in options.sizes.split(",") if s]
    cache = Path(options.cache)
    now = datetime.now(UTC)
    folders = {}
    for n in sizes:
        if options.rebuild and collection_folder(cache, "quizapp", n).exists():
            shutil.rmtree(collection_folder(cache, "quizapp", n))
        for system in ("quizapp", "anki"):
            folders[n, system] = ensure_built(cache, system, n, now)

    # The first open after a build syncs the deck (and fills any index): not counted.
    for n in sizes:
        spawn("quizapp", folders[n, "quizapp"])
    results: dict[int, dict[str, list[dict[str, Any]]]] = {n: {"quizapp": [], "anki": []} for n in sizes}
    for run in range(options.runs):
        for n in sizes:
            for system in ("quizapp", "anki"):
                results[n][system].append(spawn(system, folders[n, system]))
        print(f"run {run + 1}/{options.runs} done", file=sys.stderr, flush=True)

    if options.json:
        print(json.dumps({"runs": options.runs, "results": {str(n): r for n, r in results.items()}}, indent=1))
    else:
        print(f"medians of {options.runs} interleaved runs (fresh process each); {STEPS} steps per run; "
              "shared 2-core machine, so figures are noisy")
        print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
