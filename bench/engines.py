"""The app's start against a bare loadPyodide() page, in Chromium, Firefox and WebKitGTK:

    python bench/engines.py [--engines chromium,firefox,webkit] [--rounds N] [--no-build]
                            [--dist DIR] [--before DIR] [--hogs N[,N...]] [--shaped N]
                            [--settle S]

The figures of docs/performance.md, quiet and then beside two CPU hogs, in one command:

    python bench/engines.py --hogs 0,2 --shaped 2

One server holds the built site (app/), a bare page that only awaits loadPyodide() from the
app's own runtime (bare/, bench/boot.py's page) and, with --before, another build of the site
to compare (before/). For each round and each engine, interleaved so that noise hits every
measure alike, each on a fresh profile:

    bare    the bare page: navigation -> loadPyodide() resolved
    first   the app: navigation -> performance mark "pyrules:ready"
    later   the app again on the same profile (a new window; Firefox: the browser restarted),
            once the service worker holds the offline copy and the worker kept the snapshot,
            and --settle S seconds after that (default 0: at once; a player who comes back
            another day finds a browser that has long finished writing that copy, and
            WebKitGTK's later visits right after it were 0.2-0.4 s slower than 20 s after):
            navigation -> "pyrules:ready"
    floor   a page whose worker only compiles the runtime's wasm and reads the gzipped
            snapshot's bytes (FLOOR_PAGE), first and again on the same profile: what no app on
            this runtime can beat, as a ratio to the bare page too (its row's goals are the
            app's, for comparison)

Every time is read inside the page (performance marks, from navigation start). Chromium is
driven by Playwright (Debian's chromium, never a downloaded one); Firefox ESR and WebKitGTK by
the WebDriver set-up of tests/engines/ (BiDi for Firefox, WebKitWebDriver under an Xvfb of
its own for WebKit). With --hogs N, N busy-looping processes run during the measures (a busy
machine); --hogs 0,2 runs every round once quiet, then again beside two hogs. With --shaped N,
N rounds of Chromium first visits through bench/shaped.py's link come first (the bare page
and each site, no service worker). Prints, for each hog count, a Markdown table: medians
(min-max) and the median of the per-round ratios to the bare page of the same round and
engine, against the goals of issue 25; with --before, what the app adds to that build per
round (issue 40's page share when it is an `engine-only` variant); then where the time went:
the median of the worker's own step timings (ms from navigation start) per engine, site and
visit. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import boot  # noqa: E402  (bench/boot.py: the bare page)

import build  # noqa: E402

READY = "performance.getEntriesByName('pyrules:ready').length > 0"
READY_AT = "return performance.getEntriesByName('pyrules:ready')[0].startTime;"
BOOT = """const m = performance.getEntriesByType('mark')
  .find((e) => e.name.startsWith('pyrules:boot:'));
if (!m) return null;
// The worker's own timings, moved to the page's clock (ms from navigation).
const shift = m.detail.origin - performance.timeOrigin;
const at = Object.fromEntries(
  Object.entries(m.detail.timings || {}).map(([k, v]) => [k, Math.round(v + shift)]));
