"""Table-play rules: augmentation sources, step-dice combat, d6 efforts, luck."""

from __future__ import annotations

import pytest

from .helpers import call, err, ok


def sources(**params: object) -> dict:
    return ok({"op": "sources", "params": params})


def test_light_flame_aspect_gives_augmentations_dark_aspect_diminutions() -> None:
    res = sources(flame=3, aspect=2, dark_aspect=1)
    assert (res["augmentations"], res["diminutions"]) == (2, 1)
    assert [s["id"] for s in res["sources"]] == ["aspect", "dark_aspect"]
    assert "Flamme claire" in res["sources"][0]["explanation"]


def test_black_flame_swaps_the_aspects() -> None:
    res = sources(flame=-1, aspect=2, dark_aspect=3)
    assert (res["augmentations"], res["diminutions"]) == (3, 2)
    assert [s["id"] for s in res["sources"]] == ["dark_aspect", "aspect"]


def test_aspects_count_only_with_a_linked_characteristic() -> None:
    res = sources(flame=2, aspect=2, dark_aspect=2, linked=False)
    assert (res["augmentations"], res["diminutions"]) == (0, 0)


def test_specialty_rewards_plain_roll_and_eclat() -> None:
    res = sources(specialty=True, rewards=2, plain_roll=True, eclat_flame_dice=1,
                  eclat_augmentations=1)
    assert res["augmentations"] == 1 + 2 + 1
    assert res["diminutions"] == 1
    assert res["flame_dice"] == 1
    assert res["modifiers"] == "+1DF"
    by_id = {s["id"]: s for s in res["sources"]}
    assert by_id["specialty"]["augmentations"] == 1
    assert by_id["plain_roll"]["diminutions"] == 1
    assert by_id["eclat"]["explanations"]["en"] == [
        "Éclat present: 1 Flame die and 1 augmentation."]


def test_sources_feed_a_roll() -> None:
    res = sources(flame=2, aspect=1, specialty=True)
    roll = ok({"op": "roll", "system": "pool", "params": {
        "pot": 4, "flame": 2, "augmentations": res["augmentations"], "dice": [2, 2],
        "flame_dice": [3, 5]}})
    assert roll["successes"] == 3


def combat(kind: str, actor: dict, opponent: dict, **options: object) -> dict:
    return ok({"op": "combat", "params": {"kind": kind, **options}, "actor": actor,
               "opponent": opponent})


def test_melee_loser_loses_the_margin_whichever_side() -> None:
    res = combat("melee", {"die": 8, "bonus": 1, "ardeur": 10, "dice": [6]},
                 {"die": 6, "ardeur": 8, "dice": [3]})
    assert res["winner"] == "actor"
    assert (res["actor"]["ardeur"], res["opponent"]["ardeur"]) == (10, 4)
    res = combat("melee", {"die": 4, "ardeur": 5, "dice": [1]},
                 {"die": 6, "bonus": 2, "ardeur": 8, "dice": [5]})
    # D4 1 against D6 5 + 2: the gap is 6, the loser had 5 (docs/rules.md, « Ardeur sous 0 »).
    assert (res["actor"]["loss"], res["actor"]["ardeur"]) == (6, 0)
    assert res["actor"]["knocked_out"]
    assert not res["opponent"]["knocked_out"]


def test_ardeur_stops_at_zero_unless_the_table_keeps_the_debt() -> None:
    # Issue 22: « 6 → -1 ». By default a loss stops at 0 (the fighter is out with 0 points);
    # the option ardeur_floor: false keeps the debt (5 - 6 = -1).
    actor, opponent = {"die": 4, "ardeur": 5, "dice": [1]}, {"die": 6, "bonus": 2, "dice": [5]}
    floored = combat("melee", actor, opponent)
    debt = combat("melee", actor, opponent, ardeur_floor=False)
    assert (floored["actor"]["loss"], floored["actor"]["ardeur"]) == (6, 0)
    assert (debt["actor"]["loss"], debt["actor"]["ardeur"]) == (6, -1)
    assert floored["actor"]["knocked_out"] and debt["actor"]["knocked_out"]
    # A shot: 7 + 1 against threshold 4 is a margin of 4 on a target with 3 left.
    shot = {"die": 10, "threshold": 4, "bonus": 1, "dice": [7]}
    assert combat("ranged", shot, {"ardeur": 3})["opponent"]["ardeur"] == 0
    assert combat("ranged", shot, {"ardeur": 3}, ardeur_floor=False)["opponent"]["ardeur"] == -1
    # A value the GM already set below 0 is not raised by the floor: -2 stays -2 after a loss.
    assert combat("ranged", shot, {"ardeur": -2})["opponent"]["ardeur"] == -2


def test_melee_tie_costs_nothing() -> None:
    res = combat("melee", {"ardeur": 5, "dice": [4]}, {"ardeur": 5, "dice": [4]})
    assert res["winner"] == "tie"
    assert res["actor"]["loss"] == res["opponent"]["loss"] == 0


