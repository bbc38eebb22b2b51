"""Odds past the exact budget: an estimate that says what it is and how far it can be off.

Two methods, chosen by the expression's shape:

- ``normal``: a sum of independent dice (groups without keep or drop, added, subtracted or
  multiplied by a number; successes and explosions included) is close to a normal law. Each
  die's own distribution is exact (:func:`.odds.one_die`), so are the total's mean and
  variance; the chance of "at most t" is the normal law's at t + half the step between
  totals. The Berry-Esseen theorem bounds the error of every such chance: at most
  0.56 x (sum of the dice's third absolute moments) / (variance ** 1.5) (Shevtsova, 2010, for
  independent dice that need not be alike), plus the tails left out and the rounding.
- ``monte_carlo``: anything else (keep, drop, a product or a division of dice) is thrown
  ``samples`` times from a fixed seed, so the same expression always answers the same. The
  Dvoretzky-Kiefer-Wolfowitz inequality bounds the error of every "at most t" chance by
  sqrt(ln(2 / 0.01) / (2 x samples)), with 99 % confidence.

Either way the ``distribution`` sums to exactly 1 (whole units of 1e-9 for ``normal``, of
1/samples for ``monte_carlo``), and the error bound is on every cumulative chance ("at most
t", hence "at least t"). Luck is never computed from an estimate: only ``odds`` answers one.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate

from .grammar import EXPLODE_DEPTH, Dice, Group, Neg, Node, Num, Parsed
from .odds import Budget, Dist, chain, one_die, throw_weights
from .ranges import value_range
from .throw import value_of

#: Berry-Esseen constants (Shevtsova 2010 and 2011): independent summands, and alike ones.
BERRY_ESSEEN = 0.56
BERRY_ESSEEN_ALIKE = 0.4748
#: The normal estimate's chances are whole units of 1 / RESOLUTION.
RESOLUTION = 10**9
#: Monte Carlo: dice thrown in all (samples x dice per sample), and the samples' bounds.
THROWS = 250_000
SAMPLES_MIN, SAMPLES_MAX = 2_000, 20_000
CONFIDENCE = 0.99
SEED = 0


@dataclass(frozen=True)
class Estimate:
    """How an estimate was made: ``bound`` is the largest error of any "at most t" (or "at
    least t") chance; with ``confidence`` when it holds with that probability (Monte Carlo)."""

    method: str  # "normal" or "monte_carlo"
    bound: float
    low: int  # every total the expression can give lies in [low, high] (the distribution
    high: int  # leaves out those whose estimated chance rounds to 0)
    confidence: float | None = None
    samples: int | None = None
    seed: int | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"method": self.method, "bound": self.bound,
                                  "low": self.low, "high": self.high}
        if self.method == "monte_carlo":
            out.update(confidence=self.confidence, samples=self.samples, seed=self.seed)
        return out


Term = tuple[Dist, int, int]  # one die's weights, how many such dice, the factor they get


def _linear(node: Node, groups: tuple[Group, ...], factor: int, terms: list[Term]) -> int | None:
    """The expression as a constant plus factor x (independent dice), or None when it is not
    one (keep, drop, a division, a product of dice). Appends the dice to ``terms``."""
    if isinstance(node, Num):
        return factor * node.value
    if isinstance(node, Dice):
        g = groups[node.index]
        if g.keep:
            return None
        terms.append((one_die(g, Budget(10**9)), g.count, factor))
        return 0
    if isinstance(node, Neg):
        return _linear(node.node, groups, -factor, terms)
    if node.op in "+-":
        left = _linear(node.left, groups, factor, terms)
        right = _linear(node.right, groups, factor if node.op == "+" else -factor, terms)
        return None if left is None or right is None else left + right
    if node.op == "*":
        for number, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(number, Num):
                return _linear(other, groups, factor * number.value, terms)
    return None


def _phi(z: float) -> float:
    """The standard normal law's chance of at most z."""
    return 0.5 * math.erfc(-z / math.sqrt(2))


