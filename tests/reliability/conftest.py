"""Helpers for the reliability suite: real processes, real files."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from tests.cli_process import run_quizapp

# Root ignores file permissions; a process that must meet them (a read-only folder or
# database) runs without the capabilities that let root override them.
_DROP_ROOT = (
    ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"]
    if os.geteuid() == 0 and shutil.which("setpriv")
    else []
)


def quizapp(*args: str, unprivileged: bool = False, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    # In English, which these tests read (without --lang the CLI speaks the stored language,
    # Chinese by default); a later --lang in `args` wins.
    if unprivileged:
        command = [*_DROP_ROOT, sys.executable, "-m", "quizapp", "--lang", "en", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)
    return run_quizapp(["--lang", "en", *args], capture_output=True, text=True, timeout=300, **kwargs)


def can_drop_root() -> bool:
    return os.geteuid() != 0 or bool(_DROP_ROOT)


SNAPSHOT = {"state": 1, "step": 0, "stability": None, "difficulty": None, "due": "2026-01-01T00:00:00",
            "last_review": None, "reps": 0, "lapses": 0, "leech": False, "suspended": False}


_MICROS_2026 = int((datetime(2026, 1, 1) - datetime(1970, 1, 1)).total_seconds()) * 1_000_000


def add_reviews(db: Path, count: int) -> None:
    """Many valid reviews at once (raw SQL; the app's own writes are tested elsewhere)."""
    conn = sqlite3.connect(db)
    try:
        card_ids = [row[0] for row in conn.execute("SELECT id FROM cards ORDER BY id LIMIT 50")]
        rows = [
            # mode 0 = study; reviewed_at in microseconds since 1970 (revision 0004)
            (card_ids[n % len(card_ids)], 0, 1 + n % 4,
             _MICROS_2026 + (n % 86400) * 1_000_000 + n % 1_000_000, 1000 + n % 5000)
            for n in range(count)
        ]
        # The card before each review (SNAPSHOT) in the compact prev_* columns (revision 0003;
        # times as microseconds since 1970).
        due_micros = int((datetime.fromisoformat(SNAPSHOT["due"]) - datetime(1970, 1, 1)).total_seconds()) * 1_000_000
        conn.executemany(
            "INSERT INTO reviews (card_id, mode, rating, reviewed_at, duration_ms, prev_state, prev_step, prev_due, "
            f"prev_reps, prev_lapses, prev_leech, prev_suspended) VALUES (?, ?, ?, ?, ?, 1, 0, {due_micros}, 0, 0, 0, 0)",
            rows,
        )
        conn.commit()
    finally:
        conn.close()
