"""Time the app's start in Chromium against a bare Pyodide page: ``python bench/boot.py``.

Builds dist/, serves it next to a bare page (a temporary folder holding a link to dist/ as
app/ and bare/, a page that only calls loadPyodide() from app/pyodide/), then, in one
headless Chromium (Debian's, or $PYRULES_CHROMIUM; never a downloaded one), repeats for
--rounds rounds, interleaved so that noise hits every measure alike:

    bare    a fresh profile opens the bare page: navigation -> loadPyodide() resolved
    first   a fresh profile opens the app: navigation -> performance mark "pyrules:ready"
    later   the same profile opens the app again, once the snapshot is stored and the
            service worker has cached the app: navigation -> "pyrules:ready"
    calm    a fresh profile with prefers-reduced-motion (the app runs no CSS animation)
            opens the app: what the page's animations cost a first visit

It prints one Markdown table of medians (with min-max) and the ratios to the bare page,
checked against the targets, plus the round trip of a roll through window.pyrules.call,
the odds of a big pool timed inside Pyodide (in the bare page, after its timing, with the
wheel unpacked there; cold = first call, warm = repeated) and the longest main-thread task
(PerformanceObserver "longtask") before ready and while 40 dice are thrown on the roll
stage (3D, then 2D), with the time from the tap until the stage's verdict is readable; then
where the time goes (the worker's own timings of each boot step). Each measure waits until
the machine's CPU is idle (on Linux), so that a burst from another program does not land in
one measure only.
Nothing is asserted: the exit code is 0 unless the app failed to boot.

    python bench/boot.py [--rounds N] [--no-build] [--dist DIR]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import shaped  # noqa: E402  (bench/shaped.py, next to this script)

import build  # noqa: E402

LAUNCH_ARGS = build.CHROMIUM_ARGS
TIMEOUT_MS = 120_000
ODDS = {
    "op": "odds",
    "system": "pool",
    "params": {"pot": 30, "flame": 10, "augmentations": 10, "diff": 9},
}
ROLL = {"op": "roll", "system": "pool", "params": {"pot": 6, "flame": 2, "augmentations": 1}}
# A measure starts once the machine's CPU was less than IDLE_BELOW busy for a second (waiting
# at most IDLE_WAIT_S).
IDLE_BELOW = 0.15
IDLE_WAIT_S = 120
TARGETS = {
    "first": 0.40,
    "later": 0.25,
    "update": 0.60,
    "shaped": 1.10,
    "roll_ms": 5.0,
    "odds_ms": 50.0,
    "longtask_ms": 50.0,
    "verdict_ms": 1500.0,
}

# Every page: collect main-thread long tasks from the start, and note when the form fields
# first exist (usable forms). Nothing here runs at every frame.
INIT_SCRIPT = """
window.__longtasks = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
} catch (error) {}
window.__formsAt = null;
new MutationObserver((records, observer) => {
  if (document.querySelector(".side-form[data-system] input")) {
    window.__formsAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""

# The bare page: only loadPyodide() from the app's own runtime. An external script, since the
# local server sends the app's Content-Security-Policy (no inline script) with every file.
BARE_PAGE = """<!doctype html>
<meta charset="utf-8">
<title>bare loadPyodide</title>
<script type="module" src="bare.js"></script>
"""
BARE_SCRIPT = """
import { loadPyodide } from "../app/pyodide/pyodide.mjs";
const indexURL = new URL("../app/pyodide/", location.href).href;
window.bench = (async () => {
  const pyodide = await loadPyodide({ indexURL });
  performance.mark("bare:ready");
  if (location.search.includes("only")) {
    return { ready: performance.getEntriesByName("bare:ready")[0].startTime };
  }
  // After the timing: the engine in this same Pyodide, to time the odds inside Pyodide.
  const info = await (await fetch("../app/version.json")).json();
  const wheel = await (await fetch("../app/" + info.wheel)).arrayBuffer();
  pyodide.FS.writeFile("/tmp/pyrules.whl", new Uint8Array(wheel));
  pyodide.runPython(`
import sys, zipfile
site = next(p for p in sys.path if p.endswith("site-packages"))
zipfile.ZipFile("/tmp/pyrules.whl").extractall(site)
import pyrules.api
`);
  const handle = pyodide.pyimport("pyrules.api").handle;
  const request = JSON.stringify(ODDS);
  const time = () => {
    const start = performance.now();
    const answer = JSON.parse(handle(request));
    if (!answer.ok) throw new Error(JSON.stringify(answer));
    return performance.now() - start;
  };
  const cold = time();
  const warm = [];
  for (let i = 0; i < 10; i++) warm.push(time());
  return { ready: performance.getEntriesByName("bare:ready")[0].startTime, cold, warm };
})();
""".replace("ODDS", json.dumps(ODDS))


def find_chromium() -> str:
    path = os.environ.get("PYRULES_CHROMIUM") or shutil.which("chromium")
    if not path:
        sys.exit("no Chromium: set PYRULES_CHROMIUM or install one (apt-get install chromium)")
    return path


def longest_task_before(page: Any, until: float) -> float:
    tasks = page.evaluate("() => window.__longtasks")
    return max((duration for start, duration in tasks if start <= until), default=0.0)


# Resolves with the mark's time once it exists. A PerformanceObserver, not Playwright's
# wait_for_function: that polls at every animation frame, and frames running all along the
# boot would take CPU from it (the bare page is awaited without polling too).
WAIT_MARK = """([name, timeout]) => new Promise((resolve, reject) => {
  const now = performance.getEntriesByName(name)[0];
  if (now) return resolve(now.startTime);
  const observer = new PerformanceObserver((list) => {
    const entry = list.getEntriesByName(name)[0];
    if (entry) {
      observer.disconnect();
      resolve(entry.startTime);
    }
  });
  observer.observe({ type: "mark" });
  setTimeout(() => reject(new Error("no mark " + name)), timeout);
})"""


def wait_mark(page: Any, name: str, timeout: int = TIMEOUT_MS) -> float:
    return float(page.evaluate(WAIT_MARK, [name, timeout]))


def cpu_busy(seconds: float = 1.0) -> float | None:
    """Share of this machine's CPU time busy over `seconds` (Linux /proc/stat), or None."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat", encoding="ascii") as f:
            values = [int(v) for v in f.readline().split()[1:]]
        idle = values[3] + (values[4] if len(values) > 4 else 0)
        return sum(values), idle

    try:
        total0, idle0 = sample()
        time.sleep(seconds)
        total1, idle1 = sample()
    except (OSError, ValueError):
        return None
    total = total1 - total0
    return 1 - (idle1 - idle0) / total if total > 0 else None


def wait_idle() -> None:
    """Before each measure, wait (up to IDLE_WAIT_S) until the machine is idle: on a shared
    machine, another program's burst would otherwise land in one measure only."""
    deadline = time.monotonic() + IDLE_WAIT_S
    if IDLE_WAIT_S <= 0:
        return
    while time.monotonic() < deadline:
        busy = cpu_busy()
        if busy is None or busy < IDLE_BELOW:
            return
    print(f"(machine still busy after {IDLE_WAIT_S} s: measuring anyway)", file=sys.stderr)


def visit(page: Any, url: str) -> dict[str, Any]:
    """Open the app; navigation -> ready, boot path, worker timings, longest task before."""
    wait_idle()
    page.goto(url)
    ready = wait_mark(page, "pyrules:ready")
    boot = page.evaluate(
        """() => {
          const m = performance.getEntriesByType("mark")
            .find((e) => e.name.startsWith("pyrules:boot:"));
          return m ? { path: m.name.split(":").pop(), ...m.detail,
                       workerStart: m.detail.origin - performance.timeOrigin } : null;
        }"""
    )
    return {
        "ready": ready,
        "path": boot["path"] if boot else "?",
        "fallback": boot["fallback"] if boot else None,
        "workerStart": boot["workerStart"] if boot else float("nan"),
        "timings": boot["timings"] if boot else {},
        "longtask": longest_task_before(page, ready),
        "forms": page.evaluate("() => window.__formsAt"),
    }


def run_bare(browser: Any, base: str) -> dict[str, Any]:
    context = browser.new_context()
    context.add_init_script(INIT_SCRIPT)
    page = context.new_page()
    wait_idle()
    page.goto(base + "bare/index.html")
    result = page.evaluate("() => window.bench")
    result["longtask"] = longest_task_before(page, result["ready"])
    context.close()
    return dict(result)


def run_reduced_motion(browser: Any, base: str) -> dict[str, Any]:
    """A first visit with prefers-reduced-motion (the app then runs no CSS animation)."""
    context = browser.new_context(reduced_motion="reduce")
    context.add_init_script(INIT_SCRIPT)
    result = visit(context.new_page(), base + "app/")
    context.close()
    return result


def run_app(browser: Any, base: str) -> dict[str, Any]:
    """First visit in a fresh profile, then a later visit in the same profile."""
    context = browser.new_context()
    context.add_init_script(INIT_SCRIPT)
    page = context.new_page()
    first = visit(page, base + "app/")
    # The service worker caches the app after the first boot; a later visit finds it done.
    page.wait_for_selector('#pwa-status[data-ready="true"]', state="attached", timeout=TIMEOUT_MS)
    page.close()

    page = context.new_page()
    later = visit(page, base + "app/")
    timings = page.evaluate(
        """async ([roll, odds]) => {
          const time = async (request) => {
            const start = performance.now();
            const answer = await window.pyrules.call(request);
            if (!answer.ok) throw new Error(JSON.stringify(answer));
            return performance.now() - start;
          };
          const oddsCold = await time(odds);
          const rolls = [];
          for (let i = 0; i < 40; i++) rolls.push(await time(roll));
          return { rolls, oddsCold };
        }""",
        [ROLL, ODDS],
    )
    later.update(timings)
    throw3d = roll_animation_longtask(page, "3d")  # the page's first 3D throw
    throw2d = roll_animation_longtask(page, "2d")
    later["roll_longtask"] = throw3d["longtask"]
    later["roll_verdict"] = throw3d["verdict"]
    later["roll2d_longtask"] = throw2d["longtask"]
    later["roll2d_verdict"] = throw2d["verdict"]
    context.close()
    return {"first": first, "later": later}


def run_update(browser: Any, base: str, publish: Callable[[str], None]) -> dict[str, Any]:
    """The first start after an update: a profile that has version 1 offline finds version 2
    published (its own snapshot file), and the player presses "Mettre à jour": from that
    reload's navigation to "pyrules:ready"."""
    context = browser.new_context()
    context.add_init_script(INIT_SCRIPT)
    page = context.new_page()
    publish("v1")
    try:
        visit(page, base + "app/")
        page.wait_for_selector(
            '#pwa-status[data-ready="true"]', state="attached", timeout=TIMEOUT_MS
        )
        publish("v2")
        page.evaluate("() => window.pyrulesOffline.check()")
        page.wait_for_selector(
            '#pwa-update[data-update="waiting"]', state="attached", timeout=TIMEOUT_MS
        )
        wait_idle()
        with page.expect_navigation(timeout=TIMEOUT_MS):
            page.evaluate("() => window.pyrulesOffline.update()")
        ready = wait_mark(page, "pyrules:ready")
        path = page.evaluate(
            "() => performance.getEntriesByType('mark')"
            ".find((e) => e.name.startsWith('pyrules:boot:')).name.split(':').pop()"
        )
        build_now = page.evaluate("() => window.pyrules.ready.then((info) => info.build)")
    finally:
        publish("v1")
        context.close()
    return {"ready": ready, "path": path, "build": build_now}


def run_shaped(browser: Any, link: Any, url: str, bare: bool) -> dict[str, Any]:
    """A first visit through the shaped link (fresh profile): time to ready and the bytes the
    link carried until then. No service worker: it only starts caching after ready, and its
    downloads would blur the count."""
    context = browser.new_context(service_workers="block")
    context.add_init_script(INIT_SCRIPT)
    page = context.new_page()
    wait_idle()
    link.reset()
    page.goto(url)
    if bare:
        ready = float(page.evaluate("() => window.bench")["ready"])
    else:
        ready = wait_mark(page, "pyrules:ready")
    sent = link.sent
    path = (
        "bare"
        if bare
        else page.evaluate(
            "() => performance.getEntriesByType('mark')"
            ".find((e) => e.name.startsWith('pyrules:boot:')).name.split(':').pop()"
        )
    )
    context.close()
    return {"ready": ready, "bytes": sent, "path": path}


def roll_animation_longtask(page: Any, mode: str = "3d") -> dict[str, float]:
    """A throw of 40 dice (the biggest roll the forms allow) on the roll stage, with the dice
    settings on `mode` ("3d": three.js + cannon-es, under software WebGL here; "2d": the SVG
    dice): the longest main-thread task from the Roll button to the landed card, and how long
    from the tap until the verdict is readable (the stage's data-state turns "landed")."""
    page.select_option("#dice-mode", mode)
    page.fill("#f-actor-pool-pot", "40")
    page.fill("#f-actor-pool-flame", "3")
    page.wait_for_timeout(600)  # the odds of the new inputs come in first
    page.evaluate(
        """() => {
          window.__landedAt = null;
          document.getElementById("roll-button").addEventListener(
            "click", () => { window.__tapAt = performance.now(); }, { once: true, capture: true });
          new MutationObserver((records, observer) => {
            const stage = document.querySelector("[data-roll-stage]");
            if (stage && stage.dataset.state === "landed") {
              window.__landedAt = performance.now();
              observer.disconnect();
            }
          }).observe(document.body, { subtree: true, attributes: true,
                                      attributeFilter: ["data-state"] });
        }"""
    )
    start = page.evaluate("() => performance.now()")
    page.click("#roll-button")
    page.wait_for_selector("#result .result-card.is-landed", timeout=TIMEOUT_MS)
    page.wait_for_function("() => window.__landedAt !== null", timeout=TIMEOUT_MS)
    end = page.evaluate("() => performance.now()")
    tasks = page.evaluate("() => window.__longtasks")
    verdict_ms = page.evaluate("() => window.__landedAt - window.__tapAt")
    drawn = page.get_attribute("[data-roll-stage]", "data-mode")
    if drawn != mode:
        raise RuntimeError(f"the stage drew the dice in {drawn}, not {mode}")
    page.keyboard.press("Escape")
    longest = max((d for s, d in tasks if start <= s <= end), default=0.0)
    return {"longtask": longest, "verdict": verdict_ms}


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def quartiles(values: list[float]) -> tuple[float, float, float]:
    """(first quartile, median, third quartile) of one or more values."""
    if len(values) < 2:
        return values[0], values[0], values[0]
    low, middle, high = statistics.quantiles(values, n=4, method="inclusive")
    return low, middle, high


def spread(values: list[float], fmt: Callable[[float], str]) -> str:
    if not values:
        return "-"
    return f"{fmt(median(values))} ({fmt(min(values))}–{fmt(max(values))})"


def verdict(ok: bool) -> str:
    return "pass" if ok else "**FAIL**"


def report(rows: dict[str, list[Any]], rounds: int, chromium: str, snapshot: dict[str, Any]) -> str:
    ms = lambda v: f"{v:,.0f} ms"  # noqa: E731
    ms1 = lambda v: f"{v:.1f} ms"  # noqa: E731
    t = TARGETS
    bare = [r["ready"] for r in rows["bare"]]
    first = [r["first"]["ready"] for r in rows["app"]]
    later = [r["later"]["ready"] for r in rows["app"]]
    calm = [r["ready"] for r in rows["calm"]]

    def ratio(values: list[float]) -> float:
        # Each against the bare page of its own round, then the median.
        return median([v / b for v, b in zip(values, bare, strict=True)])

    rolls = [median(r["later"]["rolls"]) for r in rows["app"]]
    odds_cold = [r["cold"] for r in rows["bare"]]
    odds_warm = [median(r["warm"]) for r in rows["bare"]]
    odds_app = [r["later"]["oddsCold"] for r in rows["app"]]
    long_first = [r["first"]["longtask"] for r in rows["app"]]
    long_later = [r["later"]["longtask"] for r in rows["app"]]
    long_roll = [r["later"]["roll_longtask"] for r in rows["app"]]
    long_roll2d = [r["later"]["roll2d_longtask"] for r in rows["app"]]
    verdict3d = [r["later"]["roll_verdict"] for r in rows["app"]]
    verdict2d = [r["later"]["roll2d_verdict"] for r in rows["app"]]
    long_bare = [r["longtask"] for r in rows["bare"]]
    forms_later = [r["later"]["forms"] for r in rows["app"] if r["later"]["forms"] is not None]
    forms_first = [r["first"]["forms"] for r in rows["app"] if r["first"]["forms"] is not None]
    paths = sorted(
        {f"{r['first']['path']}/{r['later']['path']}" for r in rows["app"]}
        | {f"{r['path']} (reduced motion)" for r in rows["calm"]}
    )
    update = [r["ready"] for r in rows["update"]]
    shaped_bare = [r["ready"] for r in rows["shaped_bare"]]
    shaped_app = [r["ready"] for r in rows["shaped_app"]]
    bytes_bare = [r["bytes"] for r in rows["shaped_bare"]]
    bytes_app = [r["bytes"] for r in rows["shaped_app"]]
    paths_update = sorted({r["path"] for r in rows["update"]})
    paths_shaped = sorted({r["path"] for r in rows["shaped_app"]})
    first_ratio, later_ratio, calm_ratio = ratio(first), ratio(later), ratio(calm)
    update_ratio = ratio(update)
    shaped_ratio = median([a / b for a, b in zip(shaped_app, shaped_bare, strict=True)])
    mb = lambda v: f"{v / 1e6:.2f} MB"  # noqa: E731
    lines = [
        f"Chromium {browser_version(chromium)}, {os.cpu_count()} CPUs, {rounds} rounds, "
        "interleaved (bare, first, later, reduced motion, bare, ...). Times from navigation; "
        "median (min–max); a ratio is the median of the per-round ratios to that round's "
        "bare page.",
        "",
        "| measure | time | vs bare page | target | |",
        "|---|---|---|---|---|",
        f"| bare page: `loadPyodide()` on the main thread | {spread(bare, ms)} | 1.00× | | |",
        f"| app, first visit (fresh profile) → `pyrules:ready` | {spread(first, ms)} "
        f"| {first_ratio:.2f}× | ≤ {t['first']:.2f}× | {verdict(first_ratio <= t['first'])} |",
        f"| app, later visit (snapshot restored) → `pyrules:ready` | {spread(later, ms)} "
        f"| {later_ratio:.2f}× | ≤ {t['later']:.2f}× | {verdict(later_ratio <= t['later'])} |",
        f"| app, first visit with `prefers-reduced-motion` (no CSS animation) | "
        f"{spread(calm, ms)} | {calm_ratio:.2f}× | ≤ {t['first']:.2f}× "
        f"| {verdict(calm_ratio <= t['first'])} |",
        f'| app, first start after an update ("Mettre à jour" → `pyrules:ready`) '
        f"| {spread(update, ms)} | {update_ratio:.2f}× | ≤ {t['update']:.2f}× "
        f"| {verdict(update_ratio <= t['update'])} |",
        f"| shaped link: bare page, fresh profile | {spread(shaped_bare, ms)} | 1.00× | | |",
        f"| shaped link: app first visit, fresh profile | {spread(shaped_app, ms)} "
        f"| {shaped_ratio:.2f}× | ≤ {t['shaped']:.2f}× | {verdict(shaped_ratio <= t['shaped'])} |",
        f"| shaped link: bytes before ready, bare page | {spread(bytes_bare, mb)} | | | |",
        f"| shaped link: bytes before ready, app | {spread(bytes_app, mb)} | | | |",
        f"| roll round trip, `window.pyrules.call` (median of 40) | {spread(rolls, ms1)} | | "
        f"≤ {t['roll_ms']:.0f} ms | {verdict(median(rolls) <= t['roll_ms'])} |",
        f"| odds, pool 30 dice, 10 Flame, 10 aug., inside Pyodide, cold | "
        f"{spread(odds_cold, ms1)} | | ≤ {t['odds_ms']:.0f} ms "
        f"| {verdict(median(odds_cold) <= t['odds_ms'])} |",
        f"| same odds inside Pyodide, warm (median of 10) | {spread(odds_warm, ms1)} | | | |",
        f"| same odds, app round trip right after a snapshot boot | {spread(odds_app, ms1)} "
        "| | | |",
        f"| longest main-thread task before ready, first visit | {spread(long_first, ms)} | | "
        f"≤ {t['longtask_ms']:.0f} ms | {verdict(max(long_first) <= t['longtask_ms'])} |",
        f"| longest main-thread task before ready, later visit | {spread(long_later, ms)} | | "
        f"≤ {t['longtask_ms']:.0f} ms | {verdict(max(long_later) <= t['longtask_ms'])} |",
        f"| longest main-thread task while 40 dice are thrown in 3D (the page's first throw) "
        f"| {spread(long_roll, ms)} | | ≤ {t['longtask_ms']:.0f} ms "
        f"| {verdict(max(long_roll) <= t['longtask_ms'])} |",
        f"| same, 40 dice in 2D | {spread(long_roll2d, ms)} | | ≤ {t['longtask_ms']:.0f} ms "
        f"| {verdict(max(long_roll2d) <= t['longtask_ms'])} |",
        f"| tap → verdict readable on the stage, 40 dice in 3D, throw included "
        f"| {spread(verdict3d, ms)} | | ≤ {t['verdict_ms']:.0f} ms "
        f"| {verdict(median(verdict3d) <= t['verdict_ms'])} |",
        f"| same, 40 dice in 2D | {spread(verdict2d, ms)} | | ≤ {t['verdict_ms']:.0f} ms "
        f"| {verdict(median(verdict2d) <= t['verdict_ms'])} |",
        f"| (bare page, for comparison: Pyodide on the main thread) | {spread(long_bare, ms)} "
        "| | | |",
        f"| first visit: form fields usable at (from systems.json) | {spread(forms_first, ms)} "
        "| | | |",
        f"| later visit: form fields usable at | {spread(forms_later, ms)} | | | |",
        "",
        "Where the time goes (medians, ms from navigation):",
        "",
        "| step | first visit | later visit | first, reduced motion |",
        "|---|---|---|---|",
    ]
    runs = {
        "first": [r["first"] for r in rows["app"]],
        "later": [r["later"] for r in rows["app"]],
        "calm": rows["calm"],
    }

    def step(run: list[dict[str, Any]], name: str) -> str:
        values = [r["workerStart"] + r["timings"][name] for r in run if name in r["timings"]]
        return f"{median(values):,.0f}" if values else "–"

    steps = [
        ("worker created", None),
        ("worker script running", "script"),
        ("snapshot fetched and decompressed", "snapshotRead"),
        ("Pyodide up (`loadPyodide()` or snapshot restored)", "loadPyodide"),
        ("micropip loaded (`loadPackage` by URL)", "micropip"),
        ("pyrules installed by micropip, every module imported", "installed"),
        ("worker ready", "ready"),
    ]
    for label, name in steps:
        cells = []
        for run in runs.values():
            if name is None:
                cells.append(f"{median([r['workerStart'] for r in run]):,.0f}")
            else:
                cells.append(step(run, name))
        lines.append(f"| {label} | {' | '.join(cells)} |")
    cells = [f"{median([r['ready'] for r in run]):,.0f}" for run in runs.values()]
    lines += [
        f"| page: forms built, `pyrules:ready` | {' | '.join(cells)} |",
        "",
        f"Boot paths seen: {', '.join(paths)}; after an update: {', '.join(paths_update)}; "
        f"shaped link: {', '.join(paths_shaped)}. Snapshot: {snapshot['gzip']:,} bytes gzipped "
        f"({snapshot['bytes']:,} bytes of heap). Shaped link: one shared "
        f"{shaped.RATE_BPS / 1e6:.0f} Mbit/s budget, {shaped.LATENCY_S * 1000:.0f} ms before "
        "each response, gzip for text and wasm (as GitHub Pages), HTTP/1.1.",
    ]
    return "\n".join(lines)


def browser_version(chromium: str) -> str:
    try:
        import subprocess

        out = subprocess.run([chromium, "--version"], capture_output=True, text=True, check=False)
        words = [w for w in out.stdout.split() if w[:1].isdigit()]
        return words[0] if words else "?"
    except OSError:
        return "?"


def main() -> int:
    global IDLE_WAIT_S
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-build", action="store_true", help="serve the site as it is")
    parser.add_argument("--dist", type=Path, default=build.DIST, help="build into (and serve) DIR")
    parser.add_argument(
        "--idle-wait",
        type=float,
        default=IDLE_WAIT_S,
        help="wait at most this long (s) for an idle CPU before each measure (0: never)",
    )
    args = parser.parse_args()
    IDLE_WAIT_S = args.idle_wait
    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    dist = args.dist.resolve()
    if not args.no_build:
        build.build(dist)
    rows: dict[str, list[Any]] = {
        key: [] for key in ("bare", "app", "calm", "update", "shaped_bare", "shaped_app")
    }
    info = json.loads((dist / "version.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="pyrules-bench-") as tmp:
        root = Path(tmp)
        sites = {"v1": dist, "v2": make_v2(dist, root / "v2")}

        def publish(version: str) -> None:
            link = root / "app.new"
            link.unlink(missing_ok=True)
            link.symlink_to(sites[version], target_is_directory=True)
            os.replace(link, root / "app")
            if version == "v2":  # newer mtimes: revalidation sees every changed file
                later = time.time() + 5
                os.utime(sites["v2"] / "sw.js", (later, later))

        publish("v1")
        (root / "bare").mkdir()
        (root / "bare" / "index.html").write_text(BARE_PAGE, encoding="utf-8")
        (root / "bare" / "bare.js").write_text(BARE_SCRIPT, encoding="utf-8")
        with (
            build.serving(root) as base,
            shaped.shaped(root) as link,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(
                executable_path=chromium, args=LAUNCH_ARGS, headless=True
            )
            try:
                for i in range(args.rounds):
                    started = time.perf_counter()
                    rows["bare"].append(run_bare(browser, base))
                    app = run_app(browser, base)
                    rows["app"].append(app)
                    rows["update"].append(run_update(browser, base, publish))
                    rows["shaped_bare"].append(
                        run_shaped(browser, link, link.base + "bare/index.html?only", True)
                    )
                    rows["shaped_app"].append(run_shaped(browser, link, link.base + "app/", False))
                    rows["calm"].append(run_reduced_motion(browser, base))
                    print(
                        f"round {i + 1}/{args.rounds}: bare {rows['bare'][-1]['ready']:.0f} ms, "
                        f"first {app['first']['ready']:.0f} ms ({app['first']['path']}), "
                        f"later {app['later']['ready']:.0f} ms ({app['later']['path']}), "
                        f"update {rows['update'][-1]['ready']:.0f} ms "
                        f"({rows['update'][-1]['path']}), "
                        f"shaped bare {rows['shaped_bare'][-1]['ready']:.0f} ms "
                        f"{rows['shaped_bare'][-1]['bytes'] / 1e6:.2f} MB, "
                        f"shaped app {rows['shaped_app'][-1]['ready']:.0f} ms "
                        f"{rows['shaped_app'][-1]['bytes'] / 1e6:.2f} MB "
                        f"({rows['shaped_app'][-1]['path']}), "
                        f"reduced motion {rows['calm'][-1]['ready']:.0f} ms "
                        f"[{time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.1f}]",
                        file=sys.stderr,
                        flush=True,
                    )
            finally:
                browser.close()
    print(report(rows, args.rounds, chromium, info["snapshot"]))
    return 0


def make_v2(dist: Path, v2: Path) -> Path:
    """Version 2 of the site: a copy of dist/ with a changed style sheet and its own snapshot
    file (the same heap, compressed otherwise), hence a new build to update to."""
    shutil.copytree(dist, v2)
    with (v2 / "css" / "pwa.css").open("a") as f:
        f.write("/* version 2 */\n")
    info = json.loads((v2 / "version.json").read_text(encoding="utf-8"))
    gz = v2 / build.SNAPSHOT_FILE
    data = gzip.compress(gzip.decompress(gz.read_bytes()), compresslevel=5, mtime=0)
    gz.write_bytes(data)
    info["snapshot"].update(gzip=len(data), integrity=build._integrity(gz))
    build.finish_site(v2, info)
    return v2


if __name__ == "__main__":
    sys.exit(main())
