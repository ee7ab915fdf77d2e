"""Run the real app headless in its own process and answer cards until killed.

Used by test_sigkill.py: after each answer the UI has accepted (the next card is on
screen), it prints `ANSWERED <item id> <review id>`; after the last one it reveals one
more card without rating it, prints `READY` and waits to be killed with SIGKILL.

    python sigkill_driver.py DB CONTENT_DIR N
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path
from typing import Any

from textual.worker import Worker, WorkerCancelled, WorkerFailed, WorkerState


def busy_workers(app: Any) -> list[Worker]:
    return [w for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]


async def settle(pilot) -> None:
    app = pilot.app
    for _ in range(200):
        await pilot.pause()
        if not [w for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]:
            await pilot.pause()
            return
        # An exclusive worker replaced by a newer one (Browse's detail, a search) is
        # cancelled, and a failed one is the app's to report: go round and wait for the rest.
        with contextlib.suppress(WorkerCancelled, WorkerFailed):
            await app.workers.wait_for_complete(busy_workers(app))
    raise RuntimeError("the app did not settle")


async def drive(db: Path, answers: int) -> None:
    from quizapp.tui.app import make_app

    app = make_app(db_path=db, start="study")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        for index in range(answers):
            screen = app.screen
            item = screen.current.card.item_id
            await pilot.press("space")
            await settle(pilot)
            await pilot.press("1" if index % 3 == 0 else "3")
            await settle(pilot)
            assert len(screen.history) == index + 1 and screen.current is not None
            print(f"ANSWERED {item} {screen.history[-1].review_id}", flush=True)
        await pilot.press("space")  # mid-card: revealed, not rated
        await settle(pilot)
        print("READY", flush=True)
        await asyncio.sleep(3600)


def main() -> None:
    db, content, answers = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    import quizapp.srs.bootstrap as bootstrap

    bootstrap.content_dir = lambda: content  # the frozen test deck
    asyncio.run(drive(db, answers))


if __name__ == "__main__":
    main()
