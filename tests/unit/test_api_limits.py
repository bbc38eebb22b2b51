"""The JSON API's limits: the request size, the faces limit, and every bound of every
system's fields (min and max accepted, one past either refused, the error naming the field).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pyrules.api import MAX_REQUEST, handle
from pyrules.fields import FACES_MAX, read_face
from pyrules.registry import SYSTEMS

from .helpers import call, err, ok


def padded(request: dict[str, Any], length: int) -> str:
    """The request as JSON, padded with spaces (still valid JSON) to exactly ``length``."""
    text = json.dumps(request)
    return text[:-1] + " " * (length - len(text)) + "}"


def test_a_request_of_exactly_the_limit_is_answered() -> None:
    text = padded({"op": "version"}, MAX_REQUEST)
    assert len(text) == 1_000_000
    assert json.loads(handle(text))["ok"] is True


def test_one_character_past_the_limit_is_refused() -> None:
    text = padded({"op": "version"}, MAX_REQUEST + 1)
    answer = json.loads(handle(text))
    assert answer["ok"] is False
    assert answer["error"]["code"] == "invalid_json"
    assert "1000000" in answer["error"]["message"]


@pytest.mark.parametrize("field", ["dice", "flame_dice"])
def test_too_many_faces_names_its_field(field: str) -> None:
    e = err({"op": "roll", "system": "pool", "params": {field: [1] * (FACES_MAX + 1)}})
    assert (e["code"], e["field"]) == ("invalid_param", field)
    assert str(FACES_MAX) in e["message"]
    e = err({"op": "roll", "system": "pool", "params": {field: "1 " * 200}})
    assert (e["code"], e["field"]) == ("invalid_param", field)


def test_as_many_faces_as_the_limit_are_read() -> None:
    # 64 faces are read; the count check then names the same field (6 dice expected).
    e = err({"op": "roll", "system": "pool", "params": {"dice": [1] * FACES_MAX}})
    assert e["field"] == "dice" and "64" in e["message"] and "6" in e["message"]


def bounded_fields() -> list[tuple[str, str, str, int, int]]:
    out = []
    for system in SYSTEMS.values():
        for f in system.fields:
            if f.min is not None and f.max is not None:
                out.append((system.id, f.name, f.kind, f.min, f.max))
    return out


BASE = {"pool": {"pot": 12, "flame": 2}, "d6": {}, "d100": {"level": None}, "steps": {},
        "notation": {"expression": "1d1000"}}


@pytest.mark.parametrize(("system", "name", "kind", "low", "high"), bounded_fields())
def test_every_bound_of_every_field(system: str, name: str, kind: str, low: int,
                                    high: int) -> None:
    def value(v: int) -> Any:
        return v if kind == "int" else [v]

    field = next(f for f in SYSTEMS[system].fields if f.name == name)
    below = low - 1
    if kind == "faces" and field.sides is not None and read_face(below, field.sides) != below:
        below -= 1  # a typed 0 on a d100 is its 100 (docs/rules.md, « Dés physiques »)
    named = (low, high)
    if kind == "faces" and field.sides is None:  # the die comes from the other params: the
        sys_ = SYSTEMS[system]                    # message gives that die's own range
        named = (1, sys_.dice_plan(sys_.parse(BASE[system])[0])[0].sides)
    for outside in (below, high + 1):
        e = err({"op": "odds" if kind == "int" else "roll", "system": system,
                 "params": {**BASE[system], name: value(outside)}})
        assert (e["code"], e["field"]) == ("invalid_param", name), (name, outside)
        assert f"{named[0]} " in e["message"] and f" {named[1]}" in e["message"], e["message"]
    for inside in (low, high):
        assert field.clean(value(inside)) == value(inside) if kind == "int" \
            else field.clean(value(inside)) == (inside,)
        if kind in ("int", "list"):  # a whole request at the bound is answered
            answer = call({"op": "roll", "system": system, "seed": 1,
                           "params": {**BASE[system], name: value(inside)}})
            assert answer["ok"], (name, inside, answer)


def test_the_bounds_table_of_the_rules_matches_the_registry() -> None:
    """docs/rules.md publishes the bounds; every bounded int field is in its table."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text("utf-8")
    for system, name, kind, low, high in bounded_fields():
        if kind != "int":
            continue
        rows = [line for line in text.splitlines()
                if line.startswith(f"| {system} |") and name in line.split("|")[2]]
        assert rows, (system, name)
        cells = rows[0].split("|")[3]
        assert str(abs(low)) in cells and str(high) in cells, (system, name, cells)


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_choice_field_refuses_an_unknown_value(system: str) -> None:
    for f in SYSTEMS[system].fields:
        if f.kind == "choice":
            e = err({"op": "odds", "system": system, "params": {f.name: "nope"}})
            assert (e["code"], e["field"]) == ("invalid_param", f.name)


