"""The pre-flight check before the first frame: one cheap query, nothing heavy imported."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from quizapp.store.database import head_revision, open_database
from quizapp.store.errors import NotAQuizappDatabase, SchemaTooNew
from quizapp.store.preflight import known_revisions, stored_revision

# SQLite only: the pre-flight reads the file's one row before the first frame (Home's
# fast start, which the issue lets stay SQLite-only).


def test_revisions_read_from_the_files_match_alembic():
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from quizapp.resources import migrations_dir

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    script = ScriptDirectory.from_config(cfg)
    assert head_revision() == script.get_current_head()
    assert known_revisions() == {rev.revision for rev in script.walk_revisions()}


def test_an_ordinary_open_imports_no_alembic(tmp_path):
    """At head, opening reads the revision with plain sqlite3: Alembic only for an upgrade."""
    db = tmp_path / "q.db"
    open_database(db).close()
    code = (
        "import sys\n"
        "from quizapp.store.database import open_database\n"
        f"open_database({str(db)!r}).close()\n"
        "print('alembic' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def _damage_page_of(db, name: str) -> None:
    conn = sqlite3.connect(db)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0]
    conn.close()
    with open(db, "r+b") as fh:
        fh.seek(page_size * (root - 1))
        fh.write(b"\xde\xad" * (page_size // 2))


def test_damage_is_found_when_read_and_before_a_backup_or_upgrade_not_on_every_open(tmp_path):
    from quizapp.store.database import check_database
    from quizapp.store.errors import DatabaseDamaged

    db = tmp_path / "q.db"
    open_database(db).close()
    _damage_page_of(db, "ix_items_source_no")  # an index no open reads
    # The open does not scan the file (it used to, for files up to 16 MiB, on every start).
    open_database(db).close()
    assert stored_revision(db) == head_revision()
    # The check before a backup or an upgrade (and `db check`) does, and refuses.
    with pytest.raises(DatabaseDamaged, match=r"damaged .*quizapp db check"):
        check_database(db)
    _damage_page_of(db, "cards")
    database = open_database(db)
    try:
        with pytest.raises(DatabaseDamaged, match=r"is damaged .*malformed.*quizapp db check"), database.session() as s:
            s.execute(text("SELECT * FROM cards")).all()
    finally:
        database.close()


def test_new_garbage_foreign_newer_and_head_files(tmp_path):
    assert stored_revision(tmp_path / "missing.db") is None
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 10)
    with pytest.raises(NotAQuizappDatabase):
        stored_revision(garbage)
    foreign = tmp_path / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.close()
    with pytest.raises(NotAQuizappDatabase):
        stored_revision(foreign)
    ours = tmp_path / "ours.db"
    open_database(ours).close()
    assert stored_revision(ours) == head_revision()
    conn = sqlite3.connect(ours)
    conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.commit()
    conn.close()
    with pytest.raises(SchemaTooNew):
        stored_revision(ours)


@pytest.mark.parametrize("how", ["--db", "QUIZAPP_DB", "default"])
def test_first_frame_imports_nothing_heavy(tmp_path, how):
    """What runs before Home's first frame, through the real entry point (`quizapp` with
    `--db`, with $QUIZAPP_DB, or on the default path): the CLI parser, finding the
    database, the pre-flight check, the app module. The app's run() is replaced by a probe
    of what is loaded at that moment. (Finding the path once imported SQLAlchemy.)"""
    env = {k: v for k, v in os.environ.items() if k != "QUIZAPP_DB"}
    env["QUIZAPP_DATA_DIR"] = str(tmp_path / "data")
    db = tmp_path / "data" / "quizapp.db" if how == "default" else tmp_path / "q.db"
    db.parent.mkdir(exist_ok=True)
    open_database(db).close()
    argv = ["--db", str(db)] if how == "--db" else []
    if how == "QUIZAPP_DB":
        env["QUIZAPP_DB"] = str(db)
    code = (
        "import sys\n"
        "import quizapp.tui.app\n"
        "heavy = {'sqlalchemy', 'alembic', 'numpy', 'fsrs', 'pydantic', 'yaml'}\n"
        "def probe(self, *args, **kwargs):\n"
        "    print(sorted(heavy & {name.split('.')[0] for name in sys.modules}))\n"
        "quizapp.tui.app.QuizApp.run = probe\n"
        "from quizapp.cli.main import main\n"
        f"sys.exit(main({argv!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def _synced_database(tmp_path, monkeypatch):
    """A database as on any day after the first: created, and the content synced."""
    from quizapp.srs.bootstrap import prepare

    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(tmp_path / "data"))
    db = tmp_path / "q.db"
    prepare(db).db.close()
    return db


def test_nothing_heavy_is_imported_until_home_is_on_screen(tmp_path, monkeypatch):
    """The real app, headless: at Textual's Ready (the first frame is drawn) the modules
    loaded are only Textual's and the Home screen's; the database opens after it. On an
    ordinary start Home's counts come without SQLAlchemy, pydantic or YAML either
    (quizapp.srs.home_figures); the study service loads when a mode is opened."""
    db = _synced_database(tmp_path, monkeypatch)
    code = (
        "import asyncio, sys\n"
        "from pathlib import Path\n"
        "from quizapp.cli.app_cmd import preflight\n"
        f"assert preflight(Path({str(db)!r}), []) is None\n"
        "from quizapp.tui.app import QuizApp, make_app\n"
        "heavy = {'sqlalchemy', 'alembic', 'numpy', 'fsrs', 'pydantic', 'yaml'}\n"
        "def loaded(): return sorted(heavy & {name.split('.')[0] for name in sys.modules})\n"
        "seen = []\n"
        "ready = QuizApp.on_ready\n"
        "def on_ready(self):\n"
        "    seen.append(loaded())\n"
        "    ready(self)\n"
        "QuizApp.on_ready = on_ready\n"
        f"app = make_app(db_path={str(db)!r}, lang='en')\n"
        "async def main():\n"
        "    async with app.run_test() as pilot:\n"
        "        await app.workers.wait_for_complete()\n"
        "        await pilot.pause()\n"
        "        home = app.screen\n"
        "        qa = home.query_one('#home-tiles').value('new_left')\n"
        "        heading = str(home.query_one('#home-heading').render())\n"
        "        print('home', qa, heading.split()[0], app.backend is None, loaded())\n"
        "        await pilot.press('s')\n"
        "        await app.workers.wait_for_complete()\n"
        "        await pilot.pause()\n"
        "        print('study', type(app.screen).__name__, app.backend is not None)\n"
        "asyncio.run(main())\n"
        "print(seen)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    home, study, first_frame = out.stdout.strip().splitlines()[-3:]
    assert first_frame == "[[]]"
    # Home complete (a count, the readiness heading), no service, nothing heavy but fsrs's
    # pure-Python scheduler (the recall curve's decay).
    assert home == "home 60 Today True ['fsrs']", home  # new cards left today: 20 Q&A + 20 MCQ + 20 skills, read before the service loads
    assert study == "study StudyScreen True"


def test_the_first_start_and_a_changed_deck_open_the_database_the_full_way(tmp_path, monkeypatch):
    """No quick figures for a database that is new, or whose content changed: the full open
    (create or upgrade, sync) runs at once, and Home shows what it found."""
    from quizapp.srs.clock import Clock
    from quizapp.srs.home_figures import home_figures

    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(tmp_path / "data"))
    assert home_figures(tmp_path / "new.db", [], Clock()) is None  # not created yet
    deck = tmp_path / "deck"
    deck.mkdir()
    fixture = Path(__file__).parents[1] / "tui" / "fixtures" / "content" / "deck.yaml"
    text = fixture.read_text(encoding="utf-8").replace("id: t-", "id: mine-")  # ids of its own
    (deck / "mine.yaml").write_text(text, encoding="utf-8")
    db = tmp_path / "q.db"
    from quizapp.srs.bootstrap import prepare

    prepared = prepare(db, [deck])
    assert not prepared.content_errors, prepared.content_errors
    prepared.db.close()
    assert home_figures(db, [deck], Clock()) is not None
    assert home_figures(db, [], Clock()) is None  # a deck folder less than at the last sync
    (deck / "mine.yaml").write_text((deck / "mine.yaml").read_text() + "  # edited\n", encoding="utf-8")
    assert home_figures(db, [deck], Clock()) is None


def test_the_revision_check_waits_for_a_writer_as_long_as_every_connection(tmp_path, monkeypatch):
    """The read-only look at the revision waits the busy timeout (QUIZAPP_BUSY_TIMEOUT_MS),
    not a figure of its own: a locked file was reported after 5 s whatever was asked for."""
    import quizapp.store.preflight as preflight

    path = tmp_path / "q.db"
    open_database(path).close()
    waits: list[float] = []
    real = preflight.connect_uri

    def recording(uri: str, timeout: float) -> sqlite3.Connection:
        waits.append(timeout)
        return real(uri, timeout)

    monkeypatch.setattr(preflight, "connect_uri", recording)
    monkeypatch.setenv("QUIZAPP_BUSY_TIMEOUT_MS", "250")
    assert stored_revision(path) == head_revision()
    monkeypatch.delenv("QUIZAPP_BUSY_TIMEOUT_MS")
    assert stored_revision(path) == head_revision()
    assert waits == [0.25, preflight.BUSY_TIMEOUT_MS / 1000]
