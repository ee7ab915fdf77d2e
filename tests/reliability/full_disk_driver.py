"""Run the real app headless in its own process and meet a full disk mid-session.

Used by test_full_disk.py. `fsize` lowers this process's file size limit (RLIMIT_FSIZE) to
one byte, so every write past the first byte of any file fails as on a full disk; `fill`
fills the (small, private tmpfs) filesystem holding the database with a filler file.
Then it answers (Study: a rating; Mock: a scored and confirmed Q&A answer), waits for the
notice, gives the room back, and checks the screen saves and goes on. Prints `NOTICE <text>`
and `DONE` (or fails with a traceback and exit status 1).

    python full_disk_driver.py DB CONTENT_DIR fsize|fill study|mock
"""

from __future__ import annotations

import asyncio
import os
import resource
import sys
import time
from pathlib import Path

from tests.tui.sigkill_driver import settle

TYPED = "divide by the square root of dk"


def take_room(db: Path, how: str) -> Path | None:
    if how == "fsize":
        resource.setrlimit(resource.RLIMIT_FSIZE, (1, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
        return None
    filler = db.with_name("filler")
    with open(filler, "wb") as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        except OSError:
            pass
    return filler


def give_room_back(how: str, filler: Path | None) -> None:
    if how == "fsize":
        hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
    elif filler is not None:
        filler.unlink()


async def wait_until(pilot, condition, what: str) -> None:
    end = time.monotonic() + 90
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


def notices(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def drive(db: Path, how: str, mode: str) -> None:
    from quizapp.tui.app import make_app

    app = make_app(db_path=db, start="study" if mode == "study" else "mock", lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        if mode == "mock":
            await pilot.press("ctrl+r")
            await settle(pilot)
            # the question's text area is mounted, styled and focused
            from textual.widgets import TextArea

            # (the answer field is a TextArea subclass: CappedTextArea)
            await wait_until(pilot, lambda: isinstance(app.focused, TextArea), "the answer field")
            await settle(pilot)
        screen = app.screen
        filler = take_room(db, how)
        if mode == "study":
            await pilot.press("space")
            await settle(pilot)
            await pilot.press("3")
        else:
            screen.pane.query_one("TextArea").insert(TYPED)
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: screen.pane.reviewing, "the scored answer's key points")
            await pilot.press("enter")
        await wait_until(pilot, lambda: any("Not saved yet" in n for n in notices(app)), "the full-disk notice")
        print("NOTICE " + " | ".join(notices(app)), flush=True)
        if mode == "study":
            assert screen.history == []
        else:  # the typed answer is still on screen while it waits
            assert screen.pane.query_one("TextArea").text == TYPED
        give_room_back(how, filler)
        if mode == "study":
            await wait_until(pilot, lambda: len(screen.history) == 1, "the kept answer to be saved")
            await wait_until(pilot, lambda: screen.phase == "question", "the next card")
            await pilot.press("space")
            await settle(pilot)
            await pilot.press("4")  # the rating keys work again, without reopening
            await wait_until(pilot, lambda: len(screen.history) == 2, "the next answer")
        else:
            await wait_until(pilot, lambda: screen.position == 1, "the next question")
        print("DONE", flush=True)


def main() -> None:
    db, content, how, mode = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4]
    import quizapp.srs.bootstrap as bootstrap

    bootstrap.content_dir = lambda: content
    asyncio.run(drive(db, how, mode))
    os._exit(0)  # nothing left to flush; the app closed the database


if __name__ == "__main__":
    main()
