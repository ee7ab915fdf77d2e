"""Under `quizapp serve` the app's packets reach textual-serve whole (quizapp/tui/web_driver.py).
Textual's web driver writes the screen from the app's thread and a download's 64 KB chunks
from its input thread into one pipe; a pipe takes a large write in pieces, so the two
interleaved, textual-serve lost its place and the browser's download hung until cancelled."""

from __future__ import annotations

import os
import sys
import threading

import quizapp.tui.web_driver as web_driver
from quizapp.tui.web_driver import WholePacketWebDriver

ROUNDS = 30
SCREEN = "\x1b[1;1H" + "x" * 70_000  # a screen update larger than the pipe's 64 KiB buffer
CHUNK = bytes(range(256)) * 256  # a 64 KB chunk of a download, as textual-serve asks for


def read_packets(fd: int, count: int) -> list[tuple[bytes, bytes]]:
    """`count` packets (type byte, 4-byte length, payload), read a little at a time as a busy
    server does; a type the driver never sends means the stream broke."""
    buffer = b""
    packets: list[tuple[bytes, bytes]] = []
    while len(packets) < count:
        data = os.read(fd, 3000)
        assert data, "the pipe closed early"
        buffer += data
        while len(buffer) >= 5:
            kind, length = buffer[:1], int.from_bytes(buffer[1:5], "big")
            assert kind in (b"D", b"P"), f"packet {len(packets)}: {buffer[:8]!r} is no packet header"
            if len(buffer) < 5 + length:
                break
            packets.append((kind, buffer[5 : 5 + length]))
            buffer = buffer[5 + length :]
    return packets


async def test_screen_and_download_packets_from_two_threads_arrive_whole(monkeypatch):
    stdin_read, stdin_write = os.pipe()
    out_read, out_write = os.pipe()
    monkeypatch.setattr(sys, "__stdin__", os.fdopen(stdin_read, "rb", closefd=True))
    monkeypatch.setattr(sys, "__stdout__", os.fdopen(out_write, "wb", closefd=True))
    driver = WholePacketWebDriver(None, size=(80, 24))  # type: ignore[arg-type]  # no app: writes only

    def screen() -> None:
        for _ in range(ROUNDS):
            driver.write(SCREEN)  # the app's thread

    def chunks() -> None:
        for _ in range(ROUNDS):
            driver.write_binary_encoded(("deliver_chunk", "key", CHUNK))  # the input thread

    threads = [threading.Thread(target=job, daemon=True) for job in (screen, chunks)]
    for thread in threads:
        thread.start()
    try:
        packets = read_packets(out_read, 2 * ROUNDS)
    finally:
        os.close(out_read)  # a writer left blocked on a broken stream now fails and ends
        for thread in threads:
            thread.join(30)
        os.close(stdin_write)
    screens = [payload for kind, payload in packets if kind == b"D"]
    chunk_packets = [payload for kind, payload in packets if kind == b"P"]
    assert screens == [SCREEN.encode()] * ROUNDS
    assert len(chunk_packets) == ROUNDS and all(CHUNK in payload for payload in chunk_packets)


def test_a_write_the_kernel_takes_in_part_is_finished():
    # A blocking write interrupted by a signal returns the bytes it wrote so far.
    read_end, write_end = os.pipe()
    calls = []

    def at_most_1000(fd: int, data) -> int:
        calls.append(len(data))
        return os.write(fd, bytes(data[:1000]))

    packet = b"M" + (2500).to_bytes(4, "big") + b"m" * 2500
    try:
        assert web_driver.whole_writes(write_end, at_most_1000)(packet) == len(packet)
        assert os.read(read_end, 10_000) == packet
    finally:
        os.close(read_end), os.close(write_end)
    assert calls == [2505, 1505, 505]
