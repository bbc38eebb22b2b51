"""``d6``: attribute + skill + d6 against a difficulty (document 001).

The total reaches the difficulty to succeed. The margin over it can make the success
superior (above 8 - Flame) or excellent (above twice that); the shortfall makes a failure
grave (beyond the clarity) or disastrous (beyond twice the clarity).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ...core import DiceGroup, Die, Faces, Line, OpposeResult, Outcome, RollResult, System
from ...fields import Field
from ...i18n import Text as T
from .explain import TEMPLATES

MAX_REROLLS = 100  # a tie rerolled this many times in a row is left as a tie
IMPACT_FACTOR = {"success": 1, "superior_success": 2, "excellent_success": 3}


@dataclass(frozen=True)
class D6Params:
    attribute: int
    skill: int
    difficulty: int
    effort: bool
    flame: int
    clarity: int
    take_time: bool
    elementary: bool
    instinct: bool
    impact: int | None
    pc: bool

    @property
    def threshold(self) -> int:
        """The superior-success threshold: 8 - Flame."""
        return 8 - self.flame

    @property
    def dice_count(self) -> int:
        return 2 if self.effort else 1


def tier(p: D6Params, margin: int) -> tuple[str, tuple[Line, ...]]:
    """The outcome for a margin (total - difficulty), with the reasons."""
    if margin >= 0:
        t = p.threshold
        best = ("excellent_success" if margin > 2 * t
                else "superior_success" if margin > t else "success")
        if best != "success" and p.elementary and not p.instinct:
            return "success", (Line.of("d6.elementary", margin=margin, threshold=t),)
        if best == "excellent_success":
            return best, (Line.of("d6.excellent", margin=margin, double=2 * t),)
        if best == "superior_success":
            return best, (Line.of("d6.superior", margin=margin, threshold=t),)
        return best, (Line.of("d6.success", margin=margin, threshold=t),)
    miss = -margin
    c = p.clarity
    if p.take_time and miss <= c:
        return "success", (Line.of("d6.take_time", miss=miss, clarity=c),)
    if miss > 2 * c:
        return "disastrous_failure", (Line.of("d6.disastrous", miss=miss, double=2 * c),)
    if miss > c:
        return "grave_failure", (Line.of("d6.grave", miss=miss, clarity=c),)
    return "failure", (Line.of("d6.failure", miss=miss, clarity=c),)


class D6System(System[D6Params]):
    id = "d6"
    play_ops = ("effort",)
    doc = "001"
    templates = TEMPLATES
    name = T("Attribut + compétence + d6", "Attribute + skill + d6")
    description = T(
        "Attribut + compétence + 1d6 (2d6 avec un effort exceptionnel) contre une difficulté.",
        "Attribute + skill + 1d6 (2d6 with an exceptional effort) against a difficulty.",
    )
    oppose_rule = T(
        "Le plus haut total l'emporte ; à égalité, le PJ bat le PNJ, sinon on relance.",
        "The higher total wins; on a tie a PC beats an NPC, otherwise reroll.",
    )
    #: Exceptional efforts (document 001): as many per day as the Flame, counted on the
    #: character sheet. ``field``: the sheet number (a field of this system) giving the
    #: efforts per day; ``used``: the sheet number counting today's efforts (described by the
    #: ``effort`` op's ``used`` field); ``param``: the roll's field that spends one. The
    #: ``effort`` op does the counting; the page only shows its answers. ``request``: the
    #: ``effort`` op's params, each read from the sheet number named.
    sheet: ClassVar[dict[str, Any]] = {"efforts_per_day": {
        "field": "flame", "used": "efforts_used", "param": "effort",
        "request": {"flame": "flame", "used": "efforts_used"},
        "label": T("Efforts exceptionnels par jour", "Exceptional efforts per day").as_dict(),
        "restore": T("Nuit de repos", "Night's rest").as_dict()}}
    fields = (
        Field("attribute", "int", T("Attribut", "Attribute"), default=3, min=0, max=10),
        Field("skill", "int", T("Compétence", "Skill"), default=2, min=0, max=10),
        Field("difficulty", "int", T("Difficulté", "Difficulty"), default=9, min=1, max=40),
        Field("effort", "bool", T("Effort exceptionnel (+1d6)", "Exceptional effort (+1d6)"),
              default=False,
              help=T("Autant par jour que la Flamme ; une nuit de repos les rend.",
                     "As many per day as the Flame; a night's rest restores them.")),
        Field("flame", "int", T("Flamme", "Flame"), default=2, min=0, max=7,
              help=T("Réussite supérieure au-delà de 8 - Flamme.",
                     "Superior success beyond 8 - Flame.")),
        Field("clarity", "int", T("Clarté", "Clarity"), default=2, min=0, max=10,
              help=T("Échec grave au-delà de la clarté, désastreux au-delà du double.",
                     "Grave failure beyond the clarity, disastrous beyond twice it.")),
        Field("take_time", "bool", T("Prendre son temps", "Take one's time"), default=False,
              help=T("Un échec de la clarté ou moins devient une réussite.",
                     "A miss by the clarity or less becomes a success.")),
        Field("elementary", "bool", T("Compétence élémentaire", "Elementary skill"),
              default=False, group="advanced",
              help=T("Seulement des réussites simples.", "Simple successes only.")),
        Field("instinct", "bool", T("Don du sang : instinct", "Blood gift: instinct"),
              default=False, group="advanced",
              help=T("Lève la limite des compétences élémentaires.",
                     "Lifts the elementary-skill limit.")),
        Field("impact", "int", T("Impact", "Impact"), default=None, optional=True, min=0,
              max=20, group="advanced",
              help=T("×2 sur une réussite supérieure, ×3 sur une excellente.",
                     "×2 on a superior success, ×3 on an excellent one.")),
        Field("pc", "bool", T("Personnage joueur (PJ)", "Player character (PC)"), default=True,
              group="advanced",
              help=T("En opposition, le PJ gagne les égalités contre un PNJ.",
                     "In opposition, a PC wins ties against an NPC.")),
        Field("dice", "faces", T("Dés", "Dice"), default=None, optional=True, sides=6, min=1,
              max=6, group="physical"),
    )
    outcomes = (
        Outcome("excellent_success", True, T("Réussite excellente", "Excellent success")),
        Outcome("superior_success", True, T("Réussite supérieure", "Superior success")),
        Outcome("success", True, T("Réussite", "Success")),
        Outcome("failure", False, T("Échec", "Failure")),
        Outcome("grave_failure", False, T("Échec grave", "Grave failure")),
        Outcome("disastrous_failure", False, T("Échec désastreux", "Disastrous failure")),
    )

    def make_params(self, values: dict[str, Any]) -> D6Params:
        return D6Params(**values)

    def dice_plan(self, params: D6Params) -> tuple[DiceGroup, ...]:
        return (DiceGroup("dice", 6, params.dice_count),)

    def resolve(self, params: D6Params, faces: Faces) -> RollResult:
        p = params
        rolled = faces["dice"]
        total = p.attribute + p.skill + sum(rolled)
        margin = total - p.difficulty
        outcome, why = tier(p, margin)
        success = self.is_success(outcome)
        impact = None if p.impact is None else p.impact * IMPACT_FACTOR.get(outcome, 0)
        lines = [Line.of("d6.total", attribute=p.attribute, skill=p.skill,
                         dice=" + ".join(map(str, rolled)), total=total,
                         effort=p.effort),
                 Line.of("d6.versus", total=total, difficulty=p.difficulty, margin=margin),
                 *why]
        if impact is not None:
            lines.append(Line.of("d6.impact", base=p.impact,
                                 factor=IMPACT_FACTOR.get(outcome, 0), impact=impact))
        return RollResult(
            self.id, outcome, success, margin,
            tuple(Die(6, f, f, "normal", f) for f in rolled), tuple(lines),
            extra=(("total", total), ("impact", impact), ("threshold", p.threshold)),
        )

    def _face_off(
        self, actor: D6Params, opponent: D6Params, fa: Faces, fb: Faces
    ) -> tuple[str, RollResult, RollResult]:
        """One exchange: each side's difficulty is the other's total."""
        ta = self.resolve(actor, fa).get("total")
        tb = self.resolve(opponent, fb).get("total")
        a = self.resolve(replace(actor, difficulty=tb, take_time=False), fa)
        b = self.resolve(replace(opponent, difficulty=ta, take_time=False), fb)
        if ta != tb:
            return ("actor" if ta > tb else "opponent"), a, b
        if actor.pc != opponent.pc:  # a PC beats an NPC on a tie
            if actor.pc:
                return "actor", a, self._lost_tie(b)
            return "opponent", self._lost_tie(a), b
        return "tie", a, b

    @staticmethod
    def _lost_tie(r: RollResult) -> RollResult:
        lines = (*r.lines, Line.of("d6.lost_tie"))
        return RollResult(r.system, "failure", False, 0, r.dice, lines, r.extra, r.seed,
                          r.physical)

    tie_rerolls = MAX_REROLLS

    def headline(self, result: RollResult) -> int | None:
        return int(result.get("total"))

    def headline_kind(self, result: RollResult) -> str:
        return "total"

    def oppose_score(self, result: RollResult) -> int:
        return int(result.get("total"))

    def tie_break(self, actor: D6Params, opponent: D6Params) -> str | None:
        if actor.pc != opponent.pc:  # a PC beats an NPC on a tie (see _face_off)
            return "actor" if actor.pc else "opponent"
        return None

    def oppose(
        self, actor: D6Params, opponent: D6Params,
        faces: tuple[Faces, Faces] | None, rng: random.Random | None,
    ) -> OpposeResult:
        rerolls: list[tuple[RollResult, RollResult]] = []
        while True:
            if faces is not None:
                fa, fb = faces
            else:
                assert rng is not None
                fa, fb = self.draw(actor, rng), self.draw(opponent, rng)
            winner, a, b = self._face_off(actor, opponent, fa, fb)
            if winner != "tie" or faces is not None or len(rerolls) >= MAX_REROLLS:
                break
            rerolls.append((a, b))
        ta, tb = a.get("total"), b.get("total")
        lines = [Line.of("d6.reroll", a=x.get("total"), b=y.get("total")) for x, y in rerolls]
        lines.append(Line.of("d6.oppose", a=ta, b=tb, winner=winner,
                             pc_tie=ta == tb and winner != "tie"))
        extra: tuple[tuple[str, Any], ...] = ()
        if winner != "tie":
            won = a if winner == "actor" else b
            extra = (("winner_outcome", won.outcome), ("winner_impact", won.get("impact")))
        own = (self.resolve(actor, fa), self.resolve(opponent, fb))
        return OpposeResult(self.id, winner, abs(ta - tb), a, b, tuple(rerolls), tuple(lines),
                            extra, own)
