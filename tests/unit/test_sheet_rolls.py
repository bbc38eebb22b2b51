"""Issue 21: `{"sheet": {"character", "entry", "situation"}}` in place of params stands for
the params the engine builds from the sheet (the page's former rollParams, kept exactly)."""

from __future__ import annotations

from typing import Any

import pytest

from pyrules.registry import SYSTEMS

from .helpers import FULL, call, character, err, ok

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


def test_physical_dice_on_a_sheet_roll_are_one_call_and_spend_the_effort_once() -> None:
    """Typed faces go beside the sheet (issue 21): the very resolution of the built params
    with those faces, the effort spent once, the efforts left counted by the engine."""
    params = sheet("d6", situation={"effort": True}, stats={"flame": 2, "efforts_used": 0})
    typed = {**params, "dice": [6, 2]}
    first = ok({"op": "roll", "system": "d6", "params": typed})
    assert first["physical"] and first["seed"] is None
    plain = ok({"op": "roll", "system": "d6", "params": {**first["params"], "dice": [6, 2]}})
    assert {k: v for k, v in first.items() if k not in ("character", "efforts")} == plain
    assert [d["final"] for d in first["dice"]] == [6, 2]
    assert first["character"]["stats"]["efforts_used"] == 1  # spent once, not per die
    assert first["efforts"] == {"per_day": 2, "used": 1, "available": 1}
    # The same request again (a replay of the same sheet) spends one from the same sheet:
    # the engine never counts twice what the page stored once.
    again = ok({"op": "roll", "system": "d6", "params": typed})
    assert again["character"]["stats"] == first["character"]["stats"]
    # The seeded roll of the same sheet answers the efforts alike.
    seeded = ok({"op": "roll", "system": "d6", "params": params, "seed": 4})
    assert seeded["efforts"] == first["efforts"]
    assert "efforts" not in ok({"op": "roll", "system": "d6", "params": sheet("d6")})


@pytest.mark.parametrize(("faces", "field", "code"), [
    ({"dice": [7, 2]}, "dice", "invalid_param"),
    ({"dice": "x"}, "dice", "invalid_param"),
    ({"dice": [6]}, "dice", "invalid_param"),  # two dice rolled, one face typed
    ({"flame_dice": [1]}, "flame_dice", "invalid_param"),  # no such face field in d6
])
def test_a_bad_typed_face_beside_a_sheet_is_named_by_its_field(
        faces: dict[str, Any], field: str, code: str) -> None:
    params = {**sheet("d6", situation={"effort": True},
                      stats={"flame": 2, "efforts_used": 0}), **faces}
    request = {"op": "roll", "system": "d6", "params": params}
    got = err(request)
    assert (got["field"], got["code"]) == (field, code), got
    assert call({"op": "validate", "request": request}) == call(request)


def test_typed_faces_beside_a_sheet_never_go_with_a_seed() -> None:
    params = {**sheet("d6"), "dice": [6]}
    got = err({"op": "roll", "system": "d6", "params": params, "seed": 3})
    assert (got["code"], got["field"]) == ("faces_in_sheet", "dice")
    # An opposition: both sides typed (physical), each side's sheet and faces in one call.
    r = ok({"op": "oppose", "system": "steps", "actor": {**sheet("steps"), "dice": [9]},
            "opponent": {**sheet("steps", entry=1), "dice": [2]}})
    assert r["physical"] and [d["final"] for d in r["actor"]["dice"]] == [9]
    got = err({"op": "oppose", "system": "steps", "actor": {**sheet("steps"), "dice": [11]},
               "opponent": {**sheet("steps", entry=1), "dice": [2]}})
    assert got["field"] == "actor.dice"


def test_a_character_joins_a_fight_in_one_call() -> None:
    """The `fight` op takes a participant as its sheet: the engine answers the fight judged
    with them, and their Ardeur and skills (each entry's params as a sheet roll builds them)."""
    character = sheet("steps")["sheet"]["character"]
    state = {"participants": [{"id": "q", "ardeur": 4, "skills": ["Bagarre"]},
                              {"id": "p", "sheet": {"character": character}}]}
    res = ok({"op": "fight", "fight": state})
    joined = res["joined"]["p"]
    assert joined["ardeur"] == 7  # the sheet's
    for skill, entry in zip(joined["skills"], character["entries"], strict=True):
        sheet_roll = {"sheet": {"character": character, "entry": entry["id"]}}
        assert skill == {"label": entry["label"], "params": ok(
            {"op": "validate", "request": {"op": "roll", "system": "steps",
                                            "params": sheet_roll}})["params"]}
    # The judgement is the `fight` op's for the participant as the page then keeps them.
    kept = {"id": "p", "ardeur": 7, "skills": [s["label"] for s in joined["skills"]]}
    assert {k: v for k, v in res.items() if k != "joined"} == ok(
        {"op": "fight", "fight": {"participants": [state["participants"][0], kept]}})
    assert ok({"op": "fight", "fight": {"participants": [
        {"id": "p", "ardeur": 2, "sheet": {"character": character}}]}})["joined"]["p"][
        "ardeur"] == 2
    # No entry: one skill, the sheet's numbers alone.
    bare = ok({"op": "fight", "fight": {"participants": [
        {"id": "p", "sheet": {"character": {**character, "entries": []}}}]}})
    assert [s["label"] for s in bare["joined"]["p"]["skills"]] == [""]
    assert bare["joined"]["p"]["skills"][0]["params"]["bonus"] == 2  # the accessories
    assert "joined" not in ok({"op": "fight", "fight": {"participants": []}})


