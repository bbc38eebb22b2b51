"""Attribute + skill + d6 against a difficulty (document 001)."""

from __future__ import annotations

import pytest

from .helpers import ok, rule

TESS = {"attribute": 3, "skill": 3, "difficulty": 9, "elementary": True}


def roll(dice: list[int], **params: object) -> dict:
    return rule("d6", dice=dice, **params)


def test_total_is_attribute_plus_skill_plus_die() -> None:
    r = roll([4], attribute=3, skill=2, difficulty=9)
    assert r["total"] == 9
    assert r["margin"] == 0
    assert r["outcome"] == "success"


def test_tess_misses_with_a_two() -> None:
    # Précision 3 (Flamme) + roublardise 3 + 2 = 8 against 9: the knife hits handle first.
    r = roll([2], **TESS, flame=3)
    assert r["total"] == 8
    assert not r["success"]


def test_tess_exceptional_effort_one_and_two_makes_exactly_nine() -> None:
    r = roll([1, 2], **TESS, flame=3, effort=True)
    assert r["total"] == 9
    assert r["success"]
    assert r["outcome"] == "success"
    assert len(r["dice"]) == 2


def test_effort_rolls_a_second_die() -> None:
    plan = ok({"op": "dice", "system": "d6", "params": {"effort": True}})
    assert plan["groups"] == [{"field": "dice", "sides": 6, "count": 2, "kind": "normal"}]
    plan = ok({"op": "dice", "system": "d6", "params": {}})
    assert plan["groups"][0]["count"] == 1


def test_efforts_per_day_follow_the_flame_in_the_description() -> None:
    systems = ok({"op": "systems"})["systems"]
    d6 = next(s for s in systems if s["id"] == "d6")
    assert d6["sheet"]["efforts_per_day"]["field"] == "flame"


def test_efforts_on_the_sheet_name_real_fields() -> None:
    """The page draws the efforts box from this description alone (no copy of it in JS):
    the per-day number and the spending param are the system's fields, the count of used
    ones is the `effort` op's `used` field."""
    described = ok({"op": "systems"})
    d6 = next(s for s in described["systems"] if s["id"] == "d6")
    efforts = d6["sheet"]["efforts_per_day"]
    fields = {f["name"]: f for f in d6["fields"]}
    assert fields[efforts["field"]]["type"] == "int"
    assert fields[efforts["param"]]["type"] == "bool"
    assert efforts["used"] == "efforts_used"
    effort_fields = {f["name"] for f in described["play"]["effort"]["fields"]}
    assert {"flame", "used"} <= effort_fields


def test_dougane_taking_his_time_succeeds_after_missing_by_two() -> None:
    r = roll([1], attribute=2, skill=2, difficulty=7, clarity=2, take_time=True)
    assert r["margin"] == -2
    assert r["outcome"] == "success"
    assert r["success"]
    r = roll([1], attribute=2, skill=2, difficulty=7, clarity=2, take_time=False)
    assert r["outcome"] == "failure"


def test_taking_time_does_not_save_a_miss_beyond_the_clarity() -> None:
    r = roll([1], attribute=2, skill=2, difficulty=8, clarity=2, take_time=True)
    assert r["outcome"] == "grave_failure"


def test_doti_impact_of_one() -> None:
    r = roll([6], attribute=1, skill=0, difficulty=5, flame=2, impact=1)
    assert r["outcome"] == "success"
    assert r["impact"] == 1


@pytest.mark.parametrize(
    ("miss", "outcome"),
    [(1, "failure"), (3, "failure"), (4, "grave_failure"), (6, "grave_failure"),
     (7, "disastrous_failure")],
)
def test_failure_tiers_with_clarity_three(miss: int, outcome: str) -> None:
    r = roll([1], attribute=0, skill=0, difficulty=1 + miss, clarity=3)
    assert r["margin"] == -miss
    assert r["outcome"] == outcome


def test_brute_misses_by_five_with_clarity_two_is_disastrous() -> None:
    r = roll([1], attribute=0, skill=0, difficulty=6, clarity=2)
    assert r["outcome"] == "disastrous_failure"


