"""``notation``: free dice notation ("Dés libres"), e.g. ``3d6``, ``4d6kh3``, ``(1d4+1)*2``,
``4dF``, ``5d10>=8``, ``3d6!``; read by grammar 2 (as Roll20 and rpg-dice-roller read it) or,
for replay links made before it, grammar 1 (the ``grammar`` param).

Split like :mod:`pyrules.systems.pool`: :mod:`.grammar` (parsing and checks, grammar 2),
:mod:`.ranges` (the division check), :mod:`.throw` (rolling), :mod:`.odds` (exact odds
within a work budget), this module (the system and its answer), :mod:`.legacy` (grammar 1,
kept for old replay links) and :mod:`.explain` (the explanation templates).

A roll's answer is a **total** (``kind: "sum"``: no success, margin or outcome), or a
**count of successes** when every dice group of the expression counts them (``kind:
"count"``: the successes, and success = at least one). See docs/api.md and docs/rules.md §5.
Any expression within the grammar's limits rolls; only its exact odds (``odds`` and the ops
that need them) are refused past the work budget, and a roll whose odds are refused answers
no luck nor chance (null).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...core import DiceGroup, Die, Faces, Line, Odds, OpposeResult, Outcome, RollResult, System
from ...fields import Choice, Field, OddsTooCostly, ParamError, read_face
from ...i18n import Text as T
from ...i18n import number_text
from . import estimate, legacy, odds, throw
from .estimate import Estimate
from .explain import TEMPLATES
from .grammar import (
    DICE_MAX,
    EXPLODE_DEPTH,
    EXPRESSION_LABEL,
    EXPRESSION_MAX,
    SIDES_MAX,
    Group,
    Parsed,
    parse,
)
from .odds import BUDGET, convolve, power
from .ranges import check_division

#: Faces typed for one roll of physical dice: up to 100 dice, each with its rerolls and its
#: explosions (3 at most), as the player types every die thrown.
PHYSICAL_MAX = DICE_MAX * 10

__all__ = [
    "BUDGET",
    "EXPLODE_DEPTH",
    "GRAMMAR_LATEST",
    "Group",
    "NotationParams",
    "NotationSystem",
    "Parsed",
    "convolve",
    "distribution",
    "evaluate",
    "parse",
    "power",
    "read",
]

GRAMMAR_LATEST = 2

#: ``!``, ``!!``, ``!p`` or ``!!p``, a space, then a comparison and its number (``! >=8``).
SPACED_EXPLOSION = re.compile(r"(!!?[pP]?)\s+([<>]?=?)\s*(\d*)")


def spaced_explosion(expression: str) -> T | None:
    """The warning for a space between an explosion and a comparison, in the player's own
    symbols (docs/rules.md §5), or None."""
    found = SPACED_EXPLOSION.search(expression)
    if found is None or not found.group(2):
        return None
    bang, compare, number = found.groups()
    spaced, joined = f"{bang}\u00a0{compare}{number}", f"{bang}{compare}{number}"
    return T(f"Attention à l'espace : «\u00a0{spaced}\u00a0» compte les réussites (les dés "
             f"explosent sur leur plus haute face) ; «\u00a0{joined}\u00a0» fait exploser "
             "les dés selon la comparaison.",
             f"Mind the space: “{spaced}” counts successes (dice explode on their highest "
             f"face); “{joined}” makes dice explode by the comparison.")


@dataclass(frozen=True)
class NotationParams:
    expression: str
    grammar: int = GRAMMAR_LATEST
    #: The expression parsed (internal: not echoed in the roll's params).
    parsed: Parsed | legacy.LegacyParsed = field(
        default=legacy.LegacyParsed(()), metadata={"internal": True})

    def canonical(self) -> str:
        return self.parsed.canonical()

    @property
    def counts(self) -> bool:
        return self.parsed.counts

    @property
    def explodes(self) -> bool:
        return any(bool(g.explode) for g in self.parsed.groups)


@dataclass(frozen=True)
class NotationOdds(Odds):
    """The odds, and what the answer says beside them."""

    counts: bool = False
    explodes: bool = False
    #: How the chances were estimated, past the exact budget (None: they are exact).
    estimate: Estimate | None = None


def read(expression: str, grammar: int) -> NotationParams:
    """The params of an expression: parsed and checked. Its odds are not computed here: any
    expression within the grammar's limits rolls, whatever its odds cost (see
    :meth:`NotationSystem.check_odds`)."""
    if grammar == 1:
        return NotationParams(expression, 1, legacy.parse_expression(expression))
    parsed = parse(expression)
    check_division(parsed)
    return NotationParams(expression, grammar, parsed)


def distribution(params: NotationParams) -> dict[int, Fraction]:
    if isinstance(params.parsed, legacy.LegacyParsed):
        return legacy.distribution(params.parsed)
    return odds.distribution(params.parsed)


def evaluate(params: NotationParams, source: Any) -> tuple[int, list[dict[str, Any]]]:
    if isinstance(params.parsed, legacy.LegacyParsed):
        return legacy.evaluate(params.parsed, source)
    return throw.evaluate(params.parsed, source)


GRAMMARS = (
    Choice(2, T("Roll20 / rpg-dice-roller", "Roll20 / rpg-dice-roller")),
    Choice(1, T("Ancienne lecture (liens d'avant la version 2)",
                "Former reading (links made before version 2)")),
)


class NotationSystem(System[NotationParams]):
    id = "notation"
    doc = "—"
    name = T("Dés libres", "Free dice")
    description = T(
        "Notation de dés libre, comme Roll20 : 3d6, 4d6kh3, 2d20kl1, (1d4+1)*2, 4dF, "
        "5d10>=8, 3d6!, 1d20r1 ; le total (ou les réussites) et ses chances exactes.",
        "Free dice notation, as on Roll20: 3d6, 4d6kh3, 2d20kl1, (1d4+1)*2, 4dF, 5d10>=8, "
        "3d6!, 1d20r1; the total (or the successes) and its exact odds.",
    )
    oppose_rule = T("Le plus haut total l'emporte.", "The higher total wins.")
    fields = (
        Field("expression", "text", EXPRESSION_LABEL, default="3d6",
              max_length=EXPRESSION_MAX,
              help=T("Ex. 3d6, 4d6kh3 (garder les 3 meilleurs), 4d10dh1dl1, 2d6*2, (1d4+1)*2, "
                     "4dF (Fudge), 5d10>=8 (réussites), 4d6>=5f1 (moins les échecs), 3d6! "
                     "(explosifs), 3d6!! (cumulés), 1d20r1 / 2d6ro<3 (relances), 4d6mi2.",
                     "E.g. 3d6, 4d6kh3 (keep the best 3), 4d10dh1dl1, 2d6*2, (1d4+1)*2, "
                     "4dF (Fudge), 5d10>=8 (successes), 4d6>=5f1 (minus failures), 3d6! "
                     "(exploding), 3d6!! (compounding), 1d20r1 / 2d6ro<3 (rerolls), 4d6mi2.")),
        Field("grammar", "choice", T("Lecture de la notation", "Notation reading"),
              default=GRAMMAR_LATEST, choices=GRAMMARS, group="advanced",
              help=T("2 : comme Roll20 et rpg-dice-roller. 1 : la lecture d'avant, pour "
                     "rejouer un lien ancien à l'identique.",
                     "2: as Roll20 and rpg-dice-roller. 1: the former reading, to replay an "
                     "old link exactly.")),
        Field("dice", "faces", T("Dés", "Dice"), default=None, optional=True, sides=None,
              min=-1, max=SIDES_MAX, group="physical", max_items=PHYSICAL_MAX,
              help=T("Chaque dé lancé, dans l'ordre, relances et explosions comprises ; "
                     "dé Fudge : -1, 0 ou 1.",
                     "Every die thrown, in order, rerolls and explosions included; "
                     "Fudge die: -1, 0 or 1.")),
    )
    outcomes = (Outcome("total", True, T("Total", "Total")),
                Outcome("success", True, T("Au moins une réussite", "At least one success")),
                Outcome("failure", False, T("Aucune réussite", "No success")))
    totals = True
    templates = TEMPLATES

    def make_params(self, values: dict[str, Any]) -> NotationParams:
        return read(values["expression"], values["grammar"])

    def dice_plan(self, params: NotationParams) -> tuple[DiceGroup, ...]:
        """The dice thrown before any reroll or explosion (Fudge dice have sides 0)."""
        groups = params.parsed.groups
        return (DiceGroup("dice", 0 if len({g.sides for g in groups}) > 1 else groups[0].sides,
                          sum(g.count for g in groups),
                          "fudge" if all(g.fudge for g in groups) else "normal"),)

    def check_faces(self, params: NotationParams, given: Any) -> Faces:
        faces = tuple(given.get("dice") or ())
        self.resolve(params, {"dice": faces})  # raises ParamError when they do not fit
        return {"dice": faces}

    def resolve(self, params: NotationParams, faces: Faces) -> RollResult:
        given = iter(faces.get("dice", ()))
        used = [0]
        label = self.fields[2].label

        def typed(group: Any) -> int:
            face = next(given, None)
            if face is None:
                raise ParamError("dice", "notation_faces_missing", label=label, given=used[0])
            if not group.fudge:
                face = read_face(face, group.high)
            if not group.low <= face <= group.high:
                raise ParamError("dice", "face_sides", label=label,
                                 sides=group.high if not group.fudge else "F", face=face,
                                 low=group.low, high=group.high)
            used[0] += 1
            return face

        result = self._result(params, typed)
        if next(given, None) is not None:
            raise ParamError("dice", "notation_faces_extra", label=label, used=used[0],
                             given=len(faces.get("dice", ())))
        return result

    def roll(self, params: NotationParams, rng: random.Random) -> RollResult:
        return self._result(params, lambda g: rng.randint(g.low, g.high))

    def _result(self, params: NotationParams, source: Any) -> RollResult:
        total, report = evaluate(params, source)
        dice: list[Die] = []
        for g, part in zip(params.parsed.groups, report, strict=True):
            for d in part["dice"]:
                dice.append(_die(g, d))
        lines = tuple(Line.of("notation.group", notation=p["notation"], sign=p["sign"],
                              faces=faces_text(p["dice"], getattr(g, "fudge", False)),
                              subtotal=p["subtotal"])
                      for g, p in zip(params.parsed.groups, report, strict=True))
        counts = params.counts
        lines += (Line.of("notation.count" if counts else "notation.total",
                          expression=params.canonical(), total=total),)
        outcome = ("success" if total >= 1 else "failure") if counts else "total"
        return RollResult(self.id, outcome, outcome != "failure", total, tuple(dice), lines,
                          extra=(("total", total), ("expression", params.canonical()),
                                 ("groups", report), ("kind", "count" if counts else "sum"),
                                 ("explode_cap", EXPLODE_DEPTH if params.explodes else None)))

    def check_odds(self, params: NotationParams) -> None:
        """Refuse odds over the work budget (``odds_too_costly``, key ``notation_too_costly``):
        grammar 2 computes them (kept for the op's run), grammar 1 weighs its former bound.
        The code tells the page the roll itself is fine: only its odds are not given."""
        try:
            if isinstance(params.parsed, legacy.LegacyParsed):
                legacy.check_cost(params.parsed)
            else:
                odds.distribution(params.parsed)
        except ParamError as err:
            if err.key != "notation_too_costly":
                raise
            raise OddsTooCostly(err.field, err.key, **err.args_) from None

    def odds(self, params: NotationParams) -> NotationOdds:
        return _odds(params, distribution(params))

    def warnings(self, params: NotationParams) -> tuple[tuple[str, T], ...]:
        """A space between an explosion and a comparison: the comparison then counts
        successes, where without the space it says when the die explodes (docs/rules.md §5)."""
        text = None if params.grammar == 1 else spaced_explosion(params.expression)
        return () if text is None else (("notation_spaced_explosion", text),)

    def estimate_odds(self, params: NotationParams) -> NotationOdds | None:
        """Grammar 2 past the budget: a normal law or a seeded Monte Carlo (:mod:`.estimate`,
        docs/rules.md §5); grammar 1, kept for old links, has none."""
        if isinstance(params.parsed, legacy.LegacyParsed):
            return None
        dist, how = estimate.estimate(params.parsed)
        return _odds(params, dist, how)

    # -- the answer: a total, or a count of successes -------------------------------------
    def headline(self, result: RollResult) -> int:
        return int(result.get("total"))

    def headline_kind(self, result: RollResult) -> str:
        return "successes" if result.get("kind") == "count" else "total"

    def roll_answer(self, result: RollResult, out: dict[str, Any]) -> dict[str, Any]:
        out["margin"] = None
        if out["kind"] == "count":
            out["successes"] = out["total"]
        else:  # a sum is no test: no outcome, so no chance of one (its luck stays)
            out["outcome"] = out["success"] = out["chance"] = None
        return out

    def judges_success(self, params: NotationParams) -> bool:
        """Only a count of successes (``5d10>=8``) succeeds or fails; a sum is a number."""
        return params.counts

    def odds_answer(self, odds: Odds, out: dict[str, Any]) -> dict[str, Any]:
        counts = isinstance(odds, NotationOdds) and odds.counts
        shown = ("success", "failure") if counts else ("total",)
        out["exact"] = {k: v for k, v in out["exact"].items() if k in shown}
        out["probabilities"] = {k: v for k, v in out["probabilities"].items() if k in shown}
        out["kind"] = "count" if counts else "sum"
        if counts:
            out["at_least_one"] = out["success"]
            out["at_least_one_probability"] = out["success_probability"]
        else:
            out["success"] = out["success_probability"] = None
        out["explodes"] = isinstance(odds, NotationOdds) and odds.explodes
        out["explode_cap"] = EXPLODE_DEPTH
        if isinstance(odds, NotationOdds) and odds.estimate:
            out["estimate"] = odds.estimate.to_json()
        return out

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


def _odds(params: NotationParams, dist: dict[int, Fraction],
          how: Estimate | None = None) -> NotationOdds:
    if params.counts:
        hit = sum((p for v, p in dist.items() if v >= 1), Fraction(0))
        chances = (("total", Fraction(0)), ("success", hit), ("failure", 1 - hit))
    else:
        chances = (("total", Fraction(1)), ("success", Fraction(0)), ("failure", Fraction(0)))
    return NotationOdds(chances, tuple(sorted(dist.items())), params.counts, params.explodes,
                        how)


def _die(g: Any, d: dict[str, Any]) -> Die:
    tags: tuple[str, ...] = ("kept",) if d["kept"] else ("dropped",)
    for name in ("rerolled", "exploded", "extra"):
        if d.get(name):
            tags += (name,)
    if d["success"] is not None:
        tags += ("success",) if d["success"] else ("miss",)
    if d.get("failure"):
        tags += ("failure",)
    if isinstance(g, legacy.Group):  # grammar 1, as it always answered
        counts = d["value"] if g.compare is None else int(bool(d["success"]))
        final = d["value"] if d["exploded"] else d["faces"][-1]
    else:  # the face on the die; a compounded chain: its total
        counts = g.score(d["value"])
        final = d["value"] if d["exploded"] and not g.separate else d["faces"][-1]
    return Die(g.sides, d["faces"][0], final, "fudge" if g.fudge else "normal",
               counts if d["kept"] else 0, tags)


def faces_text(dice: list[dict[str, Any]], fudge: bool = False) -> str:
    """The faces of a group's dice in its explanation line: a reroll ``2→5``, a chain
    ``6+3``, an extra die ``!4``, a die not kept in brackets; Fudge faces as they are
    marked, ``+1``, ``0``, ``−1``."""
    def face(f: int) -> str:
        return f"+{f}" if fudge and f > 0 else number_text(f) if fudge else str(f)

    parts: list[str] = []
    for d in dice:
        chain = "+".join(face(f) for f in d["faces"])
        if d["rerolled"]:
            first, *rest = d["faces"]
            chain = f"{face(first)}→" + "+".join(face(f) for f in rest)
        if d.get("extra"):
            chain = f"!{chain}"
        if not d["kept"]:
            chain = f"({chain})"
        parts.append(chain)
    return ", ".join(parts)