@pytest.mark.parametrize(("person", "field"), [
    ({"id": "p", "sheet": []}, "fight.participants.0.sheet"),
    ({"id": "p", "sheet": {"character": {}, "entry": "x"}}, "fight.participants.0.sheet"),
    ({"id": "p", "sheet": {"character": {"system": "d6", "name": "A"}}},
     "fight.participants.0.sheet.character.system"),
    ({"id": "p", "sheet": {"character": {"system": "steps", "name": ""}}},
     "fight.participants.0.sheet.character.name"),
    ({"id": "p", "name": "A", "sheet": {"character": {"system": "steps", "name": "A"}}},
     "fight.participants.0.name"),
    ({"id": "", "sheet": {"character": {"system": "steps", "name": "A"}}},
     "fight.participants.0.id"),
])
def test_a_bad_joining_sheet_names_its_field(person: dict[str, Any], field: str) -> None:
    request = {"op": "fight", "fight": {"participants": [person]}}
    assert err(request)["field"] == field
    assert call({"op": "validate", "request": request}) == call(request)


def test_the_character_op_answers_the_efforts_of_a_sheet_that_has_them() -> None:
    d6 = ok({"op": "character", "character": character("d6", **FULL["d6"])})
    stats = d6["character"]["stats"]
    assert d6["efforts"] == ok({"op": "effort", "params": {
        "flame": stats["flame"], "used": stats["efforts_used"], "action": "check"}})
    assert "efforts" not in ok({"op": "character", "character": character("steps")})


def test_the_dice_of_both_sides_of_an_opposition_in_one_call() -> None:
    actor, opponent = sheet("d6", situation={"effort": True}), {"attribute": 2}
    both = ok({"op": "dice", "system": "d6", "actor": actor, "opponent": opponent})
    assert both == {side: ok({"op": "dice", "system": "d6", "params": params})
                    for side, params in (("actor", actor), ("opponent", opponent))}
    got = err({"op": "dice", "system": "d6", "actor": actor, "opponent": {"attribute": 30}})
    assert got["field"] == "opponent.attribute"


@pytest.mark.parametrize("system", sorted(FULL))
def test_a_sheet_answers_each_entry_in_words_with_its_chance(system: str) -> None:
    """Issue 39: a quick-roll button says the roll the engine builds (no situation) and its
    chance of success: the `odds` op's of those very params."""
    answer = ok({"op": "character", "character": character(system, **FULL[system])})
    entries = answer["character"]["entries"]
    assert [e["id"] for e in answer["entries"]] == [e["id"] for e in entries]
    for i, fact in enumerate(answer["entries"]):
        params = built(system, entry=i)
        odds = ok({"op": "odds", "system": system, "params": params})
        assert fact["chance_exact"] == odds["success"]
        assert fact["chance"] == odds["success_probability"]
        assert fact["brief"] and "(s)" not in fact["brief"]


def test_a_steps_button_says_the_whole_bonus_the_roll_adds() -> None:
    c = character("steps", **FULL["steps"])  # accessories 2, weapons 2 1, protections 1 3
    for lang, word in (("fr", "Bonus"), ("en", "Bonus")):
        facts = ok({"op": "character", "character": c, "lang": lang})["entries"]
        p = built("steps")
        total = p["bonus"] + max(p["weapons"]) + max(p["protections"])
        assert total == 2 + 2 + 3
        assert f"{word} +{total}" in facts[0]["brief"], facts[0]
        assert "Armes" not in facts[0]["brief"] and "Weapons" not in facts[0]["brief"]
    fr = ok({"op": "character", "character": c, "lang": "fr"})["entries"][0]["brief"]
    assert "\u00a0:" in fr  # French typography: a no-break space before the colon


def test_a_d100_level_replaces_the_value_in_words() -> None:
    c = character("d100", entries=[{"label": "Tir", "params": {"value": 30, "level": "master"}}])
    brief = ok({"op": "character", "character": c, "lang": "en"})["entries"][0]["brief"]
    assert "Level" in brief and "Value" not in brief, brief


def test_an_import_answers_the_sheet_it_will_show() -> None:
    """`characters` with `show`: that item carries its sheet's facts, the others do not."""
    two = [character("d6", **FULL["d6"]), character("steps", **FULL["steps"])]
    answer = ok({"op": "characters", "characters": two, "show": 1})["characters"]
    alone = ok({"op": "character", "character": two[1]})
    assert "entries" not in answer[0] and "efforts" not in answer[0]
    assert answer[1]["entries"] == [
        {**e, "id": n["id"]} for e, n in zip(alone["entries"], answer[1]["character"]["entries"],
                                             strict=True)]
    assert ok({"op": "characters", "characters": two})["characters"][1].keys() == {
        "ok", "character"}
    refused = call({"op": "characters", "characters": two, "show": "1"})
    assert refused["error"]["field"] == "show"
