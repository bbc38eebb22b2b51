"""A loopback HTTP server that shapes the link like a modest connection to GitHub Pages.

- one shared budget of RATE_BPS (20 Mbit/s) for every response in flight: a FIFO pipe,
  each chunk waits for its turn on the wire;
- LATENCY_S (40 ms) before each response starts (the round trip of a request);
- gzip (Content-Encoding) for text and wasm when the browser accepts it, as Pages does; other
  binary types (zip, gz, whl, png) go as they are.

It counts the body bytes it sends (`ShapedServer.sent`, reset with `reset()`), so a bench can
report the bytes fetched before ready. Used by bench/boot.py.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import build

RATE_BPS = 20_000_000
LATENCY_S = 0.040
CHUNK = 16 * 1024
COMPRESSED = (
    "text/",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "application/wasm",
    "image/svg+xml",
)


class Pipe:
    """One shared link: chunks are sent one after another at `rate` bits per second."""

    def __init__(self, rate_bps: int) -> None:
        self.bytes_per_s = rate_bps / 8
        self.lock = threading.Lock()
        self.free_at = 0.0
        self.sent = 0

    def send(self, out: Any, data: bytes) -> None:
        for start in range(0, len(data), CHUNK):
            chunk = data[start : start + CHUNK]
            with self.lock:
                begin = max(time.monotonic(), self.free_at)
                self.free_at = begin + len(chunk) / self.bytes_per_s
                done_at = self.free_at
                self.sent += len(chunk)
            delay = done_at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            out.write(chunk)


@functools.lru_cache(maxsize=256)
def _gzipped(path: str, mtime_ns: int) -> bytes:
    return gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)


class ShapedHandler(build.SiteHandler):
    pipe: Pipe
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path.split("?", 1)[0]))
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            self.send_error(404)
            return
        ctype = self.guess_type(str(path))
        data = path.read_bytes()
        encoding = None
        if ctype.startswith(COMPRESSED) and "gzip" in self.headers.get("Accept-Encoding", ""):
            data = _gzipped(str(path), path.stat().st_mtime_ns)
            encoding = "gzip"
        time.sleep(LATENCY_S)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.end_headers()
        self.pipe.send(self.wfile, data)


class ShapedServer:
    def __init__(self, pipe: Pipe, base: str) -> None:
        self.pipe = pipe
        self.base = base

    @property
    def sent(self) -> int:
        return self.pipe.sent

    def reset(self) -> None:
        with self.pipe.lock:
            self.pipe.sent = 0
            self.pipe.free_at = 0.0


@contextlib.contextmanager
def shaped(directory: Path, rate_bps: int = RATE_BPS) -> Iterator[ShapedServer]:
    """Serve `directory` through a shaped link in a background thread."""
    pipe = Pipe(rate_bps)
    handler = type("BoundShapedHandler", (ShapedHandler,), {"pipe": pipe, "quiet": True})
    bound = functools.partial(handler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), bound)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield ShapedServer(pipe, build.server_url(server))
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
