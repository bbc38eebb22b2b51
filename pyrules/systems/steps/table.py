"""Table play with step dice (document 004): the combat actions (melee, ranged, ordinary
conflict, skirmish) and the Ardeur points they cost. Fields are registry fields, so errors
name the field; the JSON shaping lives in api.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ...core import Line, RollResult
from ...fields import Choice, Field, ParamError, validate
from ...i18n import Text as T
from . import StepsSystem

STEPS = StepsSystem()

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
    #: Each roll's dice judged as a single roll of its side (its own threshold).
    own: tuple[RollResult, ...] = ()

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


@dataclass(frozen=True)
class CombatSetup:
    """A combat action's validated request: its options, each side's Ardeur and step params
    (and typed faces)."""

    kind: str
    concede: bool
    actor_ardeur: int
    opponent_ardeur: int
    actor: tuple[Any, Any]  # (StepsParams, Faces | None)
    opponent: tuple[Any, Any]


def parse_combat(options: Any, actor_raw: Any, opponent_raw: Any) -> CombatSetup:
    """Validate one combat action's request (errors name the field, e.g. "actor.bonus")."""
    opts = validate(COMBAT_FIELDS, options)
    a_ardeur, a_raw = split_ardeur("actor", actor_raw)
    b_ardeur, b_raw = split_ardeur("opponent", opponent_raw)
    sides = []
    for side, raw in (("actor", a_raw), ("opponent", b_raw)):
        try:
            sides.append(STEPS.parse(raw))
        except ParamError as err:
            raise err.prefixed(side) from None
    return CombatSetup(opts["kind"], opts["concede"], a_ardeur, b_ardeur, sides[0], sides[1])


def combat(
    options: Any, actor_raw: Any, opponent_raw: Any, rng: random.Random | None
) -> CombatOutcome:
    """One combat action between two participants of the step-dice system."""
    return resolve_combat(parse_combat(options, actor_raw, opponent_raw), rng)


def resolve_combat(setup: CombatSetup, rng: random.Random | None) -> CombatOutcome:
    kind = setup.kind
    steps = STEPS
    a_ardeur, b_ardeur = setup.actor_ardeur, setup.opponent_ardeur
    (pa, fa), (pb, fb) = setup.actor, setup.opponent
    if rng is None and (fa is None or (kind != "ranged" and fb is None)):
        raise ParamError("seed", "seed")
    if kind == "ranged":  # an action roll against the shooter's threshold
        roll = steps.resolve(pa, fa) if fa is not None else steps.roll(pa, rng)  # type: ignore[arg-type]
        hit = roll.success
        loss = roll.margin if hit else 0
        line = Line.of("combat.ranged", hit=hit, damage=loss)
        return CombatOutcome(kind, "actor" if hit else "opponent", max(roll.margin, 0), 0, loss,
                             a_ardeur, b_ardeur - loss, (roll,), (*roll.lines, line), (roll,))
    faces = None
    if fa is not None or fb is not None:
        faces = (fa if fa is not None else steps.draw(pa, rng),  # type: ignore[arg-type]
                 fb if fb is not None else steps.draw(pb, rng))  # type: ignore[arg-type]
    result = steps.oppose(pa, pb, faces, rng)
    margin, winner = result.margin, result.winner
    a_loss = margin if winner == "opponent" else 0
    b_loss = margin if winner == "actor" else 0
    if kind == "conflict" and setup.concede:
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
                         (*result.lines, line), result.own_results)
