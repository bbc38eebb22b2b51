"""Does a change of the CSS files change what the page shows? Serves two built sites side by
side (BEFORE and AFTER, e.g. dist/ with main's web/ copied over it, and dist/), drives both
through the same screens in Debian's Chromium at 768x1024, 1024x768 and 360x740, and compares
for every state (1) the computed style of every element of <body> and of its ::before and
::after, plus its box, and (2) a full-page screenshot, pixel for pixel.

usage: python bench/css_compare.py BEFORE_DIR AFTER_DIR [OUT_DIR]
Run it through the browser lock. Exit status 1 when anything differs.
Animations are off (prefers-reduced-motion, Playwright's animations="disabled"), the dice are
2D (3D physics on a software GPU would differ run to run), service workers are blocked, and
every roll has the same seed on both sides.
"""

from __future__ import annotations

import io
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

SIZES = [(768, 1024), (1024, 768), (360, 740)]
if os.environ.get("CSS_COMPARE_SIZES"):
    SIZES = [tuple(map(int, x.split("x"))) for x in os.environ["CSS_COMPARE_SIZES"].split(",")]
# For a quick look: CSS_COMPARE_ONLY="roll-form" stops each size after that state.
FULL = bool(os.environ.get("CSS_COMPARE_FULL"))  # every system, rolled
ONLY = [x for x in os.environ.get("CSS_COMPARE_ONLY", "").split(",") if x]
SETTLED = "() => window.pyrules.pendingWork() === 0 && window.pyrules.debug.info().pending === 0"

CAPTURE = """
(detail) => {
  // Sorted: Chromium lists custom properties in an order that follows the stylesheets.
  const ser = (cs) => { const out = []; for (let i = 0; i < cs.length; i++) { const p = cs[i];
    out.push(p + ':' + cs.getPropertyValue(p)); } return out.sort().join(';'); };
  const hash = (s) => { let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
    for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761); h2 = Math.imul(h2 ^ c, 1597334677); }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36); };
  const els = [document.documentElement, document.body, ...document.body.querySelectorAll('*')];
  const cls = (el) => (typeof el.className === 'string' ? el.className.trim() : '');
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (cls(el) ? '.' + cls(el).split(/\\s+/).join('.') : '');
  return els.map((el, i) => {
    const styles = [ser(getComputedStyle(el))];
    for (const pe of ['::before', '::after']) {
      const cs = getComputedStyle(el, pe);
      styles.push(cs.content === 'none' || cs.content === 'normal' ? 'none' : ser(cs));
    }
    const r = el.getBoundingClientRect();
    const box = [r.x, r.y, r.width, r.height].map((v) => Math.round(v * 100) / 100).join(',');
    if (detail && detail.includes(i)) return [name(el), styles, box];
    return [name(el), hash(styles.join('|')), box];
  });
}
"""


class Side:
    def __init__(self, browser: Any, url: str, size: tuple[int, int]) -> None:
        self.context = browser.new_context(
            viewport={"width": size[0], "height": size[1]},
            reduced_motion="reduce",
            locale="fr-FR",
            timezone_id="UTC",
            service_workers="block",
        )
        self.context.add_init_script(
            "localStorage.setItem('pyrules:dice', JSON.stringify({mode: '2d', sound: false}))"
        )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        self.page.wait_for_function(
            "() => performance.getEntriesByName('pyrules:ready').length > 0", timeout=120_000
        )
        self.settle()

    def settle(self) -> None:
        self.page.wait_for_function(SETTLED, timeout=60_000)

    def roll(self, seed: int) -> None:
        page = self.page
        before = int(page.get_attribute("#result", "data-shown") or 0)
        page.evaluate("(s) => { window.pyrules.nextSeed = s; }", seed)
        page.click("#roll-button")
        page.wait_for_function(
            "(n) => Number(document.getElementById('result').dataset.shown || 0) > n", arg=before
        )
        self.settle()
        page.wait_for_function(
            "() => { const s = document.querySelector('.roll-stage');"
            " return !s || s.hidden || s.dataset.state === 'landed'; }"
        )

    def close_stage(self) -> None:
        if self.page.is_visible(".roll-stage"):
            self.page.keyboard.press("Escape")
            self.page.wait_for_function("() => document.querySelector('.roll-stage').hidden")
        self.settle()

    def tab(self, view: str) -> None:
        self.page.click(f"#tab-{view}")
        self.page.wait_for_selector(f"#view-{view}:not([hidden])")
        self.settle()


