"""Every SQL statement lives in quizapp.store (issue 21): quizapp.srs holds none, and the
import-linter contract "srs holds no SQL" keeps sqlite3 and SQLAlchemy out of it."""

from __future__ import annotations

import re
from pathlib import Path

import quizapp.srs

STATEMENT = re.compile(r"\bSELECT\b.*\bFROM\b|\bINSERT INTO\b|\bDELETE FROM\b|\bUPDATE \w+ SET\b|\bPRAGMA\b")


def test_no_sql_text_in_srs():
    found = [f"{path.name}:{number}: {line.strip()}"
             for path in sorted(Path(quizapp.srs.__file__).parent.glob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if STATEMENT.search(line)]
    assert found == []
