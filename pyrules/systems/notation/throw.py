"""Rolling an expression of grammar 2: one code path for the RNG and for typed faces.

Dice are drawn one by one from a face source (the injected RNG, or the faces a player typed),
in the order a player throws them: each die of a group, its rerolls, then its explosions,
before the next die. So a seed replays exactly, and typed faces are read the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .grammar import EXPLODE_DEPTH, Dice, Group, Neg, Node, Num, Parsed

FaceSource = Callable[[Group], int]


@dataclass(frozen=True)
class RolledDie:
    faces: tuple[int, ...]  # every face thrown for this die: rerolls, a compounded chain
    value: int  # what it counts for before its score (a penetrating extra die: face - 1)
    rerolled: bool
    exploded: bool  # it exploded (made another die, or compounded)
    extra: bool  # it is a die an explosion added
    parts: tuple[int, ...] | None = None  # a compounded chain: what each throw adds to it


def throw(g: Group, source: FaceSource) -> tuple[list[int], int]:
    """One die thrown and rerolled as the group says: its faces and its value."""
    faces = [source(g)]
    if g.reroll_once:
        if g.rerolls(faces[0]):
            faces.append(source(g))
    else:
        while g.rerolls(faces[-1]):
            faces.append(source(g))
    return faces, g.clamp(faces[-1])


def roll_group(g: Group, source: FaceSource) -> list[RolledDie]:
    dice: list[RolledDie] = []
    cut = 1 if g.penetrating else 0
    for _ in range(g.count):
        chain = [throw(g, source)]
        while len(chain) <= EXPLODE_DEPTH and g.explodes(chain[-1][1]):
            chain.append(throw(g, source))
        if g.separate:
            for i, (faces, value) in enumerate(chain):
                dice.append(RolledDie(tuple(faces), value - (cut if i else 0), len(faces) > 1,
                                      i < len(chain) - 1, i > 0))
        else:
            parts = (chain[0][1], *(v - cut for _, v in chain[1:]))
            dice.append(RolledDie(tuple(f for faces, _ in chain for f in faces), sum(parts),
                                  any(len(faces) > 1 for faces, _ in chain), len(chain) > 1,
                                  False, parts if len(chain) > 1 else None))
    return dice


def kept_indexes(g: Group, values: list[int]) -> set[int]:
    """Which dice the group keeps; among equal values the first thrown counts as lower."""
    down = sorted(range(len(values)), key=lambda i: (values[i], i), reverse=True)
    start, stop = g.kept_range(len(values))
    return set(down[start:stop])


def value_of(node: Node, subtotals: list[int]) -> int:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Dice):
        return subtotals[node.index]
    if isinstance(node, Neg):
        return -value_of(node.node, subtotals)
    a, b = value_of(node.left, subtotals), value_of(node.right, subtotals)
    if node.op == "+":
        return a + b
    if node.op == "-":
        return a - b
    if node.op == "*":
        return a * b
    return a // b  # rounds down; a divisor that could be 0 is refused by the grammar


def evaluate(parsed: Parsed, source: FaceSource) -> tuple[int, list[dict[str, Any]]]:
    """Throw every die from ``source``; returns the total and, per group, what happened."""
    report: list[dict[str, Any]] = []
    subtotals: list[int] = []
    for g in parsed.groups:
        dice = roll_group(g, source)
        kept = kept_indexes(g, [d.value for d in dice])
        subtotal = sum(g.score(d.value) for i, d in enumerate(dice) if i in kept)
        subtotals.append(subtotal)
        report.append({
            "notation": g.text(), "sign": 1, "subtotal": subtotal,
            "dice": [{"faces": list(d.faces), "value": d.value, "kept": i in kept,
                      "rerolled": d.rerolled, "exploded": d.exploded, "extra": d.extra,
                      "parts": list(d.parts) if d.parts else None,
                      "success": g.success.meets(d.value) if g.success else None,
                      "failure": g.failure.meets(d.value) if g.failure else None}
                     for i, d in enumerate(dice)],
        })
    return value_of(parsed.tree, subtotals), report
