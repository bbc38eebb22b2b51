"""How long the `sweep` op takes, in real Pyodide under Node and in CPython, side by side:
``python bench/sweep.py [--rounds N] [--no-build]``.

Builds dist/, then runs bench/sweep.mjs with the runtime and wheels of dist/. Cold times
clear the pool module's caches first (a new set of inputs); warm times repeat the request.
Prints a Markdown table of medians (min–max) and the cold median as a share of the 1 s goal
(the largest pool swept over every DIFF). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from pyrules.api import handle  # noqa: E402
from pyrules.systems import pool  # noqa: E402

GOAL_MS = 1000.0
CASES = {
    "pool worst: 50 dice, 20 Flame, 40 aug, DIFF 1-9": {
        "op": "sweep", "system": "pool", "field": "diff", "values": list(range(1, 10)),
        "params": {"pot": 40, "modifiers": "+10D+10DF+20", "flame": 10, "augmentations": 20}},
    "pool black Flame: 50 dice, -20, 40 dim, DIFF 1-9": {
        "op": "sweep", "system": "pool", "field": "diff", "values": list(range(1, 10)),
        "params": {"pot": 40, "modifiers": "+10D+10DF-20", "flame": -10, "diminutions": 20}},
    "pool typical: POT 8, 3 Flame, default values": {
        "op": "sweep", "system": "pool", "field": "diff",
        "params": {"pot": 8, "flame": 3, "augmentations": 1}},
    "d6 difficulty, default values": {"op": "sweep", "system": "d6", "field": "difficulty"},
    "d100 modifier, default values": {"op": "sweep", "system": "d100", "field": "modifier"},
    "d100 modifier, 61 values": {"op": "sweep", "system": "d100", "field": "modifier",
                                 "values": list(range(-30, 31))},
    "steps bonus, default values": {"op": "sweep", "system": "steps", "field": "bonus"},
}


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):,.1f} ms ({min(values):,.1f}–{max(values):,.1f})"


def cpython(request: dict[str, object], rounds: int) -> list[float]:
    text = json.dumps(request)
    out = []
    for _ in range(rounds):
        for fn in (pool._flame_dist, pool._plain_poly, pool._normal_successes):
            fn.cache_clear()
        start = time.perf_counter()
        assert json.loads(handle(text))["ok"]
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-build", action="store_true", help="use dist/ as it is")
    options = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        print("node is not installed", file=sys.stderr)
        return 1
    if not options.no_build:
        build.build(build.DIST)
    info = json.loads((build.DIST / "version.json").read_text())
    out = subprocess.run(
        [node, str(ROOT / "bench" / "sweep.mjs"),
         "--pyodide", str(build.DIST / "pyodide"),
         "--micropip", str(build.DIST / info["micropip"]),
         "--wheel", str(build.DIST / info["wheel"]),
         "--rounds", str(options.rounds)],
        input=json.dumps(CASES), check=True, capture_output=True, text=True,
    ).stdout
    rows = json.loads(out)["rounds"]
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"Pyodide {info['pyodide']} under Node {version} and CPython "
          f"{sys.version.split()[0]}, {options.rounds} rounds; median (min–max).\n")
    print("| sweep | Pyodide cold | Pyodide warm | CPython cold | Pyodide cold / 1 s |")
    print("|---|---|---|---|---|")
    for name, request in CASES.items():
        mine = [r for r in rows if r["case"] == name]
        cold = [r["cold"] for r in mine]
        warm = [r["warm"] for r in mine]
        here = cpython(request, options.rounds)
        print(f"| {name} | {spread(cold)} | {spread(warm)} | {spread(here)} | "
              f"{statistics.median(cold) / GOAL_MS:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
