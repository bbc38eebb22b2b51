"""The roll answer carries its luck and chances (issue 21): what does a roll cost now?

``python bench/roll_answer.py [--rounds N] [--pyodide]`` times, side by side in one run,
for each case: the first roll of new params (its exact odds computed: cold), then the
same roll again with other seeds (odds kept in the engine's LRU: warm), against the 5 ms
goal of the roll round trip. ``--pyodide`` also runs the same requests in Pyodide under
Node (needs a built dist/, like bench/notation.py).
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

from pyrules.api import handle  # noqa: E402
from pyrules.ops.cache import ODDS  # noqa: E402
from pyrules.systems.pool import odds as pool  # noqa: E402

GOAL_MS = 5.0
CASES: dict[str, tuple[str, dict[str, object]]] = {
    "pool default": ("pool", {}),
    "pool worst: 50 dice, 20 Flame, 40 aug": ("pool", {
        "pot": 40, "diff": 9, "flame": 10, "modifiers": "+10D+10DF+20", "augmentations": 20}),
    "d6 effort": ("d6", {"effort": True}),
    "d100": ("d100", {"value": 55}),
    "steps, weapons": ("steps", {"weapons": [2, 1], "edge": "advantage"}),
    "notation 10d1000": ("notation", {"expression": "10d1000"}),
    "steps sheet roll, 100 entries": ("steps", {"sheet": {
        "character": {"id": "c-1", "system": "steps", "name": "Ysolde",
                      "created": "2024-01-01T00:00:00Z", "updated": "2024-01-01T00:00:00Z",
                      "stats": {"accessories": 1, "weapons": [2, 1], "protections": [1]},
                      "entries": [{"id": f"e-{i}", "label": f"Skill {i}",
                                   "params": {"die": 10, "bonus": 1}} for i in range(100)]},
        "entry": "e-5", "situation": {"bonus": 1, "edge": "advantage"}}}),
}


def requests(system: str, params: dict[str, object], rounds: int) -> list[str]:
    """One roll (cold), then ``rounds`` rolls of the same params with other seeds."""
    return [json.dumps({"op": "roll", "system": system, "params": params, "seed": seed})
            for seed in range(rounds + 1)]


def cpython(texts: list[str]) -> list[float]:
    ODDS.clear()
    for fn in (pool._flame_dist, pool._plain_poly, pool._normal_successes):
        fn.cache_clear()
    out = []
    for text in texts:
        start = time.perf_counter()
        answer = json.loads(handle(text))
        out.append((time.perf_counter() - start) * 1000)
        assert answer["ok"] and answer["result"]["chance"] is not None, answer
    return out


def pyodide(all_texts: list[str]) -> list[float]:
    dist = ROOT / "dist"
    info = json.loads((dist / "version.json").read_text(encoding="utf-8"))
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node not found")
    cmd = [node, str(ROOT / "tests" / "pyodide" / "run_api.mjs"), "--pyodide",
           str(dist / "pyodide"), "--micropip", str(dist / info["micropip"]),
           *[a for w in info["wheels"] if w["url"] != info["wheel"]
             for a in ("--dep", str(dist / w["url"]))],
           "--wheel", str(dist / info["wheel"])]
    out = json.loads(subprocess.run(cmd, input=json.dumps(all_texts), capture_output=True,
                                    text=True, check=True).stdout)
    ms: list[float] = out["ms"]
    return ms


def row(name: str, times: list[float]) -> str:
    cold, warm = times[0], statistics.median(times[1:])
    return f"{name:<40} {cold:10.2f} {warm:9.3f} {warm / GOAL_MS:10.3f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--pyodide", action="store_true")
    args = parser.parse_args()
    header = f"{'case':<40} {'cold ms':>10} {'warm ms':>9} {'warm/5ms':>10}"
    batches = {name: requests(system, params, args.rounds)
               for name, (system, params) in CASES.items()}
    print(f"CPython {sys.version.split()[0]}: roll answers with luck and chances, "
          f"{args.rounds} warm rolls each (median)")
    print(header)
    for name, texts in batches.items():
        print(row(name, cpython(texts)))
    if args.pyodide:
        flat = [t for texts in batches.values() for t in texts]
        ms = pyodide(flat)
        print("Pyodide (same requests, one engine, in order)")
        print(header)
        i = 0
        for name, texts in batches.items():
            print(row(name, ms[i:i + len(texts)]))
            i += len(texts)


if __name__ == "__main__":
    main()
