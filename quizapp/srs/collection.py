"""One open database and the services over it, made once (as Anki's pylib `Collection`):
`.study` (queues, answers, undo), `.drills`, `.mocks`, `.stats`, `.search`, `.settings`.

No service builds another: the drill and mock services are handed this collection's study
service (one remembered streak, one day counter), and the mock service this collection's
drill service (one engine). Drills and mocks load on first use (NumPy's engine is heavy).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from quizapp.srs.service import StudyService

if TYPE_CHECKING:
    from quizapp.srs.clock import Clock
    from quizapp.srs.drills import DrillService
    from quizapp.srs.mock import MockService
    from quizapp.srs.settings import Settings
    from quizapp.srs.stats import StudyStats
    from quizapp.store.database import Database


class Stats:
    """The Stats screen's figures for this collection (quizapp.srs.stats)."""

    def __init__(self, study: StudyService) -> None:
        self._study = study

    def study_stats(self, settings: Settings | None = None, calibration: bool = True) -> StudyStats:
        from quizapp.srs.stats import study_stats

        study = self._study
        return study_stats(study.db, study.clock, settings or study.settings(), calibration=calibration)

    def with_calibration(self, stats: StudyStats, settings: Settings | None = None) -> StudyStats:
        from quizapp.srs.stats import with_calibration

        study = self._study
        return with_calibration(stats, study.db, study.clock, settings or study.settings())


class Collection:
    def __init__(self, db: Database, clock: Clock | None = None, engine: Any | None = None,
                 study: StudyService | None = None) -> None:
        self.db = db
        self.study = study or StudyService(db, clock)
        self.clock = self.study.clock
        self.stats = Stats(self.study)
        self._engine = engine
        self._drills: DrillService | None = None
        self._mocks: MockService | None = None

    @property
    def drills(self) -> DrillService:
        if self._drills is None:
            from quizapp.srs.drills import DrillService

            self._drills = DrillService(self.db, self.clock, self._engine, study=self.study)
        return self._drills

    @property
    def mocks(self) -> MockService:
        if self._mocks is None:
            from quizapp.srs.mock import MockService

            self._mocks = MockService(self.db, self.clock, study=self.study, drills=self.drills)
        return self._mocks

    @property
    def search(self) -> Callable[..., Any]:
        """Browse's search (StudyService.search)."""
        return self.study.search

    def settings(self) -> Settings:
        return self.study.settings()

    def save_settings(self, settings: Settings, base: Settings | None = None) -> None:
        self.study.save_settings(settings, base)

    def close(self) -> None:
        self.db.close()