def steps(systems: list[str]) -> list[tuple[str, Any]]:
    def click(selector: str) -> Any:
        def run(side: Side) -> None:
            side.page.click(selector)
            side.settle()

        return run

    def seq(*fns: Any) -> Any:
        def run(side: Side) -> None:
            for fn in fns:
                fn(side)

        return run

    def fill(selector: str, value: str) -> Any:
        return lambda side: (side.page.fill(selector, value), side.settle())

    out: list[tuple[str, Any]] = [("roll-form", lambda side: None)]
    out.append(
        ("gm-tools", seq(click("#curve-panel > summary"), click("#compare-panel > summary")))
    )
    out.append(("rolled", lambda side: side.roll(11)))
    out.append(("rolled-closed", lambda side: side.close_stage()))
    out.append(("oppose-form", click("label[for=mode-oppose]")))
    out.append(("oppose-rolled", lambda side: side.roll(12)))
    out.append(
        ("oppose-closed", seq(lambda side: side.close_stage(), click("label[for=mode-single]")))
    )
    for system in systems if FULL else ["d100"]:
        out.append((f"system-{system}", click(f"label[for=system-{system}]")))
        out.append(
            (f"rolled-{system}", seq(lambda side: side.roll(5), lambda side: side.close_stage()))
        )
    out.append(("physical", click("label[for=physical]")))
    out.append(("physical-off", click("label[for=physical]")))
    out.append(("history", lambda side: side.tab("history")))
    out.append(("characters", lambda side: side.tab("characters")))
    out.append(
        (
            "char-editor",
            seq(
                click("#char-new"), fill("#char-name", "Aldric"), click("label[for=char-system-d6]")
            ),
        )
    )
    out.append(
        (
            "char-sheet",
            seq(
                click("#char-save"),
                lambda side: side.page.wait_for_selector("#char-list .char-card"),
            ),
        )
    )
    out.append(("combat", lambda side: side.tab("combat")))
    out.append(
        (
            "combat-fighters",
            seq(
                lambda side: side.page.evaluate(
                    "() => { const d = document.getElementById('combat-add');"
                    " if (d) d.open = true; }"
                ),
                fill("#combat-quick-name", "Brigand"),
                click("#combat-add-quick"),
                lambda side: side.page.wait_for_selector("#combat-order .fighter"),
            ),
        )
    )
    out.append(("stats", lambda side: side.tab("stats")))
    out.append(("en-roll", seq(click("button[data-lang=en]"), lambda side: side.tab("roll"))))
    out.append(("en-history", lambda side: side.tab("history")))
    out.append(("en-characters", lambda side: side.tab("characters")))
    out.append(("en-combat", lambda side: side.tab("combat")))
    out.append(("en-stats", lambda side: side.tab("stats")))
    return out


def pixels(png: bytes) -> Any:
    from PIL import Image

    return Image.open(io.BytesIO(png)).convert("RGBA")


