"""Exact odds of free dice notation, CPython and Pyodide side by side:
``python bench/notation.py`` (needs a built dist/ and Node.js).

The engine counts the work of the exact odds as it does it (pyrules.systems.notation.odds,
Budget) and refuses an expression over ``BUDGET`` units, meant to keep every accepted
expression under about a second in Pyodide on a tablet. This prints, for typical and for the
largest accepted expressions, the units of work, the time in CPython (process time, so other
jobs on the machine weigh less), the time in Pyodide under Node on this machine, their ratio,
and the microseconds per unit (the calibration of the budget).
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
from pyrules.systems.notation import BUDGET, odds, parse

ROOT = Path(__file__).resolve().parents[1]

CASES = ["3d6", "4d6kh3", "2d20kl1", "4dF", "5d10>=8", "3d6!", "4d6!kh3", "(1d4+1)*2",
         "100d20", "6d1000", "30d100", "8d100!", "40d10!", "12d20!kh5", "20d20kh10",
         "4d10!dh1dl1", "10d6!>=5kh3", "5d10!p>=8kl2", "2d100*2d100", "8d100+8d100+8d100"]
ROUNDS = 3


def request(expression: str) -> str:
    return json.dumps({"op": "odds", "system": "notation", "params": {"expression": expression}})


def units(expression: str) -> int:
    parsed = parse(expression)
    budget = odds.Budget(10**15)
    weights = odds._node(parsed.tree, parsed.groups, budget)
    budget.spend(len(weights) * (sum(weights.values()).bit_length() // 64 + 10))
    return int(10**15 - budget.left)


def cpython_ms(expression: str) -> float:
    times = []
    for _ in range(ROUNDS):
        odds._CACHE.clear()  # the engine keeps its last answers: time the work itself
        start = time.process_time()
        answer = json.loads(handle(request(expression)))
        times.append((time.process_time() - start) * 1000)
        assert answer["ok"], (expression, answer)
    return statistics.median(times)


def pyodide_ms(expressions: list[str]) -> list[float]:
    dist = ROOT / "dist"
    info = json.loads((dist / "version.json").read_text(encoding="utf-8"))
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node not found")
    # Round i asks for "expression+i": the same work, but not an answer the engine keeps.
    # The first request imports lark and builds the parser: not timed.
    texts = [request("1d6"), *(request(f"{e}+{i}") for e in expressions for i in range(ROUNDS))]
    cmd = [node, str(ROOT / "tests" / "pyodide" / "run_api.mjs"), "--pyodide",
           str(dist / "pyodide"), "--micropip", str(dist / info["micropip"]),
           *[a for w in info["wheels"] if w["url"] != info["wheel"]
             for a in ("--dep", str(dist / w["url"]))],
           "--wheel", str(dist / info["wheel"])]
    out = json.loads(subprocess.run(cmd, input=json.dumps(texts), capture_output=True,
                                    text=True, check=True).stdout)
    ms = out["ms"][1:]
    return [statistics.median(ms[i * ROUNDS:(i + 1) * ROUNDS]) for i in range(len(expressions))]


def main() -> None:
    there = pyodide_ms(CASES)
    print(f"budget {BUDGET} units")
    print(f"{'expression':26s} {'units':>8s} {'CPython ms':>11s} {'Pyodide ms':>11s} "
          f"{'ratio':>6s} {'us/unit':>8s}")
    for expression, py_ms in zip(CASES, there, strict=True):
        here = cpython_ms(expression)
        work = units(expression)
        print(f"{expression:26s} {work:8d} {here:11.1f} {py_ms:11.1f} "
              f"{py_ms / max(here, 0.01):6.2f} {here * 1000 / work:8.2f}")


if __name__ == "__main__":
    main()
