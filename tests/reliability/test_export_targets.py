"""`export -o TARGET` writes to what TARGET is: a regular file atomically (keeping its mode and
owner), through a symlink to its target, into every hard link, and through to standard
output (`-`), a FIFO or a device. Device nodes are made in a temporary folder (never the
machine's own /dev/null or /dev/stdout)."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from tests.reliability.conftest import quizapp

# SQLite only: about the export's target file (FIFO, device, links, owner), not the database.


@pytest.fixture
def synced(isolated_user_dirs):
    assert quizapp("db", "upgrade").returncode == 0
    return isolated_user_dirs


def _export(target: Path | str, fmt: str = "json"):
    return quizapp("export", "--format", fmt, "-o", str(target))


def test_dash_writes_the_export_to_standard_output(synced, tmp_path):
    result = quizapp("export", "--format", "json", "-o", "-", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["format"]  # the export itself, parseable
    assert "items (json)" in result.stderr
    assert not (tmp_path / "-").exists()


def test_a_fifo_is_written_through_and_not_replaced(synced, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    result = _export(fifo)
    reader.join(timeout=120)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert json.loads(received[0])["format"]


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
def test_a_device_node_is_written_through(synced, tmp_path):
    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    result = _export(null)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(os.stat(null).st_mode)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
def test_a_full_device_gives_one_line_and_stays_a_device(synced, tmp_path):
    full = tmp_path / "full"
    os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    result = _export(full)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert stat.S_ISCHR(os.stat(full).st_mode)


def test_a_symlink_is_followed_and_stays_a_link(synced, tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert _export(link).returncode == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text(encoding="utf-8"))["format"]


def test_a_dangling_symlink_creates_its_target(synced, tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "new.json")
    assert _export(link).returncode == 0
    assert link.is_symlink() and json.loads((tmp_path / "new.json").read_text(encoding="utf-8"))["format"]


def test_every_hard_link_sees_the_new_export(synced, tmp_path):
    first = tmp_path / "a.json"
    first.write_text("old", encoding="utf-8")
    second = tmp_path / "b.json"
    os.link(first, second)
    assert _export(first).returncode == 0
    assert os.stat(first).st_ino == os.stat(second).st_ino
    assert json.loads(second.read_text(encoding="utf-8"))["format"]


@pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")
@pytest.mark.parametrize("fmt", ["json", "apkg"])
def test_a_replaced_file_keeps_its_owner_and_mode(synced, tmp_path, fmt):
    target = tmp_path / f"out.{fmt}"
    target.write_text("old", encoding="utf-8")
    os.chown(target, 65534, 65534)
    os.chmod(target, 0o640)
    assert _export(target, fmt).returncode == 0
    st = os.stat(target)
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (65534, 65534, 0o640)
    assert target.read_bytes() != b"old"
