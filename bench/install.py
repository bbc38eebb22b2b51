"""What installing the engine costs on a first visit: ``python bench/install.py``.

Builds dist/, then runs bench/install.mjs in real Pyodide under Node (the runtime and both
wheels of dist/): each round starts fresh Pyodide instances, one installing the pyrules wheel
the way the page does (micropip loaded by URL, ``micropip.install(deps=False)``, every module
imported) and one unpacking the wheel with zipfile before the same imports, alternating which
goes first. Prints one Markdown table of medians (min–max) per step, and each way's total
as a share of that round's ``loadPyodide()``: the part of a first visit's overhead that is
micropip's own. Nothing is asserted.

    python bench/install.py [--rounds N] [--no-build]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

# The steps of bench/install.mjs, in the order they run.
STEPS = (
    "loadPyodide",
    "loadPackage micropip",
    "import micropip",
    "micropip.install",
    "zipfile unpack",
    "import pyrules",
)


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):,.0f} ms ({min(values):,.0f}–{max(values):,.0f})"


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
        [
            node,
            str(ROOT / "bench" / "install.mjs"),
            "--pyodide", str(build.DIST / "pyodide"),
            "--micropip", str(build.DIST / info["micropip"]),
            "--wheel", str(build.DIST / info["wheel"]),
            "--rounds", str(options.rounds),
        ],
        check=True, capture_output=True, text=True,
    ).stdout
    rows = json.loads(out)["rounds"]
    ways = {way: [r for r in rows if r["way"] == way] for way in ("micropip", "zipfile")}
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    print(
        f"Pyodide {info['pyodide']} under Node {version}, {options.rounds} rounds, "
        "fresh instances, alternated; median (min–max).\n"
    )
    print("| step | micropip (the page) | zipfile unpack |")
    print("|---|---|---|")
    for name in STEPS:
        cells = [
            spread([r[name] for r in way_rows]) if name in way_rows[0] else "–"
            for way_rows in ways.values()
        ]
        print(f"| {name} | {' | '.join(cells)} |")
    cells = []
    for way_rows in ways.values():
        totals = [sum(v for k, v in r.items() if k not in ("way", "loadPyodide")) for r in way_rows]
        shares = [t / r["loadPyodide"] for t, r in zip(totals, way_rows, strict=True)]
        cells.append(f"{spread(totals)} = {statistics.median(shares):.2f}× `loadPyodide()`")
    print(f"| install + import, total | {' | '.join(cells)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
