"""Load and validate content YAML files, reporting every problem with its location.

Items are validated one by one so that a single broken item neither hides the others'
errors nor stops the rest of the bank from loading.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from quizapp.content.files import content_files, printable_path, unusable_files
from quizapp.content.models import Item, MCQItem, QAItem
from quizapp.content.safe_yaml import UnsafeYaml, safe_load

__all__ = ["ContentError", "ContentSet", "content_files", "load_builtin", "load_dirs", "load_file"]

MAX_FILE_BYTES = 2_000_000
MAX_ITEMS = 2_000  # per kind and file


@dataclass(frozen=True)
class ContentError:
    file: str
    item: str | None
    field: str | None
    message: str

    def as_dict(self) -> dict[str, str | None]:
        return {"file": self.file, "item": self.item, "field": self.field, "message": self.message}

    def __str__(self) -> str:
        where = self.file
        if self.item:
            where += f" [{self.item}]"
        if self.field:
            where += f" {self.field}"
        return f"{where}: {self.message}"


@dataclass
class ContentSet:
    qa: list[QAItem] = field(default_factory=list)
    mcq: list[MCQItem] = field(default_factory=list)
    errors: list[ContentError] = field(default_factory=list)
    origin: dict[str, str] = field(default_factory=dict)  # item id -> file
    skipped_files: list[str] = field(default_factory=list)  # files not used at all

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def items(self) -> list[Item]:
        return [*self.qa, *self.mcq]

    def by_id(self) -> dict[str, Item]:
        return {item.id: item for item in self.items}


_KINDS: dict[str, type[QAItem] | type[MCQItem]] = {"qa": QAItem, "mcq": MCQItem}


def _field_path(loc: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in loc) or None  # type: ignore[return-value]


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while one file is parsed and validated.

    A 400-item deck file makes ~50,000 YAML nodes and marks, then dicts and models; none
    of it is cyclic (reference counting frees it), but the collector, run every 700 new
    objects, walked it again and again: a quarter to a half of the parse. A file is at most
    MAX_FILE_BYTES, so what waits for the collector meanwhile is bounded.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_file(
    path: Path,
    into: ContentSet | None = None,
    taken: Mapping[str, str] | None = None,
    data: bytes | None = None,
) -> ContentSet:
    """Load one file (into `into`, which may hold earlier files).

    `taken`: ids already held by earlier files (id -> file) that are not in `into`: such an
    item is a duplicate, reported as it would be were those files loaded into `into` first.
    `data`: the file's bytes, already read (an import validates exactly the bytes it then
    installs; the file is not read again).
    """
    result = into if into is not None else ContentSet()
    with _collector_paused():
        return _load_into(path, result, taken or {}, data)


def read_deck_bytes(path: Path) -> bytes:
    """At most MAX_FILE_BYTES + 1 bytes of `path` (more means too large)."""
    with open(path, "rb") as fh:
        return fh.read(MAX_FILE_BYTES + 1)


def _load_into(path: Path, result: ContentSet, taken: Mapping[str, str], raw: bytes | None = None) -> ContentSet:
    name = printable_path(path)
    try:
        if raw is None:
            raw = read_deck_bytes(path)
        if len(raw) > MAX_FILE_BYTES:
            result.errors.append(ContentError(name, None, None, f"file is larger than {MAX_FILE_BYTES} bytes"))
            result.skipped_files.append(name)
            return result
        text = raw.decode("utf-8")
        data = safe_load(text)
    except UnsafeYaml as exc:
        # Nothing of the file is used: it is skipped whole, with every located reason.
        for unsafe in exc.problems:
            result.errors.append(ContentError(name, None, unsafe.where, unsafe.message))
        result.skipped_files.append(name)
        return result
    except UnicodeDecodeError:
        result.errors.append(ContentError(name, None, None, "not UTF-8 text"))
        result.skipped_files.append(name)
        return result
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        result.errors.append(ContentError(name, None, None, f"YAML syntax error: {where}{problem}"))
        result.skipped_files.append(name)
        return result
    except OSError as exc:
        result.errors.append(ContentError(name, None, None, f"cannot read: {exc.strerror or exc}"))
        result.skipped_files.append(name)
        return result

    if data is None:
        return result
    if not isinstance(data, dict):
        result.errors.append(ContentError(name, None, None, "top level must be a mapping with 'qa:' and/or 'mcq:' lists"))
        result.skipped_files.append(name)
        return result
    unknown = sorted(set(map(str, data)) - set(_KINDS))
    for key in unknown:
        result.errors.append(ContentError(name, None, key, "unknown top-level key (expected 'qa' or 'mcq')"))

    for kind, model in _KINDS.items():
        entries = data.get(kind) or []
        if not isinstance(entries, list):
            result.errors.append(ContentError(name, None, kind, "must be a list of items"))
            continue
        if len(entries) > MAX_ITEMS:
            result.errors.append(ContentError(name, None, kind, f"more than {MAX_ITEMS} items in one file"))
            continue
        for index, raw in enumerate(entries):
            label = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else f"{kind}[{index}]"
            if not isinstance(raw, dict):
                result.errors.append(ContentError(name, label, None, "item must be a mapping"))
                continue
            try:
                item = model.model_validate(raw)
            except ValidationError as exc:
                for err in exc.errors():
                    result.errors.append(ContentError(name, label, _field_path(err["loc"]), err["msg"]))
                continue
            first = result.origin.get(item.id) or taken.get(item.id)
            if first is not None:
                result.errors.append(ContentError(name, item.id, "id", f"duplicate id (also in {first})"))
                continue
            result.origin[item.id] = name
            (result.qa if kind == "qa" else result.mcq).append(item)  # type: ignore[arg-type]
    return result


def load_dirs(directories: Iterable[Path]) -> ContentSet:
    result = ContentSet()
    for directory in directories:
        if not directory.is_dir():
            result.errors.append(ContentError(str(directory), None, None, "content folder does not exist"))
            continue
        for path in content_files(directory):
            load_file(path, into=result)
        result.errors.extend(name_errors(directory))
    return result


BAD_NAME = "the file name is not UTF-8 text or holds control characters; rename it to load it"


def name_errors(directory: Path) -> list[ContentError]:
    """An error per deck file left out for its name (see `quizapp.content.files`)."""
    return [ContentError(name, None, None, BAD_NAME) for name in unusable_files(directory)]


def load_builtin() -> ContentSet:
    from quizapp.resources import content_dir

    return load_dirs([content_dir()])
