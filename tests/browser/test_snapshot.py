"""Fast start: the Pyodide memory snapshot made at build time, and every way around it.

build.py makes the snapshot under Node (tools/snapshot.mjs) and ships it gzipped in dist/
(version.json "snapshot"); every start restores it ("snapshot"), and any problem with it
ends in a normal start ("fresh", micropip installing the wheels in the page). The boot path
is read from the performance marks engine.js sets (pyrules:boot:fresh | pyrules:boot:snapshot,
detail.fallback: why the snapshot was not used). No timing is asserted here: bench/boot.py
measures.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import json
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

import build

from .conftest import App, local_handle
from .helpers import engine_requests

UNSEEDED = {"op": "roll", "system": "pool", "params": {"pot": 8, "flame": 2}}


def mark(app: App, prefix: str) -> dict[str, Any] | None:
    """{name, detail} of the first performance mark whose name starts with prefix."""
    found: dict[str, Any] | None = app.page.evaluate(
        """(prefix) => {
          const m = performance.getEntriesByType("mark").find((e) => e.name.startsWith(prefix));
          return m ? { name: m.name, detail: m.detail } : null;
        }""",
        prefix,
    )
    return found


def boot_path(app: App) -> tuple[str, str | None]:
    """("snapshot" | "fresh", why the snapshot was not used or None)."""
    found = mark(app, "pyrules:boot:")
    assert found, "no pyrules:boot:* mark"
    return found["name"].rsplit(":", 1)[1], found["detail"]["fallback"]


def unseeded_rolls(app: App, count: int = 3) -> list[tuple[int, list[int]]]:
    rolls = []
    for _ in range(count):
        answer = app.call(UNSEEDED)
        assert answer["ok"], answer
        result = answer["result"]
        rolls.append((result["seed"], [die["final"] for die in result["dice"]]))
    return rolls


def snapshot_info(dist: Path) -> dict[str, Any]:
    info: dict[str, Any] = json.loads((dist / "version.json").read_text())["snapshot"]
    return info


def test_the_build_ships_a_gzipped_snapshot_of_the_engine(dist_dir: Path) -> None:
    info = snapshot_info(dist_dir)
    assert info["url"] == build.SNAPSHOT_FILE
    data = (dist_dir / info["url"]).read_bytes()
    assert data[:2] == b"\x1f\x8b" and len(data) == info["gzip"]
    packed = gzip.decompress(data)
    assert len(packed) == info["packed"] and packed[:4] == build.PACKED_MAGIC
    heap = build.unpack_heap(packed)
    assert len(heap) == info["bytes"] > 10_000_000 and heap[:4] == b"\0snp"
    # The runs of zeros are left out: about half the heap's bytes to decompress and to keep.
    assert len(packed) < 0.6 * len(heap)
    assert build.pack_heap(heap) == packed
    assert info["integrity"] == build._integrity(dist_dir / info["url"])
    # Part of the build hash, not of the offline copy (the worker keeps the raw snapshot).
    precache = json.loads((dist_dir / "precache.json").read_text())
    assert info["url"] not in precache["files"]
    assert info["url"] not in build.GENERATED


def test_first_visit_restores_the_build_snapshot(new_app: Any, site: str) -> None:
    # A profile of its own: a first visit whichever test of the module ran before.
    app = new_app(site, service_workers="allow")
    app.open()
    assert boot_path(app) == ("snapshot", None)
    roll = {"op": "roll", "system": "d6", "params": {}, "seed": 3}
    assert app.call(roll) == local_handle(roll)
    # Nothing of the engine was installed in the page (the worker's own step timings).
    found = mark(app, "pyrules:boot:")
    assert found
    timings = found["detail"]["timings"]
    assert "snapshotRead" in timings and "loadPyodide" in timings
    assert "micropip" not in timings and "installed" not in timings
    # The wasm was compiled from the worker's own early request, and that module is the one
    # the runtime was instantiated with (downloads.js answers Pyodide's instantiateStreaming).
    assert timings["wasmCompiled"] <= timings["wasmInstantiated"] <= timings["loadPyodide"]
    app.check_clean()
    app.context.close()


def test_later_visit_restores_it_and_answers_like_the_engine(app: App) -> None:
    app.reload()
    assert boot_path(app) == ("snapshot", None)
    page = app.page
    assert page.get_attribute("#boot", "data-state") == "ready"
    assert page.is_enabled("#roll-button")
    requests = engine_requests()
    answers = page.evaluate(
        "(requests) => Promise.all(requests.map((r) => window.pyrules.call(r)))", requests
    )
    for request, answer in zip(requests, answers, strict=True):
        assert answer == local_handle(request), f"differs for {request}"
    # And through the interface.
    app.roll_matches("pool", {}, seed=42)


def test_snapshot_boots_draw_fresh_random_numbers(app: App) -> None:
    runs = []
    for _ in range(2):
        app.reload()
        assert boot_path(app)[0] == "snapshot"
        runs.append(unseeded_rolls(app))
    first, second = runs
    seeds = [seed for seed, _ in first + second]
    assert len(set(seeds)) == len(seeds), f"a seed came back: {runs}"
    assert [dice for _, dice in first] != [dice for _, dice in second], runs
    # Each unseeded roll replays from the seed it reports.
    seed, dice = second[0]
    replay = local_handle({**UNSEEDED, "seed": seed})["result"]
    assert [die["final"] for die in replay["dice"]] == dice


def test_two_fresh_profiles_roll_different_seeds(new_app: Any, site: str) -> None:
    """Every player restores the very same heap: the RNG must be reseeded from the OS."""
    seen = []
    for _ in range(2):
        other = new_app(site, service_workers="allow")
        other.open()
        assert boot_path(other) == ("snapshot", None)
        seen.append(unseeded_rolls(other, 2))
        other.context.close()
    seeds = [seed for run in seen for seed, _ in run]
    assert len(set(seeds)) == len(seeds), seen
    assert [d for _, d in seen[0]] != [d for _, d in seen[1]], seen


# --------------------------------------------------------------------------- fallbacks


def _other_pyodide(packed: bytes) -> bytes:
    """The snapshot as another Pyodide build would have made it: Pyodide writes its build id
    (32 bytes) at offset 16 of the snapshot's header; one byte of it is changed."""
    heap = build.unpack_heap(packed)
    assert heap[:4] == b"\0snp"
    return build.pack_heap(heap[:16] + bytes([heap[16] ^ 0xFF]) + heap[17:])


