"""The app's handle on the study services, opened in a worker thread.

Everything heavy (SQLAlchemy, Alembic, pydantic content, fsrs) is imported here, inside
`open_backend`, so that the first frame never waits for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quizapp.srs.clock import Clock
    from quizapp.srs.collection import Collection
    from quizapp.srs.drills import DrillService
    from quizapp.srs.mock import MockService
    from quizapp.srs.service import StudyService


@dataclass
class Backend:
    """An open database with its collection (quizapp.srs.collection, made once); screens
    reach the data only through it."""

    collection: Collection
    db_path: Path
    content_errors: list[str] = field(default_factory=list)
    skipped_decks: list[str] = field(default_factory=list)  # deck files not loaded at all
    items_left_out: int = 0  # invalid items in the files that did load

    @property
    def service(self) -> StudyService:
        """The collection's study service."""
        return self.collection.study

    @property
    def drills(self) -> DrillService:
        """Drill attempts and skill cards (NumPy engine imported on first use)."""
        return self.collection.drills

    @property
    def mocks(self) -> MockService:
        """Mock interviews: assembly, timed answers, reports, history."""
        return self.collection.mocks

    def close(self) -> None:
        self.service.db.close()


def open_backend(db_path: Path | str | None, extra_content: Sequence[Path], clock: Clock | None) -> Backend:
    """Open (create/upgrade) the database, sync the content, build the study service."""
    from quizapp.srs.bootstrap import prepare
    from quizapp.srs.collection import Collection

    prepared = prepare(db_path, extra_content, clock)
    return Backend(
        collection=Collection(prepared.db, clock),
        db_path=prepared.db.path,
        content_errors=[str(error) for error in prepared.content_errors],
        skipped_decks=[Path(name).name for name in prepared.skipped_files],
        items_left_out=len({(error.file, error.item) for error in prepared.content_errors
                            if error.item is not None and error.file not in prepared.skipped_files}),
    )
