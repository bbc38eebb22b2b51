"""What an idle page costs the machine, in every engine: ``python bench/idle.py``.

tests/browser/test_idle.py counts the frames an idle page begins in Chromium (a trace);
WebKitGTK and Firefox give no such trace here, so this measures what the player's battery
pays: the machine's busy CPU (/proc/stat, all cores, in cores) while a page sits open and
untouched. For each engine (bench/engines.py's browsers: Debian's Chromium, WebKitGTK under
xvfb, Firefox ESR) and each site, a fresh profile opens the site, waits for its
"pyrules:ready" mark, opens it again (a later visit), waits for ready and --settle seconds
(the start's work and the offline copy's storing over), then reads the CPU over --seconds,
twice. Each browser says the player asked for reduced motion (as the suite's pages do): the
one idle fault found so far (Chromium drawing a frame every 16 ms for a disabled select,
ninth session) cost 0.05–0.09 cores then, and showed nothing otherwise (the 3D dice's
warm-up, 3 s after ready, and a 2D choice alike). The sites: the built app and, with
--before, a page that holds only the engine (`python bench/variants.py dist OUT --variants
engine-only`, then --before OUT/engine-only): the same engine, idle, without the app's
page. Nothing else should run meanwhile. Linux only. Nothing is asserted.

    python bench/idle.py [--engines chromium,firefox,webkit] [--before DIR] [--rounds N]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import boot  # noqa: E402  (bench/boot.py: cpu_busy)
import engines  # noqa: E402  (bench/engines.py: the browsers)

import build  # noqa: E402

READY = "performance.getEntriesByName('pyrules:ready').length > 0"
LESS_MOTION = "(prefers-reduced-motion: reduce)"


def busy_cores(seconds: float) -> float:
    """How many cores were busy, on average, over the next `seconds` (bench/boot.py's share
    of the machine's CPU, times its cores)."""
    share = boot.cpu_busy(seconds)
    if share is None:
        raise SystemExit("no /proc/stat to read the CPU from (Linux only)")
    return share * (os.cpu_count() or 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engines", default="chromium,firefox,webkit")
    parser.add_argument("--dist", type=Path, default=build.DIST)
    parser.add_argument("--before", type=Path, help="another site (the engine-only page)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--settle", type=float, default=8.0)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    names = args.engines.split(",")
    sites = {"app": args.dist, **({"before": args.before} if args.before else {})}
    busy: dict[tuple[str, str], list[float]] = {(n, s): [] for n in names for s in sites}
    with (
        tempfile.TemporaryDirectory() as tmp,
        contextlib.ExitStack() as stack,
        engines.engines(names, Path(tmp), reduced_motion=True) as make,
    ):
        bases = {site: stack.enter_context(build.serving(path)) for site, path in sites.items()}
        for name in names:
            for _ in range(args.rounds):
                for site, base in bases.items():
                    browser = make(name)
                    try:
                        for _visit in ("first", "later"):
                            browser.open(base)
                            browser.wait(READY)
                        if not browser.js(f"return matchMedia('{LESS_MOTION}').matches;"):
                            raise SystemExit(f"{name} did not take the reduced motion")
                        time.sleep(args.settle)
                        for _ in range(2):
                            busy[(name, site)].append(busy_cores(args.seconds))
                    finally:
                        browser.quit()
                    print(f"{name} {site}: {busy[(name, site)][-2:]}", file=sys.stderr)
    print(f"An idle page (reduced motion), {args.settle:.0f} s after ready on a later"
          f" visit: the machine's busy cores over {args.seconds:.0f} s, median (min–max) of"
          f" {2 * args.rounds} reads")
    print()
    print("| engine | " + " | ".join(sites) + " |")
    print("|---|" + "---|" * len(sites))
    for name in names:
        cells = [busy[(name, site)] for site in sites]
        print(f"| {name} | " + " | ".join(
            f"{statistics.median(c):.3f} ({min(c):.3f}–{max(c):.3f})" for c in cells
        ) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
