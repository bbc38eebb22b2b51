"""The free dice notation, grammar 2 (the reading of Roll20 and rpg-dice-roller): parsing,
the checks that refuse an expression, and the expression as a tree.

An expression is whole numbers and dice groups joined by ``+ - * /`` and parentheses, with
the usual precedence (``*`` and ``/`` before ``+`` and ``-``; ``/`` rounds down). A dice group::

    [N]d(S|%|F) then, in any order, each at most once:
      khK | klK | dhK | dlK       keep / drop (dh and dl together: dh1dl1)
      ! | !! | !p | !!p [point]  explode: separate dice, compounding, penetrating
      r point | ro point         reroll until the face no longer matches / once
      miV | maV                  clamp each die to at least / at most V (or minV, maxV)
      CMP T [f point]            count successes (each kept die meeting it), minus failures

A ``point`` is a comparison and a number (``>=9``, ``<3``, ``=1``) or a bare number (``=``).
Every meaning is in docs/rules.md (§5), with the peer that reads it the same way.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...fields import ParamError
from ...i18n import Text as T

EXPRESSION_MAX = 60  # characters
DICE_MAX = 100  # dice in one expression, before explosions and rerolls
SIDES_MAX = 1000
GROUPS_MAX = 8
CONSTANT_MAX = 10_000
#: A die explodes at most this many times (a chain of at most 4 faces), in rolls and odds.
EXPLODE_DEPTH = 3

EXPRESSION_LABEL = T("Expression", "Expression")

GRAMMAR = r"""
?start: sum
?sum: product
    | sum ADD product -> binop
?product: unary
    | product MUL unary -> binop
?unary: atom
    | ADD unary -> unary
?atom: INT -> number
    | dice
    | "(" sum ")"
