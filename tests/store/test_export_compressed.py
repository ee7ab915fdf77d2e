"""Compressed JSON exports (`.json.gz`, `.json.xz`): written by the file name or `--format`,
read back by import as they are; a damaged or cut-short one is refused in one line and
changes nothing."""

from __future__ import annotations

import gzip
import json
import lzma

import pytest
from sqlalchemy import func, select

from quizapp.srs.bootstrap import prepare
from quizapp.store.models import Card, Review
from quizapp.store.transfer import (
    ImportFormatError,
    check_export_file,
    compression_of,
    import_file,
    parse_export,
    write_json,
)
from tests.cli_process import run_quizapp
from tests.store.test_transfer import _answered  # one answered collection, as the JSON tests use

OPENERS = {"gz": gzip.open, "xz": lzma.open}

pytestmark = pytest.mark.both_backends


def test_compression_follows_the_name():
    assert compression_of("backup.json.gz") == "gz"
    assert compression_of("backup.JSON.XZ") == "xz"
    assert compression_of("backup.json") is None
    assert compression_of("-") is None


@pytest.mark.parametrize("codec", ["gz", "xz"])
def test_round_trip_of_a_compressed_export(tmp_path, codec, more_dbs):
    source, item_id = _answered(more_dbs("a.db"))
    plain, packed = tmp_path / "e.json", tmp_path / f"e.json.{codec}"
    with source.session() as s:
        write_json(s, plain)
        write_json(s, packed)
    # the same JSON inside, and smaller on disk
    with OPENERS[codec](packed, "rt", encoding="utf-8") as fh:
        inside = json.load(fh)
    assert inside["items"] == json.loads(plain.read_text(encoding="utf-8"))["items"]
    assert packed.stat().st_size < plain.stat().st_size / 3
    assert parse_export(packed.read_bytes()).items  # the whole-file reader takes it too
    target = prepare(more_dbs("b.db")).db
    for _ in range(2):  # importing twice adds nothing the second time
        checked = check_export_file(packed)
        with target.session() as s, s.begin():
            import_file(s, checked)
    with target.session() as s:
        assert s.scalar(select(Card).where(Card.item_id == item_id)).reps == 1
        assert s.scalar(select(func.count(Review.id))) == 1


def _cli(*args):
    return run_quizapp(args, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("codec", ["gz", "xz"])
def test_a_cut_short_or_damaged_file_is_one_line_and_imports_nothing(tmp_path, codec, more_dbs):
    source, _ = _answered(more_dbs("a.db"))
    packed = tmp_path / f"e.json.{codec}"
    with source.session() as s:
        write_json(s, packed)
    whole = packed.read_bytes()
    cut = tmp_path / f"cut.json.{codec}"
    cut.write_bytes(whole[: len(whole) // 2])
    damaged = tmp_path / f"bad.json.{codec}"
    damaged.write_bytes(whole[:40] + bytes(b ^ 0x5A for b in whole[40:80]) + whole[80:])
    source.close()
    target = more_dbs("b.db")
    prepare(target).db.close()
    for bad in (cut, damaged):
        with pytest.raises(ImportFormatError) as raised:
            check_export_file(bad)
        assert len(raised.value.errors) == 1 and "damaged or cut short" in raised.value.errors[0]
        result = _cli("--db", str(target), "import", str(bad))
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "damaged or cut short" in result.stderr
    check = prepare(target).db
    with check.session() as s:
        assert s.scalar(select(func.count(Review.id))) == 0
    check.close()


def test_cli_writes_the_compressed_form_by_name_or_format(tmp_path, more_dbs):
    db = more_dbs("a.db")
    source, _ = _answered(db)
    source.close()
    db = str(db)
    by_name, by_format = tmp_path / "by-name.json.gz", tmp_path / "by-format.bin"
    assert _cli("--db", db, "export", "--format", "json", "-o", str(by_name)).returncode == 0
    assert _cli("--db", db, "export", "--format", "json.xz", "-o", str(by_format)).returncode == 0
    assert by_name.read_bytes()[:2] == b"\x1f\x8b"
    assert by_format.read_bytes()[:6] == b"\xfd7zXZ\x00"
    result = _cli("--db", str(more_dbs("c.db")), "import", str(by_format))
    assert result.returncode == 0, result.stderr