# name -> (how the served snapshot file is changed, what the fallback reason says). The
# worker's reading of a cut, foreign or wrongly sized file is tested below the browser
# (tests/js/snapshot.test.js, fetchSnapshot); here the page boots through a file it cannot
# fetch, and through one only Pyodide itself refuses.
BROKEN: dict[str, tuple[Callable[[bytes], bytes | None], str]] = {
    "missing": (lambda gz: None, "HTTP 404"),
    "another Pyodide": (
        lambda gz: gzip.compress(_other_pyodide(gzip.decompress(gz)), 1),
        "build id mismatch",
    ),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_snapshot_falls_back_to_a_normal_boot(
    case: str, new_app: Any, dist_dir: Path, site: str
) -> None:
    """The snapshot file is replaced on the way (no service worker, so every visit asks the
    server): the worker boots normally, with micropip, and says why."""
    change, reason = BROKEN[case]
    info = snapshot_info(dist_dir)
    broken = change((dist_dir / info["url"]).read_bytes())
    app = new_app(site, service_workers="block")
    app.expected_errors = ["404"] if broken is None else []

    def answer(route: Any) -> None:
        if broken is None:
            route.fulfill(status=404, body="not found")
        else:
            route.fulfill(status=200, body=broken, content_type="application/gzip")

    app.context.route("**/" + info["url"], answer)
    app.open()
    path, fallback = boot_path(app)
    assert path == "fresh"
    assert fallback and reason in fallback, fallback
    # The fallback installed the wheels of version.json in the page.
    wheels = json.loads((dist_dir / "version.json").read_text())["wheels"]
    asked = {url.rsplit("/", 1)[1] for url in app.requests if "/wheels/" in url}
    assert {w["url"].rsplit("/", 1)[1] for w in wheels} <= asked
    assert app.page.is_enabled("#roll-button")
    app.roll_matches("pool", {}, seed=7)
    assert unseeded_rolls(app, 1)
    app.check_clean()
    app.context.close()


def test_the_standard_library_and_lazy_wheels_are_not_on_the_way_to_ready(
    new_app: Any, dist_dir: Path, site: str
) -> None:
    """What the restored heap does not need at once, the standard library's zip and the
    libraries the engine imports at their first use (lark for free dice), does not hold the
    start back: the app is ready, and rolls a pool, while both are held on the way. A
    free-dice roll asked meanwhile waits for them, then is answered as the engine answers
    it."""
    wheels = json.loads((dist_dir / "version.json").read_text())["wheels"]
    lark = next(w["url"] for w in wheels if "/lark-" in w["url"])
    held: list[Any] = []
    app = new_app(site, service_workers="block")
    for rel in (lark, "pyodide/python_stdlib.zip"):
        app.context.route("**/" + rel, lambda route: held.append(route))
    app.open()
    assert boot_path(app) == ("snapshot", None)
    # Asked for once the engine is up, and still held: each call into the page lets
    # Playwright hand the routes over, if it had not yet.
    for _ in range(100):
        if len(held) == 2:
            break
        app.page.evaluate("() => new Promise((done) => setTimeout(done, 50))")
    assert sorted(r.request.url.rsplit("/", 1)[1] for r in held) == sorted(
        [lark.rsplit("/", 1)[1], "python_stdlib.zip"]
    )
    pool = {"op": "roll", "system": "pool", "params": {"pot": 5}, "seed": 11}
    assert app.call(pool) == local_handle(pool)
    free = {"op": "roll", "system": "notation", "params": {"expression": "3d6+2"}, "seed": 11}
    app.page.evaluate(
        "(r) => { window.__free = null; window.pyrules.call(r).then((a) => (window.__free = a)); }",
        free,
    )
    for route in held:
        route.continue_()
    app.page.wait_for_function("() => window.__free !== null")
    assert app.page.evaluate("() => window.__free") == local_handle(free)
    # A QR code (segno) imports more of the standard library, from the zip written late.
    qr = {"op": "qr", "text": "pyrules"}
    assert app.call(qr) == local_handle(qr)
    app.check_clean()
    app.context.close()


# --------------------------------------------------------------------------- the boot's requests


class LoggingHandler(build.SiteHandler):
    """The site's handler, logging each request's (path, Referer) in arrival order."""

    quiet = True
    log: ClassVar[list[tuple[str, str]]] = []

    def do_GET(self) -> None:
        self.log.append((self.path, self.headers.get("Referer", "")))
        super().do_GET()


@contextlib.contextmanager
def served(directory: Path, handler: type[build.SiteHandler]) -> Iterator[str]:
    """`directory` served by `handler` on a port of its own, for as long as the block runs."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(directory))
    )
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield build.server_url(server)
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def logged_site(directory: Path) -> Iterator[tuple[str, list[tuple[str, str]]]]:
    handler = type("Handler", (LoggingHandler,), {"log": []})
    with served(directory, handler) as url:
        yield url, handler.log


#: What a starting worker may ask for: the runtime (Pyodide's loader asks for its own files)
#: and the snapshot.
RUNTIME = {f"pyodide/{name}" for name in build.PYODIDE_FILES} | {build.SNAPSHOT_FILE}


def test_the_boot_asks_for_nothing_before_the_runtime_and_the_snapshot(
    new_app: Any, dist_dir: Path
) -> None:
    """From the server's log: the first requests of the worker (those whose Referer is the
    worker or Pyodide's loader) are the runtime's files and the snapshot, until both the
    wasm and the snapshot are asked for; no version.json or anything else before them."""
    with logged_site(dist_dir) as (url, log):
        app = new_app(url, service_workers="block")
        try:
            check_request_order(app, url, log)
        finally:
            app.context.close()  # before the server goes


#: An init script noting when #pwa-status first gets data-ready="true" (__badgeReadyAt).
BADGE_WATCH = """
new MutationObserver((changes, observer) => {
  const badge = document.getElementById("pwa-status");
  if (badge && badge.dataset.ready === "true") {
    window.__badgeReadyAt = performance.now();
    observer.disconnect();
  }
}).observe(document, {
  subtree: true, childList: true, attributes: true, attributeFilter: ["data-ready"],
});
"""


def test_a_later_visit_looks_at_the_offline_copy_once_the_engine_is_ready(
    new_app: Any, site: str
) -> None:
    """On a later visit (the offline copy in place and in control), pwa.js waits for the
    engine before it asks for the copy's status (the service worker lists every cached file)
    and checks for an update: in WebKit those ran beside the worker's reads of the same
    cache, relayed by the page's main thread, and delayed the engine. The badge says the
    copy is ready only after the engine is."""
    app = new_app(site, service_workers="allow")
    # Read only: when the badge first said "ready offline", in the page's clock.
    app.context.add_init_script(BADGE_WATCH)
    app.open()
    app.page.wait_for_selector('#pwa-status[data-ready="true"]', state="attached")
    assert app.page.evaluate("() => Boolean(navigator.serviceWorker.controller)")
    app.reload()  # a later visit: the page and the engine come from the offline copy
    app.page.wait_for_selector('#pwa-status[data-ready="true"]', state="attached")
    badge, ready = app.page.evaluate(
        "() => [__badgeReadyAt, performance.getEntriesByName('pyrules:ready')[0].startTime]"
    )
    assert badge >= ready, f"the copy's status came {ready - badge:.0f} ms before the engine"
    app.check_clean()
    app.context.close()


def check_request_order(app: App, url: str, log: list[tuple[str, str]]) -> None:
    """The worker's requests, in the order the server got them (see
    test_the_boot_asks_for_nothing_before_the_runtime_and_the_snapshot)."""
    app.open()
    worker_url = url + build.WORKER_FILE
    from_worker = [
        path.lstrip("/")
        for path, referer in list(log)
        if referer == worker_url or referer.startswith(url + "pyodide/")
    ]
    needed = {"pyodide/pyodide.asm.wasm", build.SNAPSHOT_FILE}
    assert needed <= set(from_worker), from_worker
    until = max(from_worker.index(rel) for rel in needed)
    early = from_worker[: until + 1]
    assert set(early) <= RUNTIME, f"asked before the runtime and the snapshot: {early}"
    assert "version.json" not in [path.lstrip("/") for path, _ in log]
    app.check_clean()




# --------------------------------------------------------------------------- the raw copy

#: Ask the page for the worker's stored raw snapshot: {name, header, bytes} of each copy.
RAW_COPIES = """async () => {
  const out = [];
  const key = new URL("engine/snapshot.raw", location.href).href;
  for (const name of await caches.keys()) {
    if (!name.startsWith("pyrules-engine:")) continue;
    const hit = await (await caches.open(name)).match(key);
    out.push({ name, header: hit && hit.headers.get("X-Pyrules-Snapshot"),
               bytes: hit ? (await hit.arrayBuffer()).byteLength : null });
  }
  return out;
}"""
#: Replace the stored raw copy of cache `name` by what `how` makes of it (same headers).
SPOIL = """async ([name, how]) => {
  const cache = await caches.open(name);
  const key = new URL("engine/snapshot.raw", location.href).href;
  const hit = await cache.match(key);
  let bytes = new Uint8Array(await hit.arrayBuffer());
  // The runtime's build id, in the heap's header: the heap's first bytes are the first
  // piece's, after the packing's table (12 bytes and 8 a piece: buildtools/snapshot.py).
  const pieces = new DataView(bytes.buffer).getUint32(8, true);
  if (how === "other-pyodide") bytes[12 + 8 * pieces + 16] ^= 0xff;
  if (how === "truncated") bytes = bytes.slice(0, bytes.length >> 1);
  await cache.put(key, new Response(bytes, { headers: hit.headers }));
}"""
STORED = "() => performance.getEntriesByName('pyrules:snapshot:stored').length > 0"


def boot_mark(app: App) -> dict[str, Any]:
    found = mark(app, "pyrules:boot:")
    assert found
    return found


def make_v2(dist: Path, v2: Path) -> dict[str, Any]:
    """Another build of the site: a changed style sheet and its own snapshot file (the same
    heap, compressed otherwise)."""
    shutil.copytree(dist, v2)
    with (v2 / "css" / "app.css").open("a") as f:
        f.write("/* version 2 */\n")
    info: dict[str, Any] = json.loads((v2 / "version.json").read_text())
    gz = v2 / build.SNAPSHOT_FILE
    gz.write_bytes(gzip.compress(gzip.decompress(gz.read_bytes()), 1, mtime=0))
    info["snapshot"].update(gzip=gz.stat().st_size, integrity=build._integrity(gz))
    build.finish_site(v2, info)
    return info


def test_the_raw_snapshot_is_kept_and_tied_to_its_build(
    new_app: Any, dist_dir: Path, tmp_path: Path
) -> None:
    """A start from the site's file keeps the raw snapshot for this build; the next start
    restores it with no snapshot download. A new build never restores it: not even when a
    copy of it is planted under the new build's name."""
    info1 = json.loads((dist_dir / "version.json").read_text())
    root = tmp_path / "root"
    root.mkdir()
    info2 = make_v2(dist_dir, tmp_path / "v2")
    (root / "app").symlink_to(dist_dir, target_is_directory=True)
    with build.serving(root) as base:
        app = new_app(base + "app/", service_workers="block")
        app.open()
        assert boot_mark(app)["detail"]["source"] == "network"
        app.page.wait_for_function(STORED)
        copies = app.page.evaluate(RAW_COPIES)
        assert copies == [{"name": f"pyrules-engine:/app/:{info1['build']}",
                           "header": info1["snapshot"]["integrity"],
                           "bytes": info1["snapshot"]["packed"]}]
        app.requests.clear()
        app.reload()
        assert boot_mark(app)["name"] == "pyrules:boot:snapshot"
        assert boot_mark(app)["detail"]["source"] == "cache"
        assert not [u for u in app.requests if u.endswith(build.SNAPSHOT_FILE)]
        app.roll_matches("pool", {}, seed=11)

        # Version 2 is published; version 1's copy is planted under version 2's cache name,
        # and the device's hint names version 2 (else the worker would not even look).
        app.page.evaluate(
            """async ([from, to, build]) => {
              const key = new URL("engine/snapshot.raw", location.href).href;
              const hit = await (await caches.open(from)).match(key);
              await (await caches.open(to)).put(key, hit);
              localStorage.setItem("pyrules:engine-kept", JSON.stringify(build));
            }""",
            [f"pyrules-engine:/app/:{info1['build']}", f"pyrules-engine:/app/:{info2['build']}",
             info2["build"]],
        )
        link = root / "app.new"
        link.symlink_to(tmp_path / "v2", target_is_directory=True)
        os.replace(link, root / "app")
        app.reload()
        found = boot_mark(app)
        assert app.page.evaluate("() => window.pyrules.ready")["build"] == info2["build"]
        assert found["name"] == "pyrules:boot:snapshot"
        assert found["detail"]["source"] == "network"
        assert found["detail"]["cachedProblem"] == "stored for another snapshot"
        app.page.wait_for_function(STORED)
        # Version 2's own copy replaced it, and version 1's is gone.
        assert app.page.evaluate(RAW_COPIES) == [{
            "name": f"pyrules-engine:/app/:{info2['build']}",
            "header": info2["snapshot"]["integrity"],
            "bytes": info2["snapshot"]["packed"],
        }]
        app.roll_matches("pool", {}, seed=12)
        app.check_clean()
        app.context.close()


