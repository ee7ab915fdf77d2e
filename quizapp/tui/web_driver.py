"""Textual's web driver, made to send textual-serve one whole packet at a time.

Under `quizapp serve` the app's stdout is a pipe to textual-serve, and Textual's web driver
frames all it sends there (the screen, meta messages, the chunks of a download) as packets:
a type byte, a length, the payload. It writes them with a bare `os.write` from two threads —
the app's for the screen, its input thread for each 64 KB chunk of a file the browser asks
for (and quizapp's export worker starts the delivery from a third). A pipe write larger than
PIPE_BUF (4 KiB) is not atomic: when the pipe is full the kernel takes it in pieces and
another thread's write lands between them. textual-serve then reads screen bytes as a
chunk's length, the download waits for data that never comes and the browser cancels it
after a minute (tests/web, at load ~3: `Download.save_as: canceled` after 64 s; two threads
writing 70 KB packets into one pipe broke the stream at the first packet). A blocking write
interrupted by a signal may also return early, which the bare call would not notice.

Here every packet goes out whole, under one lock, before the next one starts.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from textual.drivers.web_driver import WebDriver


def _write_whole(lock: threading.Lock, fd: int, write: Callable[[int, memoryview], int], data: bytes) -> int:
    view = memoryview(data)
    with lock:
        while view:
            view = view[write(fd, view) :]
    return len(data)


def whole_writes(fd: int, write: Callable[[int, memoryview], int] = os.write) -> partial[int]:
    """A write to `fd` that sends all of its bytes before any other call's (each call is
    one packet: threads take turns). A `partial`, as the driver's own `_write` is.
    `write`: the system call (a test's stands for a kernel that takes part of a write)."""
    return partial(_write_whole, threading.Lock(), fd, write)


class WholePacketWebDriver(WebDriver):
    """Textual's `WebDriver` whose packets never interleave (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._write = whole_writes(self.fileno)
