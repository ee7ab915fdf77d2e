"""Importing a JSON export as a stream: the memory it takes does not grow with the file.

The file is never read whole. Each record — an item with its card and reviews, a drill
attempt, a mock interview with its answers — is parsed alone (ijson, its C parser) and
validated against its own schema model (quizapp.store.export_schema), then dropped. What
ties records together (refs and ids unique, every ref resolving; then, while writing,
which row each ref of the file became) is kept in a private temporary SQLite file, so a
file of any size costs the same memory: about one item's reviews at a time (a card holds
at most `schema.MAX_REVIEWS_PER_ITEM`).

Two passes: `check_file` validates everything before the database is opened (a bad file
costs no lock and changes nothing); `merge` (quizapp.store.transfer) writes in ONE write
transaction, reading the file again in the order the rows depend on each other — items
and their reviews, interviews, drill attempts, the interviews' answers — and reports how
far it is, which quizapp.store.import_progress publishes for other processes.
"""

from __future__ import annotations

import contextlib
import gzip
import itertools
import json
import lzma
import os
import sqlite3
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel, ValidationError

from quizapp.store import export_schema as schema

ARRAYS: dict[str, type[BaseModel]] = {"items": schema.ItemRecord, "drill_attempts": schema.DrillAttemptRecord,
          "mock_interviews": schema.MockInterviewRecord}
_BOM = b"\xef\xbb\xbf"
_LIMIT = 20  # located errors reported (then "… and N more")
_CHUNK = 1 << 16



class StreamFormatError(ValueError):
    """Located one-line errors (transfer.ImportFormatError wraps them)."""

    def __init__(self, errors: list[str] | str) -> None:
        self.errors = [errors] if isinstance(errors, str) else list(errors)
        super().__init__(self.errors[0] if self.errors else "invalid export")


class Refs:
    """The file's refs in a private temporary SQLite database (on disk, a small cache).

    kind: 0 review, 1 drill attempt, 2 mock interview (→ row id once written, or -1),
    3 item id (text, kept as its hash key); `wanted` holds the refs other records use."""

    REVIEW, ATTEMPT, MOCK = 0, 1, 2

    def __init__(self) -> None:
        self.conn = sqlite3.connect("", isolation_level=None)  # "": a temporary file, deleted on close
        self.conn.execute("PRAGMA cache_size=-8000")  # 8 MB at most
        self.conn.execute("PRAGMA journal_mode=OFF")
        self.conn.execute("PRAGMA synchronous=OFF")
        self.conn.execute("CREATE TABLE refs (kind INTEGER, ref INTEGER, id INTEGER, PRIMARY KEY (kind, ref)) WITHOUT ROWID")
        self.conn.execute("CREATE TABLE item_ids (id TEXT PRIMARY KEY) WITHOUT ROWID")
        # (what refers, which kind it names, the ref): checked once every ref is known
        self.conn.execute("CREATE TABLE uses (seq INTEGER PRIMARY KEY, place TEXT, kind INTEGER, ref INTEGER)")
        self.conn.execute("BEGIN")

    def add(self, kind: int, refs: list[int]) -> bool:
        """False if one of `refs` was already there (refs must be unique)."""
        try:
            self.conn.executemany("INSERT INTO refs (kind, ref, id) VALUES (?, ?, NULL)", [(kind, r) for r in refs])
        except sqlite3.IntegrityError:
            return False
        return True

    def add_item(self, item_id: str) -> bool:
        try:
            self.conn.execute("INSERT INTO item_ids VALUES (?)", (item_id,))
        except sqlite3.IntegrityError:
            return False
        return True

    def use(self, place: str, kind: int, ref: Any) -> None:
        self.conn.execute("INSERT INTO uses (place, kind, ref) VALUES (?, ?, ?)",
                          (place, kind, ref if type(ref) is int else None))

    def first_unresolved(self) -> tuple[str, int | None] | None:
        row = self.conn.execute(
            "SELECT place, ref FROM uses WHERE ref IS NULL OR NOT EXISTS "
            "(SELECT 1 FROM refs WHERE refs.kind = uses.kind AND refs.ref = uses.ref) ORDER BY seq LIMIT 1"
        ).fetchone()
        return None if row is None else (row[0], row[1])

    # -- while writing: which row each ref became --

    def set(self, kind: int, pairs: list[tuple[int, int]]) -> None:
        self.conn.executemany("INSERT OR REPLACE INTO refs (kind, ref, id) VALUES (?, ?, ?)",
                              [(kind, ref, row_id) for ref, row_id in pairs])

    def get(self, kind: int, ref: int) -> int | None:
        row = self.conn.execute("SELECT id FROM refs WHERE kind = ? AND ref = ?", (kind, ref)).fetchone()
        return None if row is None or row[0] is None or row[0] < 0 else row[0]

    def mapping(self, kind: int) -> _RefMap:
        return _RefMap(self, kind)

    def close(self) -> None:
        self.conn.close()