KEPT = "() => localStorage.getItem('pyrules:engine-kept')"
SET_KEPT = """(text) => text === null ? localStorage.removeItem("pyrules:engine-kept")
                                   : localStorage.setItem("pyrules:engine-kept", text)"""


class FailingHandler(build.SiteHandler):
    """The site's handler; while `fail` is set, the gzipped snapshot cannot be had (503), as
    offline, where the offline copy does not hold it."""

    quiet = True
    fail: ClassVar[threading.Event] = threading.Event()

    def do_GET(self) -> None:
        if self.path.endswith(build.SNAPSHOT_FILE) and self.fail.is_set():
            self.send_error(503)
            return
        super().do_GET()


def test_the_worker_looks_for_its_raw_copy_only_when_the_device_says_it_keeps_one(
    new_app: Any, dist_dir: Path
) -> None:
    """A start that stored the raw copy leaves a hint naming its build; the next start reads
    the copy. Without the hint (a first visit, a cleared storage), or with one that names no
    build (not JSON), the worker asks for the site's file at once and does not look in Cache
    Storage, even with the copy there; the hint is written again once the copy is stored
    again. When the site's file cannot be had (offline), the copy is used all the same."""
    build_id = json.loads((dist_dir / "version.json").read_text())["build"]
    handler = type("Handler", (FailingHandler,), {"fail": threading.Event()})
    with served(dist_dir, handler) as url:
        app = new_app(url, service_workers="block")
        app.open()
        assert boot_mark(app)["detail"]["source"] == "network"
        app.page.wait_for_function(STORED)
        assert json.loads(app.page.evaluate(KEPT)) == build_id
        app.reload()
        assert boot_mark(app)["detail"]["source"] == "cache"

        # (Every other shape of the hint: tests/js/kept-snapshot.test.js.)
        for planted in (None, "{not json"):
            copies = app.page.evaluate(RAW_COPIES)
            assert [c["name"] for c in copies] == [f"pyrules-engine:/:{build_id}"]
            app.page.evaluate(SET_KEPT, planted)
            app.requests.clear()
            app.reload()
            found = boot_mark(app)
            assert found["name"] == "pyrules:boot:snapshot", planted
            assert found["detail"]["source"] == "network", planted
            assert found["detail"]["cachedProblem"] is None
            assert [u for u in app.requests if u.endswith(build.SNAPSHOT_FILE)], planted
            app.roll_matches("pool", {}, seed=21)
            app.page.wait_for_function(STORED)
            assert json.loads(app.page.evaluate(KEPT)) == build_id

        # No hint, and the site's file cannot be had: the copy kept is read after all.
        app.page.evaluate(SET_KEPT, None)
        handler.fail.set()
        app.reload()
        found = boot_mark(app)
        assert (found["name"], found["detail"]["source"]) == ("pyrules:boot:snapshot", "cache")
        app.roll_matches("pool", {}, seed=22)
        app.check_clean()
        app.context.close()


