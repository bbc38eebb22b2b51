"""Copies of a built site with some of the page's own work taken out, to measure what that
work costs the engine's start (issue 25: WebKitGTK's later visit):

    python bench/variants.py DIST OUT [--variants static,engine-only,script-late]
    python bench/engines.py --no-build --dist OUT/static --before DIST --engines webkit

Each variant is OUT/<name>: a copy of DIST with one change, its offline copy's integrity
brought up to date (precache.json and the map baked into sw.js), so that the service worker
completes the offline copy and a later visit goes through it as the app's does:

    static       index.html without main.js: the page paints its HTML and stylesheet and
                 runs no script of its own beside js/engine/early.js (which starts the
                 engine's worker) and js/pwa/pwa.js (the service worker). A small classic
                 script added after early.js sets the marks bench/engines.py reads from the
                 worker's messages, as engine.js would.
    engine-only  the same without the stylesheet either: the engine's worker, the service
                 worker and a bare page.
    script-late  the app whole, but main.js is added to the page only once the worker says
                 its two big files are in (its "python" step), or after 1.5 s.

These are measuring tools, not builds to ship: a variant's page cannot roll (static,
engine-only) or shows its forms late (script-late).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import shutil
import sys
from pathlib import Path

MAIN_TAG = '<script type="module" src="js/app/main.js"></script>'
STYLE_TAG = '<link rel="stylesheet" href="css/app.css">'
EARLY_TAG = '<script src="js/engine/early.js"></script>'
HELPER = "js/engine/bench-variant.js"

#: The marks engine.js and main.js set, set from the worker's messages (static, engine-only),
#: and the app's `window.pyrules.ready`, which pwa.js waits for before it looks at the
#: offline copy (as it does beside the app).
MARKS_SCRIPT = """(function () {
  var early = self.pyrulesEarly;
  if (!early) return;
  var settle;
  window.pyrules = { ready: new Promise(function (resolve) { settle = resolve; }) };
  early.worker.addEventListener("message", function (event) {
    var data = event.data || {};
    if (data.type === "boot") performance.mark("pyrules:boot:" + data.path, { detail: data });
    if (data.type === "ready") performance.mark("pyrules:ready");
    if (data.type === "ready" || data.type === "error") settle();
    if (data.type === "snapshot") {
      performance.mark("pyrules:snapshot:" + (data.stored ? "stored" : "not-stored"));
    }
  });
})();
"""

#: main.js added once the worker's big files are in (script-late).
LATE_SCRIPT = """(function () {
  var added = false;
  function add() {
    if (added) return;
    added = true;
    var script = document.createElement("script");
    script.type = "module";
    script.src = "js/app/main.js";
    document.head.appendChild(script);
  }
  setTimeout(add, 1500);
  var early = self.pyrulesEarly;
  if (!early) return add();
  early.worker.addEventListener("message", function (event) {
    var data = event.data || {};
    if ((data.type === "progress" && data.step === "python") || data.type === "ready"
        || data.type === "error") add();
  });
})();
"""

VARIANTS = {
    "static": ([MAIN_TAG], MARKS_SCRIPT),
    "engine-only": ([MAIN_TAG, STYLE_TAG], MARKS_SCRIPT),
    "script-late": ([MAIN_TAG], LATE_SCRIPT),
}


def integrity(path: Path) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode()


def make_variant(dist: Path, out: Path, name: str) -> Path:
    """OUT/<name>: DIST with the variant's change and the offline copy's integrity updated."""
    removed, helper = VARIANTS[name]
    target = out / name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(dist, target, symlinks=False)
    page = target / "index.html"
    html = page.read_text(encoding="utf-8")
    for tag in [*removed, EARLY_TAG]:
        if tag not in html:
            raise SystemExit(f"{page}: {tag} not found (is {dist} a built site?)")
    for tag in removed:
        html = html.replace(tag, "")
    html = html.replace(EARLY_TAG, f'{EARLY_TAG}\n  <script src="{HELPER}"></script>')
    page.write_text(html, encoding="utf-8")
    (target / HELPER).parent.mkdir(parents=True, exist_ok=True)
    (target / HELPER).write_text(helper, encoding="utf-8")
    update_integrity(target)
    return target


def update_integrity(root: Path) -> list[str]:
    """Bring precache.json's and sw.js's integrity of every precached file up to date; the
    paths whose integrity changed."""
    precache = json.loads((root / "precache.json").read_text(encoding="utf-8"))
    worker = (root / "sw.js").read_text(encoding="utf-8")
    changed = []
    for path, old in precache["integrity"].items():
        new = integrity(root / path)
        if new != old:
            if worker.count(old) != 1:
                raise SystemExit(f"sw.js: the integrity of {path} is not found once")
            precache["integrity"][path] = new
            worker = worker.replace(old, new)
            changed.append(path)
    (root / "precache.json").write_text(json.dumps(precache), encoding="utf-8")
    (root / "sw.js").write_text(worker, encoding="utf-8")
    return changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dist", type=Path, help="a built site (python build.py)")
    parser.add_argument("out", type=Path, help="where the variants are written")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    for name in [n.strip() for n in args.variants.split(",") if n.strip()]:
        if name not in VARIANTS:
            raise SystemExit(f"unknown variant {name!r}: one of {', '.join(VARIANTS)}")
        print(make_variant(args.dist, args.out, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
