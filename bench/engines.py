"""First visits in Firefox and WebKitGTK: the build's snapshot against a start without it.

    python bench/engines.py [firefox|webkit] [--rounds N]

No WebDriver needed (there is no geckodriver here): the browser opens a harness page that
loads the app in an iframe, waits for the "pyrules:ready" mark, rolls once without a seed,
and reports {ready, path, fallback, ms, seed} by loading /report?<json>, which this server
records. Each visit is a fresh profile: firefox-esr -headless with a new profile folder, or
WebKitGTK's MiniBrowser under xvfb-run. Two copies of dist/ are served: as built, and without
the snapshot file (the worker then falls back to micropip: the engine's own fresh start).
Prints one line per visit; nothing is asserted.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
TIMEOUT_S = 300
HARNESS = '<!doctype html><meta charset="utf-8"><body><script src="harness.js"></script>'
HARNESS_JS = """
const target = new URLSearchParams(location.search).get("u");
const frame = document.createElement("iframe");
frame.src = target;
frame.width = 1024;
frame.height = 768;
document.body.append(frame);
const started = performance.now();
const poll = setInterval(async () => {
  const w = frame.contentWindow;
  if (!w || !w.performance) return;
  const ready = w.performance.getEntriesByName("pyrules:ready")[0];
  if (!ready && performance.now() - started < 240000) return;
  clearInterval(poll);
  const boot = w.performance
    .getEntriesByType("mark")
    .find((m) => m.name.startsWith("pyrules:boot:"));
  let seed = null;
  try {
    const request = { op: "roll", system: "pool", params: { pot: 6, flame: 2 } };
    seed = (await w.pyrules.call(request)).result.seed;
  } catch (error) {
    seed = String(error);
  }
  const out = ready
    ? { ready: Math.round(ready.startTime), path: boot && boot.name.split(":").pop(),
        fallback: boot && boot.detail.fallback, ms: boot && boot.detail.ms, seed }
    : { timeout: true };
  location.href = "/report?" + encodeURIComponent(JSON.stringify(out));
}, 100);
"""


class Handler(build.SiteHandler):
    quiet = True
    reports: ClassVar[list[dict[str, Any]]] = []

    def do_GET(self) -> None:
        if self.path.startswith("/report?"):
            text = urllib.parse.unquote(self.path.split("?", 1)[1])
            self.reports.append(json.loads(text))
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")
            return
        super().do_GET()


def serve(directory: Path) -> str:
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(directory))
    )
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return build.server_url(server)


def command(engine: str, url: str, profile: str) -> list[str]:
    if engine == "firefox":
        return ["firefox-esr", "-headless", "-no-remote", "-profile", profile, url]
    return ["xvfb-run", "-a", MINIBROWSER, url]


def visit(engine: str, base: str) -> dict[str, Any]:
    url = base + "harness.html?u=" + urllib.parse.quote(base + "app/")
    before = len(Handler.reports)
    with tempfile.TemporaryDirectory(prefix="pyrules-engine-") as profile:
        proc = subprocess.Popen(
            command(engine, url, profile),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + TIMEOUT_S
        while len(Handler.reports) == before and proc.poll() is None:
            if time.monotonic() > deadline:
                break
            time.sleep(0.2)  # polling a child process: no event to wait on
        if proc.poll() is None:
            os.killpg(proc.pid, 9)  # the browser this script started, and its children
        proc.wait()
    return Handler.reports[-1] if len(Handler.reports) > before else {"report": None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("engine", choices=["firefox", "webkit"])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pyrules-engines-") as tmp:
        root = Path(tmp)
        for name in ("snapshot", "fresh"):
            shutil.copytree(build.DIST, root / name / "app")
            (root / name / "harness.html").write_text(HARNESS, encoding="utf-8")
            (root / name / "harness.js").write_text(HARNESS_JS, encoding="utf-8")
        (root / "fresh" / "app" / build.SNAPSHOT_FILE).unlink()
        bases = {name: serve(root / name) for name in ("snapshot", "fresh")}
        for i in range(args.rounds):
            for name, base in bases.items():
                print(f"{args.engine} round {i + 1} {name}: {json.dumps(visit(args.engine, base))}")
                sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
