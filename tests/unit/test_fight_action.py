"""A combat action inside a fight (issue 21: one tap is one engine call): the `combat` op
given the fight state and the sides' ids picks each side's entry and Ardeur from the state,
rolls exactly what the plain `combat` request of those params rolls, and answers the fight
after it (losses applied, who is out, whose turn, warnings) as the `fight` op would judge it."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import err, ok

TIR = {"label": "Tir à l'arc", "params": {"die": 8, "threshold": 4}}
COMBAT = {"label": "Combat", "params": {"die": 10, "bonus": 1}}
BAGARRE = {"label": "Bagarre", "params": {"die": 6}}


def state(acted: Any = (), turn: int = 0) -> dict[str, Any]:
    return {"round": 2, "turn": turn, "acted": list(acted), "participants": [
        {"id": "a", "ardeur": 10, "skills": [TIR, COMBAT]},
        {"id": "b", "ardeur": 3, "skills": [BAGARRE, "Danse"]},
        {"id": "c", "ardeur": 4, "unarmed": True, "skills": [COMBAT, BAGARRE]},
        {"id": "z", "ardeur": 0, "skills": [COMBAT]}]}


def action(kind: str = "melee", actor: Any = None, opponent: Any = None,
           **extra: Any) -> dict[str, Any]:
    return {"op": "combat", "params": {"kind": kind}, "fight": state(),
            "actor": actor or {"id": "a"}, "opponent": opponent or {"id": "b"}, **extra}


def plain(kind: str, actor: dict[str, Any], opponent: dict[str, Any], seed: int) -> dict:
    return ok({"op": "combat", "params": {"kind": kind}, "actor": actor,
               "opponent": opponent, "seed": seed})


@pytest.mark.parametrize("seed", [0, 7, 12345])
def test_a_seeded_action_in_a_fight_replays_the_plain_combat_exactly(seed: int) -> None:
    res = ok(action(seed=seed))
    assert res == ok(action(seed=seed))  # the same request, the same answer
    # The entries the rules name (melee: Combat; the target's first entry) and the state's
    # Ardeur: the very roll of the plain request of those params.
    same = plain("melee", {**COMBAT["params"], "ardeur": 10},
                 {**BAGARRE["params"], "ardeur": 3}, seed)
    assert res["rolls"] == same["rolls"]
    assert (res["winner"], res["margin"], res["explanations"]) == \
        (same["winner"], same["margin"], same["explanations"])
    assert (res["actor"]["id"], res["actor"]["skill"]) == ("a", 1)
    assert (res["opponent"]["id"], res["opponent"]["skill"]) == ("b", 0)
    for side in ("actor", "opponent"):
        assert {k: res[side][k] for k in ("loss", "ardeur", "knocked_out")} == same[side]


def test_the_answer_judges_the_fight_after_the_action() -> None:
    # Seeds until the actor wins by at least the target's 3 Ardeur, and one where it loses.
    answers = [ok(action(seed=s)) for s in range(40)]
    out = next(r for r in answers if r["opponent"]["knocked_out"])
    after = {**state(acted=["a"]), "participants": [
        {**p, "ardeur": out["opponent"]["ardeur"] if p["id"] == "b" else p["ardeur"]}
        for p in state()["participants"]]}
    assert out["fight"] == ok({"op": "fight", "fight": after})
    assert out["fight"]["participants"]["b"]["can_act"] is False
    assert out["fight"]["standing"] == ["a", "c"]
    assert out["fight"]["participants"]["a"]["warning"] == "acted"
    hurt = next(r for r in answers if r["actor"]["loss"] > 0)
    assert hurt["fight"]["participants"]["a"]["can_act"] is True  # 10 Ardeur: still up


def test_a_chosen_entry_is_rolled_and_a_shot_rolls_the_shooter_alone() -> None:
    res = ok(action(actor={"id": "a", "skill": 0}, seed=3))
    assert res["actor"]["skill"] == 0
    assert res["rolls"][0]["params"]["die"] == 8
    shot = ok(action("ranged", seed=3))
    assert len(shot["rolls"]) == 1
    assert (shot["actor"]["skill"], shot["opponent"]["skill"]) == (0, None)
    assert shot["rolls"] == plain("ranged", {**TIR["params"], "ardeur": 10}, {}, 3)["rolls"]
    # Bare hands: the rules' Bagarre for a melee; a knocked-out target may still be hit.
    unarmed = ok(action(actor={"id": "c"}, opponent={"id": "z"}, seed=3))
    assert unarmed["actor"]["skill"] == 1


def test_physical_dice_go_with_the_sides_ids() -> None:
    res = ok(action(actor={"id": "a", "dice": [9]}, opponent={"id": "b", "dice": [1]}))
    assert (res["physical"], res["seed"], res["winner"]) == (True, None, "actor")
    assert res["fight"]["participants"]["b"]["can_act"] is False  # 9+1 against 1: out


@pytest.mark.parametrize(("change", "field", "code"), [
    ({"actor": {"id": "x"}}, "actor.id", "invalid_param"),
    ({"opponent": {"id": "a"}}, "opponent.id", "invalid_param"),
    ({"actor": {"id": "z"}}, "actor.id", "invalid_param"),  # out of the fight: cannot act
    ({"actor": {"id": "a", "skill": 2}}, "actor.skill", "invalid_param"),
    ({"actor": {"id": "a", "skill": True}}, "actor.skill", "invalid_param"),
    ({"opponent": {"id": "b", "ardeur": 3}}, "opponent.ardeur", "invalid_param"),
    ({"actor": "a"}, "actor", "invalid_param"),
    ({"fight": {"participants": "x"}}, "fight.participants", "invalid_param"),
    ({"fight": {"participants": [{"id": "a", "ardeur": 1, "skills": [{"label": "C",
                                                                      "params": 3}]}]}},
     "fight.participants.0.skills.0.params", "invalid_param"),
    ({"actor": {"id": "a", "dice": [9]}, "seed": 4}, "actor.dice", "faces_in_sheet"),
    ({"actor": {"id": "a", "dice": [9]}}, "actor.dice", "faces_in_sheet"),  # one side typed
    ({"actor": {"id": "a", "dice": [11]}, "opponent": {"id": "b", "dice": [1]}},
     "actor.dice", "invalid_param"),
])
def test_a_bad_action_names_its_field(change: dict[str, Any], field: str, code: str) -> None:
    req = {**action(), **change}
    got = err(req)
    assert (got["field"], got["code"]) == (field, code), got
    assert err({"op": "validate", "request": req}) == got  # validate refuses it alike


def test_a_skill_out_of_bounds_is_named_on_its_side() -> None:
    fight = state()
    fight["participants"][0]["skills"][1] = {"label": "Combat", "params": {"bonus": 900}}
    assert err({**action(), "fight": fight})["field"] == "actor.bonus"
    fight["participants"][0]["skills"][1] = {"label": "Combat", "params": {"dice": [3]}}
    got = err({**action(), "fight": fight, "seed": 1})
    assert (got["code"], got["field"]) == \
        ("faces_in_sheet", "fight.participants.0.skills.1.params.dice")


def test_a_shot_target_rolls_nothing() -> None:
    got = err(action("ranged", opponent={"id": "b", "skill": 0}))
    assert got["field"] == "opponent.skill"


def test_a_quick_participant_joins_in_one_call() -> None:
    """`{"id", "quick": numbers}` in a fight state: the engine checks the numbers as a
    combat side's, makes one unnamed skill with their params, and judges the fight."""
    quick = {"ardeur": 6, "die": 6, "threshold": 5, "bonus": 1}
    res = ok({"op": "fight", "fight": {**state(), "participants": [
        *state()["participants"], {"id": "n", "quick": quick}]}})
    made = res["joined"]["n"]
    plain = ok({"op": "validate", "request": {"op": "roll", "system": "steps",
                                              "params": {"die": 6, "threshold": 5,
                                                         "bonus": 1}}})["params"]
    assert made == {"ardeur": 6, "skills": [{"label": "", "params": plain}]}
    assert res["participants"]["n"]["can_act"] is True
    assert ok({"op": "fight", "fight": {"participants": [
        {"id": "n", "quick": {}}]}})["joined"]["n"]["ardeur"] == 10  # the default