dice: INT? "d" SIDES mod*
SIDES: INT | "%" | "f"
?mod: keep | explode | reroll | success | failure | clamp
keep: KEEP INT
KEEP: "kh" | "kl" | "dh" | "dl"
explode: EXPLODE
EXPLODE: /!!?p?((>=|<=|>|<|=)?\d+)?/
reroll: REROLL
REROLL: /ro?(>=|<=|>|<|=)?\d+/
success: CMP INT
failure: FAIL
FAIL: /f(>=|<=|>|<|=)?\d+/
clamp: CLAMP INT
CLAMP: "min" | "max" | "mi" | "ma"
CMP: ">=" | "<=" | ">" | "<" | "="
ADD: "+" | "-"
MUL: "*" | "/"
%import common.INT
%ignore " "
"""

#: A point as the grammar writes it: an optional comparison, then a number.
POINT = re.compile(r"(>=|<=|>|<|=)?(\d+)$")


# lark is imported at its first use, not with pyrules: the engine's memory snapshot
# (build.py) must fit the heap Pyodide starts with. After a restore, the worker puts the
# wheels back on sys.path (web/js/engine/worker.js, putWheelsOnPath).
@functools.cache
def lark_module() -> Any:
    import lark

    return lark


@functools.cache
def _parser() -> Any:
    return lark_module().Lark(GRAMMAR, parser="lalr")


def bad(key: str, **args: Any) -> ParamError:
    return ParamError("expression", key, label=EXPRESSION_LABEL, **args)


@dataclass(frozen=True)
class Point:
    """A comparison: ``cmp`` is one of ``>= <= > < =`` (``<`` and ``>`` strict)."""

    cmp: str
    value: int

    def meets(self, v: int) -> bool:
        t = self.value
        return {">=": v >= t, "<=": v <= t, ">": v > t, "<": v < t, "=": v == t}[self.cmp]

    def text(self) -> str:
        return f"{self.cmp}{self.value}"


@dataclass(frozen=True)
class Group:
    """One dice group: what its modifiers say (see the module's docstring)."""

    count: int
    sides: int  # 0 for Fudge dice
    keep: tuple[tuple[str, int], ...] = ()  # (kh|kl|dh|dl, K), in a fixed order
    explode: str = ""  # "", "!", "!!", "!p", "!!p"
    explode_on: Point | None = None  # None: the highest face
    reroll: Point | None = None
    reroll_once: bool = False
    low_clamp: int | None = None  # mi
    high_clamp: int | None = None  # ma
    success: Point | None = None
    failure: Point | None = None

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
    def faces(self) -> range:
        return range(self.low, self.high + 1)

    @property
    def separate(self) -> bool:
        """Each explosion is a die of its own (``!``, ``!p``), not added into one (``!!``)."""
        return self.explode in ("!", "!p")

    @property
    def penetrating(self) -> bool:
        return self.explode.endswith("p")

    def rerolls(self, face: int) -> bool:
        return self.reroll is not None and self.reroll.meets(face)

    def clamp(self, face: int) -> int:
        if self.low_clamp is not None:
            face = max(face, self.low_clamp)
        if self.high_clamp is not None:
            face = min(face, self.high_clamp)
        return face

    def explodes(self, value: int) -> bool:
        if not self.explode:
            return False
        return self.explode_on.meets(value) if self.explode_on else value == self.high

    def kept_range(self, dice: int) -> tuple[int, int]:
        """The kept dice of ``dice`` sorted from the highest: positions [start, stop)."""
        start, stop = 0, dice
        for kind, n in self.keep:
            if kind == "kh":
                stop = n
            elif kind == "kl":
                start = dice - n
            elif kind == "dh":
                start = n
            else:
                stop = dice - n
        return start, stop

    def counts(self) -> bool:
        return self.success is not None

    def score(self, value: int) -> int:
        """What one kept die counts for: its value, or +1 a success and -1 a failure."""
        if self.success is None:
            return value
        failed = self.failure is not None and self.failure.meets(value)
        return int(self.success.meets(value)) - int(failed)

    def text(self) -> str:
        out = f"{self.count}d{'F' if self.fudge else self.sides}"
        out += "".join(f"{k}{n}" for k, n in self.keep)
        if self.reroll:
            out += ("ro" if self.reroll_once else "r") + self.reroll.text()
        if self.low_clamp is not None:
            out += f"mi{self.low_clamp}"
        if self.high_clamp is not None:
            out += f"ma{self.high_clamp}"
        if self.success:
            out += self.success.text()
        if self.failure:
            out += "f" + self.failure.text()
        if self.explode:  # last: a comparison right after ! is its target, not a count
            out += self.explode + (self.explode_on.text() if self.explode_on else "")
        return out


# The expression as a tree: whole numbers, dice groups (by index), negation, + - * /.
@dataclass(frozen=True)
class Num:
    value: int


@dataclass(frozen=True)
class Dice:
    index: int  # into Parsed.groups


@dataclass(frozen=True)
class Neg:
    node: Node


@dataclass(frozen=True)
class BinOp:
    op: str
    left: Node
    right: Node


Node = Num | Dice | Neg | BinOp


@dataclass(frozen=True)
class Parsed:
    tree: Node
    groups: tuple[Group, ...]

    @property
    def counts(self) -> bool:
        """The expression counts successes: every dice group has a comparison."""
        return all(g.counts() for g in self.groups)

    def canonical(self) -> str:
        return _text(self.tree, self.groups, 0)


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def _text(node: Node, groups: tuple[Group, ...], outer: int) -> str:
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Dice):
        return groups[node.index].text()
    if isinstance(node, Neg):
        return "-" + _text(node.node, groups, 3)
    level = _PRECEDENCE[node.op]
    text = (_text(node.left, groups, level) + node.op
            + _text(node.right, groups, level + 1))
    return f"({text})" if level < outer else text


def parse(text: str) -> Parsed:
    """Parse and check an expression; every problem is a ParamError on ``expression``."""
    groups: list[Group] = []
    node = _node(read_tree(source_of(text)), groups)
    check_size(groups)
    return Parsed(node, tuple(groups))


def source_of(text: str) -> str:
    """The text as the parser reads it (lower case, tabs as spaces), once it is neither
    empty nor too long."""
    raw = text.strip()
    if not raw:
        raise bad("notation_empty")
    if len(raw) > EXPRESSION_MAX:
        raise bad("too_long", max=EXPRESSION_MAX)
    return raw.lower().replace("\t", " ")


