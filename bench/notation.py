"""Odds of free dice notation, CPython and Pyodide side by side:
``python bench/notation.py`` (needs a built dist/ and Node.js).

The engine counts the work of the exact odds as it does it (pyrules.systems.notation.odds,
Budget); past ``BUDGET`` units, ``odds`` answers an estimate (normal law or seeded Monte
Carlo, pyrules.systems.notation.estimate). This prints, for typical expressions, the exact
frontier and expressions past it, how the answer was made, the units of exact work (counted
without a limit), the time of the whole ``odds`` call in CPython (process time, so other jobs
on the machine weigh less) and in Pyodide under Node on this machine, their ratio, and the
size of the JSON answer. Then, for sums of like dice, the polynomial power against a direct
inclusion-exclusion count (CPython).
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import time
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyrules.api import handle
from pyrules.fields import ParamError
from pyrules.ops import cache
from pyrules.systems.notation import BUDGET, odds, parse

ROOT = Path(__file__).resolve().parents[1]

CASES = ["3d6", "4d6kh3", "2d20kl1", "4dF", "5d10>=8", "3d6!", "4d6!kh3", "(1d4+1)*2",
         # the exact frontier (issue 41): sums of like dice, keep, explosions
         "10d1000", "50d100", "100d20", "100d6", "100d6!", "20d20!kh10", "12d20!kh5",
         "2d100*2d100", "8d100+8d100+8d100",
         # past it: an estimate
         "100d1000", "20d1000", "100d100", "100d10!", "100d10!kh50", "50d1000kh10",
         "20d100*20d100"]
ROUNDS = 3


def request(expression: str) -> str:
    return json.dumps({"op": "odds", "system": "notation", "params": {"expression": expression}})


def units(expression: str, limit: int = 20 * BUDGET) -> int | None:
    """The units of exact work, or None past ``limit`` (20 budgets: not worth waiting for)."""
    parsed = parse(expression)
    budget = odds.Budget(limit)
    try:
        weights = odds._node(parsed.tree, parsed.groups, budget)
        budget.spend(len(weights) * (sum(weights.values()).bit_length() // 16 + 20))
    except ParamError:
        return None
    return int(limit - budget.left)


def cpython_ms(expression: str) -> tuple[float, str, int]:
    """The median time of the odds call, how it was made, and its JSON's size."""
    times = []
    for _ in range(ROUNDS):
        odds._CACHE.clear()  # the engine keeps its last answers: time the work itself
        cache.ODDS.clear()
        start = time.process_time()
        text = handle(request(expression))
        times.append((time.process_time() - start) * 1000)
        answer = json.loads(text)
        assert answer["ok"], (expression, answer)
    method = answer["result"].get("estimate", {}).get("method", "exact")
    return statistics.median(times), method, len(text)


def inclusion_exclusion(n: int, sides: int) -> dict[int, int]:
    """Ways n dice of ``sides`` faces make each total, counted directly."""
    column = [comb(j + n - 1, n - 1) for j in range(n * (sides - 1) + 1)]
    signs = [(-1) ** k * comb(n, k) for k in range(n + 1)]
    return {n + t: sum(signs[k] * column[t - k * sides] for k in range(t // sides + 1))
            for t in range(n * (sides - 1) + 1)}


def power_versus_count() -> None:
    print(f"\n{'sum of like dice':18s} {'power ms':>9s} {'count ms':>9s}")
    for n, sides in ((2, 1000), (3, 1000), (5, 1000), (10, 1000), (50, 100), (100, 20)):
        start = time.process_time()
        by_power = odds.power({f: 1 for f in range(1, sides + 1)}, n)
        middle = time.process_time()
        by_count = inclusion_exclusion(n, sides)
        end = time.process_time()
        assert by_power == by_count
        print(f"{n}d{sides:<15d} {(middle - start) * 1000:9.1f} {(end - middle) * 1000:9.1f}")


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
    print(f"{'expression':22s} {'answer':>12s} {'units':>10s} {'CPython ms':>11s} "
          f"{'Pyodide ms':>11s} {'ratio':>6s} {'JSON kB':>8s}")
    for expression, py_ms in zip(CASES, there, strict=True):
        here, method, size = cpython_ms(expression)
        work = units(expression)
        shown = f"{work:10d}" if work is not None else f"{'> ' + str(20 * BUDGET):>10s}"
        print(f"{expression:22s} {method:>12s} {shown} {here:11.1f} {py_ms:11.1f} "
              f"{py_ms / max(here, 0.01):6.2f} {size / 1000:8.0f}")
    power_versus_count()


if __name__ == "__main__":
    main()
