"""Copies of a built site with one part of its start taken out or put off, to measure what
that part costs the rest (issue 25: WebKitGTK's later visit; issue 40: the page's share):

    python bench/variants.py DIST OUT [--variants static,engine-only]
    python bench/engines.py --no-build --dist DIST --before OUT/engine-only --engines webkit

Each variant is OUT/<name>: a copy of DIST with one change, its offline copy's integrity
brought up to date (precache.json and the map baked into sw.js), so that the service worker
completes the offline copy and a later visit goes through it as the app's does:

    static       index.html without the app: no js/app/start.js (which imports main.js) and
                 no modulepreload; the page paints its HTML and stylesheet and runs no script
                 of its own beside js/engine/early.js (which starts the engine's worker) and
                 js/pwa/pwa.js (the service worker), which a module script loads as start.js
                 would. A small classic script added after early.js sets the marks
                 bench/engines.py reads from the worker's messages, as engine.js would, and
                 the window.pyrules.ready that pwa.js waits for.
    engine-only  the same without the stylesheet either: the engine's worker, the service
                 worker and a bare page.
    engine-late  the whole app, its engine's worker waiting ENGINE_LATE_S before it fetches
                 or starts anything (js/engine/worker.js): the page starts alone, with no
                 engine beside it on the machine's cores. What Lighthouse gives the page's
                 own work (python bench/lighthouse.py --no-build --dist OUT/engine-late).

(script-late, main.js added once the worker said its two big files were in, measured before
issue 40: the app itself now does that on a later visit, js/app/start.js.)

These are measuring tools, not builds to ship: a variant's page cannot roll.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

START_TAG = '<script type="module" src="js/app/start.js"></script>'
PWA_TAG = '<script type="module" src="js/pwa/pwa.js"></script>'
PRELOAD = re.compile(r'^[ \t]*<link rel="modulepreload" href="[^"]+">\n', re.MULTILINE)
STYLE_TAG = '<link rel="stylesheet" href="css/app.css">'
EARLY_TAG = '<script src="js/engine/early.js"></script>'
HELPER = "js/engine/bench-variant.js"

#: The marks engine.js and main.js set, set from the worker's messages (static, engine-only),
#: the app's `window.pyrules.ready`, which pwa.js waits for before it looks at the
#: offline copy (as it does beside the app), and the hint engine.js writes once the raw
#: snapshot is stored (lib/kept-snapshot.js: without it the next start would not read it).
MARKS_SCRIPT = """(function () {
  var early = self.pyrulesEarly;
  if (!early) return;
  var settle;
  var build = null;
  window.pyrules = { ready: new Promise(function (resolve) { settle = resolve; }) };
  early.worker.addEventListener("message", function (event) {
    var data = event.data || {};
    if (data.type === "boot") performance.mark("pyrules:boot:" + data.path, { detail: data });
    if (data.type === "ready") {
      build = data.build;
      performance.mark("pyrules:ready");
    }
    if (data.type === "ready" || data.type === "error") settle();
    if (data.type === "snapshot") {
      performance.mark("pyrules:snapshot:" + (data.stored ? "stored" : "not-stored"));
      try {
        if (data.stored) localStorage.setItem("pyrules:engine-kept", JSON.stringify(build));
        else localStorage.removeItem("pyrules:engine-kept");
      } catch (error) {}
    }
  });
})();
"""

VARIANTS = {
    "static": ([START_TAG], MARKS_SCRIPT),
    "engine-only": ([START_TAG, STYLE_TAG], MARKS_SCRIPT),
}

ENGINE_LATE_S = 3
WORKER = "js/engine/worker.js"
_LATE_MS = ENGINE_LATE_S * 1000
#: engine-late: the built worker's two first moves (its downloads, its boot), each put off.
WORKER_LATE = (
    ("\ndownloads.prefetch();\n", f"\nsetTimeout(() => downloads.prefetch(), {_LATE_MS});\n"),
    (
        "\nbooting = boot();\n",
        f"\nbooting = new Promise((go) => setTimeout(go, {_LATE_MS})).then(() => boot());\n",
    ),
)
NAMES = [*VARIANTS, "engine-late"]


def integrity(path: Path) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode()


def make_variant(dist: Path, out: Path, name: str) -> Path:
    """OUT/<name>: DIST with the variant's change and the offline copy's integrity updated."""
    target = out / name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(dist, target, symlinks=False)
    if name == "engine-late":
        worker = target / WORKER
        code = worker.read_text(encoding="utf-8") if worker.is_file() else ""
        for old, new in WORKER_LATE:
            if code.count(old) != 1:
                raise SystemExit(f"{worker}: {old.strip()} not found once (a built site?)")
            code = code.replace(old, new)
        worker.write_text(code, encoding="utf-8")
        update_integrity(target)
        return target
    removed, helper = VARIANTS[name]
    page = target / "index.html"
    html = page.read_text(encoding="utf-8")
    for tag in [*removed, EARLY_TAG]:
        if tag not in html:
            raise SystemExit(f"{page}: {tag} not found (is {dist} a built site?)")
    for tag in removed:
        html = html.replace(tag, PWA_TAG if tag == START_TAG else "")
    html = PRELOAD.sub("", html)
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
    parser.add_argument("--variants", default=",".join(VARIANTS), help=", ".join(NAMES))
    args = parser.parse_args()
    for name in [n.strip() for n in args.variants.split(",") if n.strip()]:
        if name not in NAMES:
            raise SystemExit(f"unknown variant {name!r}: one of {', '.join(NAMES)}")
        print(make_variant(args.dist, args.out, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
