"""Time the exact odds and a roll on CPython: ``python bench/odds.py [--rounds N]``.

Cold times clear the engine's caches first (a new set of inputs); warm times repeat the
same inputs (the odds panel recomputing). Prints medians and the ratio to the 50 ms goal.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyrules.api import handle
from pyrules.systems.pool import odds as pool

GOAL_MS = 50.0
CASES = {
    "pool typical: POT 30, 10 Flame, 10 aug": {"pot": 30, "diff": 9, "flame": 10,
                                              "augmentations": 10},
    "pool black Flame: POT 30, -10, 10 dim": {"pot": 30, "diff": 6, "flame": -10,
                                              "diminutions": 10},
    "pool worst: 50 dice, 20 Flame, 40 aug": {"pot": 40, "diff": 9, "flame": 10,
                                             "modifiers": "+10D+10DF+20",
                                             "augmentations": 20},
}


def clear() -> None:
    for fn in (pool._flame_dist, pool._plain_poly, pool._normal_successes):
        fn.cache_clear()


def timed(request: str, cold: bool) -> float:
    if cold:
        clear()
    start = time.perf_counter()
    answer = handle(request)
    elapsed = (time.perf_counter() - start) * 1000
    assert json.loads(answer)["ok"], answer
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    rounds = parser.parse_args().rounds
    print(f"CPython {sys.version.split()[0]}, {rounds} rounds, medians")
    print(f"{'case':<42} {'cold ms':>9} {'warm ms':>9} {'cold/goal':>10}")
    for name, params in CASES.items():
        req = json.dumps({"op": "odds", "system": "pool", "params": params})
        cold = statistics.median(timed(req, True) for _ in range(rounds))
        warm = statistics.median(timed(req, False) for _ in range(rounds))
        print(f"{name:<42} {cold:9.2f} {warm:9.2f} {cold / GOAL_MS:10.2f}")
    for system in ("pool", "d6", "d100", "steps"):
        req = json.dumps({"op": "roll", "system": system, "seed": 1})
        t = statistics.median(timed(req, False) for _ in range(rounds * 20))
        print(f"{'roll ' + system:<42} {t:9.3f}")


if __name__ == "__main__":
    main()
