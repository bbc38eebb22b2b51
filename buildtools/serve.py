"""Serving dist/ over HTTP, as GitHub Pages does (MIME types, sub-path, the CSP header)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from socket import AF_INET6
from typing import Any

from .config import (
    DIST,
    MIME_TYPES,
    BuildError,
)
from .site import build


def _normalize_prefix(prefix: str) -> str:
    prefix = "/" + prefix.strip("/")
    return "/" if prefix == "/" else prefix + "/"


# The Content-Security-Policy of web/index.html's meta tag, also sent as an HTTP header by the
# local server: a header covers the worker scripts too (a meta tag only covers the page), so the
# tests run the engine under it. GitHub Pages cannot send headers: there only the meta tag acts.
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; "
    "base-uri 'self'"
)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a directory with the MIME types Pyodide needs, optionally under a sub-path."""

    extensions_map = {  # noqa: RUF012  (the base class declares it a plain attribute)
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **MIME_TYPES,
    }
    prefix = "/"
    quiet = False

    def _outside_prefix(self) -> bool:
        if self.prefix == "/":
            return False
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path == self.prefix.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.prefix)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return True
        if not path.startswith(self.prefix):
            self.send_error(404, "Not under " + self.prefix)
            return True
        return False

    def do_GET(self) -> None:
        if not self._outside_prefix():
            super().do_GET()

    def do_HEAD(self) -> None:
        if not self._outside_prefix():
            super().do_HEAD()

    def translate_path(self, path: str) -> str:
        if self.prefix != "/" and path.startswith(self.prefix):
            path = path[len(self.prefix) - 1 :]
        return super().translate_path(path)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def make_server(
    directory: Path | str = DIST,
    host: str = "127.0.0.1",
    port: int = 0,
    prefix: str = "",
    quiet: bool = False,
) -> http.server.ThreadingHTTPServer:
    """An HTTP server for `directory` (not started). Port 0 picks a free port.

    With a prefix such as "/pyrules/", the site is served under that sub-path (as GitHub
    Pages does) and every other path answers 404.
    """
    handler = type(
        "BoundSiteHandler",
        (SiteHandler,),
        {"prefix": _normalize_prefix(prefix), "quiet": quiet},
    )
    bound = functools.partial(handler, directory=str(directory))
    server_class: type[http.server.ThreadingHTTPServer] = http.server.ThreadingHTTPServer
    if ":" in host:  # an IPv6 address such as ::1
        server_class = type(
            "ThreadingHTTPServer6", (server_class,), {"address_family": AF_INET6}
        )
    return server_class((host, port), bound)


def server_url(server: http.server.ThreadingHTTPServer, prefix: str = "") -> str:
    host, port = server.server_address[:2]
    if isinstance(host, bytes):
        host = host.decode()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}{_normalize_prefix(prefix)}"


@contextlib.contextmanager
def serving(
    directory: Path | str = DIST, prefix: str = "", host: str = "127.0.0.1"
) -> Iterator[str]:
    """Serve `directory` in a background thread; yields the site's base URL (ends with /)."""
    server = make_server(directory, host, 0, prefix, quiet=True)
    thread = threading.Thread(
        target=server.serve_forever, args=(0.05,), name="pyrules-http", daemon=True
    )
    thread.start()
    try:
        yield server_url(server, prefix)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def serve(host: str, port: int, prefix: str) -> int:
    build()
    try:
        server = make_server(DIST, host, port, prefix)
    except OSError as error:
        raise BuildError(
            f"cannot serve on {host}:{port}: {error.strerror} (try --port 0)"
        ) from None
    print(f"Serving dist/ at {server_url(server, prefix)}  (Ctrl-C to stop)", flush=True)
    signal.signal(signal.SIGTERM, _interrupt)
    # Ctrl-C stops it even when started as a background job, which inherits SIGINT ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nStopped.", flush=True)
    finally:
        server.server_close()
    return 0

