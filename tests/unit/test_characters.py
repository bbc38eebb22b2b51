"""Issue 21: the engine owns characters. `character` / `characters` check and normalise
what a page stores; a `{"sheet": ...}` in place of params rolls from a sheet."""

from __future__ import annotations

from typing import Any

import pytest

from pyrules.registry import SYSTEMS, describe

from .helpers import FULL, call, character, err, ok

SHEETS = {s["id"]: s["sheet"] for s in describe()["systems"]}

def normalised(raw: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = ok({"op": "character", "character": raw})["character"]
    return result


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_character_with_its_defaults_round_trips(system: str) -> None:
    first = normalised(character(system))
    assert normalised(first) == first
    stats = SHEETS[system]["stats"]
    assert first["stats"] == {f["name"]: f["default"] for f in stats}
    assert first["pc"] is True and first["note"] == "" and first["entries"] == []
    assert first["id"].startswith("c-") and first["created"].endswith("Z")


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_character_with_every_field_filled_round_trips(system: str) -> None:
    raw = character(system, note="Une note", id="c-1", created="2024-05-01T10:00:00.000Z",
                    updated="2024-05-02T10:00:00.000Z", **FULL[system])
    first = normalised(raw)
    assert normalised(first) == first
    assert first["id"] == "c-1" and first["created"] == "2024-05-01T10:00:00.000Z"
    assert [e["label"] for e in first["entries"]] == [e["label"] for e in raw["entries"]]
    assert all(e["id"].startswith("e-") for e in first["entries"])
    # what is stored is what a roll reads: "6" is 6, "2, 1" is [2, 1]
    for entry, given in zip(first["entries"], raw["entries"], strict=True):
        assert entry["params"].keys() == given["params"].keys()


@pytest.mark.parametrize(("given", "stored"), [
    ("", []), ("2, 1", [2, 1]), ("2 1", [2, 1]), ([3], [3]), (None, []), ([], []),
    ("  ", []), (["4", 2], [4, 2]),
])
def test_step_dice_lists_are_stored_as_lists_of_numbers(given: Any, stored: list[int]) -> None:
    """The issue 21 bug: the page stored "" or text for weapons, then refused it on load."""
    c = normalised(character("steps", stats={"weapons": given, "protections": given}))
    assert c["stats"]["weapons"] == stored and c["stats"]["protections"] == stored


@pytest.mark.parametrize(("raw", "field"), [
    ({"system": "steps", "name": ""}, "name"),
    ({"system": "steps", "name": "x" * 61}, "name"),
    ({"system": "steps", "name": 3}, "name"),
    ({"system": "nope", "name": "A"}, "system"),
    ({"name": "A"}, "system"),
    ({"system": "steps", "name": "A", "colour": 1}, "colour"),
    ({"system": "steps", "name": "A", "id": 4}, "id"),
    ({"system": "steps", "name": "A", "pc": "yes"}, "pc"),
    ({"system": "steps", "name": "A", "note": 5}, "note"),
    ({"system": "steps", "name": "A", "stats": []}, "stats"),
    ({"system": "steps", "name": "A", "stats": {"nope": 1}}, "stats.nope"),
    ({"system": "steps", "name": "A", "stats": {"ardeur": 100}}, "stats.ardeur"),
    ({"system": "steps", "name": "A", "stats": {"weapons": "2, x"}}, "stats.weapons"),
    ({"system": "steps", "name": "A", "stats": {"weapons": [21]}}, "stats.weapons"),
    ({"system": "d6", "name": "A", "stats": {"flame": 8}}, "stats.flame"),
    ({"system": "steps", "name": "A", "entries": {}}, "entries"),
    ({"system": "steps", "name": "A", "entries": [{"label": "a"}] * 101}, "entries"),
    ({"system": "steps", "name": "A", "entries": [3]}, "entries.0"),
    ({"system": "steps", "name": "A", "entries": [{"label": ""}]}, "entries.0.label"),
    ({"system": "steps", "name": "A", "entries": [{"label": "a"}, {"label": "b" * 61}]},
     "entries.1.label"),
    ({"system": "steps", "name": "A", "entries": [{"label": "a", "params": {"bonus": 21}}]},
     "entries.0.params.bonus"),
    ({"system": "steps", "name": "A", "entries": [{"label": "a", "params": {"nope": 1}}]},
     "entries.0.params.nope"),
    ({"system": "steps", "name": "A", "entries": [{"label": "a", "params": []}]},
     "entries.0.params"),
    ({"system": "pool", "name": "A", "entries": [{"label": "a", "sources": {"linked": 2}}]},
     "entries.0.sources.linked"),
    ({"system": "pool", "name": "A", "entries": [{"label": "a", "sources": {"rewards": 1}}]},
     "entries.0.sources.rewards"),
    # the check is the roll's: the sheet's numbers with each entry must roll
    ({"system": "steps", "name": "A", "stats": {"accessories": 15},
      "entries": [{"label": "a", "params": {"bonus": 10}}]}, "stats.accessories"),
    ({"system": "pool", "name": "A",
      "entries": [{"label": "a", "params": {"modifiers": "+30D+20D"}}]},
     "entries.0.params.modifiers"),
])
def test_a_refusal_names_the_dotted_field(raw: dict[str, Any], field: str) -> None:
    for lang in ("fr", "en"):
        e = err({"op": "character", "character": raw, "lang": lang})
        assert e["field"] == field, e
        assert e["message"]
        same = call({"op": "validate", "request": {"op": "character", "character": raw,
                                                    "lang": lang}})
        assert same == call({"op": "character", "character": raw, "lang": lang})


def test_a_character_that_is_not_an_object_is_refused() -> None:
    assert err({"op": "character", "character": [1]})["code"] == "invalid_param"
    assert err({"op": "character"})["code"] == "invalid_param"


@pytest.mark.parametrize(("system", "params", "field"), [
    ("pool", {"dice": [1, 2]}, "dice"), ("pool", {"flame_dice": "3"}, "flame_dice"),
    ("pool", {"placement": [1]}, "placement"), ("d6", {"dice": [4]}, "dice"),
    ("steps", {"dice": [2]}, "dice"), ("d100", {"dice": [50]}, "dice"),
])
def test_faces_on_a_sheet_are_refused(system: str, params: dict[str, Any], field: str) -> None:
    raw = character(system, entries=[{"label": "ok"}, {"label": "loaded", "params": params}])
    e = err({"op": "character", "character": raw})
    assert e["code"] == "faces_in_sheet" and e["field"] == f"entries.1.params.{field}"


def test_characters_answers_each_of_a_batch_in_one_call() -> None:
    batch = [character("steps", stats={"weapons": "2"}), {"system": "d6", "name": ""},
             character("pool"), "junk"]
    out = ok({"op": "characters", "characters": batch, "lang": "en"})["characters"]
    assert [o["ok"] for o in out] == [True, False, True, False]
    assert out[0]["character"]["stats"]["weapons"] == [2]
    assert out[1]["error"]["field"] == "name" and out[1]["error"]["code"] == "invalid_param"
    assert "name" in out[1]["error"]["message"].lower()
    assert out[3]["error"]["field"] is None
    assert err({"op": "characters", "characters": [{}] * 501})["field"] == "characters"
    assert err({"op": "characters", "characters": {}})["field"] == "characters"
    many = ok({"op": "characters", "characters": [character("d100")] * 500})["characters"]
    assert len(many) == 500 and all(o["ok"] for o in many)


def test_the_description_says_what_a_sheet_holds() -> None:
    steps = SHEETS["steps"]
    stats = {f["name"]: f for f in steps["stats"]}
    assert list(stats) == ["ardeur", "accessories", "weapons", "protections"]
    assert stats["weapons"]["type"] == "list" and stats["weapons"]["default"] == []
    bonus = next(f for f in describe()["systems"] if f["id"] == "steps")["fields"]
    bonus_field = next(f for f in bonus if f["name"] == "bonus")
    assert (stats["accessories"]["min"], stats["accessories"]["max"]) == (
        bonus_field["min"], bonus_field["max"])
    assert "weapons" not in steps["entry_fields"] and "bonus" in steps["entry_fields"]
    assert {s["name"]: s["mode"] for s in steps["situation"]} == {
        "threshold": "replace", "edge": "set", "bonus": "add"}
    assert [f["name"] for f in SHEETS["pool"]["extras"]] == ["linked", "specialty"]
    assert SHEETS["d6"]["efforts_per_day"]["used"] == "efforts_used"
    assert "efforts_used" in {f["name"] for f in SHEETS["d6"]["stats"]}
    assert SHEETS["d6"]["pc"] == "pc" and "pc" not in SHEETS["d6"]["entry_fields"]
    assert SHEETS["notation"]["stats"] == [] and SHEETS["d100"]["limits"]["name_max"] == 60


def test_blank_numbers_read_as_their_defaults() -> None:
    """What a form leaves blank ("" in storage) is the default, never a lost character."""
    c = normalised(character("d6", stats={"flame": "", "clarity": " 3 "}, entries=[
        {"label": "a", "params": {"impact": "", "skill": "4", "attribute": None}}]))
    flame = next(f["default"] for f in SHEETS["d6"]["stats"] if f["name"] == "flame")
    assert c["stats"]["flame"] == flame and c["stats"]["clarity"] == 3
    assert c["entries"][0]["params"] == {"skill": 4}
    note = normalised(character("d100", note="n" * 600))["note"]
    assert note == "n" * 500