def compare_state(a: Side, b: Side, label: str, out_dir: Path) -> list[str]:
    problems: list[str] = []
    count = "() => document.getElementsByTagName('*').length"
    count = "() => document.getElementsByTagName('*').length"
    for _ in range(2):  # the same DOM on both sides (a late badge or notice may be on its way)
        for x, y in ((a, b), (b, a)):
            try:
                n = y.page.evaluate(count)
                x.page.wait_for_function(f"(n) => ({count})() === n", arg=n, timeout=3000)
            except Exception:
                pass
    import time

    t0 = time.perf_counter()
    sa, sb = a.page.evaluate(CAPTURE, None), b.page.evaluate(CAPTURE, None)
    print(f"   capture {time.perf_counter() - t0:.1f} s", flush=True)
    if [x[0] for x in sa] != [x[0] for x in sb]:
        ca, cb = Counter(x[0] for x in sa), Counter(x[0] for x in sb)
        problems.append(
            f"{label}: the DOM differs ({len(sa)} vs {len(sb)} elements): "
            f"before only {dict(ca - cb)}, after only {dict(cb - ca)}"
        )
    else:
        bad = [i for i, (x, y) in enumerate(zip(sa, sb, strict=True)) if x[1:] != y[1:]]
        if bad:
            da, db = a.page.evaluate(CAPTURE, bad[:5]), b.page.evaluate(CAPTURE, bad[:5])
            for i in bad[:5]:
                names = ["", "::before", "::after"]
                for k, (ca, cb) in enumerate(zip(da[i][1], db[i][1], strict=True)):
                    if ca != cb:
                        la, lb = ca.split(";"), cb.split(";")
                        only_a = [x for x in la if x not in lb][:4]
                        only_b = [x for x in lb if x not in la][:4]
                        problems.append(f"{label}: {da[i][0]}{names[k]}: {only_a} vs {only_b}")
                if da[i][2] != db[i][2]:
                    problems.append(f"{label}: {da[i][0]} box {da[i][2]} vs {db[i][2]}")
            problems.append(
                f"{label}: {len(bad)} element(s) differ, first {sa[bad[0]]} vs {sb[bad[0]]}"
            )
    shot_a = a.page.screenshot(full_page=True, animations="disabled")
    shot_b = b.page.screenshot(full_page=True, animations="disabled")
    if shot_a != shot_b:
        from PIL import ImageChops

        ia, ib = pixels(shot_a), pixels(shot_b)
        box = ImageChops.difference(ia, ib).getbbox() if ia.size == ib.size else "size"
        if box:
            (out_dir / f"{label}-before.png").write_bytes(shot_a)
            (out_dir / f"{label}-after.png").write_bytes(shot_b)
            problems.append(f"{label}: screenshots differ {ia.size} vs {ib.size}, box {box}")
    return problems, len(sa)


def main() -> int:
    before, after = Path(sys.argv[1]), Path(sys.argv[2])
    out_dir = Path(sys.argv[3]) if len(sys.argv) > 3 else Path("/tmp/css-compare")
    out_dir.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    states = elements = 0
    with build.serving(before) as url_a, build.serving(after) as url_b, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=build.find_chromium(), args=build.CHROMIUM_ARGS, headless=True
        )
        for size in SIZES:
            a, b = Side(browser, url_a, size), Side(browser, url_b, size)
            systems = a.page.eval_on_selector_all(
                "input[name=system]", "xs => xs.map(x => x.value)"
            )
            for name, action in steps(systems):
                label = f"{size[0]}x{size[1]}-{name}"
                failed = []
                for side in (a, b):
                    try:
                        action(side)
                    except Exception as error:  # the same step must fail on both sides
                        failed.append(f"{type(error).__name__}: {str(error).splitlines()[0]}")
                if failed:
                    problems.append(f"{label}: step failed on {len(failed)} side(s): {failed[0]}")
                    if len(failed) == 2:
                        continue
                found, n = compare_state(a, b, label, out_dir)
                problems += found
                states += 1
                elements += n
                print(f"{label}: {n} elements, {'SAME' if not found else 'DIFFERENT'}", flush=True)
                for line in found[:8]:
                    print("   ", line[:400], flush=True)
                if ONLY and name == ONLY[-1]:
                    break
            for side in (a, b):
                if side.errors:
                    problems.append(f"{size}: page errors {side.errors[:3]}")
                side.context.close()
        browser.close()
    print(f"\n{states} states compared, {elements} element styles each side")
    print(
        "\n".join(problems)
        if problems
        else "no difference: computed styles, boxes and pixels identical"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