@dataclass
class _RefMap:
    """`refs.get` for one kind, shaped like the dict `transfer._mock_answer_refs` expects."""

    refs: Refs
    kind: int

    def get(self, ref: Any, default: Any = None) -> Any:
        if type(ref) is not int:
            return default
        found = self.refs.get(self.kind, ref)
        return default if found is None else found


@dataclass
class Checked:
    """A file that passed `check_file`: its head, and how many records of each kind."""

    path: Path
    exported_at: datetime
    settings: dict[str, Any]
    now: datetime
    counts: dict[str, int] = field(default_factory=dict)
    stamp: tuple[int, ...] = ()  # the file as it was checked (`file_stamp`)


def file_stamp(path: Path) -> tuple[int, ...]:
    """The file's identity and version (inode, size, modification time): a file replaced or
    rewritten between the check and the write is refused, not half-trusted."""
    st = os.stat(path)
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


# Compressed exports (quizapp export -o FILE.json.gz / .json.xz), told by their first
# bytes and read as streams: ijson reads the JSON inside.
GZIP_MAGIC = b"\x1f\x8b"
XZ_MAGIC = b"\xfd7zXZ\x00"
# What reading a damaged or truncated compressed stream raises (BadGzipFile is an OSError;
# a plain file's other OSErrors are read errors, said as such by the caller).
DAMAGED = (gzip.BadGzipFile, EOFError, zlib.error, lzma.LZMAError)


def damaged(exc: BaseException) -> str:
    """The one line said for a compressed export that cannot be read to its end."""
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return f"the compressed file is damaged or cut short ({reason[:120]}), so it cannot be read; nothing imported"


@contextlib.contextmanager
def _open(path: Path) -> Iterator[tuple[IO[bytes], IO[bytes]]]:
    """The export's JSON as a byte stream (decompressed as it is read, for a compressed
    export), and the file itself (whose position says how far reading is)."""
    with open(path, "rb") as raw:
        magic = raw.read(len(XZ_MAGIC))
        raw.seek(0)
        stream: IO[bytes] = raw
        if magic.startswith(GZIP_MAGIC):
            stream = gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[assignment]
        elif magic == XZ_MAGIC:
            stream = lzma.LZMAFile(raw, mode="rb")  # noqa: SIM115
        with stream:  # a GzipFile or LZMAFile leaves `raw` open: the outer `with` closes it
            try:
                if stream.read(3) != _BOM:  # a UTF-8 byte-order mark (editors on Windows add one) is not JSON
                    stream.seek(0)
            except DAMAGED as exc:
                raise StreamFormatError(damaged(exc)) from None
            yield stream, raw


def _not_json(exc: Exception) -> StreamFormatError:
    # ijson's C backend gives its message as bytes quoting the file's raw bytes
    # (b'lexical error: invalid char in json text.\n  <*\xea…'): say it in plain words.
    text = exc.args[0] if exc.args else ""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    lines = str(text).strip().splitlines()
    first = lines[0].rstrip(".") if lines else type(exc).__name__
    if first.startswith("lexical error") or not first.isascii() or not first.isprintable():
        return StreamFormatError("not JSON (an unreadable character or byte), so not an export")
    return StreamFormatError(f"not JSON ({first[:120]})")


