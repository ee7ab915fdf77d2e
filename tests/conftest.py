"""Every test runs with its own user data folder and database, never the user's."""

from __future__ import annotations

import gc
import os

import pytest
import textual._wait

from tests import backends, headless_frames

# Pilot's `press` and `pause` wait until the app is idle by sleeping in 20 ms steps until a
# step used almost no CPU (textual/_wait.py): at least 40 ms a key, which made the TUI tests
# spend most of their time asleep. 4 ms steps with the same 5% idle threshold test the same
# condition, sooner. (Textual is pinned exactly; the assert names the constant if it moves.)
assert textual._wait.SLEEP_GRANULARITY == 1 / 50, "Textual's idle wait changed: re-check tests/conftest.py"
textual._wait.SLEEP_GRANULARITY = 1 / 250
textual._wait.SLEEP_IDLE = textual._wait.SLEEP_GRANULARITY / 20


@pytest.hookimpl(wrapper=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto`: one worker more than the cores xdist counts. About a fifth of a worker's
    time is spent waiting on what it started (a `quizapp` process, a PostgreSQL server, a
    browser), and the extra worker keeps the cores busy meanwhile: on this 2-core machine,
    idle, the suite took 6 m 14 s with 2 workers, 5 m 47 s with 3 and 5 m 52 s with 4.
    A count given in PYTEST_XDIST_AUTO_NUM_WORKERS is taken as it is."""
    count = yield
    return count if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") else count + 1


def pytest_configure(config):
    backends.register_markers(config)
    headless_frames.register_marker(config)


@pytest.fixture(autouse=True)
def skip_discarded_frames(request, monkeypatch):
    """A headless app renders no frame its driver would throw away, and its last one whole
    (tests/headless_frames.py; a test marked `draws_frames` keeps Textual's refresh)."""
    headless_frames.skip_discarded_frames(request, monkeypatch)


# The modules that judge the bank's every key point (the held-out corpora, keyword
# specificity, the prefilter's soundness, every item's own answer) run on one worker
# (xdist_group, with `--dist loadgroup` in pyproject.toml). Each keyword's inflection pattern
# is compiled on first use, ~0.6 ms apiece and ~15 CPU-s for the bank's ~27,000: spread over
# three workers, each compiled most of them. The held-out, specificity, could-state and
# judgement-corpus modules cost 98 CPU-s spread over the workers and 84 in one process
# (collection included; 8 Dec 2026). The group is the largest unit, so xdist hands it out
# first and the rest balances around it. (xdist appends `@judge` to their node ids in its
# reports: select them by the id without it.)
JUDGE_GROUP = frozenset({
    "tests/srs/test_heldout_corpus.py",
    "tests/srs/test_could_state.py",
    "tests/srs/test_key_point_coverage.py",
    "tests/content/test_key_point_specificity.py",
    "tests/content/test_judgement_corpus.py",
    "tests/content/test_english_key_points.py",
    "tests/content/test_english_key_points_ab.py",
})


@pytest.hookimpl(tryfirst=True)  # before xdist's, which reads the mark into the node id
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid.split("::", 1)[0] in JUDGE_GROUP:
            item.add_marker(pytest.mark.xdist_group("judge"))


# Garbage collection: one pass per test over what that test made, instead of ~2 full passes
# a test over the whole heap. A TUI test's app is a web of cycles (parent ↔ child, widget ↔
# styles) that lives for the whole test, so by its end it sits in the oldest generation and
# only a full collection frees it; CPython starts one whenever the oldest generation has
# grown by a quarter, and each walks every object of the worker: the imported modules, the
# shared caches and whatever earlier tests left. Here each test's objects are collected at
# the end of its teardown (its fixtures gone), and what survives (modules imported on the
# way, caches) is frozen (gc.freeze: never walked again, and never freed if it later becomes
# cyclic garbage: a module-scoped fixture's objects, a few per module). Measured on three
# tests/tui files (-n 0, 130 tests, with quizapp/tui/textual_leaks.py): 99 → 74 CPU-s;
# 123 full collections had taken 26 of the 99.
def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    result = yield
    gc.collect()
    gc.freeze()
    return result


def pytest_generate_tests(metafunc):
    backends.parametrize_backends(metafunc)


@pytest.fixture(scope="session")
def pg_servers():
    """The PostgreSQL server of this test process (started on first use, stopped at the end)."""
    holder = backends.ServerHolder()
    yield holder
    holder.stop()


@pytest.fixture
def backend(request) -> str:
    """"sqlite", or in a `both_backends` test each of "sqlite" and "postgresql"."""
    return getattr(request, "param", "sqlite")


@pytest.fixture(scope="module", params=backends.BACKENDS)
def module_backend(request) -> str:
    """The backend of a module-scoped fixture: its tests run once per backend, as a
    `both_backends` test does with a function-scoped one."""
    return request.param


@pytest.fixture
def new_db(backend, pg_servers, tmp_path):
    """Where a test's new database is: a file (SQLite) or a fresh database's URL (PostgreSQL)."""
    return backends.new_db(backend, pg_servers, tmp_path)


@pytest.fixture
def more_dbs(backend, pg_servers, tmp_path):
    """Another new database of the test's backend, by name: `more_dbs("b.db")`."""
    return lambda name: backends.new_db(backend, pg_servers, tmp_path, name)


@pytest.fixture(autouse=True)
def isolated_user_dirs(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(home))
    monkeypatch.setenv("QUIZAPP_DB", str(home / "quizapp.db"))
    return home
