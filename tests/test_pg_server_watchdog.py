"""tests/pg_server.py: a test server stops when the process that started it is killed
(kill -9 of a pytest worker left its servers running, fsync off, until stopped by hand)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

STARTER = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from tests.pg_server import NoServer, start_server
try:
    server = start_server()
except NoServer as exc:
    print(json.dumps({"no_server": str(exc)}), flush=True)
    raise SystemExit(0)
print(json.dumps({"pid_file": str(server.data / "postmaster.pid"), "folder": str(server.folder)}), flush=True)
sys.stdin.read()  # until killed
"""


def test_a_killed_starter_takes_its_server_down():
    starter = subprocess.Popen([sys.executable, "-c", STARTER, str(REPO)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    try:
        started = json.loads(starter.stdout.readline() or "{}")
        if "no_server" in started:
            if os.environ.get("QUIZAPP_REQUIRE_POSTGRES") == "1":
                pytest.fail(f"no PostgreSQL server: {started['no_server']}")
            pytest.skip(f"no PostgreSQL server: {started['no_server']}")
        pid_file, folder = Path(started["pid_file"]), Path(started["folder"])
        assert pid_file.exists()
        os.kill(starter.pid, signal.SIGKILL)
        starter.wait(timeout=60)
        deadline = time.monotonic() + 60
        while (pid_file.exists() or folder.exists()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not pid_file.exists(), "the server outlived the process that started it"
        assert not folder.exists()
    finally:
        if starter.poll() is None:
            starter.kill()
            starter.wait(timeout=60)