@pytest.mark.parametrize(
    ("margin", "outcome", "factor"),
    [(0, "success", 1), (5, "success", 1), (6, "superior_success", 2),
     (10, "superior_success", 2), (11, "excellent_success", 3)],
)
def test_success_tiers_with_flame_three(margin: int, outcome: str, factor: int) -> None:
    # threshold 8 - 3 = 5: superior above 5, excellent above 10.
    r = roll([1], attribute=10, skill=5, difficulty=16 - margin, flame=3, impact=2)
    assert r["margin"] == margin
    assert r["outcome"] == outcome
    assert r["impact"] == 2 * factor
    assert r["threshold"] == 5


def test_elementary_skill_gives_only_simple_successes() -> None:
    r = roll([6], attribute=10, skill=2, difficulty=1, flame=3, elementary=True, impact=2)
    assert r["outcome"] == "success"
    assert r["impact"] == 2
    r = roll([6], attribute=10, skill=2, difficulty=1, flame=3, elementary=True,
             instinct=True, impact=2)
    assert r["outcome"] == "excellent_success"
    assert r["impact"] == 6


def test_impact_is_zero_on_a_failure_and_null_without_impact() -> None:
    assert roll([1], attribute=0, skill=0, difficulty=9, impact=3)["impact"] == 0
    assert roll([6])["impact"] is None


def test_darate_beats_his_opponent_by_five_for_a_superior_success() -> None:
    # Threshold 4 (Flamme 4), elementary skill violence with the instinct gift, effort.
    res = ok({"op": "oppose", "system": "d6",
              "actor": {"attribute": 4, "skill": 3, "flame": 4, "effort": True,
                        "elementary": True, "instinct": True, "impact": 3, "dice": [4, 3]},
              "opponent": {"attribute": 3, "skill": 2, "pc": False, "dice": [4]}})
    assert res["winner"] == "actor"
    assert res["margin"] == 5
    assert res["winner_outcome"] == "superior_success"
    assert res["winner_impact"] == 6
    assert res["actor"]["outcome"] == "superior_success"


def test_doti_wins_a_tie_against_the_npc() -> None:
    res = ok({"op": "oppose", "system": "d6",
              "actor": {"attribute": 3, "skill": 2, "pc": True, "dice": [3]},
              "opponent": {"attribute": 2, "skill": 3, "pc": False, "dice": [3]}})
    assert res["winner"] == "actor"
    assert res["margin"] == 0
    assert res["opponent"]["outcome"] == "failure"
    res = ok({"op": "oppose", "system": "d6",
              "actor": {"pc": False, "dice": [3]}, "opponent": {"pc": True, "dice": [3]}})
    assert res["winner"] == "opponent"


def test_other_ties_with_physical_dice_stay_ties() -> None:
    res = ok({"op": "oppose", "system": "d6",
              "actor": {"pc": True, "dice": [3]}, "opponent": {"pc": True, "dice": [3]}})
    assert res["winner"] == "tie"
    assert res["rerolls"] == []


def test_other_ties_are_rerolled_and_recorded() -> None:
    found = 0
    for seed in range(300):
        res = ok({"op": "oppose", "system": "d6", "seed": seed,
                  "actor": {"pc": False}, "opponent": {"pc": False}})
        assert res["winner"] in ("actor", "opponent")
        for pair in res["rerolls"]:
            assert pair["actor"]["total"] == pair["opponent"]["total"]
        if res["rerolls"]:
            found += 1
            assert res["actor"]["total"] != res["opponent"]["total"]
    assert found > 0  # with equal sides about one roll in six starts with a tie


def test_loser_of_an_opposition_gets_failure_tiers_from_the_gap() -> None:
    res = ok({"op": "oppose", "system": "d6",
              "actor": {"attribute": 5, "skill": 5, "dice": [6]},
              "opponent": {"attribute": 0, "skill": 0, "clarity": 2, "pc": False,
                           "dice": [1]}})
    assert res["margin"] == 15
    assert res["opponent"]["outcome"] == "disastrous_failure"
