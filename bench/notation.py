"""Exact odds of free dice notation, CPython and Pyodide side by side:
``python bench/notation.py`` (needs a built dist/ and Node.js).

The engine refuses the odds of an expression whose work (pyrules.systems.notation.work) is
over its budget, which is meant to keep every accepted expression under about a second in
Pyodide on a tablet. This prints, for the largest accepted expressions and a few typical
ones, the time in CPython, the time in Pyodide under Node on this machine, and their ratio.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyrules.api import handle
from pyrules.systems.notation import parse_expression, work

ROOT = Path(__file__).resolve().parents[1]

CASES = ["3d6", "4d6kh3", "2d20kl1", "4dF", "5d10>=8", "3d6!",
         "100d20", "10d1000", "30d100", "8d100!", "10d20kh5", "20d20kh5", "20d10!ro1"]
ROUNDS = 3


def request(expression: str) -> str:
    return json.dumps({"op": "odds", "system": "notation", "params": {"expression": expression}})


def cpython_ms(expression: str) -> float:
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        answer = json.loads(handle(request(expression)))
        times.append((time.perf_counter() - start) * 1000)
        assert answer["ok"], (expression, answer)
    return statistics.median(times)


def pyodide_ms(expressions: list[str]) -> list[float]:
    dist = ROOT / "dist"
    info = json.loads((dist / "version.json").read_text(encoding="utf-8"))
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node not found")
    texts = [request(e) for e in expressions for _ in range(ROUNDS)]
    cmd = [node, str(ROOT / "tests" / "pyodide" / "run_api.mjs"), "--pyodide",
           str(dist / "pyodide"), "--micropip", str(dist / info["micropip"]),
           *[a for w in info["wheels"] if w["url"] != info["wheel"]
             for a in ("--dep", str(dist / w["url"]))],
           "--wheel", str(dist / info["wheel"])]
    out = json.loads(subprocess.run(cmd, input=json.dumps(texts), capture_output=True,
                                    text=True, check=True).stdout)
    ms = out["ms"]
    return [statistics.median(ms[i * ROUNDS:(i + 1) * ROUNDS]) for i in range(len(expressions))]


def main() -> None:
    there = pyodide_ms(CASES)
    print(f"{'expression':14s} {'work (bits, keep)':>22s} {'CPython ms':>11s} "
          f"{'Pyodide ms':>11s} {'ratio':>6s}")
    for expression, py_ms in zip(CASES, there, strict=True):
        here = cpython_ms(expression)
        print(f"{expression:14s} {work(parse_expression(expression))!s:>22s} {here:11.1f} "
              f"{py_ms:11.1f} {py_ms / here:6.2f}")


if __name__ == "__main__":
    main()
