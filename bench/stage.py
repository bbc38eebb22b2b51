"""The first throw against the later ones (issue 22, item 4): tap -> verdict readable on the
roll stage (3D dice), measured side by side in one run.

Each round opens the built site in a fresh Chromium profile (a first visit), waits for the
engine (`pyrules:ready`) and taps « Lancer » as soon as the button takes a tap, then taps
again 5 times in the same page. Each throw is timed from the tap (a capture listener on the
button) to the stage's `data-state` turning `landed` (the verdict readable), the whole 3D
throw included (simulation, first frames, at most 1 s of playback). The figure that matters
is the ratio first / median of the later throws of the same round (1.0: the first throw is
as quick as the others); absolute times depend on the machine (software WebGL here).
Two kinds of round, interleaved: the first tap as soon as the engine is ready (the 3D module
is then still loading), and the first tap once the warm-up is over (a player reading the
form first).

Usage: python bench/stage.py [--rounds N] [--no-build] [--dice N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

TIMEOUT_MS = 120_000
LATER = 5

ARM = """() => {
  window.__landedAt = null;
  window.__rollingAt = null;
  window.__tapAt = null;
  document.getElementById('roll-button').addEventListener(
    'click', () => { window.__tapAt = performance.now(); }, { once: true, capture: true });
  new MutationObserver((records, observer) => {
    const stage = document.querySelector('[data-roll-stage]');
    if (window.__tapAt !== null && stage && stage.dataset.state === 'rolling') {
      window.__rollingAt ??= performance.now();
    }
    if (window.__tapAt !== null && stage && stage.dataset.state === 'landed') {
      window.__landedAt = performance.now();
      observer.disconnect();
    }
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
}"""


def throw(page: Any) -> dict[str, Any]:
    page.wait_for_function(
        "() => !document.getElementById('roll-button').disabled"
        " && window.pyrules.pendingWork() === 0",
        timeout=TIMEOUT_MS,
    )
    warmed = page.evaluate(
        "async () => window.pyrules.modules.stage.scene3d().warmed"
    )
    page.evaluate(ARM)
    page.click("#roll-button")
    page.wait_for_function("() => window.__landedAt !== null", timeout=TIMEOUT_MS)
    ms = page.evaluate("() => window.__landedAt - window.__tapAt")
    answer = page.evaluate("() => (window.__rollingAt ?? window.__landedAt) - window.__tapAt")
    mode = page.get_attribute("[data-roll-stage]", "data-mode")
    if mode != "3d":
        raise RuntimeError(f"the stage drew the dice in {mode}, not 3d")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-roll-stage]", state="hidden")
    return {"ms": float(ms), "answer": float(answer), "warmed": bool(warmed)}


def round_(browser: Any, url: str, dice: int, warm: bool) -> dict[str, Any]:
    context = browser.new_context(
        viewport={"width": 1024, "height": 768},
        has_touch=True,
        is_mobile=True,
        reduced_motion="no-preference",
        locale="fr-FR",
    )
    page = context.new_page()
    page.goto(url + "?seed=1")
    page.wait_for_function(
        "() => performance.getEntriesByName('pyrules:ready').length > 0", timeout=TIMEOUT_MS
    )
    page.fill("#f-actor-pool-pot", str(dice))
    if warm:  # a player who reads the form first: the warm-up is over before the first tap
        page.evaluate(
            "async () => { window.__stage = window.pyrules.modules.stage; }"
        )
        page.wait_for_function("() => window.__stage.scene3d().warmed", timeout=TIMEOUT_MS)
    throws = [throw(page) for _ in range(1 + LATER)]
    context.close()
    return {"first": throws[0], "later": throws[1:]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dice", type=int, default=6, help="POT of the pool roll thrown")
    parser.add_argument("--no-build", action="store_true")
    args = parser.parse_args()
    if not args.no_build:
        build.build()
    chromium = build.find_chromium()
    if chromium is None:
        print("no Chromium (set PYRULES_CHROMIUM)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    table = []
    with build.serving(build.DIST) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=build.CHROMIUM_ARGS)
        rows: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
        for n in range(args.rounds):
            for warm in (False, True):  # interleaved: both see the same machine
                row = round_(browser, url, args.dice, warm)
                rows[warm].append(row)
                later = [t["ms"] for t in row["later"]]
                print(
                    f"round {n + 1}, first tap {'once warmed up' if warm else 'at ready'}: "
                    f"first {row['first']['ms']:.0f} ms (answer and stage open after "
                    f"{row['first']['answer']:.0f} ms; warmed: {row['first']['warmed']}), later "
                    + ", ".join(f"{t['ms']:.0f} ({t['answer']:.0f})" for t in row["later"])
                    + " ms; first / median "
                    f"later = {row['first']['ms'] / statistics.median(later):.2f}",
                    flush=True,
                )
        browser.close()
    for warm in (False, True):
        got = rows[warm]
        ratios = [r["first"]["ms"] / statistics.median([t["ms"] for t in r["later"]]) for r in got]
        firsts = [r["first"]["ms"] for r in got]
        laters = [t["ms"] for r in got for t in r["later"]]
        when = "once the warm-up is over" if warm else "as soon as the engine is ready"
        table.append(
            f"| first tap {when}"
            f" | {statistics.median(firsts):,.0f} ms ({min(firsts):,.0f}–{max(firsts):,.0f}) "
            f"| {statistics.median(laters):,.0f} ms ({min(laters):,.0f}–{max(laters):,.0f}) "
            f"| {statistics.median(ratios):.2f}× ({min(ratios):.2f}–{max(ratios):.2f}) |"
        )
    print(
        f"\n| {args.dice} dice, 3D, tap → verdict, median (min–max) of {args.rounds} rounds "
        "| first throw | later throws (5 a round) | first / later |\n|---|---|---|---|\n"
        + "\n".join(table)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
