"""A brute-force oracle of the free dice notation, written from the meaning of each symbol
and sharing nothing with pyrules (no constant, no helper): every face of every die thrown is
enumerated, each with its exact chance.

A group's outcome is the list of its dice's values, in the order thrown; the tests then keep,
drop, count and add them with plain Python, so each symbol's meaning is written in the test.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from fractions import Fraction

CAP = 3  # a die explodes at most 3 times: a chain of at most 4 faces (docs/rules.md §5)

Outcomes = list[tuple[tuple[int, ...], Fraction]]


def faces_of(sides: int) -> list[int]:
    return [-1, 0, 1] if sides == 0 else list(range(1, sides + 1))


def one_throw(sides: int, reroll: Callable[[int], bool] | None = None, once: bool = False,
              depth: int = 40) -> list[tuple[int, Fraction]]:
    """One die thrown (its reroll included): (face kept, chance). ``once``: a matching face is
    thrown again and the new face stands; else again and again while it matches, the tree
    cut at ``depth`` (what is left is returned as face None, to bound the error)."""
    faces = faces_of(sides)
    p = Fraction(1, len(faces))
    out: dict[int, Fraction] = {}
    left = Fraction(1)
    for level in range(depth):
        nxt = Fraction(0)
        for f in faces:
            if reroll is not None and reroll(f) and not (once and level == 1):
                nxt += left * p
            else:
                out[f] = out.get(f, Fraction(0)) + left * p
        left = nxt
        if not left or (once and level == 1):
            break
    pairs: list[tuple[int, Fraction]] = list(out.items())
    if left:
        pairs.append((None, left))  # type: ignore[arg-type]
    return pairs


def die(sides: int, *, explode: str = "", on: Callable[[int], bool] | None = None,
        reroll: Callable[[int], bool] | None = None, once: bool = False,
        low: int | None = None, high: int | None = None) -> Outcomes:
    """Every outcome of one die with its explosions: the values of the dice it makes.
    explode: "" none, "each" (each explosion a new die), "add" (added into the die),
    "each-1" (a new die counting its face - 1), "add-1" (added, each added face - 1)."""
    top = 1 if sides == 0 else sides
    explodes = on or (lambda v: v == top)

    def clamp(f: int) -> int:
        if low is not None and f < low:
            f = low
        if high is not None and f > high:
            f = high
        return f

    throws = [(clamp(f), q) for f, q in one_throw(sides, reroll, once) if f is not None]
    chains: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    done: Outcomes = []
    for _ in range(CAP + 1):
        grown = []
        for chain, q in chains:
            for v, qv in throws:
                new = (*chain, v)
                if explode and explodes(v) and len(new) <= CAP:
                    grown.append((new, q * qv))
                else:
                    done.append((new, q * qv))
        chains = grown
    done += chains
    out: Outcomes = []
    for chain, q in done:
        cut = 1 if explode.endswith("-1") else 0
        values = (chain[0], *(v - cut for v in chain[1:]))
        out.append(((sum(values),) if explode.startswith("add") else values, q))
    return out


def group(n: int, sides: int, **mods: object) -> Outcomes:
    """All n dice: (every die's value in the order thrown, chance)."""
    one = die(sides, **mods)  # type: ignore[arg-type]
    out: Outcomes = []
    for combo in itertools.product(one, repeat=n):
        values = tuple(v for vs, _ in combo for v in vs)
        q = Fraction(1)
        for _, qi in combo:
            q *= qi
        out.append((values, q))
    return out


def tally(pairs: Iterable[tuple[int, Fraction]]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for total, q in pairs:
        out[total] = out.get(total, Fraction(0)) + q
    return dict(sorted((t, q) for t, q in out.items() if q))


def of(outcomes: Outcomes, rule: Callable[[tuple[int, ...]], int]) -> dict[int, Fraction]:
    return tally((rule(values), q) for values, q in outcomes)


def combine(a: dict[int, Fraction], b: dict[int, Fraction],
            op: Callable[[int, int], int]) -> dict[int, Fraction]:
    return tally((op(x, y), qa * qb) for x, qa in a.items() for y, qb in b.items())


def high(values: tuple[int, ...], k: int) -> list[int]:
    return sorted(values, reverse=True)[:k]


def low(values: tuple[int, ...], k: int) -> list[int]:
    return sorted(values)[:k]