def test_text_field_length_bound() -> None:
    assert ok({"op": "odds", "system": "pool", "params": {"modifiers": "+1" + " " * 38}})
    e = err({"op": "odds", "system": "pool", "params": {"modifiers": "+1" + " " * 39}})
    assert e["field"] == "modifiers"


# -- new answer fields (docs/api.md) ----------------------------------------------------


def test_pool_roll_answers_placement_moves_and_size_fields() -> None:
    r = ok({"op": "roll", "system": "pool",
            "params": {"pot": 3, "flame": 2, "augmentations": 1, "diminutions": 1,
                       "dice": [4], "flame_dice": [1, 2], "placement": [0, 0]}})
    assert r["placement_moves"] == [{"plus": False, "minus": False},
                                    {"plus": True, "minus": False}]
    assert r["placement_left"] == {"augmentations": 1, "diminutions": 1}
    assert (r["size_applied"], r["task_diff"]) == (0, 4)
    e = err({"op": "roll", "system": "pool",
             "params": {"pot": 3, "flame": 2, "diminutions": 1, "dice": [4],
                        "flame_dice": [1, 2], "placement": [0, -1]}})
    assert e["field"] == "placement"


def test_systems_answer_names_the_diff_steps() -> None:
    pool = next(s for s in ok({"op": "systems"})["systems"] if s["id"] == "pool")
    diff = next(f for f in pool["fields"] if f["name"] == "diff")
    assert diff["type"] == "int"
    assert diff["steps"][0] == {"value": 1, "label": {"fr": "Évident", "en": "Obvious"}}
    assert diff["steps"][-1]["label"]["fr"] == "Chimérique"


def table_bounds() -> list[tuple[str, str, int, int]]:
    from pyrules.systems.d6.play import EFFORT_FIELDS
    from pyrules.systems.pool.play import SOURCE_FIELDS

    return [(op, f.name, f.min, f.max) for op, fields in (("sources", SOURCE_FIELDS),
                                                        ("effort", EFFORT_FIELDS))
            for f in fields if f.kind == "int" and f.min is not None and f.max is not None]


@pytest.mark.parametrize(("op", "name", "low", "high"), table_bounds())
def test_every_bound_of_the_table_ops(op: str, name: str, low: int, high: int) -> None:
    base = {"action": "check", "flame": 7} if op == "effort" and name != "flame" else \
        {"action": "check"} if op == "effort" else {}
    for outside in (low - 1, high + 1):
        e = err({"op": op, "params": {**base, name: outside}})
        assert (e["code"], e["field"]) == ("invalid_param", name)
    for inside in (low, high):
        assert call({"op": op, "params": {**base, name: inside}})["ok"], (op, name, inside)


def test_ardeur_bounds_name_the_side() -> None:
    for side in ("actor", "opponent"):
        for outside in (-100, 100):
            e = err({"op": "combat", "seed": 1, side: {"ardeur": outside}})
            assert e["field"] == f"{side}.ardeur"
        for inside in (-99, 99):
            assert call({"op": "combat", "seed": 1, side: {"ardeur": inside}})["ok"]
