"""The division check: a divisor that can be 0 is refused. Its exact set of values decides
(:func:`.odds.values`, within ``DIVISOR_BUDGET``); past that budget, its range (what one die,
a group and each node of an expression can be at most and at least: a superset of the
values, so a range that holds 0 is refused even when 0 itself cannot come up)."""

from __future__ import annotations

from collections.abc import Iterator

from .grammar import EXPLODE_DEPTH, BinOp, Dice, Group, Neg, Node, Num, Parsed, bad
from .odds import BUDGET, values

#: The work allowed to find one divisor's exact values (an eighth of the odds' budget: every
#: op pays it, a roll too); a divisor that costs more is judged by its range.
DIVISOR_BUDGET = BUDGET // 8


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
    """The range of the node's value (a divisor's 0 left out: :func:`check_division` refuses
    a divisor that can be 0 before its division's range is asked)."""
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
    if node.op == "*":
        corners = [x * y for x in a for y in b]
    else:  # x // y is monotone in x and in y on each side of 0: the ends of each side
        ends = [y for y in (b[0], -1, 1, b[1]) if b[0] <= y <= b[1] and y != 0]
        corners = [x // y for x in a for y in ends]
    return min(corners), max(corners)


def divisors(node: Node) -> Iterator[Node]:
    """Every divisor in the tree, the innermost first (a divisor's own divisions before it)."""
    if isinstance(node, Neg):
        yield from divisors(node.node)
    elif isinstance(node, BinOp):
        yield from divisors(node.left)
        yield from divisors(node.right)
        if node.op == "/":
            yield node.right


def check_division(parsed: Parsed) -> None:
    """Refuse (on ``expression``) a division whose divisor can be 0: its exact values when
    they cost at most ``DIVISOR_BUDGET``, else its range."""
    for divisor in divisors(parsed.tree):
        exact = values(divisor, parsed.groups, DIVISOR_BUDGET)
        if exact is None:
            low, high = value_range(divisor, parsed.groups)
            zero = low <= 0 <= high
        else:
            zero = 0 in exact
        if zero:
            raise bad("notation_divide_zero")
