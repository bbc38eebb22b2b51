"""What a roll is, in a line, is the engine's to word (issue 42: the page's `summarize` was a
second reading of the params): a roll's answer carries its brief, each side of an opposition
its own, and the ``briefs`` op words the rolls a page keeps without one (its history read
back from storage, a quick roll's situation) in one call."""

from __future__ import annotations

from typing import Any

import pytest

from pyrules.registry import SYSTEMS

from .helpers import err, ok

CASES = [
    ("pool", {"pot": 5, "flame": 2, "augmentations": 1}),
    ("d6", {"effort": True}),
    ("d100", {"level": "good", "modifier": -5}),
    ("steps", {"weapons": [2, 1], "edge": "handicap"}),
    ("notation", {"expression": "2d6+1"}),
]


@pytest.mark.parametrize(("system", "params"), CASES)
def test_a_roll_and_the_briefs_op_word_the_same_params_alike(system: str,
                                                              params: dict[str, Any]) -> None:
    rolled = ok({"op": "roll", "system": system, "params": params, "seed": 5})
    parsed, _ = SYSTEMS[system].parse(params)
    assert rolled["brief"] == SYSTEMS[system].brief(parsed).as_dict()
    assert rolled["brief"]["fr"] and rolled["brief"]["en"]
    # The entry a page keeps is the answer's params: worded again, they read the same.
    again = ok({"op": "briefs", "rolls": [{"system": system, "params": rolled["params"]}]})
    assert again["briefs"] == [rolled["brief"]]


def test_each_side_of_an_opposition_carries_its_own_brief() -> None:
    r = ok({"op": "oppose", "system": "d6", "seed": 9,
            "actor": {"attribute": 4, "skill": 2}, "opponent": {"attribute": 2, "skill": 1}})
    assert r["actor"]["brief"]["fr"].startswith("Attribut 4 · Compétence 2"), r["actor"]
    assert r["opponent"]["brief"]["en"].startswith("Attribute 2 · Skill 1"), r["opponent"]


def test_briefs_word_a_placement_and_the_whole_steps_bonus() -> None:
    out = ok({"op": "briefs", "lang": "en", "rolls": [
        {"system": "pool", "params": {"pot": 7, "diff": 5, "flame": 3, "placement": [1, 0, -1]}},
        {"system": "pool", "params": {"pot": 7, "diff": 5, "placement": [0, 0]}},
        {"system": "steps", "params": {"die": 8, "bonus": 1, "weapons": [2, 3]}},
    ]})["briefs"]
    assert out[0]["fr"].startswith("POT 7 · DIFF 5") and out[0]["fr"].endswith(" · [+1 0 -1]")
    assert "[" not in out[1]["en"]  # a placement that moves nothing says nothing
    assert "Bonus +4" in out[2]["en"] and "Weapons" not in out[2]["en"]  # 1 + the best weapon


def test_a_roll_the_engine_refuses_has_no_brief_and_spoils_no_other() -> None:
    out = ok({"op": "briefs", "rolls": [
        {"system": "pool", "params": {"pot": "many"}},
        {"system": "nope", "params": {}},
        {"system": "d100", "params": {"value": 40, "extra": 1}},
        {"system": "pool", "params": {"sheet": {"character": {}, "entry": "x"}}},
        "junk",
        {"system": "d100", "params": {"value": 40}},
    ]})["briefs"]
    assert out[:5] == [None] * 5
    assert out[5] and "40" in out[5]["fr"]


def test_briefs_are_a_list_or_refused_naming_it() -> None:
    for rolls in (None, "x", {"system": "pool"}):
        e = err({"op": "briefs", "rolls": rolls})
        assert e["code"] == "invalid_param" and e["field"] == "rolls", e
    assert ok({"op": "briefs", "rolls": []}) == {"briefs": []}


def test_a_whole_history_is_worded_in_one_call() -> None:
    """The CSV export asks for every roll kept, in one call: no cap cuts a long history."""
    rolls = [{"system": "d100", "params": {"value": 1 + i % 100}} for i in range(5000)]
    out = ok({"op": "briefs", "rolls": rolls})["briefs"]
    assert len(out) == 5000 and all(out)
    assert out[4999]["fr"] == "Valeur 100"


def test_a_situation_is_worded_by_the_fields_it_sets() -> None:
    out = ok({"op": "briefs", "rolls": [
        {"system": "pool", "situation": {"augmentations": 2, "modifiers": "+1", "diminutions": 0}},
        {"system": "pool", "situation": {"augmentations": "x", "diminutions": 1}},
        {"system": "pool", "situation": {}},
        {"system": "pool", "situation": "x"},
    ]})["briefs"]
    assert out[0] == {"fr": "Augmentations 2 · Modificateurs +1",
                      "en": "Augmentations 2 · Modifiers +1"}
    assert out[1]["en"] == "Diminutions 1"  # a value the field refuses says nothing
    assert out[2] == {"fr": "", "en": ""}
    assert out[3] is None
