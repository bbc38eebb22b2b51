"""Offline use and safe updates: the service worker, the precache manifest, the PWA files.

The browser tests use a persistent Chromium profile (a temporary user_data_dir), so the
service worker and its caches outlive the browser, as on a tablet: the app is opened once
with the server up, the server is then shut down (socket closed, not an emulated offline
mode) and the app is opened again in a relaunched browser.
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import hashlib
import json
import os
import re
import shutil
import struct
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import build

from .conftest import BOOT_TIMEOUT_MS, INIT_SCRIPT, LAUNCH_ARGS, TABLET, App

PREFIX = "/pyrules/"
READY_OFFLINE = '#pwa-status[data-ready="true"]'
CONTENT_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".whl": "application/octet-stream",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".html": "text/html",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".txt": "text/plain",  # the licences of the vendored libraries (dist/vendor/)
}
# What Chromium may log while the server is gone (the update check of sw.js fails).
OFFLINE_NOISE = ["ERR_CONNECTION_REFUSED", "Failed to update a ServiceWorker", "Failed to load"]


def precache(dist: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((dist / "precache.json").read_text(encoding="utf-8"))
    return data


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def sri(data: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


# --------------------------------------------------------------------------- build output


def test_precache_manifest_lists_every_file_of_the_build(dist_dir: Path) -> None:
    info = json.loads((dist_dir / "version.json").read_text())
    manifest = precache(dist_dir)
    assert manifest["build"] == info["build"] == build.tree_hash(dist_dir)
    on_disk = {p.relative_to(dist_dir).as_posix() for p in dist_dir.rglob("*") if p.is_file()}
    # Not the gzipped snapshot: the engine worker keeps the raw one it restored
    # (test_snapshot.py), so the offline copy does not hold it twice.
    assert set(build.NOT_PRECACHED_BUILD) == {build.SNAPSHOT_FILE}
    assert manifest["files"] == sorted(
        on_disk - {"sw.js", "precache.json", ".nojekyll", build.SNAPSHOT_FILE}
    )
    for needed in (
        "index.html",
        "version.json",
        "manifest.webmanifest",
        "apple-touch-icon.png",
        "icons/icon-192.png",
        "icons/maskable-512.png",
        "js/app/main.js",
        "js/engine/worker.js",
        "js/pwa/pwa.js",
        "css/app.css",
        info["wheel"],
        info["micropip"],
        *(f"pyodide/{name}" for name in build.PYODIDE_FILES),
    ):
        assert needed in manifest["files"], needed
    assert manifest["integrity"] == {
        rel: sri((dist_dir / rel).read_bytes()) for rel in manifest["files"]
    }
    assert manifest["bytes"] == sum((dist_dir / rel).stat().st_size for rel in manifest["files"])


def test_service_worker_carries_the_build_hash_and_the_file_list(dist_dir: Path) -> None:
    info = json.loads((dist_dir / "version.json").read_text())
    template = (build.WEB / "sw.js").read_text()
    sw = (dist_dir / "sw.js").read_text()
    assert '"__BUILD__"' in template and '"__PRECACHE__"' in template
    assert '"__BUILD__"' not in sw and '"__PRECACHE__"' not in sw
    assert f'const BUILD = "{info["build"]}";' in sw
    match = re.search(r"^const PRECACHE = (\{.*?^\});$", sw, re.M | re.S)
    assert match, "no PRECACHE map in dist/sw.js"
    assert json.loads(match.group(1)) == precache(dist_dir)["integrity"]
    assert not re.search(r"^\s*(import|export)\b", sw, re.M), "sw.js must stay a classic script"


def test_a_changed_file_makes_a_new_build(dist_dir: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(dist_dir, site)
    info = json.loads((site / "version.json").read_text())
    old_build, old_sw = info["build"], (site / "sw.js").read_bytes()
    assert build.finish_site(site, dict(info)) == 0  # nothing changed, nothing rewritten
    with (site / "css" / "app.css").open("a") as f:
        f.write("/* v2 */\n")
    # version.json, precache.json, sw.js, and the worker that has version.json baked in
    assert build.finish_site(site, info) == 3 + len(build.BAKED)
    assert info["build"] != old_build
    assert json.loads((site / "version.json").read_text())["build"] == info["build"]
    assert precache(site)["build"] == info["build"]
    assert (site / "sw.js").read_bytes() != old_sw
    assert precache(site)["integrity"]["css/app.css"] == sri((site / "css/app.css").read_bytes())


def test_manifest_icons_and_head_tags(dist_dir: Path) -> None:
    manifest = json.loads((dist_dir / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["lang"] == "fr"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert manifest["display"] == "standalone"
    assert manifest["short_name"] and len(manifest["short_name"]) <= 12
    assert "dés" in manifest["name"] and manifest["description"]
    for key in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest[key]), key
    pngs = {}
    for icon in manifest["icons"]:
        assert not icon["src"].startswith("/"), "icon URLs must be relative (sub-path)"
        if icon["type"] == "image/png":
            size = png_size(dist_dir / icon["src"])
            assert icon["sizes"] == f"{size[0]}x{size[1]}"
            pngs[(icon["purpose"], size[0])] = icon["src"]
    assert {("any", 192), ("any", 512), ("maskable", 192), ("maskable", 512)} <= set(pngs)
    assert png_size(dist_dir / "apple-touch-icon.png") == (180, 180)

    head = (dist_dir / "index.html").read_text(encoding="utf-8").split("</head>")[0]
    for tag in (
        '<link rel="manifest" href="manifest.webmanifest">',
        '<link rel="apple-touch-icon" href="apple-touch-icon.png">',
        '<meta name="apple-mobile-web-app-capable" content="yes">',
        '<meta name="apple-mobile-web-app-title" content="pyrules">',
        '<meta name="apple-mobile-web-app-status-bar-style"',
        '<meta name="theme-color" content="#1d2440">',
        '<link rel="stylesheet" href="css/app.css">',
        '<script type="module" src="js/app/start.js"></script>',
    ):
        assert tag in head, tag
    # start.js loads the offline copy's script (after the app's, whose ready it waits for).
    assert 'import("../pwa/pwa.js")' in (dist_dir / "js/app/start.js").read_text(encoding="utf-8")


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


def test_every_precached_file_is_served_under_a_sub_path(dist_dir: Path) -> None:
    manifest = precache(dist_dir)
    with build.serving(dist_dir, prefix=PREFIX) as base:
        for rel in [*manifest["files"], "sw.js"]:
            status, ctype, body = _get(base + rel)
            assert status == 200, rel
            assert ctype == CONTENT_TYPES[Path(rel).suffix], rel
            if rel != "sw.js":
                assert sri(body) == manifest["integrity"][rel], rel


# --------------------------------------------------------------------------- in Chromium


@pytest.fixture
def launch(playwright_instance: Any, chromium_path: str) -> Iterator[Any]:
    """launch(profile_dir) -> a persistent Chromium context (closed after the test)."""
    contexts: list[Any] = []

    def make(profile: Path) -> Any:
        context = playwright_instance.chromium.launch_persistent_context(
            str(profile),
            executable_path=chromium_path,
            headless=True,
            args=LAUNCH_ARGS,
            viewport=TABLET,
            reduced_motion="reduce",
            locale="fr-FR",
            service_workers="allow",
        )
        context.add_init_script(INIT_SCRIPT)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        with contextlib.suppress(Exception):  # already closed by the test
            context.close()


def page_3d(app: App) -> Any:
    """What decides the 3D dice's warm-up in the page (for a failed wait): its marks, whether
    an update waits or the page is leaving, the dice setting, and whether WebGL answers."""
    return app.page.evaluate(
        """() => ({
          marks: performance.getEntriesByType('mark')
            .map((m) => `${m.name}@${Math.round(m.startTime)}`),
          now: Math.round(performance.now()),
          waiting: document.documentElement.hasAttribute('data-update-waiting'),
          leaving: document.documentElement.hasAttribute('data-leaving'),
          dice: localStorage.getItem('pyrules:dice'),
          webgl: Boolean(document.createElement('canvas').getContext('webgl2')
            || document.createElement('canvas').getContext('webgl')),
          engine: window.pyrules?.debug?.info?.() ?? null,
        })"""
    )


def wait_ready_offline(app: App) -> dict[str, Any]:
    """Wait for the service worker to be active and every file cached; returns the state."""
    app.page.wait_for_selector(READY_OFFLINE, timeout=BOOT_TIMEOUT_MS)
    app.page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    state: dict[str, Any] = app.page.evaluate("() => window.pyrulesOffline.state")
    return state


#: The engine worker stored the raw snapshot it restored (engine.js marks it).
RAW_STORED = "() => performance.getEntriesByName('pyrules:snapshot:stored').length > 0"
CACHE_CHECK = """
async (files) => {
  const names = await caches.keys();
  const out = {names, files: {}};
  for (const name of names) {
    const cache = await caches.open(name);
    for (const rel of files) {
      const hit = await cache.match(new URL(rel, location.href).href);
      if (hit) out.files[rel] = [hit.status, hit.headers.get("Content-Type")];
    }
  }
  return out;
}
"""


def test_opens_and_rolls_with_the_server_gone(launch: Any, dist_dir: Path, tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    manifest = precache(dist_dir)
    with build.serving(dist_dir, prefix=PREFIX) as url:
        context = launch(profile)
        app = App(context, url).open()
        state = wait_ready_offline(app)
        assert state["build"] == manifest["build"]
        assert state["online"] is True
        assert app.page.text_content("#pwa-status") == "Prêt hors ligne"
        assert app.page.get_attribute("#pwa-status", "role") == "status"
        # The first install takes control of the open page (no reload for that).
        app.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        assert app.page.evaluate("() => navigator.serviceWorker.controller.scriptURL") == (
            url + "sw.js"
        )
        # The engine worker kept the raw snapshot it restored, in a cache of its own for
        # this build (test_snapshot.py): the offline start restores it.
        app.page.wait_for_function(RAW_STORED)
        cached = app.page.evaluate(CACHE_CHECK, manifest["files"])
        assert sorted(cached["names"]) == [
            f"pyrules-engine:{PREFIX}:{manifest['build']}",
            f"pyrules:{PREFIX}:{manifest['build']}",
        ]
        assert set(cached["files"]) == set(manifest["files"])
        for rel, (status, ctype) in cached["files"].items():
            assert (status, ctype) == (200, CONTENT_TYPES[Path(rel).suffix]), rel
        assert build.SNAPSHOT_FILE not in cached["files"]
        app.check_clean()
        context.close()

    # The server is shut down and its socket closed: nothing answers any more.
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "version.json", timeout=5)

    app = App(launch(profile), url)
    app.expected_errors = OFFLINE_NOISE
    app.open()  # waits for performance.mark("pyrules:ready") and the play screens
    assert app.page.evaluate("() => navigator.serviceWorker.controller !== null")
    # Offline too, the engine starts from the build's snapshot: the raw copy the worker kept.
    source = app.page.evaluate(
        "() => performance.getEntriesByName('pyrules:boot:snapshot')[0].detail.source"
    )
    assert source == "cache"
    answer = app.call({"op": "roll", "system": "d6", "params": {}})
    assert answer["ok"] is True and answer["result"]["system"] == "d6"
    app.roll()  # through the interface's Roll button
    assert app.page.get_attribute("#result", "data-outcome")
    app.page.wait_for_selector('#pwa-status[data-online="false"][data-ready="true"]')
    assert app.page.text_content("#pwa-status") == "Hors ligne — prêt"
    app.screenshot("offline-relaunched")
    app.check_clean()


def _publish(new: Path, site: Path) -> None:
    """Copy build `new` over the served folder, as a deploy does (changed files get newer
    mtimes, so If-Modified-Since revalidation sees them even within the same second)."""
    later = time.time() + 5
    for path in new.rglob("*"):
        if not path.is_file():
            continue
        target = site / path.relative_to(new)
        if target.is_file() and target.read_bytes() == path.read_bytes():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        os.utime(target, (later, later))


def test_update_banner_switches_build_and_keeps_history(
    launch: Any, dist_dir: Path, tmp_path: Path
) -> None:
    v1, v2, site = tmp_path / "v1", tmp_path / "v2", tmp_path / "site"
    shutil.copytree(dist_dir, v1)
    shutil.copytree(dist_dir, v2)
    with (v2 / "css" / "app.css").open("a") as f:
        f.write("/* version 2 */\n")
    info2 = json.loads((v2 / "version.json").read_text())
    # Version 2 ships its own snapshot file (the same heap, compressed otherwise): the
    # update must download it, and its first start must restore it.
    snapshot2 = gzip.compress(gzip.decompress((v2 / build.SNAPSHOT_FILE).read_bytes()), 1, mtime=0)
    (v2 / build.SNAPSHOT_FILE).write_bytes(snapshot2)
    info2["snapshot"].update(gzip=len(snapshot2), integrity=sri(snapshot2))
    build.finish_site(v2, info2)
    build1 = json.loads((v1 / "version.json").read_text())["build"]
    assert info2["build"] != build1
    shutil.copytree(v1, site)

    with build.serving(site) as url:
        app = App(launch(tmp_path / "profile"), url).open()
        assert wait_ready_offline(app)["build"] == build1
        # Things the player keeps: a roll in the history, the language.
        app.page.click("[data-lang=en]")
        app.page.wait_for_function(
            "() => document.getElementById('pwa-status').textContent === 'Ready offline'"
        )
        app.roll()
        # The roll's luck rank and chance of success are added to its entry once the engine
        # answers: wait for them, so that what is kept is the entry as it will stay.
        app.page.wait_for_function(
            """() => JSON.parse(localStorage.getItem('pyrules:history') || '[]')
                .some((e) => typeof e.luck === 'number' && 'success' in e)"""
        )
        kept = app.page.evaluate("() => localStorage.getItem('pyrules:history')")
        entries = json.loads(kept)
        assert len(entries) == 1

        _publish(v2, site)
        app.page.reload()  # opening the app again: still version 1, a new one is found
        banner = app.page.wait_for_selector(
            '#pwa-update[data-update="waiting"] button[data-action="update"]',
            timeout=BOOT_TIMEOUT_MS,
        )
        assert banner.text_content() == "Update"
        # Tapped as soon as it shows, while the page may still load: the tap itself must not
        # start loading the 3D dice (in Chromium, on a busy machine, a request to the old
        # worker right after skip-waiting left the new one waiting and the reload hung).
        # Downloaded in the background, with the rest of version 2, before the player asks
        # (not its snapshot: the offline copy holds no gzipped snapshot).
        waiting_cache = f"pyrules:/:{info2['build']}"
        stored = app.page.evaluate(
            """async ([name, rel]) => {
              const hit = await (await caches.open(name)).match(new URL(rel, location.href).href);
              return hit ? (await hit.arrayBuffer()).byteLength : null;
            }""",
            [waiting_cache, "css/app.css"],
        )
        assert stored == (v2 / "css" / "app.css").stat().st_size
        assert "New version available" in (app.page.text_content("#pwa-update") or "")
        assert banner.bounding_box()["height"] >= 44
        app.screenshot("update-banner")
        # While the new build waits, the 3D dice's own clock (WARM_AFTER_MS after ready) puts
        # them off instead of loading them: they would be loading when the player taps. Unless
        # the banner came after that clock (a slow check for updates): they are loaded then.
        try:
            app.page.wait_for_function(
                """() => performance.getEntriesByName('pyrules:3d:deferred').length > 0
                    || performance.getEntriesByType('resource')
                        .some((r) => /dice3d/.test(r.name))"""
            )
        except Exception as error:  # seen once in a full run: say what the page was in
            state = page_3d(app)
            raise AssertionError(f"the 3D dice neither deferred nor loaded: {state}") from error
        late = app.page.evaluate(
            """() => {
              const since = performance.getEntriesByName('pyrules:update:waiting')[0].startTime;
              return performance.getEntriesByType('resource')
                .filter((r) => /dice3d|three|cannon/.test(r.name) && r.startTime >= since)
                .map((r) => r.name);
            }"""
        )
        assert not late, "the 3D dice started loading while the update waited"

        navigations: list[str] = []
        app.page.on(
            "framenavigated",
            lambda frame: navigations.append(frame.url) if frame == app.page.main_frame else None,
        )
        # What the old page asks for from the tap until the new one commits.
        asked: list[str] = []
        app.page.on("request", lambda request: None if navigations else asked.append(request.url))
        with app.page.expect_navigation():
            banner.click()
        app.wait_ready()
        assert app.page.evaluate("() => window.pyrules.ready")["build"] == info2["build"]
        # The tap on "Update" loaded no 3D dice (three.js, cannon-es, the dice chunk).
        assert not [u for u in asked if re.search(r"dice3d|three|cannon", u)], asked
        # The first start of version 2 restored version 2's snapshot, from the site (not
        # version 1's raw copy), and kept it raw in place of version 1's.
        boot = app.page.evaluate(
            "() => [performance.getEntriesByType('mark')"
            ".find((m) => m.name.startsWith('pyrules:boot:'))].map((m) => ({name: m.name,"
            " detail: m.detail}))[0]"
        )
        assert boot["name"] == "pyrules:boot:snapshot"
        assert boot["detail"]["source"] == "network"
        assert any(url.endswith("/" + build.SNAPSHOT_FILE) for url in app.requests)
        state = wait_ready_offline(app)
        assert state["build"] == info2["build"] and state["update"] is None
        app.page.wait_for_function(RAW_STORED)
        names = app.page.evaluate("() => caches.keys()")
        # The old build's caches are gone.
        build2 = info2["build"]
        assert sorted(names) == [f"pyrules-engine:/:{build2}", f"pyrules:/:{build2}"]
        assert app.page.evaluate("() => localStorage.getItem('pyrules:history')") == kept
        assert app.page.locator("#history > li:not(.history-empty)").count() == 1
        assert app.page.evaluate("() => document.documentElement.lang") == "en"
        assert navigations == [url], "the page reloads exactly once"
        app.check_clean()


# --------------------------------------------------------------------------- self-healing

CACHE_COMPLETE = """
async ([name, files]) => {
  const cache = await caches.open(name);
  const have = new Set((await cache.keys()).map((r) => r.url));
  return files.filter((rel) => !have.has(new URL(rel, location.href).href)).length;
}
"""
# Resolves with 0 once the cache holds every file (looked at every 100 ms), or with the
# number still missing after `timeout` ms.
UNTIL_COMPLETE = """
async ([name, files, timeout]) => {
  const missing = async () => {
    const cache = await caches.open(name);
    const have = new Set((await cache.keys()).map((r) => r.url));
    return files.filter((rel) => !have.has(new URL(rel, location.href).href)).length;
  };
  const end = Date.now() + timeout;
  for (;;) {
    const n = await missing();
    if (n === 0 || Date.now() > end) return n;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
"""


def test_a_deleted_or_partial_offline_copy_is_refilled(
    launch: Any, dist_dir: Path, tmp_path: Path
) -> None:
    """The cache is deleted, then half emptied: the service worker fetches what is missing
    again, the badge comes back to « Prêt hors ligne », and the app then opens offline."""
    profile = tmp_path / "profile"
    manifest = precache(dist_dir)
    name = f"pyrules:{PREFIX}:{manifest['build']}"
    with build.serving(dist_dir, prefix=PREFIX) as url:
        app = App(launch(profile), url).open()
        wait_ready_offline(app)
        page = app.page
        assert page.evaluate(CACHE_COMPLETE, [name, manifest["files"]]) == 0

        # The whole cache is gone (the player cleared it, the browser evicted it).
        assert page.evaluate("(name) => caches.delete(name)", name)
        page.evaluate("() => window.pyrulesOffline.check()")  # what "online" and focus do
        assert page.evaluate(UNTIL_COMPLETE, [name, manifest["files"], BOOT_TIMEOUT_MS]) == 0
        page.wait_for_selector(READY_OFFLINE, timeout=BOOT_TIMEOUT_MS)

        # Part of it is gone, the runtime among it; the next start refills it.
        gone = ["pyodide/python_stdlib.zip", "pyodide/pyodide.asm.wasm", "js/app/main.js"]
        page.evaluate(
            """async ([name, files]) => {
              const cache = await caches.open(name);
              for (const rel of files) await cache.delete(new URL(rel, location.href).href);
            }""",
            [name, gone],
        )
        assert page.evaluate(CACHE_COMPLETE, [name, manifest["files"]]) == len(gone)
        app.reload()
        assert page.evaluate(UNTIL_COMPLETE, [name, manifest["files"], BOOT_TIMEOUT_MS]) == 0
        page.wait_for_selector(READY_OFFLINE, timeout=BOOT_TIMEOUT_MS)
        assert page.text_content("#pwa-status") == "Prêt hors ligne"
        app.check_clean()
        app.context.close()

    app = App(launch(profile), url)
    app.expected_errors = OFFLINE_NOISE
    app.open()
    assert app.page.evaluate("() => performance.getEntriesByName('pyrules:boot:snapshot').length")
    app.roll()
    app.check_clean()


def test_no_room_for_the_offline_copy_is_said_and_the_app_works_online(
    launch: Any, dist_dir: Path, tmp_path: Path
) -> None:
    """A device that gives the site 2 MB (Chromium's quota override, as a full tablet would):
    the badge says offline use is impossible, with the sizes, and the app works online."""
    manifest = precache(dist_dir)
    with build.serving(dist_dir, prefix=PREFIX) as url:
        context = launch(tmp_path / "profile")
        app = App(context, url)
        cdp = context.new_cdp_session(app.page)
        origin = url.split(PREFIX)[0]
        cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 2_000_000})
        app.open()
        badge = app.page.wait_for_selector(
            '#pwa-status[data-state="quota"]', timeout=BOOT_TIMEOUT_MS
        )
        needed = -(-manifest["bytes"] // 1_000_000)
        text = badge.text_content() or ""
        found = re.fullmatch(
            r"Hors ligne impossible\u00a0: (\d+) Mo nécessaires, (\d+) Mo permis", text)
        assert found, text
        # What the device allowed: what the site could hold before the cache refused more.
        assert int(found.group(1)) == needed and 0 < int(found.group(2)) <= 2, text
        assert f"{needed} Mo" in (badge.get_attribute("title") or "")
        assert badge.get_attribute("data-ready") == "false"
        app.roll()
        # Started again: the service worker answers from the network what it could not keep.
        app.reload()
        app.page.wait_for_selector('#pwa-status[data-state="quota"]', timeout=BOOT_TIMEOUT_MS)
        assert app.page.evaluate("() => navigator.serviceWorker.controller !== null")
        app.roll()
        app.page.click("[data-lang=en]")
        app.page.wait_for_function(
            "() => document.getElementById('pwa-status').textContent.startsWith('Offline not')"
        )
        assert app.page.text_content("#pwa-status") == (
            f"Offline not possible: {needed} MB needed, {found.group(2)} MB allowed"
        )
        app.check_clean()


# An init script, read only: window.__installEnd becomes the end of the first install
# worker ("redundant" when its install failed). It looks from the page's start: looking once
# app.open() had returned missed an install that had already failed, and then waited
# forever inside one evaluate, outside any timeout.
INSTALL_END = """
(async () => {
  const follow = (worker) => {
    const ended = () => ["redundant", "activated"].includes(worker.state);
    if (ended()) window.__installEnd = worker.state;
    else worker.addEventListener("statechange", () => {
      if (ended()) window.__installEnd = worker.state;
    });
  };
  for (;;) {
    const registration = await navigator.serviceWorker.getRegistration();
    if (registration) {
      if (registration.installing) follow(registration.installing);
      else {
        const found = () => follow(registration.installing);
        registration.addEventListener("updatefound", found, { once: true });
      }
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
})();
"""


def test_a_failed_first_install_is_tried_again(
    launch: Any, dist_dir: Path, tmp_path: Path
) -> None:
    """The first install fails (a file of the build cannot be fetched, as when the network
    drops or a deploy is half published) and leaves no worker. Once the file is back, the
    page registers again by itself, without a reload, and becomes ready offline."""
    site = tmp_path / "site"
    shutil.copytree(dist_dir, site)
    gone = site / "icons" / "maskable-512.png"  # precached, never loaded by the page
    kept = tmp_path / "kept.png"
    shutil.move(gone, kept)
    with build.serving(site, prefix=PREFIX) as url:
        app = App(launch(tmp_path / "profile"), url)
        warnings: list[str] = []
        app.page.on("console", lambda m: m.type == "warning" and warnings.append(m.text))
        app.context.add_init_script(INSTALL_END)
        app.open()
        app.page.wait_for_function("() => window.__installEnd !== undefined")
        assert app.page.evaluate("() => window.__installEnd") == "redundant"
        assert app.page.get_attribute("#pwa-status", "data-ready") == "false"
        shutil.move(kept, gone)
        state = wait_ready_offline(app)
        assert state["build"] == precache(dist_dir)["build"]
        app.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        assert any("could not be installed; trying again" in w for w in warnings), warnings
        app.check_clean()


#: What WebKitGTK did under load (seen in CI, then in 1 run of 34 beside four busy loops): it
#: delivered the first worker's "installed" statechange after that worker had taken control
#: of the page, in one batch with "activating" and the controllerchange, the worker still
#: reading "installed". This script makes Chromium deliver it in that order: the page's
#: listener runs after its controllerchange handler, with the worker's state held at
#: "installed"; window.__lateInstalled counts the deliveries.
LATE_INSTALLED = """
window.__lateInstalled = 0;
const add = ServiceWorker.prototype.addEventListener;
ServiceWorker.prototype.addEventListener = function (type, listener, options) {
  if (type !== 'statechange') return add.call(this, type, listener, options);
  const worker = this;
  return add.call(this, type, (event) => {
    if (worker.state !== 'installed' || navigator.serviceWorker.controller) {
      listener.call(worker, event);
      return;
    }
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      Object.defineProperty(worker, 'state', { configurable: true, get: () => 'installed' });
      try {
        listener.call(worker, event);
      } finally {
        delete worker.state;
        window.__lateInstalled += 1;
      }
    }, { once: true });
  }, options);
};
"""


def test_a_first_install_reported_late_is_not_an_update(
    launch: Any, dist_dir: Path, tmp_path: Path
) -> None:
    """The first install's "installed" reaches the page after the worker took control: the
    worker is the page's controller, no new build waits, and no update banner shows."""
    with build.serving(dist_dir, prefix=PREFIX) as url:
        context = launch(tmp_path / "profile")
        context.add_init_script(LATE_INSTALLED)
        app = App(context, url).open()
        wait_ready_offline(app)
        app.page.wait_for_function("() => window.__lateInstalled > 0")
        assert app.page.evaluate("() => window.pyrulesOffline.state.update") is None
        banner = "() => document.getElementById('pwa-update').childElementCount"
        assert app.page.evaluate(banner) == 0
        assert app.page.get_attribute("html", "data-update-waiting") is None
        app.page.click("#roll-button")
        app.page.wait_for_selector("#result .result-card")
        app.check_clean()
