"""`quizapp serve` as a real process on a free port, and Chromium to look at it."""

from __future__ import annotations

import os
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

URL = re.compile(r"(?:served on |服务地址：)(http://\S+)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Served:
    process: subprocess.Popen[str]
    url: str  # with its token
    port: int
    db: Path


def start_server(db: Path, *args: str, host: str = "127.0.0.1") -> Served:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "quizapp", "--db", str(db), "--lang", "en", "serve", "--host", host,
         "--port", str(port), *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "COLUMNS": "200"},
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()  # type: ignore[union-attr]
    seen = []
    while True:  # until the server says where it is (or dies)
        try:
            line = lines.get(timeout=120)
        except queue.Empty:
            process.kill()
            raise AssertionError(f"quizapp serve printed no address: {seen}") from None
        seen.append(line)
        if match := URL.search(line):
            url = match.group(1)
            if host != "127.0.0.1":  # reach it on loopback; the printed host is the machine's name
                url = re.sub(r"^http://[^/]+", f"http://127.0.0.1:{port}", url)
            return Served(process, url, port, db)
        if process.poll() is not None:
            raise AssertionError(f"quizapp serve exited: {''.join(seen)}")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = start_server(tmp_path / "q.db")
    try:
        yield server
    finally:
        server.process.terminate()
        try:
            server.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.process.kill()


def chromium_path() -> str | None:
    return os.environ.get("QUIZAPP_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-headless-shell")


@pytest.fixture
def chromium():
    """Debian's Chromium driven by Playwright (no browser download). Without one the test
    skips with the reason in the summary, except where QUIZAPP_REQUIRE_BROWSER=1 (.ci/run
    installs Chromium and sets it): there a missing browser fails the run."""
    path = chromium_path()
    if path is None:
        message = "no Chromium: install Debian's chromium (apt-get install chromium) to run the browser tests"
        if os.environ.get("QUIZAPP_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=path,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        try:
            yield browser
        finally:
            browser.close()
