"""The page's blocking time at start, two builds side by side, in Chromium slowed down
fourfold as Lighthouse's mobile preset assumes: ``python bench/blocking.py BEFORE AFTER``.

Lighthouse (bench/lighthouse.py) simulates its total blocking time from one run at a time:
between two runs of the same build it moves by 0.3 s, as much as a change to the page would.
This measures the same thing directly, the two builds (two dist/ folders, each served gzipped
as GitHub Pages sends them) taken in turn round after round, so that the machine's noise
hits both alike (each first in every other round, each visit once the machine is idle).
Each visit: a fresh profile (a first visit), a phone's screen (412x823, touch), French, the
CPU slowed down four times (CDP Emulation.setCPUThrottlingRate), a Chrome trace of the
page's main thread from navigation until 1.5 s after the "pyrules:ready" mark. Of the
page's top-level tasks after its first contentful paint it reports:

    blocking   the sum of each task's time over 50 ms (Lighthouse's total blocking time)
    longest    the longest task
    long       how many tasks are over 50 ms
    main CPU   the main thread's busy time from navigation to the end of the trace
    ready      navigation -> "pyrules:ready" (slowed down)

as medians (quartiles) of the rounds, and the blocking time's difference paired round by
round (after - before). Nothing is asserted.

    python bench/blocking.py BEFORE AFTER [--rounds N]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import boot  # noqa: E402  (bench/boot.py: wait_idle, quartiles)

import build  # noqa: E402

READY = "() => performance.getEntriesByName('pyrules:ready').length > 0"
LONG_MS = 50
SLOWDOWN = 4
AFTER_READY_MS = 1500
MEASURES = ("blocking", "longest", "long", "main CPU", "ready")


def main_tasks(events: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """The page's main thread's top-level tasks (start in ms from navigation, duration in
    ms), from a Chrome trace."""
    def page_parse(event: dict[str, Any]) -> bool:
        url = str(event.get("args", {}).get("beginData", {}).get("url", ""))
        return event.get("name") == "ParseHTML" and url.startswith("http") and "icon.svg" not in url

    first = next(event for event in events if page_parse(event))
    thread = (first["pid"], first["tid"])
    nav = min(float(event["ts"]) for event in events if page_parse(event))
    slices = sorted(
        (
            e
            for e in events
            if (e.get("pid"), e.get("tid")) == thread and e.get("ph") == "X" and "dur" in e
        ),
        key=lambda e: (e["ts"], -e["dur"]),
    )
    tasks, end = [], -1.0
    for event in slices:  # nested slices lie inside their task: only the outermost counts
        if event["ts"] >= end and event["ts"] >= nav:
            tasks.append(((event["ts"] - nav) / 1000, event["dur"] / 1000))
            end = event["ts"] + event["dur"]
    return tasks


def visit(browser: Any, url: str) -> dict[str, float]:
    context = browser.new_context(
        viewport={"width": 412, "height": 823}, locale="fr-FR", is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})
        page.goto(url + "icon.svg")  # the renderer up before the trace starts
        browser.start_tracing(page=page, categories=["toplevel", "devtools.timeline"])
        page.goto(url)
        page.wait_for_function(READY, timeout=180_000)
        page.wait_for_timeout(AFTER_READY_MS)  # the work the ready answer starts
        fcp = page.evaluate(
            "() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0"
        )
        ready = page.evaluate("() => performance.getEntriesByName('pyrules:ready')[0].startTime")
        trace = json.loads(browser.stop_tracing())
    finally:
        context.close()
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    tasks = main_tasks(events)
    after = [duration for start, duration in tasks if start >= fcp]
    return {
        "blocking": sum(max(0.0, duration - LONG_MS) for duration in after),
        "longest": max(after, default=0.0),
        "long": float(sum(1 for duration in after if duration > LONG_MS)),
        "main CPU": sum(duration for _, duration in tasks),
        "ready": float(ready),
    }


def spread(values: list[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:,.0f}"
    low, middle, high = boot.quartiles(values)
    return f"{middle:,.0f} ({low:,.0f}–{high:,.0f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before", type=Path, help="a built site (a dist/ folder)")
    parser.add_argument("after", type=Path, help="another built site")
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    dirs = {"before": args.before, "after": args.after}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in dirs}
    with sync_playwright() as playwright, contextlib.ExitStack() as stack:
        bases = {
            name: stack.enter_context(build.serving(path, gzip=True)) for name, path in dirs.items()
        }
        browser = playwright.chromium.launch(
            executable_path=build.find_chromium(), args=build.CHROMIUM_ARGS
        )
        try:
            for round_ in range(args.rounds):
                # Every other round in the other order: the second visit of a round came
                # out slower (the first one's browser still busy), whichever build it was.
                for name in list(dirs) if round_ % 2 == 0 else list(dirs)[::-1]:
                    boot.wait_idle()
                    results[name].append(visit(browser, bases[name]))
                print(f"round {round_ + 1}: " + ", ".join(
                    f"{name} {results[name][-1]['blocking']:.0f} ms" for name in dirs
                ), file=sys.stderr)
        finally:
            browser.close()
    print(f"Chromium, CPU slowed down {SLOWDOWN}x, first visits, {args.rounds} rounds; "
          "medians (quartiles), ms")
    print()
    print("| measure | before | after |")
    print("|---|---|---|")
    for measure in MEASURES:
        cells = [spread([r[measure] for r in results[name]]) for name in dirs]
        print(f"| {measure} | {cells[0]} | {cells[1]} |")
    pairs = zip(results["after"], results["before"], strict=True)
    paired = [after["blocking"] - before["blocking"] for after, before in pairs]
    print()
    print(f"blocking time, after - before, paired per round: {spread(paired)} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
