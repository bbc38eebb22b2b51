"""Serving dist/ over HTTP, as GitHub Pages does (MIME types, sub-path, the CSP header)."""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import os
import signal
import sys
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


#: What GitHub Pages sends gzipped to a browser that accepts it: text and wasm, not the other
#: binary types (a .gz, .zip or .whl goes as it is).
GZIPPED = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".webmanifest", ".txt", ".wasm")


@functools.lru_cache(maxsize=64)
def _gzipped(path: str, mtime_ns: int, size: int) -> bytes:
    with open(path, "rb") as f:
        return gzip.compress(f.read(), 6, mtime=0)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a directory with the MIME types Pyodide needs, optionally under a sub-path, and
    with gzip=True compresses what GitHub Pages compresses (GZIPPED)."""

    extensions_map = {  # noqa: RUF012  (the base class declares it a plain attribute)
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **MIME_TYPES,
    }
    prefix = "/"
    quiet = False
    gzip = False

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
        if not self._outside_prefix() and not self._send_gzipped():
            super().do_GET()

    def _send_gzipped(self) -> bool:
        """With gzip on, a file of a GZIPPED type sent compressed; False when not."""
        if not self.gzip or "gzip" not in self.headers.get("Accept-Encoding", ""):
            return False
        path = self.translate_path(self.path.split("?", 1)[0].split("#", 1)[0])
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not path.endswith(GZIPPED) or not os.path.isfile(path):
            return False
        info = os.stat(path)
        body = _gzipped(path, info.st_mtime_ns, info.st_size)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(info.st_mtime)))
        self.end_headers()
        with contextlib.suppress(ConnectionError):  # the browser went away (a test ended)
            self.wfile.write(body)
        return True

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
    gzip: bool = False,
) -> http.server.ThreadingHTTPServer:
    """An HTTP server for `directory` (not started). Port 0 picks a free port.

    With a prefix such as "/pyrules/", the site is served under that sub-path (as GitHub
    Pages does) and every other path answers 404. With gzip, text and wasm go compressed, as
    GitHub Pages sends them.
    """
    handler = type(
        "BoundSiteHandler",
        (SiteHandler,),
        {"prefix": _normalize_prefix(prefix), "quiet": quiet, "gzip": gzip},
    )
    bound = functools.partial(handler, directory=str(directory))
    server_class: type[http.server.ThreadingHTTPServer] = QuietServer
    if ":" in host:  # an IPv6 address such as ::1
        server_class = type(
            "ThreadingHTTPServer6", (server_class,), {"address_family": AF_INET6}
        )
    return server_class((host, port), bound)


class QuietServer(http.server.ThreadingHTTPServer):
    """A browser that hangs up in the middle of a file (a test closing its page while the
    runtime downloads) is no error of the site's: no traceback for it; any other stays."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def server_url(server: http.server.ThreadingHTTPServer, prefix: str = "") -> str:
    host, port = server.server_address[:2]
    if isinstance(host, bytes):
        host = host.decode()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}{_normalize_prefix(prefix)}"


@contextlib.contextmanager
def serving(
    directory: Path | str = DIST, prefix: str = "", host: str = "127.0.0.1", gzip: bool = False
) -> Iterator[str]:
    """Serve `directory` in a background thread; yields the site's base URL (ends with /)."""
    server = make_server(directory, host, 0, prefix, quiet=True, gzip=gzip)
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

