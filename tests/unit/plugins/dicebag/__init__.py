"""A dummy system for tests/unit/test_plugins.py (issue 42): one die against a target, to
show that a system added in one folder reaches the description, the forms and the odds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyrules.core import DiceGroup, Die, Faces, Line, Outcome, RollResult, System
from pyrules.fields import Choice, Field
from pyrules.i18n import Text as T

TEMPLATES = {"dicebag.result": T("Dé {face} contre {target} : marge {margin}.",
                                 "Die {face} against {target}: margin {margin}.")}


@dataclass(frozen=True)
class BagParams:
    die: int
    target: int


class DiceBagSystem(System[BagParams]):
    id = "dicebag"
    doc = "—"
    templates = TEMPLATES
    name = T("Sac de dés", "Dice bag")
    description = T("Un dé, qui doit égaler la cible.", "One die, which must reach the target.")
    oppose_rule = T("Le plus haut dé l'emporte.", "The higher die wins.")
    fields = (
        Field("die", "choice", T("Dé", "Die"), default=6,
              choices=(Choice(4, T("d4", "d4")), Choice(6, T("d6", "d6")))),
        Field("target", "int", T("Cible", "Target"), default=4, min=1, max=6),
        Field("dice", "faces", T("Dés", "Dice"), default=None, optional=True, sides=None,
              min=1, max=6, group="physical"),
    )
    outcomes = (Outcome("success", True, T("Réussite", "Success")),
                Outcome("failure", False, T("Échec", "Failure")))

    def make_params(self, values: dict[str, Any]) -> BagParams:
        return BagParams(**values)

    def dice_plan(self, params: BagParams) -> tuple[DiceGroup, ...]:
        return (DiceGroup("dice", params.die, 1),)

    def resolve(self, params: BagParams, faces: Faces) -> RollResult:
        face = faces["dice"][0]
        margin = face - params.target
        line = Line.of("dicebag.result", face=face, target=params.target, margin=margin)
        outcome = "success" if margin >= 0 else "failure"
        return RollResult(self.id, outcome, margin >= 0, margin,
                          (Die(params.die, face, face, "normal", face),), (line,))
