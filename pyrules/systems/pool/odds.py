"""The pool's exact odds (document 000), as fractions: success counts by generating
polynomials, Flame dice by their face counts placed as ``resolve`` places them. The unit
tests check them against every face combination resolved one by one.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb, factorial
from typing import Any

from ...core import Odds, make_odds
from .rules import OUTCOME_IDS, PoolParams, net_budget, ones_matter, placed_successes, verdict

# -- exact odds ------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _plain_poly(m: int) -> tuple[int, ...]:
    """Weights of the successes of m dice that show no 1: (2 + 2x + x^2)^m."""
    poly = [1]
    for _ in range(m):
        nxt = [0] * (len(poly) + 2)
        for s, w in enumerate(poly):
            nxt[s] += 2 * w
            nxt[s + 1] += 2 * w
            nxt[s + 2] += w
        poly = nxt
    return tuple(poly)


def _normal_weight(n: int, ones: int, s: int) -> int:
    """Weight (out of 6^n) of n ordinary dice showing ``ones`` 1s and ``s`` successes."""
    poly = _plain_poly(n - ones)
    return comb(n, ones) * poly[s] if 0 <= s < len(poly) else 0


@lru_cache(maxsize=64)
def _normal_successes(n: int) -> tuple[int, ...]:
    """Weights of the successes of n ordinary dice: (3 + 2x + x^2)^n."""
    out = [0] * (2 * n + 1)
    for ones in range(n + 1):
        for s, w in enumerate(_plain_poly(n - ones)):
            out[s] += comb(n, ones) * w
    return tuple(out)


def _count_vectors(n: int, faces: int) -> Any:
    if faces == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _count_vectors(n - first, faces - 1):
            yield (first, *rest)


@lru_cache(maxsize=64)
def _flame_dist(count: int, aug: int, dim: int) -> tuple[tuple[int, int, int], ...]:
    """(ones, successes, weight out of 6^count) for Flame dice placed optimally."""
    dist: dict[tuple[int, int], int] = {}
    fact = factorial(count)
    for counts in _count_vectors(count, 6):
        weight = fact
        for c in counts:
            weight //= factorial(c)
        key = (counts[0], placed_successes(counts, aug, dim))
        dist[key] = dist.get(key, 0) + weight
    return tuple((o, s, w) for (o, s), w in sorted(dist.items()))


def successes_weights(p: PoolParams) -> dict[int, int]:
    """How many of the 6**dice_count face combinations give each number of successes (the
    Flame dice's augmentations and diminutions placed as ``resolve`` places them)."""
    flame_s: dict[int, int] = {}
    for _o, s, w in _flame_dist(p.flame_count, *net_budget(p)):
        flame_s[s] = flame_s.get(s, 0) + w
    normal_s = _normal_successes(p.dice_count - p.flame_count)
    total_s: dict[int, int] = {}
    for sf, wf in flame_s.items():
        for sn, wn in enumerate(normal_s):
            if wn:
                total_s[sf + sn] = total_s.get(sf + sn, 0) + wf * wn
    return total_s


def pool_odds(p: PoolParams) -> Odds:
    n = p.dice_count - p.flame_count
    flame = _flame_dist(p.flame_count, *net_budget(p))
    total_s = successes_weights(p)
    outcome_w = dict.fromkeys(OUTCOME_IDS, 0)
    margin_w: dict[int, int] = {}
    for s, w in total_s.items():
        margin = verdict(p, s, 0).margin
        margin_w[margin] = margin_w.get(margin, 0) + w
        if not ones_matter(p, s):
            outcome_w[verdict(p, s, 0).outcome] += w
            continue
        for of, sf, wf in flame:  # split this success count by the number of 1s
            if sf > s:
                continue
            for on in range(n + 1):
                wn = _normal_weight(n, on, s - sf)
                if wn:
                    outcome_w[verdict(p, s, of + on).outcome] += wf * wn
    return make_odds(outcome_w, margin_w, 6 ** p.dice_count)