def normal(parsed: Parsed) -> tuple[dict[int, Fraction], Estimate] | None:
    terms: list[Term] = []
    constant = _linear(parsed.tree, parsed.groups, 1, terms)
    if constant is None or not terms:
        return None
    mean = Fraction(constant)
    variance = third = Fraction(0)
    low = high = constant
    step = 0
    for weights, count, factor in terms:
        z = sum(weights.values())
        mu = Fraction(sum(factor * v * q for v, q in weights.items()), z)
        var = Fraction(sum((factor * v - mu) ** 2 * q for v, q in weights.items()), z)
        rho = Fraction(sum(abs(factor * v - mu) ** 3 * q for v, q in weights.items()), z)
        mean += count * mu
        variance += count * var
        third += count * rho
        ends = [factor * min(weights), factor * max(weights)]
        low, high = low + count * min(ends), high + count * max(ends)
        first = min(weights)
        for v in weights:
            step = math.gcd(step, factor * (v - first))
    if not variance:
        return None
    sigma = math.sqrt(variance)
    base = low  # every total is low + a multiple of step
    center = float(mean)

    def cdf(t: float) -> float:  # the normal chance of at most t, continuity corrected
        return _phi((t + step / 2 - center) / sigma)

    reach = 9 * sigma  # past this the normal law's tails weigh less than 1e-18
    first = max(low, base + math.ceil((center - reach - base) / step) * step)
    last = min(high, base + math.floor((center + reach - base) / step) * step)
    out: dict[int, Fraction] = {}
    below = 0
    t = first
    while t <= last:
        upto = RESOLUTION if t == last else round(cdf(t) * RESOLUTION)
        if upto > below:
            out[t] = Fraction(upto - below, RESOLUTION)
            below = upto
        t += step
    tails = (cdf(first - step) if first > low else 0.0) + (1 - cdf(last) if last < high else 0.0)
    alike = len({(tuple(sorted(w.items())), f) for w, _, f in terms}) == 1
    constant_be = BERRY_ESSEEN_ALIKE if alike else BERRY_ESSEEN
    bound = constant_be * float(third) / sigma**3 + tails + 1 / RESOLUTION
    return out, Estimate("normal", _round_up(min(bound, 1.0)), low, high)


def _round_up(x: float) -> float:
    """x rounded up to 3 significant digits (a bound is never rounded down)."""
    if x <= 0:
        return 0.0
    digits = 2 - math.floor(math.log10(x))
    return float(round(math.ceil(x * 10**digits) / 10**digits, digits))


def _subtotals(g: Group, samples: int, rng: random.Random) -> list[int]:
    """The group's subtotal in each of ``samples`` throws. A die's value is drawn from its
    exact law (rerolls and clamps: :func:`.odds.throw_weights`; a compounded chain: its
    total); explosions that are dice of their own are drawn as they come, each added die
    counting one less when they penetrate."""
    separate = bool(g.explode) and g.separate
    if g.explode and not separate:
        cut = 1 if g.penetrating else 0
        weights = chain(g, lambda v: v, lambda v: v - cut, Budget(10**9))
    else:
        weights = throw_weights(g)
    values = sorted(weights)
    cumulative = list(accumulate(weights[v] for v in values))
    scores = {v: g.score(v) for v in values}
    scores.update({v - 1: g.score(v - 1) for v in values})  # penetrating extra dice
    hot = {v for v in values if g.explodes(v)} if separate else set()
    cut = 1 if g.penetrating else 0
    start, stop = g.kept_range(g.count)
    out = []
    flat = [] if separate else rng.choices(values, cum_weights=cumulative, k=g.count * samples)
    for i in range(samples):
        if separate:
            dice = rng.choices(values, cum_weights=cumulative, k=g.count)
            pending = sum(1 for v in dice if v in hot)
            for _ in range(EXPLODE_DEPTH):
                if not pending:
                    break
                added = rng.choices(values, cum_weights=cumulative, k=pending)
                dice += [v - cut for v in added]
                pending = sum(1 for v in added if v in hot)
            start, stop = g.kept_range(len(dice))
        else:
            dice = flat[i * g.count:(i + 1) * g.count]
        if g.keep:
            dice = sorted(dice, reverse=True)[start:stop]
        out.append(sum(map(scores.__getitem__, dice)))
    return out


def monte_carlo(parsed: Parsed, seed: int = SEED) -> tuple[dict[int, Fraction], Estimate]:
    dice = sum(g.count * (2 if g.explode and g.separate else 1) for g in parsed.groups)
    samples = max(SAMPLES_MIN, min(SAMPLES_MAX, THROWS // max(dice, 1)))
    rng = random.Random(seed)
    columns = [_subtotals(g, samples, rng) for g in parsed.groups]
    totals = Counter(value_of(parsed.tree, list(row)) for row in zip(*columns, strict=True))
    bound = math.sqrt(math.log(2 / (1 - CONFIDENCE)) / (2 * samples))
    out = {t: Fraction(n, samples) for t, n in sorted(totals.items())}
    low, high = value_range(parsed.tree, parsed.groups)  # a range that holds every total
    return out, Estimate("monte_carlo", _round_up(bound), low, high, CONFIDENCE, samples, seed)


def estimate(parsed: Parsed) -> tuple[dict[int, Fraction], Estimate]:
    """The estimated chance of each total, and how it was made."""
    return normal(parsed) or monte_carlo(parsed)