#: Every message of the engine's worker as the page receives it: {at (ms since the epoch,
#: the clock the worker's marks are turned into with their origin), id, type}.
WORKER_MESSAGES = """(() => {
  const seen = (self.__workerMessages = []);
  const Base = self.Worker;
  self.Worker = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const data = event.data || {};
        seen.push({ at: performance.timeOrigin + performance.now(), id: data.id ?? null,
                    type: data.type ?? null });
      });
    }
  };
})();"""


def test_the_raw_snapshot_is_stored_once_the_page_has_its_answers(
    new_app: Any, site: str
) -> None:
    """Storing the raw copy holds the worker's thread (the 15.8 MB are copied into the
    cache), and the page asks its first questions the moment it hears "ready" (the systems'
    description it draws from, then the odds): the copy waits until they are answered."""
    app = new_app(site, service_workers="block")
    app.context.add_init_script(WORKER_MESSAGES)
    app.open()
    app.page.wait_for_function(STORED)
    messages = app.page.evaluate("() => window.__workerMessages")
    ready = next(m["at"] for m in messages if m["type"] == "ready")
    answers = [m["at"] for m in messages if m["id"] is not None and m["at"] > ready]
    assert answers, messages  # the page's first question after ready was answered
    detail = boot_mark(app)["detail"]
    began = detail["origin"] + mark(app, "pyrules:snapshot:stored")["detail"]["began"]
    assert began > answers[0], (began - ready, [a - ready for a in answers])
    app.context.close()