def test_ranged_hit_damage_is_the_margin_and_a_miss_does_nothing() -> None:
    res = combat("ranged", {"die": 10, "threshold": 4, "bonus": 1, "dice": [7]},
                 {"ardeur": 6})
    assert res["winner"] == "actor"
    assert res["opponent"]["loss"] == 4
    assert res["opponent"]["ardeur"] == 2
    assert len(res["rolls"]) == 1
    res = combat("ranged", {"die": 10, "threshold": 8, "dice": [3]}, {"ardeur": 6})
    assert res["opponent"]["loss"] == 0


def test_conceding_loser_loses_nothing_in_an_ordinary_conflict() -> None:
    res = combat("conflict", {"ardeur": 5, "dice": [1]}, {"ardeur": 5, "dice": [7]},
                 concede=True)
    assert res["winner"] == "opponent"
    assert res["actor"]["loss"] == 0
    res = combat("conflict", {"ardeur": 5, "dice": [1]}, {"ardeur": 5, "dice": [7]})
    assert res["actor"]["loss"] == 6


def test_skirmish_settles_the_fight_and_the_hero_is_never_wounded() -> None:
    won = combat("skirmish", {"ardeur": 4, "dice": [8]}, {"ardeur": 3, "dice": [1]})
    lost = combat("skirmish", {"ardeur": 4, "dice": [1]}, {"ardeur": 3, "dice": [8]})
    for res in (won, lost):
        assert res["actor"]["loss"] == 0
        assert res["actor"]["ardeur"] == 4
        assert res["opponent"]["knocked_out"]
    assert "rebondissement" in lost["explanation"][-1]


def test_combat_rolls_replay_from_the_seed() -> None:
    req = {"op": "combat", "params": {"kind": "melee"}, "actor": {}, "opponent": {},
           "seed": 77}
    assert ok(req) == ok(req)
    assert ok(req)["seed"] == 77


@pytest.mark.parametrize(
    ("request_", "field"),
    [({"params": {"kind": "duel"}}, "kind"),
     ({"actor": {"ardeur": 500}}, "actor.ardeur"),
     ({"opponent": {"die": 5}}, "opponent.die"),
     ({"actor": "x"}, "actor.params")],
)
def test_combat_errors_name_the_field(request_: dict, field: str) -> None:
    assert err({"op": "combat", **request_})["field"] == field


def test_efforts_per_day_follow_the_flame() -> None:
    state = ok({"op": "effort", "params": {"flame": 2, "used": 0, "action": "check"}})
    assert state == {"per_day": 2, "used": 0, "available": 2}
    state = ok({"op": "effort", "params": {"flame": 2, "used": 0}})
    assert state["available"] == 1
    state = ok({"op": "effort", "params": {"flame": 2, "used": 1}})
    assert state["available"] == 0
    e = err({"op": "effort", "params": {"flame": 2, "used": 2}})
    assert e["field"] == "effort"
    assert "nuit de repos" in e["message"]
    state = ok({"op": "effort", "params": {"flame": 2, "used": 2, "action": "rest"}})
    assert state["available"] == 2


def test_luck_is_the_mid_rank_percentile_of_the_margin() -> None:
    res = ok({"op": "luck", "system": "d100", "params": {"value": 50},
              "margins": [49, 0, -50]})
    # MR = 50 - d: 49 is the best roll (d = 1), -50 the worst (d = 100).
    assert res["exact"] == ["199/200", "101/200", "1/200"]
    assert err({"op": "luck", "system": "d100", "margins": "x"})["field"] == "margins"


# ------------------------------------------------------------------ the shared table's seats


def test_a_shared_table_seats_eight_players_the_engine_decides() -> None:
    """Issue 24: how many players a table seats is the engine's rule (op ``seat``); the GM's
    page asks before each invite and each join, and shows the refusal as it comes."""
    from pyrules.ops.common import MAX_PLAYERS

    assert MAX_PLAYERS == 8
    for taken in range(MAX_PLAYERS):
        assert ok({"op": "seat", "taken": taken}) == {"max": 8, "free": 7 - taken}
    for taken in (8, 9, 500):
        e = err({"op": "seat", "taken": taken})
        assert (e["code"], e["field"]) == ("table_full", "taken")
        assert "8 joueurs au plus" in e["message"]
        assert call({"op": "validate", "request": {"op": "seat", "taken": taken}}) == call(
            {"op": "seat", "taken": taken})
    assert "8 players at most" in err({"op": "seat", "taken": 8, "lang": "en"})["message"]
    for bad in (-1, 1.5, "3", True, None, 10_001):
        e = err({"op": "seat", "taken": bad})
        assert (e["code"], e["field"]) == ("invalid_param", "taken"), bad
    # The invite's tap is one call: the seat and the QR code of its link.
    link = "https://example.org/pyrules/#table=1.abc"
    given = ok({"op": "seat", "taken": 2, "text": link})
    assert given["free"] == 5 and given["qr"] == ok({"op": "qr", "text": link})
    # A full table gets no QR code.
    assert err({"op": "seat", "taken": 8, "text": link})["code"] == "table_full"
    assert err({"op": "seat", "taken": 1, "text": ""})["field"] == "text"
