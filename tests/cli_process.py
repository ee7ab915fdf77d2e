"""Running the `quizapp` command in a real process, without paying its interpreter start each time.

A CLI test wants what a user's shell does: a new process, its own pid, the test's stdin,
stdout and stderr, environment and folder, and an exit status. What it does not need is the
~0.3 s of CPU that every `python -m quizapp` spends importing SQLAlchemy, Alembic, pydantic,
NumPy and quizapp before it reads its first argument; the suite starts ~300 of them.

So each test process starts one helper process (`tests/cli_fork_server.py`) that imports
them once and then forks a child for each command. The test runs a tiny client in place of
the interpreter (`python -I -S -c …`, ~10 ms): it hands the fork server its three standard
streams (over a unix socket, SCM_RIGHTS), its arguments, folder and environment, and exits
as the child did (its status, or the signal that ended it). `subprocess.run`'s arguments
all keep their meaning: `input`, `env`, `cwd`, `timeout` (the child is killed when its
client is), `capture_output` or any file.

What the fork server cannot reproduce, a new interpreter does (`fresh=True`, or on its own):
a different interpreter set-up (PYTHON*, locale or TEXTUAL* variables that differ from the
fork server's), a terminal as a standard stream, a command run under `setpriv`, and any
test about the start itself (what is imported, how long it takes).
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import tempfile
import threading
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

SERVER = Path(__file__).with_name("cli_fork_server.py")

# The folder the suite started in (pytest's, before any test changes it): the fork server
# runs there, so it imports the quizapp that `python -m quizapp` run there imports.
_START_DIR = os.getcwd()

# Variables read once when an interpreter starts (its encodings, paths, hash seed, warnings
# and modules it imports then): a command whose environment differs from the fork server's in
# one of these gets an interpreter of its own.
_START_VARIABLES = ("PYTHON", "LC_", "LANG", "TEXTUAL", "SQLALCHEMY", "NUMPY", "OPENBLAS", "OMP_")

_CLIENT = """\
import array, marshal, os, signal, socket, sys
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(sys.argv[1])
body = marshal.dumps(([os.fsencode(a) for a in sys.argv[2:]], os.fsencode(os.getcwd()), dict(os.environb)))
fds = array.array("i", [0, 1, 2])
sock.sendmsg([len(body).to_bytes(8, "big")], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
sock.sendall(body)
status = b""
while len(status) < 8:
    chunk = sock.recv(8 - len(status))
    if not chunk:
        os.write(2, b"tests/cli_process.py: the fork server closed the connection\\n")
        os._exit(125)
    status += chunk
code = int.from_bytes(status, "big", signed=True)
if code < 0:
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
os._exit(code)
"""


class _ForkServer:
    """This test process's fork server: started on first use, stopped at exit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self.socket: str | None = None
        self.environment: dict[str, str] = {}
        self.failed: str | None = None

    def address(self) -> str | None:
        with self._lock:
            if self._process is not None and self._process.poll() is None:
                return self.socket
            if self.failed is not None:
                return None
            self._start()
            return self.socket

    def _start(self) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="quizapp-fork-server-")
        self.socket = os.path.join(self._folder.name, "s")
        # The server's own environment: this process's, without what a test sets for the
        # app (every command brings its own).
        self.environment = {k: v for k, v in os.environ.items() if not k.startswith("QUIZAPP_")}
        # Its stdin is a pipe that closes when this process ends, which stops it.
        self._process = subprocess.Popen(
            [sys.executable, str(SERVER), self.socket], cwd=_START_DIR, env=self.environment,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if line != b"ready\n":
            self._process.kill()
            self._process.wait()
            self.failed = f"the fork server did not start ({line!r}); commands run in new interpreters"
            warnings.warn(self.failed, stacklevel=1)  # slower, not wrong: said in pytest's summary
        atexit.register(self.stop)

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            assert process.stdin is not None
            process.stdin.close()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None


_SERVER = _ForkServer()


def _same_start(env: Mapping[str, str] | None) -> bool:
    mine = os.environ if env is None else env
    theirs = _SERVER.environment
    names = {name for name in (*mine, *theirs) if name.startswith(_START_VARIABLES)}
    return all(mine.get(name) == theirs.get(name) for name in names)


def local_quizapp(folder: str | os.PathLike[str] | None) -> Path | None:
    """The quizapp package that `python -m quizapp` run in `folder` imports from the folder
    itself (`-m` puts it first on sys.path): a checkout's, not the installed one."""
    package = Path(_START_DIR if folder is None else folder, "quizapp")
    if os.environ.get("PYTHONSAFEPATH") or not (package / "__init__.py").is_file():
        return None
    return package.resolve()


def _is_terminal(stream: Any, fd: int) -> bool:
    """Whether the standard stream `fd` of the command is a terminal (`stream` as given to
    subprocess: None inherits this process's)."""
    try:
        if stream is None:
            return os.isatty(fd)
        if isinstance(stream, int):
            return stream >= 0 and os.isatty(stream)
        return os.isatty(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return False


def quizapp_command(args: Sequence[str], *, fresh: bool = False, env: Mapping[str, str] | None = None,
                    cwd: str | os.PathLike[str] | None = None, streams: Sequence[Any] = (None, None, None)) -> list[str]:
    """The command line that runs `python -m quizapp *args` (in `cwd`, this process's folder
    if None): through the fork server when it can stand for a new interpreter, else a new
    interpreter."""
    own = [sys.executable, "-m", "quizapp", *args]
    if fresh or any(_is_terminal(stream, fd) for fd, stream in enumerate(streams)):
        return own
    # From another folder, a new interpreter may import another quizapp (the checkout's in
    # the suite's folder, the installed one elsewhere; .ci/run installs a wheel).
    if local_quizapp(os.getcwd() if cwd is None else cwd) != local_quizapp(_START_DIR):
        return own
    address = _SERVER.address()
    if address is None or not _same_start(env):
        return own
    return [sys.executable, "-I", "-S", "-c", _CLIENT, address, *args]


def sets_up_the_process(kwargs: Mapping[str, Any]) -> bool:
    """Whether subprocess is asked to set the process up before it runs (limits, privileges,
    a umask): through the fork server, that would be the client's set-up, not the command's."""
    return any(kwargs.get(name) not in (None, -1, ()) for name in ("preexec_fn", "user", "group", "extra_groups",
                                                                    "umask", "process_group"))


def run_quizapp(args: Sequence[str], *, fresh: bool = False, **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    """`subprocess.run(["python", "-m", "quizapp", *args], **kwargs)`, through the fork server."""
    streams = [kwargs.get(name) for name in ("stdin", "stdout", "stderr")]
    fresh = fresh or sets_up_the_process(kwargs)
    command = quizapp_command(args, fresh=fresh, env=kwargs.get("env"), cwd=kwargs.get("cwd"), streams=streams)
    return subprocess.run(command, **kwargs)
