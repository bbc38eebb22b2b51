"""``pool``: a pool of d6 counted in successes, with Flame dice (document 000).

Faces 1-3 count 0 successes, 4-5 count 1, 6 counts 2. The roll succeeds when the
successes reach the DIFF. Flame dice are taken out of the POT; their faces can be
raised by augmentations and lowered by diminutions (never a 1, always within 2-6).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from ...core import (
    DiceGroup,
    Die,
    Faces,
    Line,
    Odds,
    OpposeResult,
    Outcome,
    RollResult,
    System,
)
from ...fields import Choice, Field, ParamError
from ...i18n import Text
from .explain import TEMPLATES
from .odds import pool_odds, successes_weights
from .rules import (
    FUMBLE_MARGIN,
    MAX_BUDGET,
    MAX_DICE,
    MAX_FLAME_DICE,
    Modifiers,
    PoolParams,
    Verdict,
    apply_placement,
    check_placement,
    net_budget,
    ones_matter,
    optimal_placement,
    parse_modifiers,
    placed_successes,
    placement_error,
    placement_moves,
    successes_of,
    verdict,
)

__all__ = [
    "FUMBLE_MARGIN",
    "MAX_BUDGET",
    "MAX_DICE",
    "MAX_FLAME_DICE",
    "Modifiers",
    "PoolParams",
    "PoolSystem",
    "Verdict",
    "apply_placement",
    "check_placement",
    "net_budget",
    "ones_matter",
    "optimal_placement",
    "parse_modifiers",
    "placed_successes",
    "placement_error",
    "placement_moves",
    "pool_odds",
    "successes_of",
    "successes_weights",
    "verdict",
]

# -- the system ------------------------------------------------------------------------

T = Text

#: The document's nine DIFF steps (the field still takes any whole number from 1 to 9).
DIFF_STEPS = tuple(Choice(i, T(fr, en)) for i, fr, en in (
    (1, "Évident", "Obvious"), (2, "Facile", "Easy"), (3, "Aisé", "Fairly easy"),
    (4, "Normal", "Normal"), (5, "Malaisé", "Awkward"), (6, "Difficile", "Hard"),
    (7, "Très difficile", "Very hard"), (8, "Improbable", "Improbable"),
    (9, "Chimérique", "Chimerical"),
))


class PoolSystem(System[PoolParams]):
    id = "pool"
    play_ops = ("sources",)
    doc = "000"
    templates = TEMPLATES
    name = T("Réserve de d6 et dés de Flamme", "d6 success pool with Flame dice")
    description = T(
        "Lancez autant de d6 que votre POT : 4-5 valent une réussite, 6 en vaut deux. "
        "Atteignez la DIFF pour réussir.",
        "Roll as many d6 as your POT: 4-5 count one success, 6 counts two. "
        "Reach the DIFF to succeed.",
    )
    oppose_rule = T(
        "Chacun lance son POT ; le plus de réussites l'emporte.",
        "Each side rolls its POT; more successes wins.",
    )
    fields = (
        Field("pot", "int", T("POT (caractéristique + compétence)", "POT (characteristic + skill)"),
              default=6, min=1, max=40,
              help=T("Nombre de d6 lancés.", "Number of d6 rolled.")),
        Field("diff", "int", T("DIFF (difficulté)", "DIFF (difficulty)"), default=4, min=1, max=9,
              help=T("1 évident … 4 normal … 9 chimérique.",
                     "1 obvious … 4 normal … 9 chimerical."),
              steps=DIFF_STEPS),
        Field("flame", "int", T("Flamme", "Flame"), default=0, min=-10, max=10,
              help=T("Nombre de dés de Flamme pris dans le POT ; négatif : Flamme noire.",
                     "Number of Flame dice taken from the POT; negative: black Flame.")),
        Field("augmentations", "int", T("Augmentations", "Augmentations"), default=0, min=0,
              max=20, help=T("+1 sur un dé de Flamme chacune, placées par le joueur.",
                             "+1 on a Flame die each, placed by the player.")),
        Field("diminutions", "int", T("Diminutions", "Diminutions"), default=0, min=0, max=20,
              help=T("-1 sur un dé de Flamme chacune, placées par le MJ.",
                     "-1 on a Flame die each, placed by the GM.")),
        Field("modifiers", "text", T("Modificateurs", "Modifiers"), default="", max_length=40,
              help=T("Notation +xD+yDF+z, par ex. +1D+1DF+2 ou -1D ou -2.",
                     "Notation +xD+yDF+z, e.g. +1D+1DF+2 or -1D or -2.")),
        Field("actor_size", "int", T("TAIlle de l'acteur", "Actor's SIZe"), default=0, min=-5,
              max=5, group="advanced"),
        Field("target_size", "int", T("TAIlle de la cible", "Target's SIZe"), default=0, min=-5,
              max=5, group="advanced"),
        Field("complexity", "int", T("Complexité d'une machine", "A machine's complexity"),
              default=0, min=-3, max=3, group="advanced",
              help=T("Mettre une machine hors d'état : -1 à -3 sur la DIFF ; la réparer : +1 à +3.",
                     "Disabling a machine: -1 to -3 on the DIFF; repairing it: +1 to +3.")),
        Field("size_rule", "choice", T("TAIlle rendue à la MR", "SIZe given back to the MR"),
              default="applied", group="advanced",
              choices=(
                  Choice("applied", T("Ce que la TAIlle a vraiment changé à la DIFF",
                                      "What the SIZe really changed on the DIFF")),
                  Choice("full", T("Tout l'écart de TAIlle, même au plancher de la DIFF",
                                   "The whole SIZe gap, even at the DIFF's floor")),
              )),
        Field("fumble_rule", "choice", T("Règle du fumble", "Fumble rule"), default="revised",
              group="advanced",
              choices=(
                  Choice("revised", T("Révisée : plus de 1 que la moitié du POT et que de "
                                      "réussites", "Revised: more 1s than half the POT and "
                                      "than successes")),
                  Choice("classic", T("Classique : plus de 1 que de réussites",
                                      "Classic: more 1s than successes")),
              )),
        Field("placement", "placement", T("Placement sur les dés de Flamme",
                                          "Placement on the Flame dice"),
              default=None, optional=True, min=-MAX_BUDGET, max=MAX_BUDGET, group="result",
              help=T("Changement net de chaque dé de Flamme ; vide : placement optimal.",
                     "Net change on each Flame die; empty: optimal placement.")),
        Field("dice", "faces", T("Dés ordinaires", "Ordinary dice"), default=None,
              optional=True, sides=6, min=1, max=6, group="physical"),
        Field("flame_dice", "faces", T("Dés de Flamme", "Flame dice"), default=None,
              optional=True, sides=6, min=1, max=6, group="physical"),
    )
    outcomes = (
        Outcome("critical_success", True, T("Réussite critique", "Critical success")),
        Outcome("success", True, T("Réussite", "Success")),
        Outcome("failure", False, T("Échec", "Failure")),
        Outcome("fumble", False, T("Échec critique (fumble)", "Fumble")),
    )

    def make_params(self, values: dict[str, Any]) -> PoolParams:
        mods = parse_modifiers(values["modifiers"])  # a ParamError names `modifiers`
        p = PoolParams(**values, mods=mods)
        checks = (  # each limit named in the player's words (the form's « Modificateurs »)
            (T("le nombre de dés (POT + D)", "the number of dice (POT + D)"),
             p.dice_count, 0, MAX_DICE),
            (T("le nombre de dés de Flamme (Flamme + DF)", "the number of Flame dice (Flame + DF)"),
             abs(p.flame) + mods.flame, -MAX_FLAME_DICE, MAX_FLAME_DICE),
            (T("le total des augmentations", "the total of augmentations"),
             p.total_augmentations, 0, MAX_BUDGET),
            (T("le total des diminutions", "the total of diminutions"),
             p.total_diminutions, 0, MAX_BUDGET),
        )
        for what, value, low, high in checks:
            if not low <= value <= high:
                raise ParamError("modifiers", "modifiers_range", what=what, min=low, max=high)
        return p

    def dice_plan(self, params: PoolParams) -> tuple[DiceGroup, ...]:
        f = params.flame_count
        return (
            DiceGroup("dice", 6, params.dice_count - f, "normal"),
            DiceGroup("flame_dice", 6, f, params.flame_kind),
        )

    def resolve(self, params: PoolParams, faces: Faces) -> RollResult:
        p = params
        normal, flame = faces["dice"], faces["flame_dice"]
        if p.placement is None:
            place = optimal_placement(flame, *net_budget(p))
        else:
            place = check_placement(p, flame)
        finals = tuple(apply_placement(f, d) for f, d in zip(flame, place, strict=True))
        dice = tuple(
            Die(6, f, f, "normal", successes_of(f), ("one",) if f == 1 else ())
            for f in normal
        ) + tuple(
            Die(6, f, g, p.flame_kind, successes_of(g), ("one",) if f == 1 else (), g - f)
            for f, g in zip(flame, finals, strict=True)
        )
        successes = sum(d.value for d in dice)
        ones = sum(1 for d in dice if d.rolled == 1)
        v = verdict(p, successes, ones)
        used_aug = sum(d for d in place if d > 0)
        used_dim = -sum(d for d in place if d < 0)
        if p.placement is None:  # cancelled pairs count as used on both sides
            cancelled = min(p.total_augmentations, p.total_diminutions)
            used_aug += cancelled
            used_dim += cancelled
        lines = self._explain(p, dice, successes, ones, v, place)
        return RollResult(
            self.id, v.outcome, v.outcome in ("success", "critical_success"), v.margin, dice,
            lines,
            extra=(
                ("successes", successes),
                ("effective_diff", p.effective_diff),
                ("ones", ones),
                ("dice_count", p.dice_count),
                ("flame_count", p.flame_count),
                ("augmentations", p.total_augmentations),
                ("diminutions", p.total_diminutions),
                ("placement", list(place)),
                # Which die of ``dice`` each placement value moves (the Flame dice, in order).
                ("placement_dice", list(range(len(normal), len(normal) + len(flame)))),
                ("unused_augmentations", p.total_augmentations - used_aug),
                ("unused_diminutions", p.total_diminutions - used_dim),
                ("size_modifier", p.size_modifier),
                ("size_applied", p.size_applied),
                ("task_diff", p.task_diff),
                ("placement_moves", [{"plus": up, "minus": down}
                                     for up, down in placement_moves(p, flame, place)]),
                ("placement_left", {
                    "augmentations": p.total_augmentations - sum(d for d in place if d > 0),
                    "diminutions": p.total_diminutions + sum(d for d in place if d < 0)}),
            ),
        )

    def _explain(
        self, p: PoolParams, dice: tuple[Die, ...], successes: int, ones: int, v: Verdict,
        place: tuple[int, ...],
    ) -> tuple[Line, ...]:
        lines = [Line.of("pool.dice", pot=p.pot, modifiers=p.modifiers.strip(),
                         count=p.dice_count, flame=p.flame_count, kind=p.flame_kind)]
        if p.flame_count and (p.total_augmentations or p.total_diminutions):
            mode = "optimal" if p.placement is None else "manual"
            lines.append(Line.of(f"pool.placement_{mode}", aug=p.total_augmentations,
                                 dim=p.total_diminutions,
                                 changes=" ".join(f"{d:+d}" for d in place)))
        lines.append(Line.of("pool.count", successes=successes,
                             faces=" ".join(str(d.final) for d in dice), ones=ones))
        if p.complexity:
            why = "disable" if p.complexity < 0 else "repair"
            lines.append(Line.of(f"pool.complexity_{why}", diff=p.diff,
                                 complexity=p.complexity, task=p.task_diff))
        if p.size_modifier or p.effective_diff != p.task_diff:
            lines.append(Line.of("pool.size", diff=p.task_diff, size=p.size_modifier,
                                 eff=p.effective_diff))
        if p.size_applied != p.size_modifier:
            lines.append(Line.of(f"pool.size_floor_{p.size_rule}", applied=p.size_applied,
                                 size=p.size_modifier))
        eff = p.effective_diff
        if v.outcome == "critical_success":
            lines.append(Line.of("pool.critical", successes=successes, eff=eff,
                                 double=2 * eff, margin=v.margin))
        elif v.outcome == "success":
            lines.append(Line.of("pool.success", successes=successes, eff=eff, margin=v.margin))
        elif v.margin <= FUMBLE_MARGIN:
            lines.append(Line.of("pool.fumble_margin", successes=successes, eff=eff,
                                 margin=v.margin))
        elif v.outcome == "fumble":
            lines.append(Line.of(f"pool.fumble_{p.fumble_rule}", successes=successes, eff=eff,
                                 margin=v.margin, ones=ones, count=p.dice_count))
        else:
            lines.append(Line.of("pool.failure", successes=successes, eff=eff, margin=v.margin,
                                 ones=ones))
        return tuple(lines)

    def headline(self, result: RollResult) -> int | None:
        return int(result.get("successes"))

    def headline_kind(self, result: RollResult) -> str:
        return "successes"

    def odds(self, params: PoolParams) -> Odds:
        return pool_odds(params)

    def oppose_score(self, result: RollResult) -> int:
        return int(result.get("successes"))

    def score_odds(self, params: PoolParams) -> dict[int, Fraction]:
        total = 6**params.dice_count
        return {s: Fraction(w, total) for s, w in sorted(successes_weights(params).items())}

    def oppose(
        self, actor: PoolParams, opponent: PoolParams,
        faces: tuple[Faces, Faces] | None, rng: random.Random | None,
    ) -> OpposeResult:
        a, b = self.both_sides(actor, opponent, faces, rng)
        sa, sb = a.get("successes"), b.get("successes")
        winner = "actor" if sa > sb else "opponent" if sb > sa else "tie"
        line = Line.of("pool.oppose", a=sa, b=sb, winner=winner)
        return OpposeResult(self.id, winner, abs(sa - sb), a, b, lines=(line,))