def _head(path: Path) -> tuple[dict[str, Any], set[str]]:
    """The top-level keys outside the three arrays, with their values, and every top-level
    key (a key the format does not have is refused, wherever it is in the file). The
    arrays' contents are passed over, not built."""
    import ijson  # type: ignore[import-untyped]

    head: dict[str, Any] = {}
    seen: set[str] = set()
    with _open(path) as (fh, _raw):
        events = ijson.parse(fh, use_float=True, buf_size=_CHUNK)
        try:
            first = next(events, None)
            if first is None or first[1] != "start_map":
                raise StreamFormatError("not a quizapp export (expected a JSON file written by "
                                        "`quizapp export --format json`)")
            for prefix, event, value in events:
                if prefix == "" and event == "map_key":
                    seen.add(value)
                    if value not in ARRAYS:
                        head[value] = _build(events)
                    else:
                        opening = next(events)
                        if opening[1] != "start_array":  # `"items": "x"`: the shell's check names it
                            head[value] = _build(itertools.chain([opening], events))
                elif prefix == "" and event == "end_map":
                    break
            for _ in events:  # ijson refuses anything after the top-level object
                pass
        except ijson.JSONError as exc:
            raise _not_json(exc) from None
        except DAMAGED as exc:
            raise StreamFormatError(damaged(exc)) from None
    return head, seen


def _build(events: Iterator[tuple[str, str, Any]]) -> Any:
    import ijson

    builder = ijson.ObjectBuilder()
    depth = 0
    for _, event, value in events:
        builder.event(event, value)
        if event in ("start_map", "start_array"):
            depth += 1
        elif event in ("end_map", "end_array"):
            depth -= 1
        if depth == 0:
            break
    return builder.value


def records(path: Path, key: str, progress: Callable[[float], None] | None = None) -> Iterator[tuple[int, Any]]:
    """(index, parsed JSON value) of each element of the top-level array `key`."""
    import ijson

    size = max(1, os.path.getsize(path))
    with _open(path) as (fh, raw):
        try:
            for index, value in enumerate(ijson.items(fh, f"{key}.item", use_float=True, buf_size=_CHUNK)):
                if progress is not None:
                    progress(min(1.0, raw.tell() / size))
                yield index, value
        except ijson.JSONError as exc:
            raise _not_json(exc) from None
        except DAMAGED as exc:
            raise StreamFormatError(damaged(exc)) from None


def validated(model: type[BaseModel], key: str, index: int, value: Any, now: datetime) -> Any:
    """`value` (parsed JSON) as a `model`, or ValidationError. Strict JSON rules: the value is
    validated as JSON text, as the whole file once was (a time is a string, "3" no number)."""
    return model.model_validate_json(json.dumps(value, ensure_ascii=False, allow_nan=True), context={"now": now})


def _located(exc: ValidationError, key: str, index: int) -> list[str]:
    return schema.located_errors(exc, limit=10_000, prefix=(key, index))


