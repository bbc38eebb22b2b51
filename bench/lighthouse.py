"""Lighthouse's mobile report of the built site (issue 25: performance >= 0.90):

    python bench/lighthouse.py [--runs N] [--no-build] [--dist DIR]

Runs Lighthouse LIGHTHOUSE_VERSION (npm; installed with `npm install --no-save` when
node_modules lacks it, so package.json is untouched) against the site served by
build.serving, with Debian's Chromium (CHROME_PATH, headless, never a downloaded browser),
its default mobile preset (a Moto G Power, simulated slow 4G, 4x CPU slowdown), a fresh
profile per run: a first visit. Prints a Markdown table of the category scores and the
metrics behind the performance score, per run and their median, then the longest main
thread tasks of the last run (what the total blocking time is made of). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

LIGHTHOUSE_VERSION = "12.2.3"
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (
    ("first-contentful-paint", "FCP"),
    ("largest-contentful-paint", "LCP"),
    ("total-blocking-time", "TBT"),
    ("cumulative-layout-shift", "CLS"),
    ("speed-index", "SI"),
    ("total-byte-weight", "bytes"),
)


def ensure_lighthouse() -> Path:
    """node_modules/.bin/lighthouse at LIGHTHOUSE_VERSION (npm install --no-save)."""
    package = ROOT / "node_modules" / "lighthouse" / "package.json"
    have = json.loads(package.read_text())["version"] if package.is_file() else None
    if have != LIGHTHOUSE_VERSION:
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("npm not found (Debian: apt-get install npm)")
        cmd = [npm, "install", "--no-save", "--no-audit", "--no-fund",
               f"lighthouse@{LIGHTHOUSE_VERSION}"]
        if subprocess.run(cmd, cwd=ROOT, check=False).returncode != 0:
            raise SystemExit("npm could not install lighthouse")
    return LIGHTHOUSE


def run(url: str, out: Path) -> dict[str, Any]:
    env = {**os.environ, "CHROME_PATH": build.find_chromium()}
    cmd = [
        str(ensure_lighthouse()), url, "--quiet", "--output=json", f"--output-path={out}",
        "--chrome-flags=--headless=new --no-sandbox --no-first-run",
    ]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not out.is_file():
        raise SystemExit(f"lighthouse failed: {done.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(out.read_text())
    return report


def row(report: dict[str, Any]) -> dict[str, float]:
    values = {c: float(report["categories"][c]["score"]) for c in CATEGORIES}
    for audit, name in METRICS:
        values[name] = float(report["audits"][audit]["numericValue"])
    return values


def cell(name: str, value: float) -> str:
    if name in CATEGORIES:
        return f"{value:.2f}"
    if name == "CLS":
        return f"{value:.3f}"
    if name == "bytes":
        return f"{value / 1e6:.1f} MB"
    return f"{value / 1000:.1f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--dist", type=Path, default=build.DIST)
    parser.add_argument("--keep", type=Path, help="a folder to keep each run's JSON report in")
    args = parser.parse_args()
    if not args.no_build:
        build.build(args.dist)
    ensure_lighthouse()
    rows = []
    report: dict[str, Any] = {}
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    # Text and wasm gzipped, as GitHub Pages sends them (the transfer sizes Lighthouse
    # simulates the slow link with are then the hosted site's).
    with build.serving(args.dist, gzip=True) as base, tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            report = run(base, (args.keep or Path(tmp)) / f"run-{i}.json")
            rows.append(row(report))
            print(f"run {i + 1}: {rows[-1]} [load {os.getloadavg()[0]:.1f}]", file=sys.stderr)
    names = [*CATEGORIES, *(name for _, name in METRICS)]
    lines = [
        f"Lighthouse {LIGHTHOUSE_VERSION}, mobile preset (simulated slow 4G, 4x CPU), Chromium"
        f" headless, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} at the end.",
        "",
        "| run | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for i, values in enumerate(rows):
        lines.append(f"| {i + 1} | " + " | ".join(cell(n, values[n]) for n in names) + " |")
    medians = {n: statistics.median(r[n] for r in rows) for n in names}
    lines.append("| median | " + " | ".join(cell(n, medians[n]) for n in names) + " |")
    tasks = report["audits"]["long-tasks"]["details"]["items"]
    lines += ["", "Longest main-thread tasks of the last run (simulated time):", ""]
    for task in tasks[:8]:
        lines.append(f"- {task['duration']:,.0f} ms at {task['startTime']:,.0f} ms: {task['url']}")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
