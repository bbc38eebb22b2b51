"""``d100``: margin of success with nine tiers (document 002).

MR = value + modifier - d100. The MR alone gives one of nine tiers; the six best
count as successes (a small negative MR is still a poor success).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ...core import DiceGroup, Die, Faces, Line, OpposeResult, Outcome, RollResult, System
from ...fields import Choice, Field
from ...i18n import Text as T
from .explain import TEMPLATES

LEVELS: tuple[tuple[str, int, T], ...] = (
    ("mediocre", 15, T("Médiocre (15)", "Mediocre (15)")),
    ("very_weak", 25, T("Très faible (25)", "Very weak (25)")),
    ("weak", 35, T("Faible (35)", "Weak (35)")),
    ("average", 45, T("Moyen (45)", "Average (45)")),
    ("good", 55, T("Bon (55)", "Good (55)")),
    ("very_good", 65, T("Très bon (65)", "Very good (65)")),
    ("master", 75, T("Maître (75)", "Master (75)")),
    ("grand_master", 85, T("Grand maître (85)", "Grand master (85)")),
    ("exceptional", 95, T("Exceptionnel (95)", "Exceptional (95)")),
    ("bond_1", 45, T("Esprit-Lié, niveau 1 (45)", "Bound Spirit, level 1 (45)")),
    ("bond_2", 75, T("Esprit-Lié, niveau 2 (75)", "Bound Spirit, level 2 (75)")),
    ("bond_3", 95, T("Esprit-Lié, niveau 3 (95)", "Bound Spirit, level 3 (95)")),
)
LEVEL_VALUE = {key: value for key, value, _ in LEVELS}

# (lowest MR of the tier, outcome id), best first; the last tier has no floor.
TIERS: tuple[tuple[int, str], ...] = (
    (66, "exceptional_success"),
    (41, "remarkable_success"),
    (21, "notable_success"),
    (1, "simple_success"),
    (0, "narrow_success"),
    (-20, "poor_success"),
    (-40, "simple_failure"),
    (-65, "bitter_failure"),
)


def tier(margin: int) -> str:
    for floor, outcome in TIERS:
        if margin >= floor:
            return outcome
    return "critical_failure"


@dataclass(frozen=True)
class D100Params:
    value: int
    level: str | None
    modifier: int

    @property
    def score(self) -> int:
        """The value used: the level's when a level is chosen."""
        return LEVEL_VALUE[self.level] if self.level else self.value

    @property
    def target(self) -> int:
        return self.score + self.modifier


class D100System(System[D100Params]):
    id = "d100"
    doc = "002"
    templates = TEMPLATES
    name = T("d100 et marge de réussite", "d100 margin of success")
    description = T(
        "MR = valeur + modificateurs - d100 ; neuf paliers de l'échec critique à la réussite "
        "exceptionnelle.",
        "MR = value + modifiers - d100; nine tiers from critical failure to exceptional "
        "success.",
    )
    oppose_rule = T("La plus haute MR l'emporte.", "The higher MR wins.")
    fields = (
        Field("level", "choice", T("Niveau", "Level"), default=None, optional=True,
              replaces="value", choices=tuple(Choice(k, label) for k, _, label in LEVELS),
              help=T("Choisir un niveau remplace la valeur.",
                     "Choosing a level replaces the value.")),
        Field("value", "int", T("Valeur (caractéristique/compétence)",
                                "Value (characteristic/skill)"), default=45, min=0, max=200),
        Field("modifier", "int", T("Modificateurs", "Modifiers"), default=0, min=-200,
              max=200, help=T("Équipement, adversaire, situation (ex. tempête -15).",
                              "Gear, opponent, situation (e.g. storm -15).")),
        Field("dice", "faces", T("d100", "d100"), default=None, optional=True, sides=100,
              min=1, max=100, group="physical",
              help=T("100 se tape 100, 00 ou 0, comme le montrent les dés de pourcentage.",
                     "100 is typed 100, 00 or 0, as percentile dice show it.")),
    )
    outcomes = (
        Outcome("exceptional_success", True, T("Réussite exceptionnelle",
                                                "Exceptional success")),
        Outcome("remarkable_success", True, T("Réussite remarquable", "Remarkable success")),
        Outcome("notable_success", True, T("Réussite notable", "Notable success")),
        Outcome("simple_success", True, T("Réussite simple", "Simple success")),
        Outcome("narrow_success", True, T("Réussite in extremis", "Narrow success")),
        Outcome("poor_success", True, T("Réussite médiocre", "Poor success")),
        Outcome("simple_failure", False, T("Échec simple", "Simple failure")),
        Outcome("bitter_failure", False, T("Échec cuisant", "Bitter failure")),
        Outcome("critical_failure", False, T("Échec critique", "Critical failure")),
    )

    def make_params(self, values: dict[str, Any]) -> D100Params:
        return D100Params(**values)

    def dice_plan(self, params: D100Params) -> tuple[DiceGroup, ...]:
        return (DiceGroup("dice", 100, 1),)

    def resolve(self, params: D100Params, faces: Faces) -> RollResult:
        p = params
        (face,) = faces["dice"]
        margin = p.target - face
        outcome = tier(margin)
        lines = (
            Line.of("d100.formula", value=p.score, level=p.level or "", modifier=p.modifier,
                    face=face, margin=margin),
            Line.of(f"d100.{outcome}", margin=margin),
            Line.of(f"d100.effect_{outcome}"),  # what the tier means at the table
        )
        return RollResult(
            self.id, outcome, self.is_success(outcome), margin,
            (Die(100, face, face, "normal", face),), lines,
            extra=(("value", p.score), ("target", p.target)),
        )

    def headline(self, result: RollResult) -> int | None:
        return result.dice[0].final  # the number rolled

    def oppose_score(self, result: RollResult) -> int:
        return result.margin  # the higher MR wins

    def oppose(
        self, actor: D100Params, opponent: D100Params,
        faces: tuple[Faces, Faces] | None, rng: random.Random | None,
    ) -> OpposeResult:
        a, b = self.both_sides(actor, opponent, faces, rng)
        winner = ("actor" if a.margin > b.margin else
                  "opponent" if b.margin > a.margin else "tie")
        line = Line.of("d100.oppose", a=a.margin, b=b.margin, winner=winner)
        return OpposeResult(self.id, winner, abs(a.margin - b.margin), a, b, lines=(line,))
