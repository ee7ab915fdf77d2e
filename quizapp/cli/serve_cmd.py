"""`quizapp serve`: the TUI in a browser (textual-serve), behind a token."""

from __future__ import annotations

import argparse
import errno
import socket

from quizapp.cli.errors import UsageError


def _port_free(host: str, port: int) -> UsageError | None:
    """Why `host:port` cannot be bound, or None; asked before textual-serve starts, whose
    own failure is a traceback."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return UsageError(key="cli.error.port_in_use", port=port, host=host)
        return UsageError(key="cli.error.cannot_listen", host=host, port=port, reason=exc.strerror or exc)
    return None


def cmd_serve(args: argparse.Namespace) -> int:
    from quizapp.web.server import QuizServer, app_command, is_loopback, new_token

    if not 0 < args.port < 65536:
        raise UsageError(key="cli.error.port_range", port=args.port)
    if args.no_token and not is_loopback(args.host):
        raise UsageError(key="cli.error.no_token_not_loopback", host=args.host)
    problem = _port_free(args.host, args.port)
    if problem:
        raise problem
    # The served TUI gets --lang only if it was given: otherwise it follows Settings, as a
    # terminal's does.
    command = app_command(args.db, getattr(args, "given_lang", args.lang), args.content or [])
    QuizServer(command, args.host, args.port, None if args.no_token else new_token(), lang=args.lang).serve()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="serve the TUI in a browser (textual-serve)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--no-token", action="store_true",
                       help="no token in the URL (loopback only: anyone on this machine can then connect)")
    serve.set_defaults(handler=cmd_serve)