def read_tree(source: str) -> Any:
    """The parse tree of ``source`` (see :func:`source_of`), or the ParamError a player
    reads: where the text stops making sense, or that it ends too soon. Grammar 1
    (:mod:`.legacy`) reads the same tree."""
    lark = lark_module()
    try:
        return _parser().parse(source)
    except lark.UnexpectedEOF:
        raise bad("notation_trailing") from None
    except lark.UnexpectedInput as exc:
        column = getattr(exc, "column", 0) or 0
        char = source[column - 1] if 0 < column <= len(source) else ""
        if getattr(exc, "token", None) is not None and exc.token.type == "$END":
            raise bad("notation_trailing") from None
        raise bad("notation_syntax", char=char, column=column) from None
    except lark.LarkError:
        raise bad("notation_syntax", char="", column=0) from None


def check_size(groups: Sequence[Any]) -> None:
    """An expression has dice, at most GROUPS_MAX groups and DICE_MAX dice (each group has
    a ``count``)."""
    if not groups:
        raise bad("notation_no_dice")
    if len(groups) > GROUPS_MAX:
        raise bad("notation_groups", max=GROUPS_MAX)
    if sum(g.count for g in groups) > DICE_MAX:
        raise bad("notation_too_many", max=DICE_MAX)


def number(token: Any) -> int:
    """A number of the expression, at most CONSTANT_MAX."""
    value = int(token)
    if value > CONSTANT_MAX:
        raise bad("notation_constant", max=CONSTANT_MAX)
    return value


def _node(tree: Any, groups: list[Group]) -> Node:
    kind = tree.data
    if kind == "number":
        return Num(number(tree.children[0]))
    if kind == "unary":
        inner = _node(tree.children[1], groups)
        return Neg(inner) if tree.children[0] == "-" else inner
    if kind == "binop":
        left = _node(tree.children[0], groups)
        right = _node(tree.children[2], groups)
        return BinOp(str(tree.children[1]), left, right)
    groups.append(_group(tree))
    return Dice(len(groups) - 1)


def _point(text: str) -> Point:
    match = POINT.match(text)
    assert match is not None  # the grammar's terminals only let such text through
    return Point(match.group(1) or "=", number(match.group(2)))


def _group(node: Any) -> Group:
    lark = lark_module()
    count, sides = 1, 0
    fields: dict[str, Any] = {}
    keep: dict[str, int] = {}
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
        kind, parts = child.data, [str(c) for c in child.children]
        seen.append(parts[0][:2] if kind in ("keep", "clamp") else kind)
        if kind == "keep":
            keep[parts[0]] = number(parts[1])
        elif kind == "explode":
            mark = re.match(r"!!?p?", parts[0])
            assert mark is not None
            fields["explode"] = mark.group(0)
            rest = parts[0][mark.end():]
            fields["explode_on"] = _point(rest) if rest else None
        elif kind == "reroll":
            once = parts[0].startswith("ro")
            fields["reroll_once"], fields["reroll"] = once, _point(parts[0][2 if once else 1:])
        elif kind == "clamp":
            fields["low_clamp" if parts[0][:2] == "mi" else "high_clamp"] = number(parts[1])
        elif kind == "success":
            fields["success"] = Point(parts[0], number(parts[1]))
        else:
            fields["failure"] = _point(parts[0][1:])
    if len(seen) != len(set(seen)):
        raise bad("notation_twice")
    if count == 0:
        raise bad("notation_zero_dice")
    if count > DICE_MAX:
        raise bad("notation_too_many", max=DICE_MAX)
    if sides > SIDES_MAX:
        raise bad("notation_sides", max=SIDES_MAX)
    order = ("kh", "kl", "dh", "dl")
    group = Group(count, sides, tuple((k, keep[k]) for k in order if k in keep), **fields)
    _check(group, keep)
    return group


def _check(g: Group, keep: dict[str, int]) -> None:
    if len(keep) > 1 and not set(keep) <= {"dh", "dl"}:
        raise bad("notation_keep_mix")
    dropped = keep.get("dh", 0) + keep.get("dl", 0)
    if any(n < 1 for n in keep.values()) or dropped > g.count - 1 or any(
            keep.get(k, 0) > g.count for k in ("kh", "kl")):
        raise bad("notation_keep", count=g.count)
    if g.explode and g.high == g.low:
        raise bad("notation_explode")
    if g.reroll and not g.reroll_once and all(g.rerolls(f) for f in g.faces):
        raise bad("notation_reroll_all")
    if g.low_clamp is not None and g.high_clamp is not None and g.low_clamp > g.high_clamp:
        raise bad("notation_clamp")
    if g.failure and not g.success:
        raise bad("notation_failure_alone")
