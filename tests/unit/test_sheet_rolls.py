"""Issue 21: `{"sheet": {"character", "entry", "situation"}}` in place of params stands for
the params the engine builds from the sheet (the page's former rollParams, kept exactly)."""

from __future__ import annotations

from typing import Any

import pytest

from pyrules.registry import SYSTEMS

from .helpers import call, err, ok
from .test_characters import FULL, character

IGNORED = ("seed", "explanation", "explanations")


def sheet(system: str, entry: int | None = 0, situation: dict[str, Any] | None = None,
          **more: Any) -> dict[str, Any]:
    c = ok({"op": "character", "character": character(system, **{**FULL[system], **more})})
    out: dict[str, Any] = {"character": c["character"]}
    if entry is not None:
        out["entry"] = c["character"]["entries"][entry]["id"]
    if situation is not None:
        out["situation"] = situation
    return {"sheet": out}


@pytest.mark.parametrize("system", sorted(FULL))
@pytest.mark.parametrize("seed", [0, 12, 999])
def test_a_sheet_roll_is_the_roll_of_its_built_params(system: str, seed: int) -> None:
    from_sheet = ok({"op": "roll", "system": system, "params": sheet(system), "seed": seed})
    plain = ok({"op": "roll", "system": system, "params": from_sheet["params"], "seed": seed})
    assert from_sheet == plain
    for op in ("odds", "dice"):
        assert ok({"op": op, "system": system, "params": sheet(system)}) == ok(
            {"op": op, "system": system, "params": from_sheet["params"]})


def built(system: str, situation: dict[str, Any] | None = None, entry: int | None = 0,
          **more: Any) -> dict[str, Any]:
    answer = ok({"op": "validate", "request": {
        "op": "roll", "system": system, "params": sheet(system, entry, situation, **more)}})
    params: dict[str, Any] = answer["params"]
    return params


def test_steps_sheet_numbers_and_situation() -> None:
    p = built("steps")  # entry "Combat": die 10, threshold 6, keep; accessories 2
    assert (p["die"], p["threshold"], p["bonus"], p["edge_rule"]) == (10, 6, 2, "keep")
    assert p["weapons"] == [2, 1] and p["protections"] == [1, 3]
    p = built("steps", {"threshold": 9, "edge": "advantage", "bonus": 3}, entry=1)
    assert (p["die"], p["threshold"], p["edge"], p["bonus"]) == (6, 9, "advantage", 1 + 2 + 3)
    p = built("steps", {"threshold": "", "bonus": 0})  # blank keeps the skill's value
    assert (p["threshold"], p["bonus"]) == (6, 2)
    # an empty list stat sets nothing: the entry's own weapons stay
    p = built("steps", stats={"weapons": ""}, entries=[
        {"label": "a", "params": {"weapons": [4]}}])
    assert p["weapons"] == [4]


def test_pool_sheet_numbers_and_situation() -> None:
    p = built("pool")
    assert (p["pot"], p["diff"], p["flame"], p["modifiers"]) == (7, 5, -2, "+1D")
    p = built("pool", {"diff": 2, "augmentations": 2, "diminutions": 1, "modifiers": "1DF"})
    assert (p["diff"], p["augmentations"], p["diminutions"]) == (2, 2, 1)
    assert p["modifiers"] == "+1D+1DF"
    assert built("pool", {"modifiers": "-1D"})["modifiers"] == "+1D-1D"


def test_d6_sheet_numbers_pc_and_situation() -> None:
    p = built("d6")
    assert (p["attribute"], p["skill"], p["flame"], p["clarity"], p["pc"]) == (4, 3, 3, 4, False)
    p = built("d6", {"difficulty": 12, "take_time": True})
    assert (p["difficulty"], p["take_time"], p["effort"]) == (12, True, False)
    assert built("d6", {"take_time": False})["take_time"] is False


def test_d100_situation_adds_a_modifier() -> None:
    assert built("d100", {"modifier": 10})["modifier"] == 5
    default = next(f.default for f in SYSTEMS["d100"].fields if f.name == "value")
    assert built("d100", entry=None)["value"] == default  # no entry: the sheet alone


