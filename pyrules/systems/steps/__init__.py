"""``steps``: step dice D4-D12 against an aptitude threshold (document 004).

The skill gives the die, the aptitude the threshold to reach. An action roll succeeds
when die + bonus reaches the threshold; in a conflict both sides roll and the higher
total wins, the loser losing as many Ardeur points as the gap.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from ...core import DiceGroup, Die, Faces, Line, OpposeResult, Outcome, RollResult, System
from ...fields import Choice, Field, brief
from ...i18n import Text as T
from .explain import TEMPLATES

STEPS = (4, 6, 8, 10, 12)


@dataclass(frozen=True)
class StepsParams:
    die: int
    threshold: int
    bonus: int
    edge: str
    edge_rule: str
    weapons: tuple[int, ...] = ()
    protections: tuple[int, ...] = ()

    @property
    def best_weapon(self) -> int:
        """Only the best weapon counts (none listed: 0)."""
        return max(self.weapons, default=0)

    @property
    def best_protection(self) -> int:
        """Only the best protection counts (none listed: 0)."""
        return max(self.protections, default=0)

    @property
    def total_bonus(self) -> int:
        return self.bonus + self.best_weapon + self.best_protection

    @property
    def sides(self) -> int:
        """The die actually rolled: one step up for D+, down for D-, with the step reading."""
        if self.edge == "none" or self.edge_rule != "step":
            return self.die
        i = STEPS.index(self.die) + (1 if self.edge == "advantage" else -1)
        return STEPS[max(0, min(len(STEPS) - 1, i))]

    @property
    def dice_count(self) -> int:
        return 2 if self.edge != "none" and self.edge_rule == "keep" else 1


class StepsSystem(System[StepsParams]):
    id = "steps"
    play_ops = ("combat", "fight")
    doc = "004"
    templates = TEMPLATES
    name = T("Dés à paliers D4–D12", "Step dice D4–D12")
    description = T(
        "Le dé de la compétence (D4 à D12) + bonus doit égaler ou dépasser le seuil de "
        "l'aptitude. En conflit, le plus haut total l'emporte.",
        "The skill's die (D4 to D12) + bonus must reach the aptitude's threshold. In a "
        "conflict the higher total wins.",
    )
    oppose_rule = T(
        "Conflit : dé + bonus de chaque côté ; le perdant perd l'écart en points d'Ardeur.",
        "Conflict: die + bonus on each side; the loser loses the gap in Ardeur points.",
    )
    fields = (
        Field("die", "choice", T("Dé de compétence", "Skill die"), default=8,
              choices=tuple(Choice(s, T(f"D{s}", f"D{s}")) for s in STEPS)),
        Field("threshold", "int", T("Seuil de l'aptitude", "Aptitude threshold"), default=5,
              min=1, max=12, help=T("Le chiffre à égaler ou dépasser (jet d'action).",
                                    "The number to reach (action roll).")),
        Field("bonus", "int", T("Bonus", "Bonus"), default=0, min=-10, max=20,
              help=T("Accessoires, atours ; en conflit, ajoutez le bonus d'aptitude.",
                     "Accessories, trappings; in a conflict add the aptitude bonus.")),
        Field("edge", "choice", T("Avantage ou handicap", "Advantage or handicap"),
              default="none",
              choices=(Choice("none", T("Aucun", "None")),
                       Choice("advantage", T("Avantage (D+)", "Advantage (D+)")),
                       Choice("handicap", T("Handicap (D-)", "Handicap (D-)")))),
        Field("edge_rule", "choice", T("Lecture de D+ / D-", "Reading of D+ / D-"),
              default="step", group="advanced",
              choices=(Choice("step", T("Un palier de dé plus haut / plus bas",
                                        "One die step up / down")),
                       Choice("keep", T("Deux dés, garder le meilleur / le pire",
                                        "Two dice, keep the better / the worse")))),
        Field("weapons", "list", T("Armes (bonus de chacune)", "Weapons (each one's bonus)"),
              default=None, optional=True, min=-10, max=20, group="advanced",
              help=T("Par ex. 2 1 : seule la meilleure compte.",
                     "E.g. 2 1: only the best one counts.")),
        Field("protections", "list", T("Protections (bonus de chacune)",
                                       "Protections (each one's bonus)"),
              default=None, optional=True, min=-10, max=20, group="advanced",
              help=T("Par ex. 1 3 : seule la meilleure compte.",
                     "E.g. 1 3: only the best one counts.")),
        Field("dice", "faces", T("Dés", "Dice"), default=None, optional=True,
              sides=None, min=1, max=12, group="physical"),
    )
    outcomes = (
        Outcome("success", True, T("Réussite", "Success")),
        Outcome("failure", False, T("Échec", "Failure")),
    )

    def make_params(self, values: dict[str, Any]) -> StepsParams:
        for name in ("weapons", "protections"):
            values[name] = values[name] or ()
        return StepsParams(**values)

    def brief(self, params: StepsParams) -> T:
        """The whole bonus the roll adds (the bonus, the best weapon, the best protection),
        signed, in place of the three."""
        total = params.total_bonus
        values = {**self.values_of(params), "bonus": total, "weapons": (), "protections": ()}
        return brief(self.fields, values, {"bonus": f"{total:+d}"} if total else None)

    def dice_plan(self, params: StepsParams) -> tuple[DiceGroup, ...]:
        return (DiceGroup("dice", params.sides, params.dice_count),)

    def resolve(self, params: StepsParams, faces: Faces) -> RollResult:
        p = params
        rolled = faces["dice"]
        kept = (max(rolled) if p.edge == "advantage" else min(rolled)) if len(rolled) > 1 \
            else rolled[0]
        kept_index = rolled.index(kept)
        extreme = "high" if kept == p.sides else "low" if kept == 1 else None
        dice = []
        for i, f in enumerate(rolled):
            tags: tuple[str, ...] = ()
            if len(rolled) > 1:
                tags = ("kept",) if i == kept_index else ("dropped",)
            if i == kept_index and extreme:
                tags = (*tags, f"extreme_{extreme}")
            dice.append(Die(p.sides, f, f, "normal", f, tags))
        total = kept + p.total_bonus
        margin = total - p.threshold
        success = margin >= 0
        lines = []
        if p.edge != "none":
            lines.append(Line.of(f"steps.{p.edge}_{p.edge_rule}", die=p.die, sides=p.sides,
                                 faces=", ".join(map(str, rolled)), kept=kept))
        if p.weapons or p.protections:
            lines.append(Line.of("steps.gear", weapons=" ".join(f"{w:+d}" for w in p.weapons),
                                 protections=" ".join(f"{w:+d}" for w in p.protections),
                                 weapon=p.best_weapon, protection=p.best_protection,
                                 bonus=p.bonus, total=p.total_bonus))
        lines.append(Line.of("steps.total", sides=p.sides, face=kept, bonus=p.total_bonus,
                             total=total))
        lines.append(Line.of("steps.success" if success else "steps.failure",
                             total=total, threshold=p.threshold, margin=margin))
        if extreme:
            lines.append(Line.of(f"steps.extreme_{extreme}", face=kept))
        return RollResult(
            self.id, "success" if success else "failure", success, margin, tuple(dice),
            tuple(lines),
            extra=(("total", total), ("extreme", extreme), ("die_rolled", p.sides),
                   ("damage", margin if success else 0)),
        )

    def headline(self, result: RollResult) -> int | None:
        return int(result.get("total"))

    def headline_kind(self, result: RollResult) -> str:
        return "total"

    def oppose_score(self, result: RollResult) -> int:
        return int(result.get("total"))

    def oppose(
        self, actor: StepsParams, opponent: StepsParams,
        faces: tuple[Faces, Faces] | None, rng: random.Random | None,
    ) -> OpposeResult:
        if faces is None:
            assert rng is not None
            fa, fb = self.draw(actor, rng), self.draw(opponent, rng)
        else:
            fa, fb = faces
        own = (self.resolve(actor, fa), self.resolve(opponent, fb))
        ta, tb = own[0].get("total"), own[1].get("total")
        # In a conflict each side rolls against the other's total, not its threshold.
        a = self.resolve(replace(actor, threshold=tb), fa)
        b = self.resolve(replace(opponent, threshold=ta), fb)
        winner = "actor" if ta > tb else "opponent" if tb > ta else "tie"
        if winner == "tie":  # nobody rolled more than the other
            a, b = self._tied(a), self._tied(b)
        loser = {"actor": "opponent", "opponent": "actor"}.get(winner)
        line = Line.of("steps.oppose", a=ta, b=tb, winner=winner, margin=abs(ta - tb))
        return OpposeResult(self.id, winner, abs(ta - tb), a, b, lines=(line,),
                            extra=(("loser", loser), ("ardeur_loss", abs(ta - tb))), own=own)

    @staticmethod
    def _tied(r: RollResult) -> RollResult:
        return RollResult(r.system, "failure", False, 0, r.dice, r.lines, r.extra, r.seed,
                          r.physical)
