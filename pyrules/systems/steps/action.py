"""A combat action inside a fight (issue 21: one tap is one engine call). The `combat` op
given a ``fight`` state names its sides by participant id; the engine picks each side's
entry (the one named for the kind of action, or the one chosen), its params and Ardeur
from the state, rolls the action, and judges the fight after it (losses applied, the actor
counted as having acted this round).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ...errors import ApiError
from ...fields import ParamError, validate
from .play import (
    COMBAT_FIELDS,
    STEPS,
    CombatOutcome,
    CombatSetup,
    Fighter,
    FightView,
    can_act,
    parse_fight,
)

SIDES = ("actor", "opponent")
SIDE_KEYS = ("id", "skill", "dice")
FACES = tuple(f.name for f in STEPS.fields if f.kind == "faces")


@dataclass(frozen=True)
class FightAction:
    """A checked action in a fight: its setup (as a plain `combat` request would give it),
    the fight before it, both sides' indexes in the fight, and the entry each side rolls
    (None: a side that rolls nothing, or has no entry and rolls the base dice)."""

    setup: CombatSetup
    view: FightView
    indexes: tuple[int, int]
    skills: tuple[int | None, int | None]
    #: Each rolled side's raw params with its typed faces, if any (for the faces check).
    sides: tuple[dict[str, Any], ...]


def _side(raw: Any, side: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ParamError(side, "not_object")
    for key in raw:
        if key not in SIDE_KEYS:
            raise ParamError(f"{side}.{str(key)[:40]}", "unknown_field", name=str(key)[:40])
    return raw


def _fighter(view: FightView, ident: Any, side: str) -> int:
    index = next((i for i, f in enumerate(view.fighters) if f.id == ident), None)
    if index is None:
        raise ParamError(f"{side}.id", "fight_fighter", id=str(ident)[:40])
    return index


def _skill(view: FightView, fighter: Fighter, kind: str, raw: Any, side: str) -> int | None:
    """The entry a side rolls: the one given (an index), else the one the rules name."""
    if raw is None or raw == "auto":
        index = view.skills(fighter)[kind]
    elif isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < len(fighter.skills):
        raise ParamError(f"{side}.skill", "fight_skill", count=len(fighter.skills))
    else:
        index = raw
    return index if index < len(fighter.skills) else None


def _params(fighter: Fighter, index: int | None, where: str, side: str,
            given: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """A side's raw params (the entry's, with the typed faces given) and their parse."""
    stored = fighter.params[index] if index is not None and index < len(fighter.params) else {}
    for name in FACES:
        if stored.get(name) is not None:  # faces belong to one roll, never to a fight state
            raise ApiError("faces_in_sheet", f"{where}.skills.{index}.params.{name}",
                           "faces_in_sheet")
    raw = {**stored, **{k: v for k, v in given.items() if k in FACES}}
    try:
        return raw, STEPS.parse(raw)
    except ParamError as err:
        raise err.prefixed(side) from None


def parse_fight_action(options: Any, fight: Any, actor: Any, opponent: Any) -> FightAction:
    """Check one action of a fight (errors name the field: ``fight.…``, ``actor.id``,
    ``opponent.skill``, ``actor.bonus`` for the rolled entry's params)."""
    opts = validate(COMBAT_FIELDS, options)
    kind = opts["kind"]
    view = parse_fight(fight)
    given = [_side(actor, "actor"), _side(opponent, "opponent")]
    indexes = [_fighter(view, g.get("id"), side) for g, side in zip(given, SIDES, strict=True)]
    if indexes[0] == indexes[1]:
        raise ParamError("opponent.id", "fight_same")
    first = view.fighters[indexes[0]]
    if not can_act(first.ardeur):
        raise ParamError("actor.id", "fight_out")
    skills: list[int | None] = []
    parsed: list[Any] = []
    raws: list[dict[str, Any]] = []
    for n, (g, side) in enumerate(zip(given, SIDES, strict=True)):
        fighter = view.fighters[indexes[n]]
        if side == "opponent" and kind == "ranged":  # a shot: the target rolls nothing
            if g.get("skill") is not None or g.get("dice") is not None:
                key = "skill" if g.get("skill") is not None else "dice"
                raise ParamError(f"opponent.{key}", "fight_ranged")
            skills.append(None)
            parsed.append(STEPS.parse({}))
            continue
        index = _skill(view, fighter, kind, g.get("skill"), side)
        raw, params = _params(fighter, index, f"fight.participants.{indexes[n]}", side, g)
        skills.append(index)
        parsed.append(params)
        raws.append(raw)
    a, b = (view.fighters[i] for i in indexes)
    setup = CombatSetup(kind, opts["concede"], opts["ardeur_floor"], a.ardeur, b.ardeur,
                        parsed[0], parsed[1])
    return FightAction(setup, view, (indexes[0], indexes[1]), (skills[0], skills[1]),
                       tuple(raws))


def fight_after(action: FightAction, out: CombatOutcome) -> FightView:
    """The fight once the action is done: both sides' Ardeur after it, the actor counted
    as having acted this round (the turn and round stay: "next turn" is the table's)."""
    view = action.view
    left = {action.indexes[0]: out.actor_ardeur, action.indexes[1]: out.opponent_ardeur}
    fighters = tuple(dataclasses.replace(f, ardeur=left[i]) if i in left else f
                     for i, f in enumerate(view.fighters))
    actor = view.fighters[action.indexes[0]].id
    return dataclasses.replace(view, fighters=fighters, acted=view.acted | {actor})
