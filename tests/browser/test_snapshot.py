"""Fast start: the Pyodide memory snapshot kept on the device, and every way around it.

The first visit boots Pyodide normally ("fresh"), then stores a snapshot of it in Cache
Storage; later visits restore it ("snapshot"). The boot path is read from the performance
marks engine.js sets (pyrules:boot:fresh | pyrules:boot:snapshot, pyrules:snapshot:stored).
No timing is asserted here: bench/boot.py measures.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import build

from .conftest import App, local_handle
from .test_boot import engine_requests

# Mirrors web/js/snapshot.js: the cache name and entries, relative to the site's root.
SNAPSHOT_CACHE = "pyrules-snapshot:/"
SNAPSHOT_ENTRY = "pyrules-snapshot.bin"
FAILURES_ENTRY = "pyrules-snapshot-failures.json"
STORE_TIMEOUT_MS = 60_000
UNSEEDED = {"op": "roll", "system": "pool", "params": {"pot": 8, "flame": 2}}
# A browser without service workers, as the app sees it: each visit asks the server.
NO_SERVICE_WORKER = "delete Navigator.prototype.serviceWorker;"


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
    """("snapshot" | "fresh", why a stored snapshot was not used or None)."""
    found = mark(app, "pyrules:boot:")
    assert found, "no pyrules:boot:* mark"
    return found["name"].rsplit(":", 1)[1], found["detail"]["fallback"]


def wait_stored(app: App) -> dict[str, Any]:
    app.page.wait_for_function(
        "() => performance.getEntriesByType('mark')"
        ".some((m) => m.name.startsWith('pyrules:snapshot:'))",
        timeout=STORE_TIMEOUT_MS,
    )
    found = mark(app, "pyrules:snapshot:")
    assert found and found["name"] == "pyrules:snapshot:stored", found
    detail: dict[str, Any] = found["detail"]
    return detail


def stored_entry(app: App) -> dict[str, Any] | None:
    """Headers and size of the stored snapshot, read from the page (same origin)."""
    entry: dict[str, Any] | None = app.page.evaluate(
        """async ([name, key]) => {
          const cache = await caches.open(name);
          const response = await cache.match(new URL(key, location.href).href);
          if (!response) return null;
          const headers = Object.fromEntries(response.headers.entries());
          return { headers, bytes: (await response.arrayBuffer()).byteLength };
        }""",
        [SNAPSHOT_CACHE, SNAPSHOT_ENTRY],
    )
    return entry


def unseeded_rolls(app: App, count: int = 3) -> list[tuple[int, list[int]]]:
    rolls = []
    for _ in range(count):
        answer = app.call(UNSEEDED)
        assert answer["ok"], answer
        result = answer["result"]
        rolls.append((result["seed"], [die["final"] for die in result["dice"]]))
    return rolls


def test_first_visit_boots_fresh_and_stores_a_snapshot(app: App, dist_dir: Path) -> None:
    assert boot_path(app) == ("fresh", None)
    # The worker answers at once, while the snapshot waits to be written.
    roll = {"op": "roll", "system": "d6", "params": {}, "seed": 3}
    assert app.call(roll) == local_handle(roll)
    detail = wait_stored(app)
    assert detail["cache"] == SNAPSHOT_CACHE
    assert detail["key"] == app.base_url + SNAPSHOT_ENTRY
    assert detail["bytes"] > 10_000_000
    info = json.loads((dist_dir / "version.json").read_text())
    entry = stored_entry(app)
    assert entry is not None
    assert entry["bytes"] == detail["bytes"]
    assert entry["headers"]["x-pyrules-build"] == info["build"]
    assert entry["headers"]["x-pyodide-version"] == info["pyodide"]
    assert entry["headers"]["x-snapshot-bytes"] == str(detail["bytes"])
    # Not a name the service worker ever deletes ("pyrules:<scope>:<build>").
    assert not SNAPSHOT_CACHE.startswith("pyrules:")


def test_later_visit_restores_the_snapshot_and_answers_like_the_engine(app: App) -> None:
    wait_stored(app)
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


def test_a_corrupt_snapshot_falls_back_to_a_normal_boot_and_is_replaced(app: App) -> None:
    """Garbage of the right size under the right headers: Pyodide refuses it, the worker
    boots normally, counts the failure, and stores a good snapshot again."""
    size = app.page.evaluate(
        """async ([name, key]) => {
          const cache = await caches.open(name);
          const url = new URL(key, location.href).href;
          const good = await cache.match(url);
          const size = Number(good.headers.get("X-Snapshot-Bytes"));
          const junk = new Uint8Array(size);
          for (let i = 0; i < size; i += 65536) {
            crypto.getRandomValues(junk.subarray(i, Math.min(size, i + 65536)));
          }
          await cache.put(url, new Response(junk, { headers: good.headers }));
          return size;
        }""",
        [SNAPSHOT_CACHE, SNAPSHOT_ENTRY],
    )
    assert size > 10_000_000
    app.reload()
    path, fallback = boot_path(app)
    assert path == "fresh"
    assert fallback and "magic" in fallback, fallback
    assert app.page.is_enabled("#roll-button")
    app.roll_matches("pool", {}, seed=7)
    failures = app.page.evaluate(
        """async ([name, key]) => {
          const cache = await caches.open(name);
          const response = await cache.match(new URL(key, location.href).href);
          return response ? response.json() : null;
        }""",
        [SNAPSHOT_CACHE, FAILURES_ENTRY],
    )
    assert failures is not None and failures["count"] == 1
    wait_stored(app)
    app.reload()
    assert boot_path(app) == ("snapshot", None)
    assert unseeded_rolls(app, 1)


def _touch_later(site: Path, names: tuple[str, ...]) -> None:
    """Newer mtimes, so If-Modified-Since revalidation sees the change within a second."""
    later = time.time() + 5
    for name in names:
        os.utime(site / name, (later, later))


def test_a_new_version_discards_the_old_snapshot(
    new_app: Any, dist_dir: Path, tmp_path: Path
) -> None:
    """A deploy changes the build hash: the stored snapshot is of no use and is replaced.

    No service worker here (it would keep serving the old build until the player updates):
    each visit reads version.json from the server.
    """
    site = tmp_path / "site"
    shutil.copytree(dist_dir, site)
    with build.serving(site) as url:
        app = new_app(url)
        app.context.add_init_script(NO_SERVICE_WORKER)
        app.open()
        assert app.page.evaluate("() => 'serviceWorker' in navigator") is False
        assert boot_path(app) == ("fresh", None)
        wait_stored(app)
        old = stored_entry(app)
        assert old is not None

        info = json.loads((site / "version.json").read_text())
        with (site / "css" / "pwa.css").open("a") as f:
            f.write("/* a new version */\n")
        build.finish_site(site, info)
        _touch_later(site, ("css/pwa.css", *build.GENERATED))
        assert info["build"] != old["headers"]["x-pyrules-build"]

        app.reload()
        assert boot_path(app) == ("fresh", "snapshot of another version")
        assert app.call({"op": "version"})["ok"]
        wait_stored(app)
        new = stored_entry(app)
        assert new is not None
        assert new["headers"]["x-pyrules-build"] == info["build"]
        app.reload()
        assert boot_path(app) == ("snapshot", None)
        app.check_clean()
        app.context.close()