@pytest.mark.parametrize(("quick", "field"), [
    ({"ardeur": 100}, "fight.participants.0.quick.ardeur"),
    ({"bonus": 99}, "fight.participants.0.quick.bonus"),
    ({"die": 5}, "fight.participants.0.quick.die"),
    ({"dice": [3]}, "fight.participants.0.quick.dice"),
    ("x", "fight.participants.0.quick"),
])
def test_a_bad_quick_participant_names_its_field(quick: Any, field: str) -> None:
    request = {"op": "fight", "fight": {"participants": [{"id": "n", "quick": quick}]}}
    assert err(request)["field"] == field
    assert err({"op": "validate", "request": request})["field"] == field
    extra = {"op": "fight", "fight": {"participants": [{"id": "n", "quick": {}, "pc": 1}]}}
    assert err(extra)["field"] == "fight.participants.0.pc"


def test_in_a_fight_a_loss_stops_at_0_unless_the_debt_is_asked_for() -> None:
    # b has 3 Ardeur: a seed where a wins by more than 3 takes it to 0 by default, and with
    # ardeur_floor false below 0 (the debt), in the answer and in the fight judged after it.
    seeds = [s for s in range(80) if ok(action(seed=s))["margin"] > 3
             and ok(action(seed=s))["winner"] == "actor"]
    assert seeds, "no seed where the actor wins by more than 3"
    floor = ok(action(seed=seeds[0]))
    debt = ok({**action(seed=seeds[0]), "params": {"kind": "melee", "ardeur_floor": False}})
    assert floor["opponent"]["ardeur"] == 0
    assert debt["opponent"]["ardeur"] == 3 - debt["opponent"]["loss"] < 0
    assert floor["fight"]["participants"]["b"]["can_act"] is False
    assert debt["fight"]["participants"]["b"]["can_act"] is False
    assert floor["rolls"] == debt["rolls"]
