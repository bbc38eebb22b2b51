"""Table-play rules around the rolls: where a pool's augmentations come from, the step-dice
combat actions with Ardeur points, the d6 exceptional efforts, and how lucky a roll was.

Each helper validates its inputs with registry fields (so errors name the field) and
returns plain data plus explanation lines; the JSON shaping lives in api.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .core import Line, RollResult
from .fields import Choice, Field, ParamError, validate
from .i18n import Text as T
from .registry import SYSTEMS

# -- pool: sources of augmentations and diminutions (document 000) ------------------------

SOURCE_FIELDS = (
    Field("flame", "int", T("Flamme", "Flame"), default=0, min=-10, max=10,
          help=T("Négative : Flamme noire.", "Negative: black Flame.")),
    Field("aspect", "int", T("Score d'aspect", "Aspect score"), default=0, min=0, max=10),
    Field("dark_aspect", "int", T("Score d'aspect noir", "Dark aspect score"), default=0,
          min=0, max=10),
    Field("linked", "bool", T("Caractéristique liée à l'aspect", "Characteristic linked to the "
                              "aspect"), default=True),
    Field("specialty", "bool", T("Spécialité", "Specialty"), default=False),
    Field("rewards", "int", T("Récompenses du MJ (action héroïque, description)",
                              "GM rewards (heroic action, description)"), default=0, min=0,
          max=5),
    Field("plain_roll", "bool", T("Le joueur se contente de lancer les dés",
                                  "The player just rolls the dice"), default=False),
    Field("eclat_flame_dice", "int", T("Éclat : dés de Flamme gagnés", "Éclat: Flame dice "
                                       "gained"), default=0, min=0, max=5),
    Field("eclat_augmentations", "int", T("Éclat : augmentations gagnées",
                                          "Éclat: augmentations gained"), default=0, min=0,
          max=5),
)


@dataclass(frozen=True)
class Source:
    id: str
    line: Line
    augmentations: int = 0
    diminutions: int = 0
    flame_dice: int = 0


def pool_sources(raw: Any) -> tuple[tuple[Source, ...], dict[str, int]]:
    """Augmentations, diminutions and extra Flame dice from a character's sources."""
    v = validate(SOURCE_FIELDS, raw)
    black = v["flame"] < 0
    sources: list[Source] = []
    if v["linked"]:
        # Light Flame: aspect -> augmentations, dark aspect -> diminutions. Black: reversed.
        aug_from, dim_from = ("dark_aspect", "aspect") if black else ("aspect", "dark_aspect")
        if v[aug_from]:
            sources.append(Source(aug_from, augmentations=v[aug_from],
                                  line=Line.of(f"sources.{aug_from}_aug", n=v[aug_from],
                                               black=black)))
        if v[dim_from]:
            sources.append(Source(dim_from, diminutions=v[dim_from],
                                  line=Line.of(f"sources.{dim_from}_dim", n=v[dim_from],
                                               black=black)))
    if v["specialty"]:
        sources.append(Source("specialty", augmentations=1, line=Line.of("sources.specialty")))
    if v["rewards"]:
        sources.append(Source("rewards", augmentations=v["rewards"],
                              line=Line.of("sources.rewards", n=v["rewards"])))
    if v["plain_roll"]:
        sources.append(Source("plain_roll", diminutions=1, line=Line.of("sources.plain_roll")))
    if v["eclat_flame_dice"] or v["eclat_augmentations"]:
        sources.append(Source("eclat", augmentations=v["eclat_augmentations"],
                              flame_dice=v["eclat_flame_dice"],
                              line=Line.of("sources.eclat", dice=v["eclat_flame_dice"],
                                           n=v["eclat_augmentations"])))
    totals = {
        "augmentations": sum(s.augmentations for s in sources),
        "diminutions": sum(s.diminutions for s in sources),
        "flame_dice": sum(s.flame_dice for s in sources),
    }
    return tuple(sources), totals


# -- steps: combat actions with Ardeur points (document 004) ------------------------------

COMBAT_KINDS = ("melee", "ranged", "conflict", "skirmish")
COMBAT_FIELDS = (
    Field("kind", "choice", T("Action", "Action"), default="melee", choices=(
        Choice("melee", T("Corps à corps (Combat ou Bagarre)", "Melee (Combat or Brawl)")),
        Choice("ranged", T("Tir (jet d'action)", "Ranged (action roll)")),
        Choice("conflict", T("Conflit ordinaire", "Ordinary conflict")),
        Choice("skirmish", T("Escarmouche", "Skirmish")),
    )),
    Field("concede", "bool", T("Le perdant s'avoue vaincu", "The loser concedes"),
          default=False, help=T("Conflit ordinaire seulement : il ne perd rien.",
                                "Ordinary conflict only: they lose nothing.")),
)
ARDEUR_FIELD = Field("ardeur", "int", T("Points d'Ardeur", "Ardeur points"), default=10,
                     min=-99, max=99)


