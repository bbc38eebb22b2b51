"""Exact odds of an expression of grammar 2, within a work budget.

Every distribution is ``{value: weight}`` in whole numbers (the chance of a value is its weight
over the sum of the weights), so nothing is rounded. A group without keep or drop is the
n-th power of one die's contribution (a Kronecker product, :func:`power`). With keep or drop,
:func:`_keep` sorts the dice by value in one pass over the values (a count of dice per value
drawn binomially, as icepool does), with the dice an explosion adds as dice of their own.

The work is counted in units as it is done (:class:`Budget`); past ``BUDGET`` the expression
is refused (``notation_too_costly`` on ``expression``). Only the ops that answer odds ask for
them (``odds``, ``luck``, ``fairness``, ``oppose_odds``, ``compare``: in their check, so that
``validate`` of them refuses alike, :meth:`NotationSystem.check_odds`); a roll never does
before it is thrown, and one whose odds are refused is answered without luck or chance.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import comb
from typing import Any

from ...fields import ParamError
from .grammar import EXPLODE_DEPTH, Dice, Group, Neg, Node, Num, Parsed, bad

Dist = dict[int, int]

#: The exact work allowed for one expression, in units of 0.3 to 0.55 microseconds of
#: Pyodide under Node on the bench machine (a shared two-core server, slower than a recent
#: tablet): the costliest exact answers take about half a second there, fractions and JSON
#: included (bench/notation.py measures them; docs/performance.md, "Free dice odds"). Past
#: it, ``odds`` answers an estimate (:mod:`.estimate`).
BUDGET = 1_000_000


class Budget:
    def __init__(self, limit: int = BUDGET) -> None:
        self.left = limit

    def spend(self, units: int) -> None:
        self.left -= units
        if self.left < 0:
            raise bad("notation_too_costly")


# -- Kronecker products: one big-integer multiplication does a whole convolution ------------


def _slot_bits(largest: int) -> int:
    return (largest.bit_length() + 8) // 8 * 8


def _pack(counts: Dist, bits: int) -> tuple[int, int, int]:
    """A distribution as one integer, ``bits`` per outcome from the lowest: (int, low, size)."""
    low, high = min(counts), max(counts)
    width = bits // 8
    raw = b"".join(counts.get(o, 0).to_bytes(width, "little") for o in range(low, high + 1))
    return int.from_bytes(raw, "little"), low, high - low + 1


def _unpack(packed: int, low: int, size: int, bits: int) -> Dist:
    width = bits // 8
    raw = packed.to_bytes(size * width, "little")
    out = {}
    for i in range(size):
        count = int.from_bytes(raw[i * width:(i + 1) * width], "little")
        if count:
            out[low + i] = count
    return out


def _cost(size: int, bits: int) -> int:
    """The work of a big-integer product of ``size`` outcomes of ``bits`` each (measured in
    bench/notation.py: the multiplication grows faster than the number's length, and is
    slower in Pyodide than CPython by about twice as much as the loops over outcomes)."""
    return int((size * bits / 64) ** 1.3 / 2) + size


def power(counts: Dist, n: int, budget: Budget | None = None) -> Dist:
    """The distribution of the sum of n independent copies (the polynomial to the n-th power)."""
    bits = _slot_bits(sum(counts.values()) ** n)
    size = (max(counts) - min(counts)) * n + 1
    if budget:
        budget.spend(_cost(size, bits))
    packed, low, width = _pack(counts, bits)
    return _unpack(packed**n, low * n, (width - 1) * n + 1, bits)


def convolve(a: Dist, b: Dist, budget: Budget | None = None) -> Dist:
    """The distribution of the sum of two independent totals (same method as :func:`power`)."""
    bits = _slot_bits(sum(a.values()) * sum(b.values()))
    size = max(a) - min(a) + max(b) - min(b) + 1
    if budget:
        budget.spend(_cost(size, bits) // 2)
    pa, la, sa = _pack(a, bits)
    pb, lb, sb = _pack(b, bits)
    return _unpack(pa * pb, la + lb, sa + sb - 1, bits)


def _add(out: Dist, key: int, weight: int) -> None:
    out[key] = out.get(key, 0) + weight


# -- one die ----------------------------------------------------------------------------------


def throw_weights(g: Group) -> Dist:
    """One die thrown, rerolled and clamped: the weight of each value.
    ``ro``: a matching face is thrown again once and the new face stands (so a reroll of every
    face is the plain die); ``r``: thrown again until it does not match (the die without
    those faces; a reroll of every face is refused by the grammar)."""
    faces = list(g.faces)
    matching = [f for f in faces if g.rerolls(f)]
    out: Dist = {}
    for f in faces:
        if g.reroll is None:
            w = 1
        elif g.reroll_once:
            w = (0 if f in matching else len(faces)) + len(matching)
        else:
            w = 0 if f in matching else 1
        if w:
            _add(out, g.clamp(f), w)
    return out


def chain(g: Group, first: Callable[[int], int], extra: Callable[[int], int],
          budget: Budget) -> Dist:
    """One die and its explosions: the distribution of first(value) plus extra(value) of each
    die it adds (at most EXPLODE_DEPTH of them)."""
    w = throw_weights(g)
    if not g.explode:
        out: Dist = {}
        for v, q in w.items():
            _add(out, first(v), q)
        return out
    z = sum(w.values())
    tail: Dist = {}
    for k in range(EXPLODE_DEPTH, -1, -1):  # the k-th throw of the chain, from the last
        score = extra if k else first
        step: Dist = {}
        for v, q in w.items():
            c = score(v)
            if k < EXPLODE_DEPTH and g.explodes(v):
                budget.spend(len(tail))
                for c2, q2 in tail.items():
                    _add(step, c + c2, q * q2)
            else:
                _add(step, c, q * z ** (EXPLODE_DEPTH - k))
        tail = step
    return tail


# -- a group ----------------------------------------------------------------------------------


def one_die(g: Group, budget: Budget) -> Dist:
    """What one die of a group without keep or drop adds to its total, its explosions
    included: the group's total is the sum of ``g.count`` independent copies."""
    cut = 1 if g.penetrating else 0
    if g.separate or not g.explode:
        return chain(g, g.score, lambda v: g.score(v - cut), budget)
    total = chain(g, lambda v: v, lambda v: v - cut, budget)  # compounding: one die's value
    one: Dist = {}
    for v, q in total.items():
        _add(one, g.score(v), q)
    return one


