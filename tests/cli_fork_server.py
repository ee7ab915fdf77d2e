"""The fork server of tests/cli_process.py: imports quizapp once, then forks a child per command.

Run as `python tests/cli_fork_server.py SOCKET` from a folder without a `quizapp` in it.
Each connection brings the client's stdin, stdout and stderr (SCM_RIGHTS), then its
arguments, folder and environment (marshal). The child takes them over and runs
`python -m quizapp` as the interpreter would (runpy, then the interpreter's exit: threads
joined, atexit, streams flushed); the server sends its exit status back (negative: the
signal that ended it) and kills the child if the client goes away first (a test's timeout).
The server stops when its stdin closes (the test process ended).
"""

from __future__ import annotations

import array
import atexit
import contextlib
import gc
import importlib
import marshal
import os
import pkgutil
import runpy
import selectors
import signal
import socket
import sys
import threading
import traceback

# What a command imports before it reads its arguments, and the textual-free rest of quizapp
# (a command needing Textual imports it in its child, under its own environment).
_SKIPPED = ("quizapp.__main__", "quizapp.tui", "quizapp.web")


def preload(package: str = "quizapp") -> None:
    # (Not pkgutil.walk_packages: it imports every package it walks, the skipped ones too.)
    for module in pkgutil.iter_modules(importlib.import_module(package).__path__, f"{package}."):
        if module.name.startswith(_SKIPPED):
            continue
        if module.ispkg:
            preload(module.name)
        else:
            importlib.import_module(module.name)


def _receive(conn: socket.socket) -> tuple[list[int], list[str], str, dict[bytes, bytes]]:
    fds = array.array("i")
    head, ancillary, _flags, _addr = conn.recvmsg(8, socket.CMSG_SPACE(3 * fds.itemsize))
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
    while len(head) < 8:
        more = conn.recv(8 - len(head))
        if not more:
            raise EOFError
        head += more
    size = int.from_bytes(head, "big")
    body = bytearray()
    while len(body) < size:
        more = conn.recv(size - len(body))
        if not more:
            raise EOFError
        body += more
    args, cwd, env = marshal.loads(bytes(body))
    return list(fds), [os.fsdecode(a) for a in args], os.fsdecode(cwd), env


def _exit_code(exc: SystemExit) -> int:
    """What the interpreter exits with for an uncaught SystemExit (Python/pythonrun.c)."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _flush(stream) -> bool:
    try:
        if stream is not None and not stream.closed:
            stream.flush()
        return True
    except Exception:  # the interpreter reports it and exits 120 (Py_FinalizeEx)
        return False


def run_child(fds: list[int], args: list[str], cwd: str, env: dict[bytes, bytes]) -> None:
    """In the forked child: become `python -m quizapp *args`, and never return."""
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        os.chdir(cwd)
        os.environb.clear()
        os.environb.update(env)
        if not sys.flags.safe_path:
            sys.path[0] = cwd  # `-m` puts the current folder first
        sys.argv = ["-m", *args]
        try:
            runpy.run_module("quizapp", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as exc:
            code = _exit_code(exc)
        except KeyboardInterrupt:
            traceback.print_exc()
            _flush(sys.stderr)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        except BaseException:
            traceback.print_exc()
            code = 1
        threading._shutdown()  # type: ignore[attr-defined]  # non-daemon threads, as at exit
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            if not _flush(stream):
                code = 120
    finally:
        os._exit(code)


class Server:
    def __init__(self, path: str) -> None:
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(64)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.listener, selectors.EVENT_READ, ("accept", None))
        self.selector.register(sys.stdin, selectors.EVENT_READ, ("parent", None))
        self.jobs: dict[int, tuple[socket.socket, int]] = {}  # pid → (its client, its pidfd)

    def serve(self) -> None:
        while True:
            for key, _events in self.selector.select():
                kind, pid = key.data
                if kind == "accept":
                    self._start()
                elif kind == "exited":
                    self._finish(pid)
                elif kind == "client":
                    self._client_spoke(pid)
                elif kind == "parent":
                    self._stop()
                    return

    def _start(self) -> None:
        conn, _ = self.listener.accept()
        try:
            fds, args, cwd, env = _receive(conn)
        except (OSError, EOFError, ValueError):
            conn.close()
            return
        pid = os.fork()
        if pid == 0:
            self.selector.close()
            self.listener.close()
            for client, pidfd in self.jobs.values():
                client.close()
                os.close(pidfd)
            conn.close()
            run_child(fds, args, cwd, env)
        for fd in fds:
            os.close(fd)
        pidfd = os.pidfd_open(pid)
        self.jobs[pid] = (conn, pidfd)
        self.selector.register(pidfd, selectors.EVENT_READ, ("exited", pid))
        self.selector.register(conn, selectors.EVENT_READ, ("client", pid))

    def _finish(self, pid: int) -> None:
        conn, pidfd = self.jobs.pop(pid)
        _, status = os.waitpid(pid, 0)
        self.selector.unregister(pidfd)
        os.close(pidfd)
        with contextlib.suppress(KeyError):
            self.selector.unregister(conn)
        with contextlib.suppress(OSError):
            conn.sendall(os.waitstatus_to_exitcode(status).to_bytes(8, "big", signed=True))
        conn.close()

    def _client_spoke(self, pid: int) -> None:
        """A client sends nothing after its request: readable means it is gone (killed after
        a timeout, say), and so goes its command."""
        conn, _pidfd = self.jobs[pid]
        self.selector.unregister(conn)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)

    def _stop(self) -> None:
        for pid in list(self.jobs):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


def main() -> None:
    # As `python -m` run here: this folder first on sys.path (a checkout's quizapp, if this
    # is one), not the folder of this script.
    if not sys.flags.safe_path:
        sys.path[0] = os.getcwd()
    preload()
    import alembic.command  # migrations: every new database
    import alembic.runtime.migration  # noqa: F401

    server = Server(sys.argv[1])
    gc.collect()
    gc.freeze()  # the children's collections never walk (and copy) the imported modules
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    server.serve()


if __name__ == "__main__":
    main()