@dataclass(frozen=True)
class CombatOutcome:
    kind: str
    winner: str  # actor, opponent, tie (ranged: actor on a hit, opponent on a miss)
    margin: int
    actor_loss: int
    opponent_loss: int
    actor_ardeur: int
    opponent_ardeur: int
    rolls: tuple[RollResult, ...]
    lines: tuple[Line, ...]

    @property
    def knocked_out(self) -> tuple[str, ...]:
        return tuple(side for side, left in (("actor", self.actor_ardeur),
                                             ("opponent", self.opponent_ardeur)) if left <= 0)


def split_ardeur(side: str, raw: Any) -> tuple[int, dict[str, Any]]:
    """Take the Ardeur points out of a side's params (the rest are step-dice params)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ParamError(f"{side}.params", "not_object")
    params = dict(raw)
    try:
        ardeur = ARDEUR_FIELD.clean(params.pop("ardeur")) if params.get("ardeur") is not None \
            else ARDEUR_FIELD.default
    except ParamError as err:
        raise err.prefixed(side) from None
    params.pop("ardeur", None)
    return ardeur, params


def combat(
    options: Any, actor_raw: Any, opponent_raw: Any, rng: random.Random | None
) -> CombatOutcome:
    """One combat action between two participants of the step-dice system."""
    opts = validate(COMBAT_FIELDS, options)
    kind = opts["kind"]
    steps = SYSTEMS["steps"]
    a_ardeur, a_raw = split_ardeur("actor", actor_raw)
    b_ardeur, b_raw = split_ardeur("opponent", opponent_raw)
    sides = []
    for side, raw in (("actor", a_raw), ("opponent", b_raw)):
        try:
            sides.append(steps.parse(raw))
        except ParamError as err:
            raise err.prefixed(side) from None
    (pa, fa), (pb, fb) = sides
    if rng is None and (fa is None or (kind != "ranged" and fb is None)):
        raise ParamError("seed", "seed")
    if kind == "ranged":  # an action roll against the shooter's threshold
        roll = steps.resolve(pa, fa) if fa is not None else steps.roll(pa, rng)  # type: ignore[arg-type]
        hit = roll.success
        loss = roll.margin if hit else 0
        line = Line.of("combat.ranged", hit=hit, damage=loss)
        return CombatOutcome(kind, "actor" if hit else "opponent", max(roll.margin, 0), 0, loss,
                             a_ardeur, b_ardeur - loss, (roll,), (*roll.lines, line))
    faces = None
    if fa is not None or fb is not None:
        faces = (fa if fa is not None else steps.draw(pa, rng),  # type: ignore[arg-type]
                 fb if fb is not None else steps.draw(pb, rng))  # type: ignore[arg-type]
    result = steps.oppose(pa, pb, faces, rng)
    margin, winner = result.margin, result.winner
    a_loss = margin if winner == "opponent" else 0
    b_loss = margin if winner == "actor" else 0
    if kind == "conflict" and opts["concede"]:
        a_loss = b_loss = 0
        key = "combat.conceded"
    elif kind == "skirmish":
        # One roll settles the whole fight: the extras are out either way, and the hero
        # cannot be wounded; a lost roll means a twist the GM narrates.
        a_loss, b_loss = 0, max(b_ardeur, 0)
        key = "combat.skirmish_won" if winner == "actor" else "combat.skirmish_twist"
    else:
        key = f"combat.{kind}"
    line = Line.of(key, winner=winner, margin=margin, actor_loss=a_loss, opponent_loss=b_loss)
    return CombatOutcome(kind, winner, margin, a_loss, b_loss, a_ardeur - a_loss,
                         b_ardeur - b_loss, (result.actor, result.opponent),
                         (*result.lines, line))


# -- d6: exceptional efforts (document 001) --------------------------------------------

EFFORT_FIELDS = (
    Field("flame", "int", T("Flamme", "Flame"), default=2, min=0, max=7),
    Field("used", "int", T("Efforts déjà faits aujourd'hui", "Efforts already made today"),
          default=0, min=0, max=7),
    Field("action", "choice", T("Action", "Action"), default="use", choices=(
        Choice("use", T("Faire un effort", "Make an effort")),
        Choice("rest", T("Nuit de repos", "Night's rest")),
        Choice("check", T("Consulter", "Check")),
    )),
)


def effort(raw: Any) -> dict[str, int | bool]:
    """Efforts per day equal the Flame; using one spends it; a night's rest restores all."""
    v = validate(EFFORT_FIELDS, raw)
    used = min(v["used"], v["flame"])
    if v["action"] == "rest":
        used = 0
    elif v["action"] == "use":
        if used >= v["flame"]:
            raise ParamError("effort", "no_effort_left", flame=v["flame"])
        used += 1
    return {"per_day": v["flame"], "used": used, "available": v["flame"] - used}


# -- luck: where a result falls under the exact odds -------------------------------------


def percentile(margins: dict[int, Fraction], margin: int) -> Fraction:
    """Mid-rank percentile of a margin: P(lower) + P(equal) / 2. 1/2 is an average roll."""
    below = sum((p for m, p in margins.items() if m < margin), Fraction(0))
    return below + margins.get(margin, Fraction(0)) / 2
