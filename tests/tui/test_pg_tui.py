"""The TUI on a PostgreSQL database (`--db postgresql://…`): Home's counts, a study session
whose answers are stored, Browse's search, Stats — and a connection the server drops in
mid-session: the answer is saved on a new connection, or, when none can be made, refused
with a notice and kept on screen (never lost silently, never doubled)."""

from __future__ import annotations

import time

import pytest
from textual.widgets import Static

from quizapp.srs.bootstrap import prepare
from quizapp.srs.service import StudyService
from quizapp.tui.app import make_app
from quizapp.tui.widgets.tiles import Tiles
from tests.tui.conftest import SIZE, press, settle
from tests.tui.test_flows import browse_for


@pytest.fixture
def pg_db(pg_servers, clock) -> tuple[object, str]:
    server = pg_servers.get()
    url = server.new_database()
    prepared = prepare(url, clock=clock)
    try:
        service = StudyService(prepared.db, clock)
        service.save_settings(service.settings().model_copy(update={"fuzz": False}))
    finally:
        prepared.db.close()
    return server, url


def _reviews(url: str, clock) -> list[tuple[int, int]]:
    prepared = prepare(url, clock=clock)
    try:
        with prepared.db.transaction() as tx:
            return [tuple(row) for row in tx.execute("SELECT card_id, rating FROM reviews ORDER BY id")]
    finally:
        prepared.db.close()


def _drop_connections(server, url: str, refuse: bool = False) -> None:
    name = server.name_of(url)
    if refuse:
        server.admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
    # The timeout makes each termination complete before this returns, as a restart's would.
    server.admin(f"SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = '{name}' "
                 "AND pid <> pg_backend_pid()")


async def test_home_study_browse_and_stats_on_postgresql(pg_db, clock):
    _server, url = pg_db
    app = make_app(db_path=url, clock=clock, lang="en")
    started = time.monotonic()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.id == "home"
        assert app.screen.query_one(Tiles).value("reviews_today") == "0"
        assert time.monotonic() - started < 10  # (the 1 s is measured in benchmarks/scale.py)
        await press(pilot, "s")
        for key in "34":
            await press(pilot, "space")
            await press(pilot, key)
        assert [a.rating for a in app.screen.history] == [3, 4]
        await press(pilot, "escape")
        assert app.screen.query_one(Tiles).value("reviews_today") != "0"
        await press(pilot, "b")
        assert sorted(await browse_for(pilot, "softmax")) == ["t-mcq-02", "t-q24", "t-s10"]
        assert await browse_for(pilot, "数值稳定") == ["t-s10"]  # Chinese substrings, as FTS5's trigrams
        assert await browse_for(pilot, "Q24") == ["t-q24"]
        await press(pilot, "escape", "t")
        assert type(app.screen).__name__ == "StatsScreen"
    assert [rating for _, rating in _reviews(url, clock)] == [3, 4]


async def test_a_dropped_connection_is_retried_once_and_the_answer_saved_once(pg_db, clock):
    """The server ends every connection between the answer's reveal and its rating (and
    each termination completes first, as a restart's would): the write is tried once more on
    a new connection and saved once — never lost, never doubled."""
    server, url = pg_db
    app = make_app(db_path=url, clock=clock, lang="en", start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "space")
        _drop_connections(server, url)  # the server ends every connection (a restart, say)
        await press(pilot, "3")
        errors = [(w.name, repr(w.error)) for w in app.workers if w.error is not None]
        assert [a.rating for a in app.screen.history] == [3], ([n.message for n in app._notifications], errors)
    assert [rating for _, rating in _reviews(url, clock)] == [3]


async def test_an_answer_that_cannot_reach_the_server_is_refused_and_kept(pg_db, clock):
    server, url = pg_db
    app = make_app(db_path=url, clock=clock, lang="en", start="study")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await press(pilot, "space")
            shown = app.screen.current.card.item_id
            _drop_connections(server, url, refuse=True)
            await press(pilot, "3")
            notices = [n.message for n in app._notifications]
            assert any("Not saved" in message for message in notices), notices
            assert app.screen.current.card.item_id == shown and app.screen.history == []
            assert app.screen.phase == "answer"  # the answer is still on screen, to be given again
            server.admin(f"ALTER DATABASE {server.name_of(url)} ALLOW_CONNECTIONS true")
            await press(pilot, "3")
            assert [a.rating for a in app.screen.history] == [3]
            assert app.screen.query_one("#session-count", Static).render().plain.startswith("1 /")
    finally:
        server.admin(f"ALTER DATABASE {server.name_of(url)} ALLOW_CONNECTIONS true")
    assert [rating for _, rating in _reviews(url, clock)] == [3]
