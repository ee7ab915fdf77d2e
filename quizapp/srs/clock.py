"""Time source. Services take a clock so tests can freeze and advance time."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo


class Clock:
    """The real clock: aware UTC `now()` and the machine's local zone for day boundaries."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def local_tz(self) -> tzinfo:
        return datetime.now().astimezone().tzinfo or UTC

    def monotonic(self) -> float:
        import time

        return time.monotonic()


@dataclass
class FixedClock(Clock):
    """A clock that only moves when told to (tests, snapshots)."""

    current: datetime = field(default_factory=lambda: datetime(2026, 1, 5, 9, 0, tzinfo=UTC))
    tz: tzinfo = UTC

    def now(self) -> datetime:
        return self.current

    def local_tz(self) -> tzinfo:
        return self.tz

    def monotonic(self) -> float:
        return self.current.timestamp()

    def advance(self, **kwargs: float) -> None:
        self.current = self.current + timedelta(**kwargs)


def to_naive_utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(tzinfo=None)


def from_naive_utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC)
