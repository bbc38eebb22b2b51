"""The step dice' play ops, ``combat`` (one action, document 004) and ``fight`` (a
fight's state), as the API serves them. Named by the steps plugin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import make_rng
from ...errors import ApiError, PyrulesError
from ...explain import both
from ...ops.answers import own_json, roll_json, versus_json
from ...ops.base import Checked, Op, get_seed, params_json
from ...registry import play_system
from ...sheets.rolls import is_sheet, sheet_roll
from .action import fight_after, parse_fight_action
from .joining import joining
from .play import (
    ARDEUR_FIELD,
    FightView,
    parse_combat,
    parse_fight,
    resolve_combat,
    split_ardeur,
)


def _side_params(req: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [split_ardeur(side, req.get(side))[1] for side in ("actor", "opponent")]


def sheet_side(req: Mapping[str, Any], side: str) -> Any:
    """A combat side given as ``{"sheet": {...}, "ardeur"?}``: the step-dice params its
    sheet stands for, with the Ardeur given, else the sheet's own (errors under ``side``)."""
    raw = req.get(side)
    if not is_sheet(raw):
        return raw
    assert isinstance(raw, Mapping)
    rest = {k: v for k, v in raw.items() if k != ARDEUR_FIELD.name}
    try:
        made = sheet_roll(play_system("combat"), rest, spend=False)
    except PyrulesError as err:
        raise err.prefixed(side) from None
    ardeur = raw.get(ARDEUR_FIELD.name)
    if ardeur is None and made.sheet is not None:
        ardeur = made.sheet["stats"].get(ARDEUR_FIELD.name)
    return {**made.params, ARDEUR_FIELD.name: ardeur}


def parse_combat_op(req: Mapping[str, Any], lang: str) -> Checked:
    given_seed = req.get("seed")
    seed = get_seed(given_seed)
    action = None
    if "fight" in req:  # an action in a fight: sides by id, the entries and Ardeur the state's
        action = parse_fight_action(req.get("params"), req.get("fight"), req.get("actor"),
                                    req.get("opponent"))
        setup, sides = action.setup, list(action.sides)
    else:
        req = {**req, "actor": sheet_side(req, "actor"),
               "opponent": sheet_side(req, "opponent")}
        setup = parse_combat(req.get("params"), req.get("actor"), req.get("opponent"))
        sides = _side_params(req)[: 1 if setup.kind == "ranged" else 2]
    # Faces only in physical mode: no seed, and every rolled side typed (a ranged action
    # rolls the shooter alone). Checked before anything of the roll is answered.
    for side, params in zip(("actor", "opponent"), sides, strict=False):
        loaded = params.get("dice") is not None
        if loaded and (given_seed is not None or any(p.get("dice") is None for p in sides)):
            raise ApiError("faces_in_sheet", f"{side}.dice", "faces_in_sheet")
    return {"seed": seed, "setup": setup, "sides": sides, "lang": lang, "action": action,
            "shown": {"kind": setup.kind, "actor": params_json(setup.actor[0]),
                      "opponent": params_json(setup.opponent[0])}}


def run_combat(c: Checked) -> dict[str, Any]:
    setup, sides, lang = c["setup"], c["sides"], c["lang"]
    out = resolve_combat(setup, make_rng(c["seed"]))
    system = play_system("combat")
    texts = both(out.lines)
    physical = all(p.get("dice") is not None for p in sides)
    shown_seed = None if physical else c["seed"]
    rolls = []
    for r, own, (params, _) in zip(out.rolls, out.own, (setup.actor, setup.opponent),
                                   strict=False):
        rolls.append({**roll_json(system, r.with_seed(shown_seed), params, lang, own),
                      "own": own_json(system, params, own, not physical)})
    answer: dict[str, Any] = {
        "kind": out.kind, "winner": out.winner, "margin": out.margin,
        "seed": shown_seed, "physical": physical,
        "actor": {"loss": out.actor_loss, "ardeur": out.actor_ardeur,
                  "knocked_out": "actor" in out.knocked_out},
        "opponent": {"loss": out.opponent_loss, "ardeur": out.opponent_ardeur,
                     "knocked_out": "opponent" in out.knocked_out},
        "rolls": rolls,
        **versus_json(rolls, lang),  # « 12 contre 7 », or the shooter's roll alone
        "explanation": texts[lang], "explanations": texts,
    }
    action = c["action"]
    if action is not None:  # in a fight: who each side is, the entry rolled, the fight after
        for side, index, skill in zip(("actor", "opponent"), action.indexes, action.skills,
                                      strict=True):
            answer[side].update(id=action.view.fighters[index].id, skill=skill)
        answer["fight"] = fight_json(fight_after(action, out))
    return answer


def parse_fight_op(req: Mapping[str, Any], lang: str) -> Checked:
    fight, joined = joining(req.get("fight"))
    return {"view": parse_fight(fight), "joined": joined, "shown": {}}


def run_fight(c: Checked) -> dict[str, Any]:
    answer = fight_json(c["view"])
    if c["joined"]:
        answer["joined"] = c["joined"]
    return answer


def fight_json(view: FightView) -> dict[str, Any]:
    """What the rules of document 004 say of a fight state (see docs/api.md, `fight`)."""
    nxt = view.next
    return {
        "round": view.round, "turn": view.turn, "current": view.current,
        "standing": list(view.standing), "over": view.over,
        "next": None if nxt is None else {"turn": nxt[0], "round": nxt[1]},
        "participants": {f.id: {"can_act": f.id in view.standing,
                                "skills": view.skills(f), "warning": view.warning(f.id)}
                         for f in view.fighters},
    }


OPS = {"combat": Op(parse_combat_op, run_combat), "fight": Op(parse_fight_op, run_fight)}
