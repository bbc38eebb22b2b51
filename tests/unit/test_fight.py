"""The fight of document 004 as the engine judges it: who can still act, whose turn comes
next, which entry of a participant fights for each kind of action (rule tests through the
Python API), and the `fight` op's answer (JSON keys)."""

from __future__ import annotations

from typing import Any

import pytest

from pyrules.fields import ParamError
from pyrules.systems.steps.play import COMBAT_KINDS, can_act, parse_fight, skill_for

from .helpers import err, ok


def fighter(ident: str, ardeur: int, *skills: str, unarmed: bool = False) -> dict[str, Any]:
    return {"id": ident, "ardeur": ardeur, "skills": list(skills), "unarmed": unarmed}


def fight(*people: dict[str, Any], turn: int = 0, round_: int = 1, acted: Any = ()) -> Any:
    return parse_fight({"round": round_, "turn": turn, "participants": list(people),
                        "acted": list(acted)})


def test_only_a_participant_above_zero_ardeur_can_act() -> None:
    assert [can_act(n) for n in (-3, 0, 1)] == [False, False, True]
    view = fight(fighter("a", 0), fighter("b", 1), fighter("c", -2))
    assert view.standing == ("b",)
    assert view.over


def test_next_turn_skips_the_fallen_and_starts_a_new_round_after_the_last() -> None:
    view = fight(fighter("a", 4), fighter("b", 0), fighter("c", 2), turn=0)
    assert view.next == (2, 1)
    assert fight(fighter("a", 4), fighter("b", 0), fighter("c", 2), turn=2).next == (0, 2)


def test_nobody_standing_means_no_next_turn_and_no_current() -> None:
    view = fight(fighter("a", 0), fighter("b", -1))
    assert view.next is None
    assert view.current is None


def test_the_turn_of_a_fallen_participant_belongs_to_nobody() -> None:
    view = fight(fighter("a", 0), fighter("b", 3), fighter("c", 3), turn=0)
    assert view.current is None
    assert view.warning("b") is None
    assert not view.over


def test_acting_out_of_turn_or_twice_in_a_round_is_warned() -> None:
    view = fight(fighter("a", 3), fighter("b", 3), turn=0, acted=["a"])
    assert view.warning("a") == "acted"
    assert view.warning("b") == "not_turn"


def test_melee_uses_combat_bare_hands_bagarre_a_shot_tir() -> None:
    labels = ("Tir à l'arc", "Bagarre", "Épée longue")
    assert skill_for(labels, "melee") == 2
    assert skill_for(labels, "melee", unarmed=True) == 1
    assert skill_for(labels, "ranged") == 0
    assert skill_for(labels, "conflict") == 2
    assert skill_for(labels, "skirmish", unarmed=True) == 2


def test_without_a_matching_entry_the_first_one_fights() -> None:
    assert skill_for(("Cuisine", "Danse"), "ranged") == 0
    assert skill_for(("Cuisine", "Combat"), "melee", unarmed=True) == 1


def test_a_turn_past_the_end_starts_the_order_again() -> None:
    assert fight(fighter("a", 2), fighter("b", 2), turn=7).turn == 0


@pytest.mark.parametrize(("state", "field"), [
    ("x", "fight"),
    ({"participants": "x"}, "fight.participants"),
    ({"participants": [fighter("a", 1), fighter("a", 1)]}, "fight.participants.1.id"),
    ({"participants": [{"id": "a", "ardeur": "5"}]}, "fight.participants.0.ardeur"),
    ({"participants": [{"id": "a", "ardeur": 5, "skills": [3]}]}, "fight.participants.0.skills.0"),
    ({"participants": [{"id": "a", "ardeur": 5, "skills": "x"}]}, "fight.participants.0.skills"),
    ({"participants": [], "turn": -1}, "fight.turn"),
    ({"participants": [], "acted": [1]}, "fight.acted"),
    ({"participants": [], "winner": "a"}, "fight.winner"),
])
def test_a_bad_fight_state_names_its_field(state: Any, field: str) -> None:
    with pytest.raises(ParamError) as caught:
        parse_fight(state)
    assert caught.value.field == field
    assert err({"op": "fight", "fight": state})["field"] == field


def test_the_fight_op_answers_the_engine_view() -> None:
    res = ok({"op": "fight", "fight": {
        "round": 2, "turn": 1,
        "participants": [fighter("a", 5, "Tir", "Combat"), fighter("b", 0, "Bagarre"),
                         fighter("c", 1, "Bagarre", "Combat", unarmed=True)],
        "acted": ["c"]}})
    assert set(res) == {"round", "turn", "current", "standing", "over", "next", "participants"}
    assert (res["round"], res["turn"], res["current"], res["over"]) == (2, 1, None, False)
    assert res["standing"] == ["a", "c"]
    assert res["next"] == {"turn": 2, "round": 2}
    a, b, c = (res["participants"][k] for k in "abc")
    assert set(a) == {"can_act", "skills", "warning"}
    assert set(a["skills"]) == set(COMBAT_KINDS)
    assert (a["skills"]["ranged"], a["skills"]["melee"], c["skills"]["melee"]) == (0, 1, 0)
    assert (a["can_act"], b["can_act"]) == (True, False)
    assert (a["warning"], c["warning"]) == (None, "acted")


def test_the_fight_op_answers_null_next_when_nobody_stands() -> None:
    res = ok({"op": "fight", "fight": {"participants": [fighter("a", 0)]}})
    assert (res["next"], res["over"], res["standing"]) == (None, True, [])


def test_the_description_lists_the_combat_kinds() -> None:
    table = ok({"op": "systems"})["play"]["combat"]
    assert table["kinds"] == list(COMBAT_KINDS)
    kind = next(f for f in table["fields"] if f["name"] == "kind")
    assert [c["value"] for c in kind["choices"]] == table["kinds"]


def test_validate_checks_a_fight_state_as_the_fight_op() -> None:
    state = {"participants": [fighter("a", 1), fighter("a", 2)]}
    assert err({"op": "validate", "request": {"op": "fight", "fight": state}}) == \
        err({"op": "fight", "fight": state})
    good = {"op": "validate", "request": {"op": "fight", "fight": {"participants": []}}}
    assert ok(good) == {"valid": True, "op": "fight"}