def test_an_effort_is_spent_and_the_answer_carries_the_character() -> None:
    params = sheet("d6", situation={"effort": True}, stats={"flame": 2, "efforts_used": 0})
    first = ok({"op": "roll", "system": "d6", "params": params, "seed": 4})
    assert first["params"]["effort"] is True and len(first["dice"]) == 2
    assert first["character"]["stats"]["efforts_used"] == 1
    again = {"sheet": {**params["sheet"], "character": first["character"]}}
    second = ok({"op": "roll", "system": "d6", "params": again, "seed": 4})
    assert second["character"]["stats"]["efforts_used"] == 2
    spent = {"sheet": {**params["sheet"], "character": second["character"]}}
    for lang, word in (("fr", "effort"), ("en", "effort")):
        request = {"op": "roll", "system": "d6", "params": spent, "lang": lang}
        e = err(request)
        assert e["field"] == "situation.effort" and word in e["message"].lower()
        assert call({"op": "validate", "request": request}) == call(request)
    # odds of an effort roll are still a question one may ask; no effort is counted
    assert ok({"op": "odds", "system": "d6", "params": spent})["exact"]
    assert "character" not in ok({"op": "roll", "system": "d6", "params": sheet("d6")})
    # the restored night (the page sets efforts_used back) makes efforts possible again
    rested = {**second["character"], "stats": {**second["character"]["stats"],
                                               "efforts_used": 0}}
    assert ok({"op": "roll", "system": "d6", "params": {
        "sheet": {**params["sheet"], "character": rested}}})["character"]


def test_an_opposition_side_may_be_a_sheet() -> None:
    actor = sheet("d6", situation={"effort": True})
    r = ok({"op": "oppose", "system": "d6", "actor": actor, "opponent": {}, "seed": 2})
    assert r["actor"]["character"]["stats"]["efforts_used"] == 2
    assert "character" not in r["opponent"]
    plain = ok({"op": "oppose", "system": "d6", "actor": r["actor"]["params"],
                "opponent": {}, "seed": 2})
    assert plain["winner"] == r["winner"] and plain["margin"] == r["margin"]
    assert ok({"op": "oppose_odds", "system": "steps", "actor": sheet("steps"),
               "opponent": sheet("steps", entry=1)})["exact"]


@pytest.mark.parametrize(("params", "field"), [
    ({"sheet": []}, "sheet"),
    ({"sheet": {}, "pot": 3}, "pot"),
    ({"sheet": {"character": {"system": "steps", "name": "A"}, "nope": 1}}, "nope"),
    ({"sheet": {"character": {"system": "steps", "name": ""}}}, "character.name"),
    ({"sheet": {"character": {"system": "d6", "name": "A"}}}, "character.system"),
    ({"sheet": {"character": {"system": "steps", "name": "A"}, "entry": "e-x"}}, "entry"),
    ({"sheet": {"character": {"system": "steps", "name": "A"}, "situation": []}},
     "situation"),
    ({"sheet": {"character": {"system": "steps", "name": "A"},
                "situation": {"die": 4}}}, "situation.die"),
    ({"sheet": {"character": {"system": "steps", "name": "A"},
                "situation": {"threshold": 13}}}, "situation.threshold"),
    ({"sheet": {"character": {"system": "steps", "name": "A", "stats": {"accessories": 15}},
                "situation": {"bonus": 10}}}, "situation.bonus"),
    ({"sheet": {"character": {"system": "steps", "name": "A",
                              "entries": [{"label": "a", "params": {"dice": [3]}}]}}},
     "character.entries.0.params.dice"),
])
def test_a_sheet_roll_refusal_names_the_field_in_the_sheet(
        params: dict[str, Any], field: str) -> None:
    request = {"op": "roll", "system": "steps", "params": params}
    assert err(request)["field"] == field
    assert call({"op": "validate", "request": request}) == call(request)
    side = err({"op": "oppose", "system": "steps", "actor": {}, "opponent": params})
    assert side["field"] == f"opponent.{field}"


def test_a_sheet_roll_with_a_seed_replays() -> None:
    params = sheet("pool")
    a = ok({"op": "roll", "system": "pool", "params": params, "seed": 31})
    b = ok({"op": "roll", "system": "pool", "params": params, "seed": 31})
    assert a == b and a["luck"] is not None


def test_a_combat_side_may_be_a_sheet_with_its_ardeur() -> None:
    actor = sheet("steps")  # ardeur 7 on the sheet, entry "Combat"
    # The debt kept (ardeur_floor false), so the Ardeur each side started from shows.
    options = {"kind": "melee", "ardeur_floor": False}
    r = ok({"op": "combat", "params": options, "actor": actor,
            "opponent": {**sheet("steps", entry=1), "ardeur": 3}, "seed": 6})
    built = {**r["rolls"][0]["params"], "ardeur": 7}
    plain = ok({"op": "combat", "params": options, "actor": built,
                "opponent": {**r["rolls"][1]["params"], "ardeur": 3}, "seed": 6})
    assert plain == r
    assert r["actor"]["ardeur"] == 7 - r["actor"]["loss"]
    assert r["opponent"]["ardeur"] == 3 - r["opponent"]["loss"]
    bad = {"op": "combat", "params": {}, "actor": {**actor, "ardeur": 100}, "opponent": {}}
    assert err(bad)["field"] == "actor.ardeur"
    wrong = {"op": "combat", "params": {}, "actor": {"sheet": {**actor["sheet"],
                                                               "entry": "nope"}}}
    assert err(wrong)["field"] == "actor.entry"
    assert call({"op": "validate", "request": wrong}) == call(wrong)
