"""An export for the user: in a terminal a file in the downloads folder; in a browser a
download handed to Textual (the browser path itself: tests/web/test_browser.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizapp.srs.collection import Collection
from quizapp.tui import deliver
from quizapp.tui.backend import Backend
from quizapp.tui.deliver import deliver_export
from tests.tui.conftest import open_service


class FakeApp:
    def __init__(self, is_web: bool) -> None:
        self.is_web = is_web
        self.delivered: list[tuple[bytes, str]] = []

    def call_from_thread(self, fn, *args, **kwargs):
        return fn(*args, **kwargs)

    def deliver_binary(self, binary, save_filename: str) -> None:
        with binary:
            self.delivered.append((binary.read(), save_filename))


@pytest.fixture
def backend(db, clock):
    service = open_service(db, clock)
    yield Backend(collection=Collection(service.db, study=service), db_path=db)
    service.db.close()


def test_in_a_terminal_the_export_is_written_to_the_downloads_folder(backend, tmp_path, monkeypatch):
    monkeypatch.setattr(deliver, "downloads_folder", lambda: tmp_path / "Downloads")
    where, count = deliver_export(FakeApp(is_web=False), backend, "json")  # type: ignore[arg-type]
    path = Path(where)
    assert path.parent == tmp_path / "Downloads" and count > 0
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "quizapp-export"


@pytest.mark.parametrize("fmt", ["json", "apkg"])
def test_in_a_browser_the_export_is_handed_over_and_nothing_stays_on_disk(backend, tmp_path, monkeypatch, fmt):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(deliver.tempfile, "tempdir", str(scratch))
    app = FakeApp(is_web=True)
    name, count = deliver_export(app, backend, fmt)  # type: ignore[arg-type]
    assert count > 0 and [n for _, n in app.delivered] == [name] and name.endswith(f".{fmt}")
    data = app.delivered[0][0]
    assert data.startswith(b"{") if fmt == "json" else data.startswith(b"PK")
    assert [p.name for p in scratch.iterdir() if p.name.startswith('.quizapp-')] == []
