"""``notation``: free dice notation ("Dés libres"), e.g. ``3d6``, ``4d6kh3``, ``2d10+3``, ``4dF``.

Parsing is done by lark (a grammar below, no hand-written parser); exact odds by icepool.
An expression is a sum of terms, each a whole number or a dice group::

    [N]d(S|%|F) [kh K | kl K | dh K | dl K] [! ] [ro V | ro<V] [>=T | >T | <=T | <T | =T]

- ``d%`` is a d100, ``dF`` a Fudge die (-1, 0, +1: the rule reading in docs/rules.md).
- ``!`` explodes: a die showing its maximum is rolled again and added, at most
  ``EXPLODE_DEPTH`` times per die; the die counts as the total of its chain.
- ``ro V`` rerolls a die showing V once (``ro<V``: showing V or less); the new face stands.
- ``kh``/``kl`` keep the highest/lowest K dice, ``dh``/``dl`` drop them.
- A comparison turns the group into a count of successes: each kept die meeting it counts 1.

Rolling and resolving share one code path: dice are drawn one by one from a face source,
either the injected RNG or the faces a player typed (in the order thrown, explosions and
rerolls included), so a seed replays exactly.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...core import DiceGroup, Die, Faces, Line, Odds, OpposeResult, Outcome, RollResult, System
from ...fields import Field, ParamError
from ...i18n import Text as T
from .explain import TEMPLATES

EXPRESSION_MAX = 60  # characters
DICE_MAX = 100  # dice in one expression, before explosions and rerolls
SIDES_MAX = 1000
GROUPS_MAX = 8
CONSTANT_MAX = 10_000
EXPLODE_DEPTH = 3  # a die explodes at most this many times (documented cap)
#: Work allowed for the exact odds (see :func:`work` and bench/notation_bench.py): the
#: largest allowed sums take about 0.3 s in CPython, under a second in Pyodide.
BITS_MAX = 1_000_000  # size of the largest exact distribution: outcomes x bits per count
KEEP_MAX = 40_000  # dice x kept dice x outcomes of a die squared (icepool's keep evaluation)

GRAMMAR = r"""
start: first rest*
first: SIGN? term
rest: SIGN term
?term: dice | INT -> constant
dice: INT? "d" SIDES (keep | explode | reroll | compare)*
SIDES: INT | "%" | "f"
keep: KEEP INT
KEEP: "kh" | "kl" | "dh" | "dl"
explode: "!"
reroll: "ro" LESS? INT
LESS: "<"
compare: CMP INT
CMP: ">=" | "<=" | ">" | "<" | "="
SIGN: "+" | "-"
%import common.INT
%ignore " "
"""




# lark and icepool are imported at their first use, not with pyrules: the engine's memory
# snapshot (build.py) must fit the heap Pyodide starts with, and with them imported it does
# not (30 -> 36 MB; a restore cannot grow the heap). After a restore, the worker puts their
# wheels back on sys.path (web/js/engine/worker.js, putWheelsOnPath).
@functools.cache
def _lark() -> Any:
    import lark

    return lark


@functools.cache
def _icepool() -> Any:
    import icepool  # type: ignore[import-untyped]

    return icepool


@functools.cache
def _parser() -> Any:
    return _lark().Lark(GRAMMAR, parser="lalr")


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
class NotationParams:
    expression: str
    #: What the expression says, parsed (internal: not echoed in the roll's params).
    groups: tuple[Group, ...] = field(default=(), metadata={"internal": True})
    constant: int = field(default=0, metadata={"internal": True})

    def canonical(self) -> str:
        parts: list[str] = []
        for g in self.groups:
            parts.append(("-" if g.sign < 0 else "+") + g.text())
        if self.constant:
            parts.append(f"{self.constant:+d}")
        text = "".join(parts)
        return text[1:] if text.startswith("+") else text


def _bad(key: str, **args: Any) -> ParamError:
    return ParamError("expression", key, label=EXPRESSION_LABEL, **args)


def parse_expression(text: str) -> NotationParams:
    """Parse and check an expression; every problem is a ParamError on ``expression``."""
    lark = _lark()
    raw = text.strip()
    if not raw:
        raise _bad("notation_empty")
    if len(raw) > EXPRESSION_MAX:
        raise _bad("too_long", max=EXPRESSION_MAX)
    source = raw.lower().replace("\t", " ")
    try:
        tree = _parser().parse(source)
    except lark.UnexpectedEOF:
        raise _bad("notation_trailing") from None
    except lark.UnexpectedInput as exc:
        column = getattr(exc, "column", 0) or 0
        char = source[column - 1] if 0 < column <= len(source) else ""
        if getattr(exc, "token", None) is not None and exc.token.type == "$END":
            raise _bad("notation_trailing") from None
        raise _bad("notation_syntax", char=char, column=column) from None
    except lark.LarkError:
        raise _bad("notation_syntax", char="", column=0) from None
    groups: list[Group] = []
    constant = 0
    part: Any
    for part in tree.children:
        sign = -1 if part.children[0] == "-" else 1
        node = part.children[-1]
        if node.data == "constant":
            value = int(node.children[0])
            if value > CONSTANT_MAX:
                raise _bad("notation_constant", max=CONSTANT_MAX)
            constant += sign * value
            continue
        groups.append(_group(sign, node))
    if not groups:
        raise _bad("notation_no_dice")
    if len(groups) > GROUPS_MAX:
        raise _bad("notation_groups", max=GROUPS_MAX)
    if sum(g.count for g in groups) > DICE_MAX:
        raise _bad("notation_too_many", max=DICE_MAX)
    return NotationParams(raw, tuple(groups), constant)


def _group(sign: int, node: Any) -> Group:
    lark = _lark()
    count = 1
    fields: dict[str, Any] = {}
    sides = 0
    kinds = [c.data for c in node.children if not isinstance(c, lark.Token)]
    if len(kinds) != len(set(kinds)):
        raise _bad("notation_twice")
    for child in node.children:
        if isinstance(child, lark.Token):
            if child.type == "INT":
                count = int(child)
            elif child.type == "SIDES":
                sides = 100 if child == "%" else 0 if child == "f" else int(child)
                if child != "f" and sides == 0:
                    raise _bad("notation_zero_sides")
        elif child.data == "keep":
            fields["keep"], fields["keep_n"] = str(child.children[0]), int(child.children[1])
        elif child.data == "explode":
            fields["explode"] = True
        elif child.data == "reroll":
            fields["reroll_less"] = len(child.children) == 2
            fields["reroll"] = int(child.children[-1])
        elif child.data == "compare":
            fields["compare"], fields["target"] = str(child.children[0]), int(child.children[1])
    if count == 0:
        raise _bad("notation_zero_dice")
    if count > DICE_MAX:
        raise _bad("notation_too_many", max=DICE_MAX)
    if sides > SIDES_MAX:
        raise _bad("notation_sides", max=SIDES_MAX)
    group = Group(sign, count, sides, **fields)
    if group.keep and not 1 <= group.keep_n <= count - (group.keep[0] == "d"):
        raise _bad("notation_keep", count=count)
    if group.keep and group.compare == "=":
        raise _bad("notation_keep_equal")
    if group.explode and group.high == group.low:
        raise _bad("notation_explode")
    if group.target > CONSTANT_MAX or (group.reroll or 0) > CONSTANT_MAX:
        raise _bad("notation_constant", max=CONSTANT_MAX)
    return group


def _die_outcomes(g: Group) -> int:
    if g.compare:
        return 2
    faces = g.high - g.low + 1
    return faces * (EXPLODE_DEPTH + 1) if g.explode else faces


def work(params: NotationParams) -> tuple[int, int]:
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


def evaluate(params: NotationParams, source: FaceSource) -> tuple[int, list[dict[str, Any]]]:
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
        bad = [f for f in range(g.low, g.high + 1) if g.rerolls(f)]
        die = die.reroll(bad, depth=1)
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


def _pack(counts: dict[int, int], bits: int) -> tuple[int, int, int]:
    """A distribution as one integer, ``bits`` per outcome from the lowest: (int, low, size)."""
    low, high = min(counts), max(counts)
    width = bits // 8
    raw = b"".join(counts.get(o, 0).to_bytes(width, "little") for o in range(low, high + 1))
    return int.from_bytes(raw, "little"), low, high - low + 1


def _unpack(packed: int, low: int, size: int, bits: int) -> dict[int, int]:
    width = bits // 8
    raw = packed.to_bytes(size * width, "little")
    out = {}
    for i in range(size):
        count = int.from_bytes(raw[i * width:(i + 1) * width], "little")
        if count:
            out[low + i] = count
    return out


def _slot_bits(largest: int) -> int:
    return (largest.bit_length() + 8) // 8 * 8


def power(counts: dict[int, int], n: int) -> dict[int, int]:
    """The distribution of the sum of n independent copies: the polynomial raised to the
    n-th power, computed as one big-integer power (Kronecker substitution; Python's integer
    multiplication does the convolution, much faster than a loop over outcomes)."""
    bits = _slot_bits(sum(counts.values()) ** n)
    packed, low, size = _pack(counts, bits)
    return _unpack(packed**n, low * n, (size - 1) * n + 1, bits)


def convolve(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    """The distribution of the sum of two independent totals (same method as :func:`power`)."""
    bits = _slot_bits(sum(a.values()) * sum(b.values()))
    pa, la, sa = _pack(a, bits)
    pb, lb, sb = _pack(b, bits)
    return _unpack(pa * pb, la + lb, sa + sb - 1, bits)


def distribution(params: NotationParams) -> dict[int, Fraction]:
    """Exact chance of each total; refused (ParamError) when :func:`work` is too much."""
    bits, keep = work(params)
    if bits > BITS_MAX or keep > KEEP_MAX:
        raise _bad("notation_too_costly")
    total = {params.constant: 1}
    for g in params.groups:
        counts = _group_counts(g)
        if g.sign < 0:
            counts = {-o: q for o, q in counts.items()}
        total = convolve(total, counts)
    den = sum(total.values())
    return {o: Fraction(q, den) for o, q in sorted(total.items())}


# -- the system ------------------------------------------------------------------------------

EXPRESSION_LABEL = T("Expression", "Expression")


class NotationSystem(System[NotationParams]):
    id = "notation"
    doc = "—"
    name = T("Dés libres", "Free dice")
    description = T(
        "Notation de dés libre : 3d6, 4d6kh3, 2d20kl1, 2d10+3, 1d100, 4dF, 5d10>=8, 3d6!, "
        "2d6ro1 ; le total et ses chances exactes.",
        "Free dice notation: 3d6, 4d6kh3, 2d20kl1, 2d10+3, 1d100, 4dF, 5d10>=8, 3d6!, "
        "2d6ro1; the total and its exact odds.",
    )
    oppose_rule = T("Le plus haut total l'emporte.", "The higher total wins.")
    fields = (
        Field("expression", "text", EXPRESSION_LABEL, default="3d6",
              max_length=EXPRESSION_MAX,
              help=T("Ex. 3d6, 4d6kh3 (garder les 3 meilleurs), 2d20kl1, 2d10+3, 1d100, 4dF "
                     "(Fudge), 5d10>=8 (réussites), 3d6! (explosifs), 2d6ro1 (relancer les 1).",
                     "E.g. 3d6, 4d6kh3 (keep the best 3), 2d20kl1, 2d10+3, 1d100, 4dF "
                     "(Fudge), 5d10>=8 (successes), 3d6! (exploding), 2d6ro1 (reroll 1s).")),
        Field("dice", "faces", T("Dés", "Dice"), default=None, optional=True, sides=None,
              min=-1, max=SIDES_MAX, group="physical",
              help=T("Chaque dé lancé, dans l'ordre, relances et explosions comprises ; "
                     "dé Fudge : -1, 0 ou 1.",
                     "Every die thrown, in order, rerolls and explosions included; "
                     "Fudge die: -1, 0 or 1.")),
    )
    outcomes = (Outcome("total", True, T("Total", "Total")),)
    totals = True
    templates = TEMPLATES

    def make_params(self, values: dict[str, Any]) -> NotationParams:
        return parse_expression(values["expression"])

    def dice_plan(self, params: NotationParams) -> tuple[DiceGroup, ...]:
        """The dice thrown before any reroll or explosion (Fudge dice have sides 0)."""
        return (DiceGroup("dice", 0 if len({g.sides for g in params.groups}) > 1
                          else params.groups[0].sides,
                          sum(g.count for g in params.groups), "fudge" if all(
                              g.fudge for g in params.groups) else "normal"),)

    def check_faces(self, params: NotationParams, given: Any) -> Faces:
        faces = tuple(given.get("dice") or ())
        self.resolve(params, {"dice": faces})  # raises ParamError when they do not fit
        return {"dice": faces}

    def resolve(self, params: NotationParams, faces: Faces) -> RollResult:
        given = iter(faces.get("dice", ()))
        used = [0]

        def typed(group: Group) -> int:
            face = next(given, None)
            if face is None:
                raise ParamError("dice", "notation_faces_missing", label=self.fields[1].label,
                                 given=used[0])
            if not group.low <= face <= group.high:
                raise ParamError("dice", "face_sides", label=self.fields[1].label,
                                 sides=group.high if not group.fudge else "F", face=face)
            used[0] += 1
            return face

        result = self._result(params, typed)
        if next(given, None) is not None:
            raise ParamError("dice", "notation_faces_extra", label=self.fields[1].label,
                             used=used[0], given=len(faces.get("dice", ())))
        return result

    def roll(self, params: NotationParams, rng: random.Random) -> RollResult:
        return self._result(params, lambda g: rng.randint(g.low, g.high))

    def _result(self, params: NotationParams, source: FaceSource) -> RollResult:
        total, report = evaluate(params, source)
        dice: list[Die] = []
        for g, part in zip(params.groups, report, strict=True):
            for d in part["dice"]:
                tags: tuple[str, ...] = ("kept",) if d["kept"] else ("dropped",)
                if d["rerolled"]:
                    tags += ("rerolled",)
                if d["exploded"]:
                    tags += ("exploded",)
                if d["success"] is not None:
                    tags += ("success",) if d["success"] else ("miss",)
                counts = d["value"] if g.compare is None else int(bool(d["success"]))
                dice.append(Die(g.sides, d["faces"][0], d["faces"][-1] if not d["exploded"]
                                else d["value"], "fudge" if g.fudge else "normal",
                                counts if d["kept"] else 0, tags))
        lines = tuple(Line.of("notation.group", notation=p["notation"], sign=p["sign"],
                              faces=_faces_text(p["dice"]), subtotal=p["subtotal"])
                      for p in report)
        lines += (Line.of("notation.total", expression=params.canonical(), total=total),)
        return RollResult(self.id, "total", True, total, tuple(dice), lines,
                          extra=(("total", total), ("expression", params.canonical()),
                                 ("groups", report)))

    def odds(self, params: NotationParams) -> Odds:
        dist = distribution(params)
        return Odds((("total", Fraction(1)),), tuple(sorted(dist.items())))

    def oppose_score(self, result: RollResult) -> int:
        return result.margin

    def score_odds(self, params: NotationParams) -> dict[int, Fraction]:
        return distribution(params)

    def oppose(
        self, actor: NotationParams, opponent: NotationParams,
        faces: tuple[Faces, Faces] | None, rng: random.Random | None,
    ) -> OpposeResult:
        a, b = self.both_sides(actor, opponent, faces, rng)
        winner = "actor" if a.margin > b.margin else "opponent" if b.margin > a.margin else "tie"
        line = Line.of("notation.oppose", a=a.margin, b=b.margin, winner=winner)
        return OpposeResult(self.id, winner, abs(a.margin - b.margin), a, b, lines=(line,))


def _faces_text(dice: list[dict[str, Any]]) -> str:
    parts: list[str] = []
    for d in dice:
        chain = "+".join(str(f) for f in d["faces"])
        if d["rerolled"]:
            first, *rest = d["faces"]
            chain = f"{first}→" + "+".join(str(f) for f in rest)
        if not d["kept"]:
            chain = f"({chain})"
        parts.append(chain)
    return ", ".join(parts)

