"""A real PostgreSQL server for the tests: initialised in a temporary folder, reached only
on a unix socket there (no TCP port), stopped at the end of the session.

The binaries are found with `pg_config --bindir`, in /usr/lib/postgresql/<version>/bin
(Debian's `postgresql` package), or in $QUIZAPP_PG_BIN. `initdb` refuses to run as root:
as root the server runs as the `postgres` system user (Debian's package makes it), the
folder handed to it. Every test database is made from a TEMPLATE database that is
migrated to head once (CREATE DATABASE … TEMPLATE copies its files: a fraction of a
second instead of a migration).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SUPERUSER = "quizapp"
TEMPLATE = "quizapp_template"


class NoServer(Exception):
    """Why no PostgreSQL server can be started here (the PG tests skip with it, or fail
    under QUIZAPP_REQUIRE_POSTGRES=1)."""


def bin_dir() -> Path:
    override = os.environ.get("QUIZAPP_PG_BIN")
    if override:
        return Path(override)
    config = shutil.which("pg_config")
    if config:
        try:
            found = Path(subprocess.run([config, "--bindir"], capture_output=True, text=True, check=True,
                                        timeout=10).stdout.strip())
            if (found / "initdb").exists():
                return found
        except (OSError, subprocess.SubprocessError):
            pass
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
                      if p.parent.parent.name.isdigit() else 0)
    if versions:
        return versions[-1].parent
    raise NoServer("no PostgreSQL server binaries (initdb) found: install Debian's `postgresql` or set QUIZAPP_PG_BIN")


class PgServer:
    def __init__(self) -> None:
        self.bin = bin_dir()
        self.folder = Path(tempfile.mkdtemp(prefix="quizapp-pg-"))
        self.data = self.folder / "data"
        self.socket = self.folder
        self.as_user: list[str] = []
        self._databases = 0
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise NoServer("running as root and there is no `postgres` user to run the server as") from None
            runuser = shutil.which("runuser") or shutil.which("su")
            if runuser is None:
                raise NoServer("running as root with no runuser/su to start the server as `postgres`")
            self.as_user = [runuser, "-u", "postgres", "--"] if runuser.endswith("runuser") else []
            shutil.chown(self.folder, "postgres")
            os.chmod(self.folder, 0o755)

    def _run(self, *command: str, timeout: float = 120) -> None:
        try:
            subprocess.run([*self.as_user, *command], check=True, capture_output=True, text=True, timeout=timeout)
        except subprocess.CalledProcessError as exc:
            raise NoServer(f"{Path(command[0]).name} failed: {(exc.stderr or exc.stdout).strip()[-300:]}") from None
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise NoServer(f"{Path(command[0]).name} could not run: {exc}") from None

    def start(self, durable: bool = False) -> PgServer:
        # A UTF-8 locale, as a server's usually is (Debian's clusters take the system's): in
        # the C locale pg_trgm indexes no Chinese character, and Chinese searches read every
        # row. (quizapp's text columns sort by bytes in either: COLLATE "C".)
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "--auth=trust",
                  "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync")
        # Durability is not what the tests measure: no fsync, and a small footprint. The
        # benchmark (`durable`) commits as a real server does.
        speed = "" if durable else "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
        options = (f"-k {self.socket} -c listen_addresses='' {speed}"
                   f"-c shared_buffers={'128MB' if durable else '32MB'} -c max_connections=60")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"), "-w",
                  "-o", options, "start")
        self._watch()
        return self

    def _watch(self) -> None:
        """A watchdog that stops the server once this process is gone, however it ended: a
        pytest killed (kill -9, a CI timeout) left its servers running, fsync off, for good.
        It waits for the end of a pipe only this process holds (closed by the kernel when
        the process dies), in a session of its own (a ctrl+c to pytest does not reach it)."""
        stop = [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"]
        watchdog = ("import os, shutil, subprocess, sys\n"
                    "sys.stdin.buffer.read()\n"
                    "if os.path.exists(sys.argv[1]):\n"
                    "    subprocess.run(sys.argv[3:], capture_output=True, timeout=60)\n"
                    "    shutil.rmtree(sys.argv[2], ignore_errors=True)\n")
        self._watchdog = subprocess.Popen(
            [sys.executable, "-c", watchdog, str(self.data / "postmaster.pid"), str(self.folder), *stop],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@/{dbname}?host={self.socket}"

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql)

    def make_template(self) -> None:
        """The TEMPLATE database: migrated to head once; every test database copies it."""
        from quizapp.store.pg import migrate_url

        self.admin(f"CREATE DATABASE {TEMPLATE}")
        migrate_url(self.url(TEMPLATE), "head")
        self.admin(f"ALTER DATABASE {TEMPLATE} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false")

    def new_database(self, empty: bool = False) -> str:
        """A fresh database (a copy of the migrated template, or `empty`); its URL."""
        self._databases += 1
        name = f"t{os.getpid()}_{self._databases}"
        self.admin(f"CREATE DATABASE {name}" + ("" if empty else f" TEMPLATE {TEMPLATE}"))
        return self.url(name)

    @staticmethod
    def name_of(url: str) -> str:
        return url.split("@/", 1)[1].split("?", 1)[0]

    def drop_database(self, url: str) -> None:
        name = self.name_of(url)
        with contextlib.suppress(Exception):  # cleanup only
            self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def restart(self) -> None:
        """Stop and start again (a server restart mid-session)."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "restart")

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop",
                          timeout=60)
        except NoServer:
            pass
        finally:
            deadline = time.monotonic() + 10
            while (self.data / "postmaster.pid").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            shutil.rmtree(self.folder, ignore_errors=True)
            watchdog = getattr(self, "_watchdog", None)
            if watchdog is not None:  # the server is stopped: the watchdog finds nothing to do
                watchdog.stdin.close()
                watchdog.wait(timeout=60)


def start_server(durable: bool = False) -> PgServer:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise NoServer("psycopg is not installed (pip install '.[test]')") from None
    server = PgServer()
    try:
        return server.start(durable)
    except BaseException:
        server.stop()
        raise
