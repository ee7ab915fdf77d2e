"""tests/cli_process.py: a command run through the fork server is what a new interpreter gives."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys

import pytest

from tests.cli_process import local_quizapp, quizapp_command, run_quizapp, sets_up_the_process


def _both(args, **kwargs):
    forked = run_quizapp(args, capture_output=True, text=True, timeout=120, **kwargs)
    fresh = run_quizapp(args, capture_output=True, text=True, timeout=120, fresh=True, **kwargs)
    return forked, fresh


def test_the_fork_server_is_used_and_answers_as_a_new_interpreter(tmp_path):
    assert "-c" in quizapp_command(["--help"])  # the client, not `python -m quizapp`
    listed, fresh_listed = _both(["--lang", "en", "content", "list", "--kind", "qa", "--json"])
    assert listed.returncode == 0 and listed.stdout == fresh_listed.stdout and listed.stderr == fresh_listed.stderr
    item = json.loads(listed.stdout)[0]["id"]
    for args, kwargs in [
        (["--lang", "en", "no-such-command"], {}),  # usage: exit 2, one line on stderr
        (["--lang", "en", "judge", item, "--answer", "-"], {"input": "scaling by the square root of d_k"}),
        (["--lang", "en", "judge", item, "--answer", "-"], {"input": "  "}),  # an empty answer: exit 2
        (["--lang", "en", "--db", str(tmp_path / "a.db"), "stats"], {}),  # a new database, then its stats
    ]:
        forked, fresh = _both(args, **kwargs)
        assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr), args


def _a_folder_like_the_suites(tmp_path):
    """A folder from which `python -m quizapp` imports what it does from the suite's folder:
    the same checkout (a link to it) if the suite runs in one."""
    folder = tmp_path / "work"
    folder.mkdir()
    checkout = local_quizapp(None)
    if checkout is not None:
        (folder / "quizapp").symlink_to(checkout)
    return folder


def test_the_folder_and_environment_are_the_commands(tmp_path):
    folder = _a_folder_like_the_suites(tmp_path)
    assert "-c" in quizapp_command(["stats"], cwd=folder)
    env = dict(os.environ, QUIZAPP_DB=str(tmp_path / "from-env.db"))
    result = run_quizapp(["--lang", "en", "stats", "--json"], capture_output=True, text=True, env=env, cwd=folder)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "from-env.db").exists()
    relative = run_quizapp(["--lang", "en", "--db", "here.db", "stats"], capture_output=True, text=True, cwd=folder)
    assert relative.returncode == 0, relative.stderr
    assert (folder / "here.db").exists()


def test_a_folder_holding_another_quizapp_gets_a_new_interpreter(tmp_path):
    """`python -m quizapp` imports a quizapp package in its folder first: not the fork server's."""
    (tmp_path / "quizapp").mkdir()
    (tmp_path / "quizapp" / "__init__.py").write_text("")
    assert quizapp_command(["stats"], cwd=tmp_path) == [sys.executable, "-m", "quizapp", "stats"]


def test_a_command_killed_at_its_timeout_is_gone(tmp_path):
    """The client is what subprocess kills; the fork server then kills the command: nothing
    keeps reading the stdin it was given."""
    item = json.loads(run_quizapp(["content", "list", "--kind", "qa", "--json"], capture_output=True,
                                  text=True, check=True).stdout)[0]["id"]
    read_end, write_end = os.pipe()
    try:
        # Output to files, not pipes: a command that outlived its client would hold a pipe open.
        with open(tmp_path / "out", "wb") as out:
            process = subprocess.Popen(quizapp_command(["judge", item, "--answer", "-"]), stdin=read_end,
                                       stdout=out, stderr=out)
        os.close(read_end)
        read_end = -1
        with pytest.raises(subprocess.TimeoutExpired):
            process.wait(timeout=0.5)  # it waits for an answer that never comes
        process.kill()
        process.wait()
        poller = select.poll()
        poller.register(write_end, select.POLLERR)
        assert poller.poll(60_000), "the command outlived its client"
    finally:
        os.close(write_end)
        if read_end >= 0:
            os.close(read_end)


def test_what_only_a_new_interpreter_can_do_gets_one(tmp_path):
    own = [sys.executable, "-m", "quizapp", "stats"]
    assert quizapp_command(["stats"], fresh=True) == own
    assert quizapp_command(["stats"], env=dict(os.environ, PYTHONHASHSEED="7")) == own
    assert quizapp_command(["stats"], env=dict(os.environ, LC_ALL="C")) == own
    assert quizapp_command(["stats"], env=dict(os.environ, QUIZAPP_DB=str(tmp_path / "q.db"))) != own
    # Limits or privileges set before the command runs are for a new interpreter, not the client.
    assert sets_up_the_process({"preexec_fn": lambda: None}) and sets_up_the_process({"umask": 0o77})
    assert not sets_up_the_process({"capture_output": True, "umask": -1, "timeout": 9})