return [m.name.split(':').pop(), m.detail.source || null, at];"""
BARE_AT = "return performance.getEntriesByName('bare:ready')[0].startTime;"
#: The floor: what any page that runs this Pyodide in a worker must at least do before it can
#: answer, and nothing else: start a worker, compile the runtime's wasm (streaming) and have
#: the snapshot's bytes in memory (no Python, no restore, no page of its own). No build of the
#: app can start faster than this in the same browser; its ratio to the bare page says which
#: goals a faster app could still reach.
FLOOR_PAGE = """<!doctype html>
<meta charset="utf-8">
<title>floor: compile the wasm, read the snapshot</title>
<script type="module" src="floor.js"></script>
"""
FLOOR_SCRIPT = """const worker = new Worker("floor-worker.js", { type: "module" });
worker.onmessage = (event) => {
  performance.mark("floor:ready", { startTime: event.data - performance.timeOrigin });
};
"""
FLOOR_WORKER = """const app = new URL("../app/", location.href);
const wasm = WebAssembly.compileStreaming(fetch(new URL("pyodide/pyodide.asm.wasm", app)));
const snapshot = fetch(new URL("engine/snapshot.bin.gz", app)).then((r) => r.arrayBuffer());
const done = () => self.postMessage(performance.timeOrigin + performance.now());
Promise.all([wasm, snapshot]).then(done);
"""
FLOOR_AT = "return performance.getEntriesByName('floor:ready')[0].startTime;"
#: Before a later visit, the same rule for every build: the offline copy is complete, and the
#: raw snapshot is kept (a build whose worker keeps none: its boot mark has no `source`).
SETTLED = (
    "document.querySelector('#pwa-status[data-ready=\"true\"]') && ("
    "performance.getEntriesByName('pyrules:snapshot:stored').length > 0"
    " || !performance.getEntriesByName('pyrules:boot:snapshot')[0].detail.source)"
)
#: Issue 25's goals: engine -> (first, later), as ratios to the bare page.
GOALS = {"chromium": (0.40, 0.25), "firefox": (0.50, 0.35), "webkit": (0.25, 0.15)}
TIMEOUT_S = 240


class Chromium:
    """The tests/engines interface (open, js, wait, relaunch, quit) over Playwright."""

    def __init__(self, playwright: Any, profile: Path, reduced_motion: bool = False) -> None:
        self.context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=build.find_chromium(),
            args=build.CHROMIUM_ARGS,
            headless=True,
            viewport={"width": 1024, "height": 768},
            reduced_motion="reduce" if reduced_motion else "no-preference",
        )
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()

    def open(self, url: str) -> None:
        self.page.goto(url)

    def js(self, body: str, *args: Any) -> Any:
        return self.page.evaluate(f"async (args) => {{ {body} }}", list(args))

    def wait(self, condition: str, timeout: float = TIMEOUT_S) -> None:
        self.page.wait_for_function(f"() => ({condition})", timeout=timeout * 1000)

    def relaunch(self) -> None:
        old, self.page = self.page, self.context.new_page()
        old.close()

    def quit(self) -> None:
        self.context.close()


@contextmanager
def engines(
    names: list[str], tmp: Path, reduced_motion: bool = False
) -> Iterator[Callable[[str], Any]]:
    """make(name) -> a new browser of that engine on a fresh profile (quit by the caller).
    reduced_motion: the browser says the player asked for less motion (Chromium's emulation,
    Firefox's ui.prefersReducedMotion, GTK's animations off for WebKitGTK)."""
    from tests.engines import conftest as ec
    from tests.engines.bidi import write_profile

    playwright = None
    if "chromium" in names:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
    xvfb = None
    display = ""
    if "webkit" in names:
        _, _, xvfb_path = ec.webkit_tools()
        xvfb = subprocess.Popen(
            [xvfb_path, "-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
        )
        assert xvfb.stdout is not None
        display = ":" + xvfb.stdout.readline().strip()
    count = 0

    def make(name: str) -> Any:
        nonlocal count
        count += 1
        profile = tmp / f"{name}-{count}"
        profile.mkdir()
        if name == "chromium":
            return Chromium(playwright, profile, reduced_motion)
        if name == "firefox":
            write_profile(profile / "profile")
            if reduced_motion:
                with (profile / "profile" / "user.js").open("a", encoding="utf-8") as prefs:
                    prefs.write('user_pref("ui.prefersReducedMotion", 1);\n')
            return ec.FirefoxEngine(ec.firefox_binary(), profile / "profile")
        driver, browser, _ = ec.webkit_tools()
        (profile / "run").mkdir(mode=0o700)
        env = {
            "PATH": "/usr/bin:/bin", "HOME": str(profile), "DISPLAY": display,
            "XDG_DATA_HOME": str(profile / "data"), "XDG_CACHE_HOME": str(profile / "cache"),
            "XDG_CONFIG_HOME": str(profile / "config"), "XDG_RUNTIME_DIR": str(profile / "run"),
            "LIBGL_ALWAYS_SOFTWARE": "1",
        }
        if reduced_motion:
            gtk = profile / "config" / "gtk-3.0"
            gtk.mkdir(parents=True)
            (gtk / "settings.ini").write_text("[Settings]\ngtk-enable-animations=0\n")
        return ec.WebKit(driver, browser, env)

    try:
        yield make
    finally:
        if playwright is not None:
            playwright.stop()
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(timeout=30)


def wait(engine: Any, condition: str, timeout: float = TIMEOUT_S) -> bool:
    try:
        engine.wait(condition, timeout=timeout)
    except Exception:
        return False
    return True


def bare(make: Callable[[str], Any], name: str, base: str) -> float:
    engine = make(name)
    try:
        engine.open(base + "bare/index.html?only")
        wait(engine, "performance.getEntriesByName('bare:ready').length > 0")
        return float(engine.js(BARE_AT))
    finally:
        engine.quit()


def floor(make: Callable[[str], Any], name: str, base: str) -> dict[str, Any]:
    """The floor page on a fresh profile, then again on the same profile (a later visit: the
    browser may keep the compiled wasm, as it does for the app)."""
    engine = make(name)
    try:
        times: list[float | None] = []
        for visit in ("first", "later"):
            if visit == "later":
                engine.relaunch()
            engine.open(base + "floor/index.html")
            ok = wait(engine, "performance.getEntriesByName('floor:ready').length > 0")
            times.append(float(engine.js(FLOOR_AT)) if ok else None)
        return {"first": times[0], "later": times[1]}
    finally:
        engine.quit()


def app(make: Callable[[str], Any], name: str, url: str, settle: float = 0) -> dict[str, Any]:
    """First and later visit of the app at `url` on one fresh profile, the later one `settle`
    seconds after the offline copy and the kept snapshot are in."""
    engine = make(name)
    try:
        engine.open(url)
        if not wait(engine, READY):
            return {"first": None, "later": None}
        first = float(engine.js(READY_AT))
        first_path = engine.js(BOOT)
        settled = wait(engine, SETTLED, timeout=90)
        time.sleep(settle)  # the player comes back later (a bench's model, not a test's wait)
        engine.relaunch()
        engine.open(url)
        if not wait(engine, READY):  # counted as not ready in the table
            return {"first": first, "later": None, "paths": [first_path, None], "settled": settled}
        return {"first": first, "later": float(engine.js(READY_AT)), "paths": [
            first_path, engine.js(BOOT)], "settled": settled}
    finally:
        engine.quit()


def shaped_rounds(root: Path, sites: list[str], rounds: int) -> list[str]:
    """Chromium first visits through bench/shaped.py's link (20 Mbit/s, 40 ms; no service
    worker): the bare page and each site, interleaved; ratio to the bare page and bytes."""
    import shaped
    from playwright.sync_api import sync_playwright

    rows: dict[str, list[dict[str, Any]]] = {"bare": [], **{s: [] for s in sites}}
    boot.IDLE_WAIT_S = 0  # (boot.run_shaped waits for an idle CPU otherwise)
    with shaped.shaped(root) as link, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=build.find_chromium(), args=build.CHROMIUM_ARGS, headless=True
        )
        try:
            for _ in range(rounds):
                rows["bare"].append(
                    boot.run_shaped(browser, link, link.base + "bare/index.html?only", True)
                )
                for site in sites:
                    rows[site].append(boot.run_shaped(browser, link, link.base + site + "/", False))
                print(f"shaped: {[(k, v[-1]) for k, v in rows.items()]}", file=sys.stderr)
        finally:
            browser.close()
    lines = ["", "| shaped link (Chromium) | first visit | ratio | goal | bytes before ready |",
             "|---|---|---|---|---|"]
    for site in ["bare", *sites]:
        times = [r["ready"] for r in rows[site]]
        ratios = [r["ready"] / b["ready"] for r, b in zip(rows[site], rows["bare"], strict=True)]
        mb = statistics.median(r["bytes"] for r in rows[site]) / 1e6
        fast = statistics.median(ratios) <= 1.10
        goal = "" if site == "bare" else f"≤ 1.10× {boot.verdict(fast)}"
        lines.append(f"| {site} | {fmt(times)} | {ratio(ratios)} | {goal} | {mb:.2f} MB |")
    return lines


def hog() -> None:
    while True:
        pass


def fmt(values: list[float]) -> str:
    if not values:
        return "–"
    return f"{statistics.median(values):,.0f} ms ({min(values):,.0f}–{max(values):,.0f})"


def ratio(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}×" if values else "–"


def report(rows: dict[str, dict[str, list[Any]]], sites: list[str], rounds: int, hogs: int) -> str:
    lines = [
        f"{rounds} round(s), interleaved; {os.cpu_count()} CPUs"
        + (f", beside {hogs} CPU hog(s)" if hogs else "")
        + f", load {os.getloadavg()[0]:.1f} at the end."
        " Times from navigation start, median (min–max); a ratio is the median of the"
        " per-round ratios to that round's bare page in the same engine.",
        "",
        "| engine | bare `loadPyodide()` | site | first visit | ratio | goal | later visit | ratio"
        " | goal |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, data in rows.items():
        goal_first, goal_later = GOALS[name]
        for site in sites:
            firsts, laters, r_first, r_later = [], [], [], []
            for b, visit in zip(data["bare"], data[site], strict=True):
                if visit["first"] is not None:
                    firsts.append(visit["first"])
                    r_first.append(visit["first"] / b)
                if visit["later"] is not None:
                    laters.append(visit["later"])
                    r_later.append(visit["later"] / b)

            def verdict(values: list[float], goal: float) -> str:
                if not values:
                    return f"≤ {goal:.2f}×"
                return f"≤ {goal:.2f}× {boot.verdict(statistics.median(values) <= goal)}"

            visits = len(data[site])
            lost_first = f", {visits - len(firsts)} not ready" if len(firsts) < visits else ""
            lost_later = f", {visits - len(laters)} not ready" if len(laters) < visits else ""
            lines.append(
                f"| {name} | {fmt(data['bare'])} | {site} | {fmt(firsts)}{lost_first} | "
                f"{ratio(r_first)} | {verdict(r_first, goal_first)} | "
                f"{fmt(laters)}{lost_later} | {ratio(r_later)} | {verdict(r_later, goal_later)} |"
            )
    return "\n".join(lines)


#: Issue 40's goal: what the app adds to an `engine-only` page (bench/variants.py, given as
#: --before) is at most this much of the bare page, first and later visits.
SHARE_GOAL = 0.03


def shares(data: dict[str, list[Any]], site: str, base: str, visit: str) -> list[float]:
    """Per round, what `site` adds to `base`, as a ratio of that round's bare page (rounds
    where either was not ready are left out)."""
    return [
        (s[visit] - o[visit]) / b
        for b, s, o in zip(data["bare"], data[site], data[base], strict=True)
        if s[visit] is not None and o[visit] is not None
    ]


def share_report(rows: dict[str, dict[str, list[Any]]], site: str = "app",
                 base: str = "before") -> str:
    """The page's share, paired per round: the median and quartiles of (site - base) / bare,
    and how many rounds were within the goal. A difference of the two medians mixes rounds;
    this says how far the noise of one machine reaches."""
    lines = [
        "",
        f"What {site} adds to {base}: per round, ({site} − {base}) / that round's bare page"
        f" (with `--before` an `engine-only` variant: the page's share, goal ≤ {SHARE_GOAL:.2f}×);"
        " median, quartiles, rounds within the goal.",
        "",
        "| engine | visit | median | quartiles | rounds ≤ goal | goal |",
        "|---|---|---|---|---|---|",
    ]
    for name, data in rows.items():
        for visit in ("first", "later"):
            values = shares(data, site, base, visit)
            if not values:
                lines.append(f"| {name} | {visit} | – | – | – | ≤ {SHARE_GOAL:.2f}× |")
                continue
            low, middle, high = boot.quartiles(values)
            within = sum(v <= SHARE_GOAL for v in values)
            verdict = boot.verdict(middle <= SHARE_GOAL)
            lines.append(
                f"| {name} | {visit} | {middle:+.2f}× | {low:+.2f}× to {high:+.2f}× |"
                f" {within}/{len(values)} | ≤ {SHARE_GOAL:.2f}× {verdict} |"
            )
    return "\n".join(lines)


#: The worker's steps (worker.js `timings`), in boot order.
STEPS = (
    "script", "pyodideModule", "stdlibLoaded", "snapshotRead", "wasmLoaded", "wasmCompiled",
    "loadPyodide", "ready",
)


def steps_report(rows: dict[str, dict[str, list[Any]]], sites: list[str]) -> str:
    """Median of each worker step (ms from navigation start), per engine, site and visit."""
    lines = [
        "",
        "Where the time went: the worker's own steps, ms from navigation start (medians):"
        " `script` the worker runs, `snapshotRead` the snapshot is in memory (fetched and"
        " gunzipped, or read raw from the cache), `stdlibLoaded` and `wasmLoaded` the last"
        " byte of the standard library and of the wasm in, `wasmCompiled` the wasm compiled"
        " (from its first byte, beside the snapshot's read), `loadPyodide` the runtime is up"
        " with the heap restored, `ready` the engine answered its version; `source` where the"
        " snapshot came from.",
        "",
        "| engine | site | visit | " + " | ".join(STEPS) + " | source |",
        "|---|---|---|" + "---|" * len(STEPS) + "---|",
    ]
    for name, data in rows.items():
        for site in sites:
            for index, visit in enumerate(("first", "later")):
                marks = [
                    v["paths"][index] for v in data[site]
                    if v.get("paths") and v["paths"][index]
                ]
                cells = []
                for step in STEPS:
                    values = [m[2][step] for m in marks if step in (m[2] or {})]
                    cells.append(f"{statistics.median(values):,.0f}" if values else "–")
                sources = sorted({f"{m[0]}/{m[1]}" if m[1] else m[0] for m in marks})
                lines.append(
                    f"| {name} | {site} | {visit} | " + " | ".join(cells)
                    + f" | {', '.join(sources) or '–'} |"
                )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engines", default="chromium,firefox,webkit")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--dist", type=Path, default=build.DIST, help="the site to measure")
    parser.add_argument("--before", type=Path, help="another build of the site to compare")
    parser.add_argument(
        "--hogs", default="0",
        help="busy-looping processes meanwhile; a list (0,2) runs every round for each count",
    )
    parser.add_argument("--shaped", type=int, default=0, help="rounds over the shaped link")
    parser.add_argument(
        "--settle", type=float, default=0,
        help="seconds between the offline copy being in and the later visit",
    )
    args = parser.parse_args()
    names = [n.strip() for n in args.engines.split(",") if n.strip()]
    hog_counts = [int(n) for n in str(args.hogs).split(",") if n.strip()]
    if not args.no_build:
        build.build(args.dist)
    sites = ["app"] + (["before"] if args.before else [])
    with tempfile.TemporaryDirectory(prefix="pyrules-engines-", ignore_cleanup_errors=True) as tmp:
        root = Path(tmp) / "site"
        root.mkdir()
        (root / "app").symlink_to(args.dist.resolve(), target_is_directory=True)
        if args.before:
            (root / "before").symlink_to(args.before.resolve(), target_is_directory=True)
        (root / "bare").mkdir()
        (root / "bare" / "index.html").write_text(boot.BARE_PAGE, encoding="utf-8")
        (root / "bare" / "bare.js").write_text(boot.BARE_SCRIPT, encoding="utf-8")
        (root / "floor").mkdir()
        for file, text in (("index.html", FLOOR_PAGE), ("floor.js", FLOOR_SCRIPT),
                           ("floor-worker.js", FLOOR_WORKER)):
            (root / "floor" / file).write_text(text, encoding="utf-8")
        shaped_lines = shaped_rounds(root, sites, args.shaped) if args.shaped else []
        for count in hog_counts:
            profiles = Path(tmp) / f"hogs-{count}"  # (each run its own fresh profiles)
            profiles.mkdir(exist_ok=True)
            rows = measure(root, profiles, names, sites, args.rounds, count, args.settle)
            title = f"beside {count} CPU hog(s)" if count else "quiet (no hog)"
            if args.settle:
                title += f", later visits {args.settle:g} s after the offline copy"
            print(f"\n### {title}\n")
            print(report(rows, [*sites, "floor"], args.rounds, count))
            if args.before:
                print(share_report(rows))
            print(steps_report(rows, sites), flush=True)
    print("\n".join(shaped_lines))
    return 0


def measure(
    root: Path, tmp: Path, names: list[str], sites: list[str], rounds: int, hogs: int,
    settle: float = 0,
) -> dict[str, dict[str, list[Any]]]:
    """`rounds` interleaved rounds of every engine (bare page, then each site), with `hogs`
    busy-looping processes running meanwhile."""
    rows: dict[str, dict[str, list[Any]]] = {
        n: {"bare": [], "floor": [], **{s: [] for s in sites}} for n in names
    }
    processes = [multiprocessing.Process(target=hog, daemon=True) for _ in range(hogs)]
    for process in processes:
        process.start()
    try:
        with build.serving(root) as base, engines(names, tmp) as make:
            for i in range(rounds):
                for name in names:
                    started = time.perf_counter()
                    rows[name]["bare"].append(bare(make, name, base))
                    # The sites take turns right after the bare page (a browser that just
                    # quit may still be busy): every other round in the other order.
                    for site in sites if i % 2 == 0 else sites[::-1]:
                        rows[name][site].append(app(make, name, base + site + "/", settle))
                    rows[name]["floor"].append(floor(make, name, base))
                    print(
                        f"[{hogs} hog(s)] round {i + 1} {name}: bare"
                        f" {rows[name]['bare'][-1]:.0f} ms, "
                        + ", ".join(f"{s} {rows[name][s][-1]}" for s in sites)
                        + f" [{time.perf_counter() - started:.0f} s,"
                        f" load {os.getloadavg()[0]:.1f}]",
                        file=sys.stderr, flush=True,
                    )
    finally:
        for process in processes:
            process.terminate()
    return rows


if __name__ == "__main__":
    sys.exit(main())
