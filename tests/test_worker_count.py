"""`-n auto` starts one worker more than the cores xdist counts (tests/conftest.py), and
leaves a count given in PYTEST_XDIST_AUTO_NUM_WORKERS alone."""

from __future__ import annotations

from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")


@pytest.fixture
def wrapped(pytestconfig):
    """The suite's hook as pytest loaded it (importing tests/conftest.py again would run
    its module code twice)."""
    (module,) = [
        plugin for plugin in pytestconfig.pluginmanager.get_plugins()
        if Path(getattr(plugin, "__file__", "") or "") == CONFTEST
    ]

    def run(counted: int) -> int:
        return _wrapped(module.pytest_xdist_auto_num_workers, counted)

    return run


def _wrapped(hook_function, counted: int) -> int:
    hook = hook_function(None)
    next(hook)
    with pytest.raises(StopIteration) as stop:
        hook.send(counted)
    return stop.value.value


def test_one_worker_more_than_the_cores(monkeypatch, wrapped):
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    assert wrapped(2) == 3


def test_a_count_from_the_environment_is_kept(monkeypatch, wrapped):
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "2")
    assert wrapped(2) == 2
