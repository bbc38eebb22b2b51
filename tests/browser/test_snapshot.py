"""Fast start: the Pyodide memory snapshot made at build time, and every way around it.

build.py makes the snapshot under Node (tools/snapshot.mjs) and ships it gzipped in dist/
(version.json "snapshot"); every start restores it ("snapshot"), and any problem with it
ends in a normal start ("fresh", micropip installing the wheels in the page). The boot path
is read from the performance marks engine.js sets (pyrules:boot:fresh | pyrules:boot:snapshot,
detail.fallback: why the snapshot was not used). No timing is asserted here: bench/boot.py
measures.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import build

from .conftest import App, local_handle
from .test_boot import engine_requests

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
    raw = gzip.decompress(data)
    assert len(raw) == info["bytes"] > 10_000_000
    assert info["integrity"] == build._integrity(dist_dir / info["url"])
    # Part of the build hash and of the offline copy.
    precache = json.loads((dist_dir / "precache.json").read_text())
    assert info["url"] in precache["files"]
    assert info["url"] not in build.GENERATED


def test_first_visit_restores_the_build_snapshot(new_app: Any, site: str) -> None:
    # A profile of its own: a first visit whichever test of the module ran before.
    app = new_app(site)
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
        other = new_app(site)
        other.open()
        assert boot_path(other) == ("snapshot", None)
        seen.append(unseeded_rolls(other, 2))
        other.context.close()
    seeds = [seed for run in seen for seed, _ in run]
    assert len(set(seeds)) == len(seeds), seen
    assert [d for _, d in seen[0]] != [d for _, d in seen[1]], seen


# --------------------------------------------------------------------------- fallbacks


def _junk_of_size(size: int) -> bytes:
    """Bytes of the snapshot's size that are not a snapshot (not gzip either)."""
    pattern = bytes(range(1, 251))
    return (pattern * (size // len(pattern) + 1))[:size]


def _other_pyodide(raw: bytes) -> bytes:
    """The snapshot as another Pyodide build would have made it: Pyodide writes its build id
    (32 bytes) at offset 16 of the snapshot's header; one byte of it is changed."""
    assert raw[:4] == b"\0snp"
    return raw[:16] + bytes([raw[16] ^ 0xFF]) + raw[17:]


# name -> (how the served snapshot file is changed, what the fallback reason says)
BROKEN: dict[str, tuple[Callable[[bytes], bytes | None], str]] = {
    "missing": (lambda gz: None, "HTTP 404"),
    "truncated": (lambda gz: gz[: len(gz) // 2], ""),
    "corrupt": (lambda gz: gzip.compress(_junk_of_size(len(gzip.decompress(gz))), 1), "magic"),
    "not gzip, wrong size": (lambda gz: b"\0" * 1000, "1000 bytes"),
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
