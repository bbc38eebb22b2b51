"""d100 margin of success (document 002) and step dice (document 004)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pyrules.registry import SYSTEMS
from pyrules.systems.d100 import LEVEL_VALUE

from .helpers import err, ok, rule


def d100(face: int, **params: object) -> dict:
    return rule("d100", dice=[face], **params)


def steps(dice: list[int], **params: object) -> dict:
    return rule("steps", dice=dice, **params)


# -- d100 --------------------------------------------------------------------------------


def test_bob_the_master_archer_in_a_storm() -> None:
    r = d100(42, level="master", modifier=-15)
    assert r["margin"] == 18
    assert r["outcome"] == "simple_success"
    assert r["value"] == 75


@pytest.mark.parametrize(
    ("margin", "outcome"),
    [(99, "exceptional_success"), (66, "exceptional_success"), (65, "remarkable_success"),
     (41, "remarkable_success"), (40, "notable_success"), (21, "notable_success"),
     (20, "simple_success"), (1, "simple_success"), (0, "narrow_success"),
     (-1, "poor_success"), (-20, "poor_success"), (-21, "simple_failure"),
     (-40, "simple_failure"), (-41, "bitter_failure"), (-65, "bitter_failure"),
     (-66, "critical_failure"), (-99, "critical_failure")],
)
def test_nine_tiers_by_margin(margin: int, outcome: str) -> None:
    r = d100(50, value=50, modifier=margin)
    assert r["margin"] == margin
    assert r["outcome"] == outcome


def test_poor_success_still_counts_as_a_success() -> None:
    assert d100(60, value=45)["success"]
    assert not d100(70, value=45)["success"]
    outcomes = {o["id"]: o["success"] for o in
                next(s for s in ok({"op": "systems"})["systems"] if s["id"] == "d100")
                ["outcomes"]}
    assert [k for k, v in outcomes.items() if v] == [
        "exceptional_success", "remarkable_success", "notable_success", "simple_success",
        "narrow_success", "poor_success"]


def test_levels_and_bound_spirit_powers() -> None:
    assert LEVEL_VALUE == {
        "mediocre": 15, "very_weak": 25, "weak": 35, "average": 45, "good": 55,
        "very_good": 65, "master": 75, "grand_master": 85, "exceptional": 95,
        "bond_1": 45, "bond_2": 75, "bond_3": 95}
    for level, value in LEVEL_VALUE.items():
        assert d100(10, level=level, value=3)["margin"] == value - 10


def test_d100_odds_are_exact() -> None:
    res = ok({"op": "odds", "system": "d100", "params": {"value": 45}})
    # MR = 45 - d: d in 1..100. Simple success d in 25..44 (20 faces), narrow d = 45.
    assert res["exact"]["simple_success"] == "1/5"
    assert res["exact"]["narrow_success"] == "1/100"
    assert res["exact"]["poor_success"] == "1/5"
    assert res["exact"]["critical_failure"] == "0"
    assert sum(Fraction(v) for v in res["exact"].values()) == 1


def test_d100_face_must_be_one_to_hundred() -> None:
    # (0 reads as 100, as percentile dice show it: docs/rules.md, « Dés physiques »)
    e = err({"op": "roll", "system": "d100", "params": {"dice": [-1]}})
    assert e["field"] == "dice"
    e = err({"op": "roll", "system": "d100", "params": {"dice": [101]}})
    assert e["field"] == "dice"


# -- steps -------------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "success"), [(4, False), (5, True), (8, True)])
def test_action_roll_equals_or_beats_the_threshold(face: int, success: bool) -> None:
    r = steps([face], die=8, threshold=5)
    assert r["success"] is success
    assert r["margin"] == face - 5


def test_bonus_is_added_to_the_die() -> None:
    r = steps([3], die=6, threshold=5, bonus=2)
    assert r["total"] == 5
    assert r["success"]
    assert r["damage"] == 0
    r = steps([6], die=6, threshold=2, bonus=1)
    assert r["damage"] == 5  # a ranged hit's damage is the margin


@pytest.mark.parametrize("die", [4, 6, 8, 10, 12])
def test_extreme_dice(die: int) -> None:
    assert steps([die], die=die, threshold=3)["extreme"] == "high"
    assert steps([1], die=die, threshold=3)["extreme"] == "low"
    assert steps([2], die=die, threshold=3)["extreme"] is None


def test_step_reading_of_advantage_and_handicap() -> None:
    plan = ok({"op": "dice", "system": "steps", "params": {"die": 8, "edge": "advantage"}})
    assert plan["groups"] == [{"field": "dice", "sides": 10, "count": 1, "kind": "normal"}]
    plan = ok({"op": "dice", "system": "steps", "params": {"die": 8, "edge": "handicap"}})
    assert plan["groups"][0]["sides"] == 6
    plan = ok({"op": "dice", "system": "steps", "params": {"die": 12, "edge": "advantage"}})
    assert plan["groups"][0]["sides"] == 12
    plan = ok({"op": "dice", "system": "steps", "params": {"die": 4, "edge": "handicap"}})
    assert plan["groups"][0]["sides"] == 4
    r = steps([10], die=8, edge="advantage", threshold=9)
    assert r["die_rolled"] == 10
    assert r["extreme"] == "high"


def test_keep_reading_of_advantage_and_handicap() -> None:
    r = steps([2, 7], die=8, edge="advantage", edge_rule="keep", threshold=5)
    assert r["total"] == 7
    assert [d["tags"] for d in r["dice"]] == [["dropped"], ["kept"]]
    r = steps([2, 7], die=8, edge="handicap", edge_rule="keep", threshold=5)
    assert r["total"] == 2
    assert not r["success"]


def test_face_beyond_the_die_is_refused() -> None:
    e = err({"op": "roll", "system": "steps", "params": {"die": 6, "dice": [7]}})
    assert e["field"] == "dice"


def test_conflict_higher_total_wins_and_the_gap_is_the_ardeur_loss() -> None:
    res = ok({"op": "oppose", "system": "steps",
              "actor": {"die": 8, "bonus": 2, "dice": [5]},
              "opponent": {"die": 10, "bonus": 1, "dice": [3]}})
    assert res["winner"] == "actor"
    assert res["margin"] == 3
    assert res["ardeur_loss"] == 3
    assert res["loser"] == "opponent"
    # The loser loses the margin whichever side it is.
    res = ok({"op": "oppose", "system": "steps",
              "actor": {"die": 4, "dice": [1]}, "opponent": {"die": 6, "bonus": 2,
                                                              "dice": [6]}})
    assert (res["winner"], res["loser"], res["ardeur_loss"]) == ("opponent", "actor", 7)


def test_conflict_ignores_thresholds_and_ties_have_no_winner() -> None:
    res = ok({"op": "oppose", "system": "steps",
              "actor": {"die": 8, "threshold": 12, "dice": [4]},
              "opponent": {"die": 8, "threshold": 1, "bonus": 0, "dice": [4]}})
    assert res["winner"] == "tie"
    assert res["margin"] == 0
    assert res["loser"] is None


def test_steps_odds_by_enumeration() -> None:
    res = ok({"op": "odds", "system": "steps", "params": {"die": 8, "threshold": 5}})
    assert res["exact"] == {"success": "1/2", "failure": "1/2"}
    res = ok({"op": "odds", "system": "steps",
              "params": {"die": 6, "threshold": 5, "edge": "advantage", "edge_rule": "keep"}})
    assert res["exact"]["success"] == "5/9"  # 1 - (4/6)^2


def test_every_system_has_the_same_shape() -> None:
    for system in SYSTEMS.values():
        assert {o.id for o in system.outcomes} == set(system.outcome_ids())
        assert system.face_fields