def check_file(path: Path, now: datetime | None = None) -> Checked:
    """Validate a whole export file, record by record, without holding it in memory.
    StreamFormatError with located errors when anything is wrong (nothing is written)."""
    stamp = file_stamp(path)
    head, seen = _head(path)
    if head.get("format") != schema.FORMAT:
        raise StreamFormatError("not a quizapp export (expected a JSON file written by `quizapp export --format json`)")
    if head.get("version") != schema.VERSION:
        raise StreamFormatError(
            f"unsupported export version {head.get('version')!r} (this quizapp reads version {schema.VERSION})")
    # As transfer.parse_export: "the future" is measured against the later of this clock
    # and the file's own exported_at (an export written while the clock ran ahead).
    here = (now or datetime.now(UTC)).astimezone(UTC)
    exported = exported_at(head)
    context_now = max(here, exported or datetime.min.replace(tzinfo=UTC))
    errors: list[str] = []
    total = [0]

    def report(lines: list[str]) -> None:
        total[0] += len(lines)
        errors.extend(lines[: max(0, _LIMIT - len(errors))])

    # The head alone, as the whole-file model sees it (unknown keys are refused by name).
    shell = {k: v for k, v in head.items()} | {k: [] for k in ARRAYS if k in seen and k not in head}
    for key in seen - head.keys() - ARRAYS.keys():
        shell[key] = None
    try:
        checked_head = schema.Export.model_validate_json(json.dumps(shell, ensure_ascii=False), context={"now": context_now})
    except ValidationError as exc:
        report(schema.located_errors(exc, limit=10_000))
        checked_head = None
    refs = Refs()
    try:
        counts = {key: 0 for key in ARRAYS}
        unique = {"review": True, "item": True, "mock": True, "attempt": True}
        positions_error: str | None = None
        for key, model in ARRAYS.items():
            if key not in seen:
                continue
            for index, value in records(path, key):
                counts[key] += 1
                try:
                    record = validated(model, key, index, value, context_now)
                except ValidationError as exc:
                    report(_located(exc, key, index))
                    continue
                if key == "items":
                    unique["review"] &= refs.add(Refs.REVIEW, [r.ref for r in record.reviews])
                    unique["item"] &= refs.add_item(record.id)
                elif key == "drill_attempts":
                    unique["attempt"] &= refs.add(Refs.ATTEMPT, [record.ref])
                    if record.review_ref is not None:
                        refs.use(f"drill_attempts[{index}].review_ref: no review with ref {record.review_ref}",
                                 Refs.REVIEW, record.review_ref)
                    if record.mock_ref is not None:
                        refs.use(f"drill_attempts[{index}].mock_ref: no mock interview with ref {record.mock_ref}",
                                 Refs.MOCK, record.mock_ref)
                else:
                    unique["mock"] &= refs.add(Refs.MOCK, [record.ref])
                    positions = [a.position for a in record.answers]
                    if len(set(positions)) != len(positions) and positions_error is None:
                        positions_error = f"mock_interviews[{index}].answers: positions must be unique"
                    for a_index, answer in enumerate(record.answers):
                        data = answer.answer or {}
                        for name, kind in (("attempt_id", Refs.ATTEMPT), ("review_id", Refs.REVIEW)):
                            ref = data.get(name)
                            if ref is not None:
                                refs.use(f"mock_interviews[{index}].answers[{a_index}].answer.{name}: "
                                         f"unknown ref {ref!r}", kind, ref)
        if errors:
            if total[0] > len(errors):
                errors.append(f"… and {total[0] - len(errors)} more")
            raise StreamFormatError(errors)
        # The whole-file model's cross-record rules, in its order, with its messages.
        if not unique["review"]:
            raise StreamFormatError("items[].reviews[].ref: refs must be unique")
        if not unique["item"]:
            raise StreamFormatError("items[].id: item ids must be unique")
        if not (unique["mock"] and unique["attempt"]):
            raise StreamFormatError("ref numbers must be unique")
        unresolved = refs.first_unresolved()
        if unresolved is not None and unresolved[0].startswith("drill_attempts"):
            raise StreamFormatError(unresolved[0])
        if positions_error is not None:
            raise StreamFormatError(positions_error)
        if unresolved is not None:
            raise StreamFormatError(unresolved[0])
    finally:
        refs.close()
    assert checked_head is not None
    return Checked(path, checked_head.exported_at, dict(checked_head.settings), context_now, counts, stamp)


def exported_at(head: dict[str, Any]) -> datetime | None:
    """The file's `exported_at` as aware UTC; None when absent or unreadable (the schema says why)."""
    try:
        value = datetime.fromisoformat(str(head.get("exported_at")))
        return value.astimezone(UTC) if value.tzinfo is not None else None
    except (ValueError, OverflowError):
        return None  # reported by the schema
