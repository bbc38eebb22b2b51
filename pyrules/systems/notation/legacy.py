"""Grammar 1: the free dice notation as pyrules read it before grammar 2, kept so that a
replay link made then replays exactly as it did (the system's ``grammar`` param, 1).

It reads grammar 2's parse tree (one parser, :func:`.grammar.read_tree`) and keeps only what
differs: the shape it accepts, what its symbols mean, how a die is thrown, its odds and
their work budget.

An expression is a sum of terms, each a whole number or a dice group::

    [N]d(S|%|F) [kh K | kl K | dh K | dl K] [! ] [ro V | ro<V] [>=T | >T | <=T | <T | =T]

- ``!`` explodes: a die showing its maximum is rolled again and added, at most
  ``EXPLODE_DEPTH`` times per die; the die counts as the total of its chain.
- ``ro V`` rerolls a die showing V once (``ro<V``: showing V *or less*); the new face stands.
- ``kh``/``kl`` keep the highest/lowest K dice, ``dh``/``dl`` drop them.
- A comparison turns the group into a count of successes: each kept die meeting it counts 1.

Since then: the odds of a reroll-once that covers every face (``1d6ro<6``) are
the plain die, where icepool divided by zero. Its work budget is checked by ``odds`` alone
(a roll of grammar 1 is never refused for it: old links replay). Read with grammar 2's
parser, an expression grammar 1 refused is still refused, sometimes for another of its
faults first (``2d0!!`` says d0 before « twice »).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...fields import ParamError
from .grammar import (
    CONSTANT_MAX,
    DICE_MAX,
    EXPLODE_DEPTH,
    POINT,
    SIDES_MAX,
    bad,
    check_size,
    lark_module,
    number,
    read_tree,
    source_of,
)
from .odds import convolve, power

#: Work allowed for the exact odds (see :func:`work` and bench/notation_bench.py): the
#: largest allowed sums take about 0.3 s in CPython, under a second in Pyodide.
BITS_MAX = 1_000_000  # size of the largest exact distribution: outcomes x bits per count
KEEP_MAX = 40_000  # dice x kept dice x outcomes of a die squared (icepool's keep evaluation)

#: What grammar 1 has of grammar 2's characters: no ``* / ( )``, no ``p`` (penetrating), no
#: ``mi ma`` (clamps). The rest of what it lacks is refused as the tree is read (``!!``,
#: ``r`` without ``o``, ``ro`` with another comparison than ``<``, ``f`` a failure).
ALPHABET = frozenset("0123456789d%fkhl!ro<>=+- ")
#: Grammar 1 let spaces sit inside ``ro < V``; grammar 2's parser reads ``ro<V`` as one word.
_SPACED_REROLL = re.compile(r"ro\s*(<?)\s*(?=\d)")


# icepool is imported at its first use, like lark (see grammar.lark_module).
@functools.cache
def _icepool() -> Any:
    import icepool  # type: ignore[import-untyped]

    return icepool


@dataclass(frozen=True)
class Group:
    """One dice group of an expression (``4d6kh3`` …), with the sign it is added with."""

    sign: int
    count: int
    sides: int  # 0 for Fudge dice
    keep: str | None = None  # kh, kl, dh, dl
    keep_n: int = 0
    explode: bool = False
    reroll: int | None = None  # the face rerolled (or the highest face, with reroll_less)
    reroll_less: bool = False
    compare: str | None = None
    target: int = 0

    @property
    def fudge(self) -> bool:
        return self.sides == 0

    @property
    def low(self) -> int:
        return -1 if self.fudge else 1

    @property
    def high(self) -> int:
        return 1 if self.fudge else self.sides

    @property
    def kept(self) -> int:
        if self.keep in ("kh", "kl"):
            return self.keep_n
        if self.keep in ("dh", "dl"):
            return self.count - self.keep_n
        return self.count

    def rerolls(self, face: int) -> bool:
        if self.reroll is None:
            return False
        return face <= self.reroll if self.reroll_less else face == self.reroll

    def succeeds(self, value: int) -> bool:
        t = self.target
        return {">=": value >= t, "<=": value <= t, ">": value > t, "<": value < t,
                "=": value == t}[self.compare or "="]

    def text(self) -> str:
        sides = "F" if self.fudge else str(self.sides)
        out = f"{self.count}d{sides}"
        if self.keep:
            out += f"{self.keep}{self.keep_n}"
        if self.explode:
            out += "!"
        if self.reroll is not None:
            out += f"ro{'<' if self.reroll_less else ''}{self.reroll}"
        if self.compare:
            out += f"{self.compare}{self.target}"
        return out


@dataclass(frozen=True)
class LegacyParsed:
    """An expression read the way of grammar 1: a sum of signed groups and a constant."""

    groups: tuple[Group, ...]
    constant: int = 0

    @property
    def counts(self) -> bool:
        """The expression counts successes: every dice group has a comparison."""
        return all(g.compare is not None for g in self.groups)

    def canonical(self) -> str:
        parts: list[str] = []
        for g in self.groups:
            parts.append(("-" if g.sign < 0 else "+") + g.text())
        if self.constant:
            parts.append(f"{self.constant:+d}")
        text = "".join(parts)
        return text[1:] if text.startswith("+") else text


def parse_expression(text: str) -> LegacyParsed:
    """Parse and check an expression the way of grammar 1, with grammar 2's parser: a sum of
    signed terms; every problem is a ParamError on ``expression``."""
    source = _SPACED_REROLL.sub(r"ro\1", source_of(text))
    for column, char in enumerate(source, 1):
        if char not in ALPHABET:
            raise _syntax(char, column)
    groups: list[Group] = []
    constant = 0
    for sign, node in _terms(read_tree(source)):
        if node.data == "number":
            constant += sign * number(node.children[0])
        else:
            groups.append(_group(sign, node))
    check_size(groups)
    return LegacyParsed(tuple(groups), constant)


def _syntax(char: str, column: int) -> ParamError:
    return bad("notation_syntax", char=char, column=column)


def _at(token: Any) -> ParamError:
    """The text stops making sense at this token (for grammar 1)."""
    return _syntax(str(token)[:1], getattr(token, "column", 0) or 0)


def _terms(tree: Any) -> list[tuple[int, Any]]:
    """The signed terms of a sum; only the first may carry a sign of its own (``-3d6+2``)."""
    if tree.data == "binop":
        return [*_terms(tree.children[0]), (-1 if tree.children[1] == "-" else 1,
                                            _term(tree.children[2]))]
    if tree.data == "unary":
        return [(-1 if tree.children[0] == "-" else 1, _term(tree.children[1]))]
    return [(1, _term(tree))]


def _term(node: Any) -> Any:
    if node.data == "unary":  # a second sign: 3d6+-2, --3d6
        raise _at(node.children[0])
    return node


def _group(sign: int, node: Any) -> Group:
    lark = lark_module()
    count = 1
    fields: dict[str, Any] = {}
    sides = 0
    seen: list[str] = []
    for child in node.children:
        if isinstance(child, lark.Token):
            if child.type == "INT":
                count = int(child)
            else:
                sides = 100 if child == "%" else 0 if child == "f" else int(child)
                if child != "f" and sides == 0:
                    raise bad("notation_zero_sides")
            continue
        word = child.children[0]
        if child.data == "keep":
            seen.append("keep")
            fields["keep"], fields["keep_n"] = str(word), int(child.children[1])
        elif child.data == "explode":
            # Grammar 1's ! has no target: « !>=8 » is ! then a count, « !! » is ! twice.
            seen.append("explode")
            fields["explode"] = True
            rest = str(word)[1:]
            if rest.startswith("!"):
                seen.append("explode")
            elif rest:
                point = POINT.match(rest)
                if point is None or point.group(1) is None:  # « !8 »: a number after !
                    raise _syntax(rest[:1], word.column + 1)
                seen.append("compare")
                fields["compare"], fields["target"] = point.group(1), int(point.group(2))
        elif child.data == "reroll":
            reroll = re.fullmatch(r"ro(<?)(\d+)", str(word))
            if reroll is None:  # r without o, or another comparison than <
                raise _at(word) if not str(word).startswith("ro") else _syntax(
                    str(word)[2], word.column + 2)
            seen.append("reroll")
            fields["reroll_less"], fields["reroll"] = bool(reroll.group(1)), int(reroll.group(2))
        elif child.data == "success":
            seen.append("compare")
            fields["compare"], fields["target"] = str(word), int(child.children[1])
        else:  # a failure point, f<V: none in grammar 1
            raise _at(word)
    if len(seen) != len(set(seen)):
        raise bad("notation_twice")
    if count == 0:
        raise bad("notation_zero_dice")
    if count > DICE_MAX:
        raise bad("notation_too_many", max=DICE_MAX)
    if sides > SIDES_MAX:
        raise bad("notation_sides", max=SIDES_MAX)
    group = Group(sign, count, sides, **fields)
    if group.keep and not 1 <= group.keep_n <= count - (group.keep[0] == "d"):
        raise bad("notation_keep", count=count)
    if group.keep and group.compare == "=":
        raise bad("notation_keep_equal")
    if group.explode and group.high == group.low:
        raise bad("notation_explode")
    if group.target > CONSTANT_MAX or (group.reroll or 0) > CONSTANT_MAX:
        raise bad("notation_constant", max=CONSTANT_MAX)
    return group


def _die_outcomes(g: Group) -> int:
    if g.compare:
        return 2
    faces = g.high - g.low + 1
    return faces * (EXPLODE_DEPTH + 1) if g.explode else faces


def work(params: LegacyParsed) -> tuple[int, int]:
    """The work of the exact odds, as (bits, keep): ``bits`` adds up the size of each
    distribution multiplied out (outcomes x bits of the largest count), ``keep`` the cost of
    icepool's keep evaluations (dice x kept x outcomes² per group). Calibrated in
    bench/notation_bench.py."""
    bits = keep = 0
    span = 1
    weight_bits = 0
    for g in params.groups:
        outcomes = _die_outcomes(g)
        die_bits = (g.high - g.low + 1).bit_length() * (2 if g.reroll is not None else 1) + (
            EXPLODE_DEPTH * (g.high - g.low + 1).bit_length() if g.explode else 0)
        if g.keep:
            keep += g.count * g.kept * outcomes * outcomes
        group_span = g.kept * (outcomes - 1) + 1
        weight_bits += g.count * die_bits
        span += group_span - 1
        bits += span * weight_bits  # the group's power, then its convolution
    return bits, keep


# -- rolling: one code path for the RNG and for typed faces ------------------------------------


FaceSource = Callable[[Group], int]


@dataclass(frozen=True)
class RolledDie:
    faces: tuple[int, ...]  # every face thrown for this die, in order
    value: int  # what it counts for before the comparison
    rerolled: bool
    exploded: bool


def _throw(group: Group, source: FaceSource) -> RolledDie:
    faces = [source(group)]
    rerolled = False
    if group.rerolls(faces[0]):
        faces.append(source(group))
        rerolled = True
    value = faces[-1]
    exploded = False
    if group.explode:
        depth = 0
        while faces[-1] == group.high and depth < EXPLODE_DEPTH:
            faces.append(source(group))
            value += faces[-1]
            depth += 1
            exploded = True
    return RolledDie(tuple(faces), value, rerolled, exploded)


def _kept_indexes(group: Group, values: list[int]) -> set[int]:
    order = sorted(range(len(values)), key=lambda i: (values[i], i))
    n = group.keep_n
    if group.keep == "kh":
        return set(order[-n:])
    if group.keep == "kl":
        return set(order[:n])
    if group.keep == "dh":
        return set(order[:-n])
    if group.keep == "dl":
        return set(order[n:])
    return set(range(len(values)))


def evaluate(params: LegacyParsed, source: FaceSource) -> tuple[int, list[dict[str, Any]]]:
    """Throw every die from ``source``; returns the total and, per group, what happened."""
    total = params.constant
    report: list[dict[str, Any]] = []
    for g in params.groups:
        dice = [_throw(g, source) for _ in range(g.count)]
        kept = _kept_indexes(g, [d.value for d in dice])
        counted = []
        for i, d in enumerate(dice):
            if i in kept:
                counted.append((1 if g.succeeds(d.value) else 0) if g.compare else d.value)
        subtotal = sum(counted)
        total += g.sign * subtotal
        report.append({
            "notation": g.text(), "sign": g.sign, "subtotal": subtotal,
            "dice": [{"faces": list(d.faces), "value": d.value, "kept": i in kept,
                      "rerolled": d.rerolled, "exploded": d.exploded,
                      "success": (g.succeeds(d.value) if g.compare else None)}
                     for i, d in enumerate(dice)],
        })
    return total, report


# -- exact odds with icepool ------------------------------------------------------------------


def _one_die(g: Group) -> Any:
    """One die of the group as an icepool Die: rerolled, exploded, mapped to a success."""
    icepool = _icepool()
    die = icepool.Die(range(g.low, g.high + 1))
    if g.reroll is not None:
        matching = [f for f in range(g.low, g.high + 1) if g.rerolls(f)]
        if len(matching) < g.high - g.low + 1:  # every face rerolled once: the plain die
            die = die.reroll(matching, depth=1)
    if g.explode:
        plain = icepool.Die(range(g.low, g.high + 1)).explode(depth=EXPLODE_DEPTH - 1)
        high = g.high
        die = die.map(lambda face: face + plain if face == high else face)
    if g.compare:
        die = die.map(lambda v: 1 if g.succeeds(v) else 0)
    return die


def _counts(die: Any) -> dict[int, int]:
    return {int(o): int(q) for o, q in die.items() if q}


def _group_counts(g: Group) -> dict[int, int]:
    """The group's total (before its sign) as {total: weight}."""
    die = _one_die(g)
    if g.keep:
        # Counting successes after keeping: a monotone map commutes with sorting, so the
        # mapped dice are kept instead (highest and lowest swap when the map decreases).
        high = g.keep in ("kh", "dl")
        if g.compare in ("<", "<="):
            high = not high
        pool = _icepool().Pool([die] * g.count)
        return _counts((pool.highest(g.kept) if high else pool.lowest(g.kept)).sum())
    return power(_counts(die), g.count)


def check_cost(params: LegacyParsed) -> None:
    """Refuse (ParamError) exact odds whose :func:`work` is too much."""
    bits, keep = work(params)
    if bits > BITS_MAX or keep > KEEP_MAX:
        raise bad("notation_too_costly")


def distribution(params: LegacyParsed) -> dict[int, Fraction]:
    """Exact chance of each total; refused (ParamError) when :func:`work` is too much."""
    check_cost(params)
    total = {params.constant: 1}
    for g in params.groups:
        counts = _group_counts(g)
        if g.sign < 0:
            counts = {-o: q for o, q in counts.items()}
        total = convolve(total, counts)
    den = sum(total.values())
    return {o: Fraction(q, den) for o, q in sorted(total.items())}