def _count_cost(n: int, sides: int) -> int:
    """The work of :func:`count_sum`: its terms (half the totals, each with one term per
    die that can be over), heavier as the numbers grow (measured in bench/notation.py)."""
    terms = (n * (sides - 1) // 2 + 1) * (n // 2 + 1)
    bits = n * max(sides, 2).bit_length()
    return terms * (1 + bits // 1024) + n * sides


def count_sum(n: int, sides: int, low: int) -> Dist:
    """The ways n dice of ``sides`` equally likely consecutive values from ``low`` make each
    total, counted directly (inclusion-exclusion over the dice past their top value), half
    the totals only: the law is symmetric. Faster than :func:`power` for a few large dice
    (bench/notation.py)."""
    top = n * (sides - 1)
    column = [1]  # C(j + n - 1, n - 1): the ways without the top limit
    for j in range(top // 2):
        column.append(column[-1] * (j + n) // (j + 1))
    signs = [(-1) ** k * comb(n, k) for k in range(n + 1)]
    out: Dist = {}
    for t in range(top // 2 + 1):
        ways = sum(signs[k] * column[t - k * sides] for k in range(t // sides + 1))
        out[n * low + t] = out[n * low + top - t] = ways
    return out


def group_distribution(g: Group, budget: Budget) -> Dist:
    cut = 1 if g.penetrating else 0
    budget.spend(len(g.faces))
    if not g.keep:
        one = one_die(g, budget)
        low, high = min(one), max(one)
        uniform = len(one) == high - low + 1 and len(set(one.values())) == 1
        if uniform and g.count > 1:
            bits = _slot_bits(len(one) ** g.count)
            by_count = _count_cost(g.count, len(one))
            if by_count < _cost((high - low) * g.count + 1, bits):
                budget.spend(by_count)
                return count_sum(g.count, len(one), low)
        return power(one, g.count, budget)
    if not g.separate:
        value = chain(g, lambda v: v, lambda v: v - cut, budget)
        return _keep(g, [value], {(g.count,): 1}, budget)
    w = throw_weights(g)
    hot = {v: q for v, q in w.items() if g.explodes(v)}
    cold = {v: q for v, q in w.items() if not g.explodes(v)}
    cats = [hot, cold]
    if cut:  # an added die counts its value - 1: two more kinds of dice
        cats += [{v - 1: q for v, q in hot.items()}, {v - 1: q for v, q in cold.items()}]
    return _keep(g, cats, _patterns(g, bool(cut), sum(w.values()), budget), budget)


def _patterns(g: Group, penetrating: bool, z: int, budget: Budget) -> dict[tuple[int, ...], int]:
    """How many dice of each kind the group throws (kinds: exploding, not exploding; first
    throws and added ones apart when penetrating), with weights before the faces' own."""
    size = 4 if penetrating else 2
    one: dict[tuple[int, ...], int] = {}
    for k in range(EXPLODE_DEPTH + 2):  # k exploding throws, then one that stops (or not)
        hot = min(k, EXPLODE_DEPTH + 1)
        cold = 1 if k <= EXPLODE_DEPTH else 0
        vec = [0] * size
        if penetrating:  # the first throw is kind 0 or 1, the added ones 2 or 3
            vec[0 if hot else 1] += 1
            vec[2] += max(hot - 1, 0)
            vec[3] += cold if hot else 0
        else:
            vec[0], vec[1] = hot, cold
        pad = z ** (EXPLODE_DEPTH + 1 - hot - cold)
        one[tuple(vec)] = one.get(tuple(vec), 0) + pad
    total: dict[tuple[int, ...], int] = {(0,) * size: 1}
    for _ in range(g.count):
        budget.spend(3 * len(total) * len(one))  # measured: 3 times the other loops
        nxt: dict[tuple[int, ...], int] = {}
        for a, qa in total.items():
            for b, qb in one.items():
                key = tuple(x + y for x, y in zip(a, b, strict=True))
                nxt[key] = nxt.get(key, 0) + qa * qb
        total = nxt
    return total


def _keep(g: Group, cats: list[Dist], counts: dict[tuple[int, ...], int],
          budget: Budget) -> Dist:
    """Keep or drop among dice of several kinds (each kind: i.i.d. values with ``cats[i]``
    weights; ``counts``: how many of each kind, weighted). Values are taken from the highest
    (the lowest for ``kl``); a state is (dice left of each kind, dice placed) -> {score: w}."""
    up = any(k == "kl" for k, _ in g.keep)
    values = sorted({v for c in cats for v in c}, reverse=not up)
    counts = {vec: q for vec, q in counts.items()
              if all(n == 0 or cats[i] for i, n in enumerate(vec))}
    left = [sum(c.values()) for c in cats]  # weight of each kind not yet placed

    def kept(placed: int, rest: int) -> tuple[int, int]:
        start, stop = g.kept_range(placed + rest)
        return (start, stop) if not up else (placed + rest - stop, placed + rest - start)

    states: dict[tuple[tuple[int, ...], int], Dist] = {(vec, 0): {0: q}
                                                       for vec, q in counts.items()}
    out: Dist = {}
    for v in values:
        score = g.score(v)
        for i, cat in enumerate(cats):
            q = cat.get(v)
            if not q:
                continue
            nxt: dict[tuple[tuple[int, ...], int], Dist] = {}
            for (vec, placed), dist in states.items():
                rest = sum(vec)
                start, stop = kept(placed, rest)
                budget.spend((vec[i] + 1) * (len(dist) + 4))
                for k in range(vec[i] + 1):
                    inside = max(0, min(placed + k, stop) - max(placed, start))
                    mult = comb(vec[i], k) * q**k
                    key = ((*vec[:i], vec[i] - k, *vec[i + 1:]), placed + k)
                    target = nxt.setdefault(key, {})
                    for s, w in dist.items():
                        _add(target, s + inside * score, w * mult)
            states = nxt
            left[i] -= q
        budget.spend(sum(len(d) + 2 for d in states.values()))
        states = _settle(states, left, kept, out)
    return out


def _settle(states: dict[tuple[tuple[int, ...], int], Dist], left: list[int],
            kept: Callable[[int, int], tuple[int, int]], out: Dist
            ) -> dict[tuple[tuple[int, ...], int], Dist]:
    """Finish the states whose remaining dice are all dropped (they only weigh), drop those
    with dice of a kind that has no value left, keep the others."""
    alive: dict[tuple[tuple[int, ...], int], Dist] = {}
    for (vec, placed), dist in states.items():
        if any(n and not left[i] for i, n in enumerate(vec)):
            continue
        if placed >= kept(placed, sum(vec))[1]:
            mult = 1
            for i, n in enumerate(vec):
                mult *= left[i] ** n
            for s, w in dist.items():
                _add(out, s, w * mult)
        else:
            alive[(vec, placed)] = dist
    return alive


# -- the expression ---------------------------------------------------------------------------


def _node(node: Node, groups: tuple[Group, ...], budget: Budget) -> Dist:
    if isinstance(node, Num):
        return {node.value: 1}
    if isinstance(node, Dice):
        return group_distribution(groups[node.index], budget)
    if isinstance(node, Neg):
        return {-v: q for v, q in _node(node.node, groups, budget).items()}
    a, b = _node(node.left, groups, budget), _node(node.right, groups, budget)
    if node.op in "+-":
        if node.op == "-":
            b = {-v: q for v, q in b.items()}
        return convolve(a, b, budget)
    budget.spend(len(a) * len(b) * max(1, (sum(a.values()) * sum(b.values())).bit_length() // 64))
    out: Dist = {}
    for x, qa in a.items():
        for y, qb in b.items():
            _add(out, x * y if node.op == "*" else x // y, qa * qb)
    return out


def values(node: Node, groups: tuple[Group, ...], limit: int) -> set[int] | None:
    """The exact set of values ``node`` can take, or None when working it out costs more than
    ``limit`` units (every division inside ``node`` must have a divisor that is never 0)."""
    try:
        return {v for v, q in _node(node, groups, Budget(limit)).items() if q}
    except ParamError:
        return None


#: A refusal as it is kept: (field, key, args), never the exception itself, whose traceback
#: would keep alive every frame of the work it stopped (megabytes of big integers).
Refusal = tuple[str | None, str, dict[str, Any]]
_CACHE: dict[Parsed, dict[int, Fraction] | Refusal] = {}


def distribution(parsed: Parsed) -> dict[int, Fraction]:
    """Exact chance of each total; a ParamError when the work is over the budget. The last
    answers are kept (the check of ``odds``, then its run, ask for the same expression)."""
    if parsed not in _CACHE:
        try:
            budget = Budget()
            weights = _node(parsed.tree, parsed.groups, budget)
            den = sum(weights.values())
            # the fractions and their JSON: about 3 units per 16 bits of the denominator
            budget.spend(len(weights) * (den.bit_length() // 16 + 20))
            _CACHE[parsed] = {o: Fraction(q, den) for o, q in sorted(weights.items()) if q}
        except ParamError as exc:  # the refusal is kept too: asking again refuses at once
            _CACHE[parsed] = (exc.field, exc.key, exc.args_)
        while len(_CACHE) > 16:
            del _CACHE[next(iter(_CACHE))]
    answer = _CACHE[parsed]
    if isinstance(answer, tuple):  # a fresh exception each time: no traceback is kept
        field, key, args = answer
        raise ParamError(field, key, **args)
    return answer