@pytest.mark.parametrize(
    ("how", "path", "problem"),
    [
        # Refused before the restore: the site's file is fetched instead.
        ("truncated", "snapshot", "bytes, expected"),
        # Refused by Pyodide: the start falls back to a normal boot, as with a bad file.
        ("other-pyodide", "fresh", None),
    ],
)
def test_a_corrupt_raw_copy_falls_back_and_is_fetched_again(
    how: str, path: str, problem: str | None, new_app: Any, site: str
) -> None:
    app = new_app(site, service_workers="block")
    app.open()
    app.page.wait_for_function(STORED)
    [copy] = app.page.evaluate(RAW_COPIES)
    app.page.evaluate(SPOIL, [copy["name"], how])
    app.reload()
    found = boot_mark(app)
    assert found["name"] == f"pyrules:boot:{path}"
    if problem:
        assert problem in found["detail"]["cachedProblem"]
    else:
        assert found["detail"]["fallback"].startswith("stored copy:"), found["detail"]
        assert "build id mismatch" in found["detail"]["fallback"]
    app.roll_matches("pool", {}, seed=5)
    # The site's file was fetched again and stored raw in its place: the next start uses it.
    app.page.wait_for_function(STORED)
    assert app.page.evaluate(RAW_COPIES) == [copy]
    app.reload()
    assert boot_mark(app)["name"] == "pyrules:boot:snapshot"
    assert boot_mark(app)["detail"]["source"] == "cache"
    app.check_clean()
    app.context.close()


