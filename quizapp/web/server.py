"""`quizapp serve`: the same TUI in a browser, through textual-serve.

textual-serve runs one quizapp process per browser tab (the TUI's own command, with the
web driver) and relays the terminal over a websocket. It has no authentication of its own,
so this server adds one: a random token, printed once at start in the URL, required on every
request — the page, its static files and the websocket. The page presents it once in the
query (`?token=…`); the server answers with an HttpOnly, SameSite=Strict cookie that the
page's later requests carry. A request without either gets 403 and nothing else. Loopback
may do without (`--no-token`); any other address may not.

The page is self-contained: textual-serve's template loads its font from Google's CDN; ours
uses the Roboto Mono files textual-serve ships under /static, and no other URL.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import secrets
import shlex
import signal
import socket
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from textual_serve import download_manager
from textual_serve.server import Server, to_int

TEMPLATES = Path(__file__).resolve().parent / "templates"
# textual-serve ends a download whose next chunk takes over 4 s to come from the app (the
# browser reports it cancelled): a busy machine, or a large export being read, can take that
# long. Its module constant is read at each chunk; a minute still ends a dead app's download.
DOWNLOAD_CHUNK_TIMEOUT_S = 60
download_manager.DOWNLOAD_TIMEOUT = DOWNLOAD_CHUNK_TIMEOUT_S
COOKIE = "quizapp_token"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def app_command(db: str | None, lang: str | None, content: Sequence[str]) -> str:
    """The TUI's own command line, run by textual-serve for each browser session."""
    argv = [sys.executable, "-m", "quizapp.cli.app_cmd"]
    if db:
        argv += ["--db", db]
    if lang:
        argv += ["--lang", lang]
    for folder in content:
        argv += ["--content", folder]
    return shlex.join(argv)


class QuizServer(Server):
    """textual-serve's server with a token check on every request and our own page."""

    def __init__(self, command: str, host: str, port: int, token: str | None, title: str = "quizapp",
                 lang: str = "en") -> None:
        super().__init__(command, host=host, port=port, title=title, templates_path=TEMPLATES)
        self.token = token
        self.lang = lang  # of the lines printed in the terminal

    @property
    def url(self) -> str:
        host = self.host
        if host in ("0.0.0.0", "::"):  # every address: name one a browser can reach
            host = socket.gethostname()
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}/" + (f"?token={self.token}" if self.token else "")

    def _allowed(self, request: web.Request) -> bool:
        if self.token is None:
            return True
        given = request.query.get("token") or request.cookies.get(COOKIE) or ""
        return hmac.compare_digest(given.encode(), self.token.encode())

    @web.middleware
    async def _check_token(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not self._allowed(request):
            raise web.HTTPForbidden(text="quizapp: this address needs the URL with its token, as `quizapp serve` printed it\n")
        response = await handler(request)
        if self.token is not None and request.query.get("token") and isinstance(response, web.Response):
            response.set_cookie(COOKIE, self.token, httponly=True, samesite="Strict")
        return response

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self._check_token)
        return app

    async def on_startup(self, app: web.Application) -> None:
        """textual-serve prints its logo and address here, before the port is bound."""

    def _listening(self, *_: object) -> None:
        # Called by aiohttp once the socket listens: a script (or a test) that waits for
        # this line can connect at once. One line with the address; the token is in it.
        from quizapp.i18n import Translator

        t = Translator(self.lang)
        self.console.print(t("cli.serve.served_on", url=self.url), highlight=False, soft_wrap=True)
        self.console.print(t("cli.serve.stop"), highlight=False)

    def serve(self, debug: bool = False) -> None:
        """textual-serve's `serve`, with the address printed once the port listens."""
        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        loop.add_signal_handler(signal.SIGINT, self.request_exit)
        loop.add_signal_handler(signal.SIGTERM, self.request_exit)
        web.run_app(self._make_app(), host=self.host, port=self.port, handle_signals=False, loop=loop,
                    print=self._listening)

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """The page, with every URL relative to the address the browser used (textual-serve
        builds them from the bind address: `0.0.0.0` or an SSH tunnel's far end would
        not work)."""
        scheme = "wss" if request.secure else "ws"
        return {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"{scheme}://{request.host}/ws",
            "config": {"static": {"url": "/static/"}},
            "application": {"name": self.title},
        }


def serve(command: str, host: str, port: int, token: str | None) -> None:
    QuizServer(command, host, port, token).serve()


def new_token() -> str:
    return secrets.token_urlsafe(24)
