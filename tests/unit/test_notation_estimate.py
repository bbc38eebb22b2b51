"""Issue 41, items 2 and 3: exact odds up to well past ``10d1000``, an honest estimate beyond.

The exact values are written out here from a formula the engine does not use (the number of
ways n dice of s faces sum to t, by inclusion-exclusion); the estimates are checked against
the exact answer wherever both exist: every "at most t" chance within the stated bound.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from pyrules.systems.notation import estimate, parse
from pyrules.systems.notation import odds as exact_odds

from .helpers import call, ok


def ways(n: int, sides: int, total: int) -> int:
    """How many ways n dice of ``sides`` faces show ``total`` (inclusion-exclusion)."""
    t = total - n  # each die minus 1: n values in 0..sides-1
    return sum((-1) ** k * comb(n, k) * comb(t - k * sides + n - 1, n - 1)
               for k in range(n + 1) if t - k * sides >= 0)


def odds(expression: str) -> dict[str, Any]:
    return ok({"op": "odds", "system": "notation", "params": {"expression": expression}})


@pytest.mark.parametrize(("n", "sides", "totals"), [
    (10, 1000, [10, 11, 12, 500, 5005, 9999, 10000]),
    (50, 100, [50, 51, 1000, 2525, 5000]),
    (100, 20, [100, 101, 1050, 1999, 2000]),
    (100, 6, [100, 101, 350, 599, 600]),
])
def test_sums_of_like_dice_are_exact_far_past_the_old_budget(n: int, sides: int,
                                                              totals: list[int]) -> None:
    answer = odds(f"{n}d{sides}")
    assert "estimate" not in answer  # exact: no estimate object
    dist = answer["distribution"]
    assert len(dist) == n * (sides - 1) + 1
    for total in totals:
        assert Fraction(dist[str(total)]) == Fraction(ways(n, sides, total), sides**n)
    assert Fraction(answer["mean"]) == Fraction(n * (sides + 1), 2)


def test_written_out_values_of_the_frontier() -> None:
    """A few of the values above, written out: the formula itself is checked."""
    assert ways(10, 1000, 11) == 10 and ways(10, 1000, 12) == 55
    assert ways(100, 6, 101) == 100 and ways(3, 6, 10) == 27
    dist = odds("10d1000")["distribution"]
    assert dist["10"] == dist["10000"] == "1/" + str(1000**10)
    assert dist["12"] == "11/" + str(2 * 10**29)  # 55 / 10^30


def cdf(dist: dict[int, Fraction]) -> dict[int, Fraction]:
    out, run = {}, Fraction(0)
    for t in sorted(dist):
        run += dist[t]
        out[t] = run
    return out


def error(estimated: dict[int, Fraction], exact: dict[int, Fraction]) -> float:
    """The largest error of an "at most t" chance, over every total of either law."""
    a, b = cdf(estimated), cdf(exact)
    worst = 0.0
    last_a = last_b = Fraction(0)
    for t in sorted(set(a) | set(b)):
        last_a, last_b = a.get(t, last_a), b.get(t, last_b)
        worst = max(worst, abs(float(last_a - last_b)))
    return worst


NORMAL = ["3d6", "10d6", "20d10", "8d6!", "6d6!!", "10d10>=8", "4dF", "2d6-1d4+3",
          "3d6*2", "20d20+20d4", "-(5d8)", "12d6ro<3", "10d10!p>=7"]
SAMPLED = ["4d6kh3", "2d6*2d6", "10d10!kh3", "8d6dl2dh2", "3d20kl1", "20/1d6", "6d6!>=5kh2"]


@pytest.mark.parametrize("expression", NORMAL)
def test_the_normal_estimate_is_within_its_bound(expression: str) -> None:
    parsed = parse(expression)
    made = estimate.normal(parsed)
    assert made is not None, expression
    dist, how = made
    assert how.method == "normal" and how.confidence is None
    assert sum(dist.values()) == 1 and all(p > 0 for p in dist.values())
    exact = exact_odds.distribution(parsed)
    assert error(dist, exact) <= how.bound
    assert min(exact) <= min(dist) and max(dist) <= max(exact)
    assert (how.low, how.high) == (min(exact), max(exact))


@pytest.mark.parametrize("expression", SAMPLED)
def test_the_monte_carlo_estimate_is_within_its_bound(expression: str) -> None:
    parsed = parse(expression)
    assert estimate.normal(parsed) is None  # keep, drop, a product or a division of dice
    dist, how = estimate.monte_carlo(parsed)
    assert how.method == "monte_carlo" and how.confidence == 0.99 and how.seed == 0
    assert sum(dist.values()) == 1
    assert all(p.denominator * how.samples % p.denominator == 0 for p in dist.values())
    exact = exact_odds.distribution(parsed)
    assert set(dist) <= set(exact)  # thrown dice never make an impossible total
    assert how.low <= min(exact) and max(exact) <= how.high  # a range that holds every total
    assert error(dist, exact) <= how.bound
    assert dist == estimate.monte_carlo(parsed)[0]  # a fixed seed: the same answer each time


def test_an_estimate_says_so_and_an_exact_answer_does_not() -> None:
    exact = odds("10d1000")
    assert "estimate" not in exact
    big = odds("100d1000")
    assert big["estimate"]["method"] == "normal"
    assert 0 < big["estimate"]["bound"] < 0.1
    dist = {int(t): Fraction(p) for t, p in big["distribution"].items()}
    assert sum(dist.values()) == 1
    assert (big["estimate"]["low"], big["estimate"]["high"]) == (100, 100_000)
    assert min(dist) > 100 and max(dist) < 100_000  # totals whose chance rounds to 0 left out
    assert abs(float(Fraction(big["mean"])) - 50_050) < 1  # the mean of the estimate
    kept = odds("100d10!kh50")
    assert kept["estimate"]["method"] == "monte_carlo"
    assert kept["estimate"]["samples"] >= 2000 and kept["estimate"]["confidence"] == 0.99
    assert kept == odds("100d10!kh50")


# -- a property over generated expressions ---------------------------------------------------


def group(rng: random.Random, count: int) -> str:
    sides = rng.choice(["F", "2", "4", "6", "10", "20", "100", "1000"])
    # Fudge dice: a comparison names 0 or 1 (the grammar reads no sign there)
    low, high = (0, 1) if sides == "F" else (1, int(sides))
    text = f"{count}d{sides}"
    if count > 1 and rng.random() < 0.3:
        text += rng.choice(["kh", "kl", "dh", "dl"]) + str(rng.randint(1, count - 1))
    if rng.random() < 0.2:
        text += rng.choice(["r", "ro"]) + str(low)
    if rng.random() < 0.15:
        text += f"mi{rng.randint(low, high)}"
    if rng.random() < 0.25:
        text += f">={rng.randint(low, high)}"
        if rng.random() < 0.3:
            text += f"f{low}"
    if rng.random() < 0.3:
        text += rng.choice(["!", "!!", "!p", "!!p"])
    return text


def expression(rng: random.Random) -> str:
    left = 100
    parts = []
    for _ in range(rng.randint(1, 3)):
        count = rng.randint(1, min(left, rng.choice([3, 10, 40, 100])))
        left -= count
        parts.append(group(rng, count))
        if not left:
            break
    text = parts[0]
    for part in parts[1:]:
        text += rng.choice(["+", "-", "*"]) + part
    if rng.random() < 0.3:
        text = f"({text}){rng.choice(['+', '-', '*', '/'])}{rng.randint(1, 9)}"
    return text


EXPRESSIONS = [e for e in (expression(random.Random(i)) for i in range(60)) if len(e) <= 60]


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_any_legal_expression_rolls_and_has_odds_exact_or_estimated(text: str) -> None:
    params = {"expression": text}
    roll = {"op": "roll", "system": "notation", "params": params, "seed": 11}
    rolled = call(roll)
    assert call({"op": "validate", "request": roll})["ok"] is rolled["ok"]
    # the generator writes only legal expressions: a reroll of one face, keep fewer than the
    # dice, explosions of dice with more than one face
    assert rolled["ok"], (text, rolled)
    asked = {"op": "odds", "system": "notation", "params": params}
    answer = call(asked)
    assert call({"op": "validate", "request": asked})["ok"] is answer["ok"] is True, answer
    result = answer["result"]
    assert sum(Fraction(p) for p in result["distribution"].values()) == 1
    if "estimate" in result:
        assert result["estimate"]["method"] in ("normal", "monte_carlo")
    else:  # exact: the rolled total is one the odds allow
        assert str(rolled["result"]["total"]) in result["distribution"]