class HoldingHandler(build.SiteHandler):
    """The site's handler; while `hold` is set, a request for the gzipped snapshot waits
    until `release` is set."""

    quiet = True
    hold: ClassVar[threading.Event] = threading.Event()
    release: ClassVar[threading.Event] = threading.Event()

    def do_GET(self) -> None:
        if self.path.endswith(build.SNAPSHOT_FILE) and self.hold.is_set():
            self.release.wait(120)
        super().do_GET()


#: When the page first painted content (ms from navigation), or null.
PAINTED_AT = (
    "() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"
)
READY_AT = "() => performance.getEntriesByName('pyrules:ready')[0].startTime"
IPAD_SAFARI = (
    "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)"
    " Version/17.5 Mobile/15E148 Safari/604.1"
)
#: An init script noting when the roll form's first input was drawn (window.__formsAt).
FORMS_WATCH = """
new MutationObserver((changes, observer) => {
  if (document.querySelector(".side-form[data-system] input")) {
    window.__formsAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { subtree: true, childList: true });
"""


def test_a_later_visit_draws_the_page_once_the_engine_has_its_files(
    new_app: Any, dist_dir: Path
) -> None:
    """On a later visit in WebKit (an iPad's Safari, told by its user agent) the page is
    neither drawn nor its script run until the engine's worker has the runtime's wasm and
    the snapshot (WebKit relays both through the page's thread), 1.5 s at most: with the kept
    snapshot gone and the site's copy held back, nothing is painted and the forms come only
    after that wait, the engine once the copy comes; then everything works. A first visit is
    drawn at once. (tests/engines runs the real WebKit's later visits.)"""
    handler = type("Handler", (HoldingHandler,), {
        "hold": threading.Event(), "release": threading.Event()})
    with served(dist_dir, handler) as url:
        app = new_app(url, service_workers="allow", user_agent=IPAD_SAFARI)
        try:
            app.open()
            assert app.page.evaluate(PAINTED_AT) < app.page.evaluate(READY_AT)
            app.page.wait_for_selector('#pwa-status[data-ready="true"]', state="attached")
            app.page.wait_for_function(STORED)
            # A planted fault: the kept raw snapshot is gone, so the next start fetches the
            # site's.
            app.page.evaluate(
                "async () => { for (const name of await caches.keys())"
                " if (name.startsWith('pyrules-engine:')) await caches.delete(name); }"
            )
            app.context.add_init_script(FORMS_WATCH)  # read only
            handler.hold.set()
            app.page.reload(wait_until="commit")
            app.page.wait_for_selector(".side-form[data-system] input")
            formed = app.page.evaluate("() => window.__formsAt")
            assert formed >= 1500, f"forms drawn at {formed:.0f} ms, the engine's files held"
            app.page.wait_for_function(f"() => ({PAINTED_AT})() !== null")
            painted = app.page.evaluate(PAINTED_AT)
            assert painted >= 1500, f"first painted at {painted:.0f} ms, the engine's files held"
            assert not app.page.evaluate(
                "() => performance.getEntriesByName('pyrules:ready').length > 0"
            )
            handler.release.set()
            app.wait_ready()
            assert boot_path(app) == ("snapshot", None)
            app.roll_matches("pool", {}, seed=42)
            app.check_clean()
        finally:
            handler.release.set()
            app.context.close()  # before the server goes
