"""The same app in a real browser: headless Chromium loads `quizapp serve`'s page, studies a
card with key presses, and the review is in the database; an export arrives as a download.

The terminal is drawn on a canvas, so the test watches it through screenshots: it waits
until the page has stopped changing (not for a fixed time) before each key, and for the
database to hold what the keys did."""

from __future__ import annotations

import io
import json
import sqlite3
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

TIMEOUT_S = 120
# A blinking text cursor changes one cell (~9×18 px at this viewport): two screenshots that
# differ only within a box this size show the same page.
CURSOR_BOX_PX = 24 * 32
STILL_FRAMES = 3  # screenshots 150 ms apart that show the same page: ~0.45 s without a change


def _screenshot(page) -> bytes:
    return page.screenshot()


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _colours(png: bytes) -> int:
    return len(set(_image(png).resize((160, 90)).get_flattened_data()))


def same_page(a: bytes, b: bytes | None) -> bool:
    """Whether two screenshots show the same page, a blinking cursor aside."""
    if b is None:
        return False
    if a == b:
        return True
    box = ImageChops.difference(_image(a), _image(b)).getbbox()
    return box is None or (box[2] - box[0]) * (box[3] - box[1]) <= CURSOR_BOX_PX


def _dimmed(png: bytes, home: bytes) -> bool:
    """Whether a modal (the palette) dims the page: Home's menu, left of where toasts show
    and below the palette, is ~0.7 as bright as on Home itself."""

    def menu(shot: bytes) -> float:
        image = _image(shot).convert("L")
        width, height = image.size
        return ImageStat.Stat(image.crop((0, int(height * 0.42), int(width * 0.64), int(height * 0.94)))).mean[0]

    return menu(png) < 0.85 * menu(home)


def settled(page, previous: bytes | None = None) -> bytes:
    """The page once it has not changed for STILL_FRAMES screenshots (a blinking cursor
    aside) and is not `previous`. (Two equal screenshots 150 ms apart were once taken for
    settled at load ~9, when the app had not yet drawn what the key did.)"""
    deadline = time.monotonic() + TIMEOUT_S
    last = _screenshot(page)
    still = 0
    while time.monotonic() < deadline:
        page.wait_for_timeout(150)  # the browser's own clock between two frames
        shot = _screenshot(page)
        still = still + 1 if same_page(shot, last) else 0
        if still >= STILL_FRAMES - 1 and not same_page(shot, previous):
            return shot
        last = shot
    # Kept in a folder of its own (three suites at once shared one fixed path before).
    saved = Path(tempfile.mkdtemp(prefix="quizapp-unsettled-")) / "unsettled.png"
    saved.write_bytes(last)
    raise AssertionError(f"the page never settled: its last screenshot is {saved}")


def wait_for(predicate, what: str):
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _count(db: Path, sql: str) -> int:
    if not db.exists():
        return 0
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return conn.execute(sql).fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0
    finally:
        conn.close()


def test_study_one_card_in_the_browser_and_download_an_export(served, chromium, tmp_path):
    page = chromium.new_page(viewport={"width": 1100, "height": 720}, accept_downloads=True)
    page.goto(served.url)
    page.wait_for_function("document.body.classList.contains('-first-byte')", timeout=TIMEOUT_S * 1000)
    # The first start creates the database and syncs the bank; Home is then ready.
    wait_for(lambda: _count(served.db, "SELECT count(*) FROM cards") > 0, "the bank in the database")
    home = settled(page)
    assert _colours(home) > 8, "the screenshot is blank"
    (tmp_path / "home.png").write_bytes(home)

    page.locator(".xterm-helper-textarea").focus()  # keys to the terminal (a click would pick a menu row)

    # The palette's export reaches the browser user as a download, not a file on the server.
    downloads: list = []
    page.on("download", lambda download: downloads.append(download))
    page.keyboard.press("Control+p")
    palette = settled(page, home)
    page.keyboard.type("Export progress")
    typed = settled(page, palette)
    # Enter once the palette lists the query's hit, as a user does: a short list, Home's
    # menu dimmed below it. (Before, the whole list covers the menu; an Enter processed
    # then runs whichever command that list highlights: at load ~9 a page still for a
    # moment was once taken for the filtered one, and the export never came.)
    while not _dimmed(typed, home):
        typed = settled(page, typed)
    page.keyboard.press("Enter")
    # An Enter while nothing is highlighted only highlights the first hit
    # (textual/command.py): the palette stays open, and the test presses Enter again.
    presses, deadline = 1, time.monotonic() + TIMEOUT_S
    again = time.monotonic() + 10
    while not downloads and time.monotonic() < deadline:
        page.wait_for_timeout(200)  # Playwright delivers the download event meanwhile
        if time.monotonic() > again and presses < 4:
            if _dimmed(_screenshot(page), home):
                page.keyboard.press("Enter")
                presses += 1
            again = time.monotonic() + 10
    if not downloads:
        (tmp_path / "palette-typed.png").write_bytes(typed)
        (tmp_path / "no-download.png").write_bytes(_screenshot(page))
        raise AssertionError(f"no download after {presses} Enter: the palette and the page are in {tmp_path}")
    saved = tmp_path / "browser-downloads" / downloads[0].suggested_filename
    downloads[0].save_as(saved)
    assert saved.name.startswith("quizapp-export-") and saved.suffix == ".json"
    assert json.loads(saved.read_text(encoding="utf-8"))["format"] == "quizapp-export"
    assert not list(served.db.parent.glob("*.json"))  # nothing written beside the server's database
    home = settled(page)

    page.keyboard.press("s")
    question = settled(page, home)
    page.keyboard.press(" ")
    answer = settled(page, question)
    assert _colours(answer) > 8
    (tmp_path / "answer.png").write_bytes(answer)
    page.keyboard.press("3")  # Good
    wait_for(lambda: _count(served.db, "SELECT count(*) FROM reviews WHERE rating = 3") == 1,
             "the review in the database")
