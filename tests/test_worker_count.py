"""`-n auto` starts one worker more than the cores xdist counts (tests/conftest.py), and
leaves a count given in PYTEST_XDIST_AUTO_NUM_WORKERS alone; the key-point judging modules
are one xdist group."""

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


def test_the_judge_group_names_modules_that_exist_and_runs_on_one_worker(pytestconfig):
    """A renamed module would drop out of the group without a word (tests/conftest.py's
    JUDGE_GROUP), and the group only holds together under `--dist loadgroup`."""
    (module,) = [
        plugin for plugin in pytestconfig.pluginmanager.get_plugins()
        if Path(getattr(plugin, "__file__", "") or "") == CONFTEST
    ]
    root = CONFTEST.parents[1]
    assert module.JUDGE_GROUP and all((root / path).is_file() for path in module.JUDGE_GROUP)
    assert "--dist loadgroup" in " ".join(pytestconfig.getini("addopts"))

    class Item:
        def __init__(self, nodeid: str) -> None:
            self.nodeid, self.marks = nodeid, []

        def add_marker(self, mark) -> None:
            self.marks.append(mark)

    grouped = Item("tests/srs/test_heldout_corpus.py::test_held_out_figures_stay_at_their_floors[answers_heldout2]")
    other = Item("tests/engine/test_engine_rule.py::test_the_bound_caps_a_path_that_would_reach_further")
    module.pytest_collection_modifyitems(pytestconfig, [grouped, other])
    assert [(m.name, m.args) for m in grouped.marks] == [("xdist_group", ("judge",))]
    assert other.marks == []
