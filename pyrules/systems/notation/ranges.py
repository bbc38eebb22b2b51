"""Ranges of values: what one die, a group and each node of an expression can be at most and
at least. Used to refuse a division whose divisor could be 0 (a superset of the values, so
a divisor whose range holds 0 is refused even when 0 itself cannot come up)."""

from __future__ import annotations

from .grammar import EXPLODE_DEPTH, Dice, Group, Neg, Node, Num, Parsed, bad


def die_range(g: Group) -> tuple[int, int]:
    """The lowest and highest value one counted die can have (before its score)."""
    low, high = g.clamp(g.low), g.clamp(g.high)
    cut = 1 if g.penetrating else 0
    if g.explode in ("!!", "!!p"):  # a chain of up to 1 + EXPLODE_DEPTH faces, added
        return (low + EXPLODE_DEPTH * min(0, low - cut),
                high + EXPLODE_DEPTH * max(0, high - cut))
    return low - cut, high


def group_range(g: Group) -> tuple[int, int]:
    """A range that holds every total the group can give (for the division check)."""
    most = g.count * (1 + EXPLODE_DEPTH) if g.separate else g.count
    kept = [most, g.count]
    for kind, n in g.keep:
        kept = [n, n] if kind in ("kh", "kl") else [k - n for k in kept]
    low, high = die_range(g)
    if g.success is not None:
        low, high = (-1 if g.failure else 0), 1
    ends = [k * v for k in kept for v in (low, high)]
    return min(ends), max(ends)


def value_range(node: Node, groups: tuple[Group, ...]) -> tuple[int, int]:
    """The range of the node's value; ZeroDivisionError when a divisor's range holds 0."""
    if isinstance(node, Num):
        return node.value, node.value
    if isinstance(node, Dice):
        return group_range(groups[node.index])
    if isinstance(node, Neg):
        low, high = value_range(node.node, groups)
        return -high, -low
    a, b = value_range(node.left, groups), value_range(node.right, groups)
    if node.op == "+":
        return a[0] + b[0], a[1] + b[1]
    if node.op == "-":
        return a[0] - b[1], a[1] - b[0]
    if node.op == "/" and b[0] <= 0 <= b[1]:
        raise ZeroDivisionError(node)
    corners = [x * y if node.op == "*" else x // y for x in a for y in b]
    return min(corners), max(corners)


def check_division(parsed: Parsed) -> None:
    """Refuse (on ``expression``) a division whose divisor could be 0."""
    try:
        value_range(parsed.tree, parsed.groups)
    except ZeroDivisionError:
        raise bad("notation_divide_zero") from None
