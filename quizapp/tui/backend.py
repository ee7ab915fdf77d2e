"""The app's handle on the study services, opened in a worker thread.

Everything heavy (SQLAlchemy, Alembic, pydantic content, fsrs) is imported here, inside
`open_backend`, so that the first frame never waits for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from quizapp.srs.clock import Clock
    from quizapp.srs.service import StudyService


@dataclass
class Backend:
    """An open database with its study service; screens reach the data only through it."""

    service: StudyService
    db_path: Path
    content_errors: list[str] = field(default_factory=list)

    def close(self) -> None:
        self.service.db.close()


def open_backend(db_path: Path | str | None, extra_content: Sequence[Path], clock: Clock | None) -> Backend:
    """Open (create/upgrade) the database, sync the content, build the study service."""
    from quizapp.srs.bootstrap import prepare
    from quizapp.srs.service import StudyService

    prepared = prepare(db_path, extra_content, clock)
    return Backend(
        service=StudyService(prepared.db, clock),
        db_path=prepared.db.path,
        content_errors=[str(error) for error in prepared.content.errors],
    )
