"""Fuzz ``pyrules.api.handle`` and time every answer: ``python bench/fuzz.py [-n N]``.

Sends N requests: random strings, random JSON, and well-formed requests with values drawn
around every field's bounds (inside and out), plus the known worst cases. Every answer must
be JSON with either a result or an error of a known code; prints the count per answer
kind and the slowest answers. The test suite checks the same properties with Hypothesis;
timings live here, not in tests.
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pyrules.api import handle
from pyrules.registry import SYSTEMS

CODES = {"invalid_json", "unknown_op", "unknown_system", "invalid_param"}
OPS = ["roll", "odds", "oppose", "dice", "luck", "systems", "sources", "combat", "effort"]
WORST = [
    {"op": "odds", "system": "pool", "params": {"pot": 40, "flame": 10, "augmentations": 20,
                                                "modifiers": "+10D+10DF+20", "diff": 9}},
    {"op": "luck", "system": "pool", "margins": list(range(-500, 500)),
     "params": {"pot": 40, "flame": -10, "diminutions": 20, "modifiers": "+10D+10DF-20"}},
    {"op": "oppose", "system": "d6", "actor": {"pc": False}, "opponent": {"pc": False}},
]


def around(rng: random.Random, field: Any) -> Any:
    kind = field.kind
    if kind == "int":
        return rng.choice([field.min, field.max, field.min - 1, field.max + 1,
                           rng.randint(field.min, field.max), 10**9, -(10**9), "7", 2.5])
    if kind == "bool":
        return rng.choice([True, False, "true", 1, None])
    if kind == "choice":
        return rng.choice([c.value for c in field.choices] + ["?", 3, None])
    if kind == "text":
        return "".join(rng.choice("+-0123456789DdFf ") for _ in range(rng.randint(0, 45)))
    return rng.choice([None, [rng.randint(-1, 13) for _ in range(rng.randint(0, 70))],
                       "1, 2, 3", "x"])


def random_json(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randint(0, 7 if depth < 3 else 4)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.randint(-(2**64), 2**64)
    if pick == 3:
        return rng.random() * 10**rng.randint(-5, 30)
    if pick == 4:
        return "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 20)))
    if pick == 5:
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(["op", "system", "params", "seed", "lang", "actor", "x"]):
            random_json(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def make_request(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.1:
        return "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 200)))
    if kind < 0.3:
        return json.dumps(random_json(rng))
    system = rng.choice([*SYSTEMS, "x"])
    fields = SYSTEMS[system].fields if system in SYSTEMS else ()
    params = {f.name: around(rng, f) for f in fields if rng.random() < 0.6}
    req: dict[str, Any] = {"op": rng.choice(OPS), "system": system, "params": params,
                           "actor": params, "opponent": {}, "margins": [0, 1, -1]}
    if rng.random() < 0.5:
        req["seed"] = rng.choice([rng.randint(0, 2**53 - 1), -1, "1", 2**60])
    return json.dumps(req)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    kinds: Counter[str] = Counter()
    slowest: list[tuple[float, str]] = []
    requests = [json.dumps(w) for w in WORST] + [make_request(rng) for _ in range(args.n)]
    for text in requests:
        start = time.perf_counter()
        answer = json.loads(handle(text))
        elapsed = time.perf_counter() - start
        if answer["ok"]:
            kinds["ok"] += 1
        else:
            code = answer["error"]["code"]
            assert code in CODES, (text, answer)
            kinds[code] += 1
        slowest = sorted([*slowest, (elapsed, text[:90])], reverse=True)[:5]
    print(f"{len(requests)} requests, CPython {sys.version.split()[0]}")
    for kind, count in kinds.most_common():
        print(f"  {kind:<16} {count}")
    print("slowest answers:")
    for elapsed, text in slowest:
        print(f"  {elapsed * 1000:8.1f} ms  {text}")


if __name__ == "__main__":
    main()
