"""Goodness of fit: compare observed rolls with the exact odds (a chi-square test).

Used by the fairness tests and by the in-app "dés équitables ?" check. Floats are fine
here: this is the edge where exact odds meet sampled counts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

FAIRNESS_MAX = 5000  # rolls per `fairness` request; the page asks in chunks and shows progress


def _gamma_series(a: float, x: float) -> float:
    """Regularised lower incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(10_000):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x) by Lentz's continued fraction."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for a chi-square variable with ``dof`` degrees of freedom."""
    if dof <= 0:
        return 1.0
    if statistic <= 0:
        return 1.0
    a, x = dof / 2.0, statistic / 2.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _gamma_series(a, x))
    return min(1.0, _gamma_fraction(a, x))


@dataclass(frozen=True)
class FitResult:
    statistic: float
    dof: int
    p_value: float
    bins: tuple[tuple[str, int, float], ...]  # (label, observed, expected)


def chi_square(
    observed: Mapping[str, int], expected: Mapping[str, Fraction], min_expected: float = 5.0
) -> FitResult:
    """Pearson's test of observed counts against exact probabilities.

    Categories expected fewer than ``min_expected`` times are pooled together so the
    chi-square approximation holds. A category observed but given probability 0 makes
    the p-value 0: such a roll is impossible under the rules.
    """
    n = sum(observed.values())
    for key, count in observed.items():
        if count and expected.get(key, Fraction(0)) == 0:
            return FitResult(math.inf, 0, 0.0, ((key, count, 0.0),))
    bins: list[tuple[str, int, float]] = []
    pooled_obs, pooled_exp, pooled_keys = 0, 0.0, []
    for key, prob in sorted(expected.items(), key=lambda kv: kv[1]):
        exp = float(prob) * n
        obs = observed.get(key, 0)
        if exp < min_expected:
            pooled_obs += obs
            pooled_exp += exp
            pooled_keys.append(key)
        else:
            bins.append((key, obs, exp))
    if pooled_keys and pooled_exp > 0:
        if pooled_exp < min_expected and bins:
            key, obs, exp = bins.pop(0)
            pooled_keys.append(key)
            pooled_obs += obs
            pooled_exp += exp
        bins.append(("+".join(pooled_keys), pooled_obs, pooled_exp))
    stat = sum((o - e) ** 2 / e for _, o, e in bins if e > 0)
    dof = len(bins) - 1
    return FitResult(stat, dof, chi2_sf(stat, dof), tuple(bins))


# -- luck: where a result falls under the exact odds -------------------------------------


def percentile(margins: dict[int, Fraction], margin: int) -> Fraction:
    """Mid-rank percentile of a margin: P(lower) + P(equal) / 2. 1/2 is an average roll."""
    below = sum((p for m, p in margins.items() if m < margin), Fraction(0))
    return below + margins.get(margin, Fraction(0)) / 2
