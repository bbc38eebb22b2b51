"""The `validate` op: any other op's request checked exactly as that op checks it (same
error code, field and message), without rolling or computing.

Property-style: requests are drawn from the registry's own fields and bounds (values inside,
at and beyond each bound, of the wrong type, unknown keys), for every op that takes params.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pyrules.registry import SYSTEMS, describe

from .helpers import call, err, ok

DESCRIPTION = describe()
FIELDS = {s["id"]: s["fields"] for s in DESCRIPTION["systems"]}
TABLE = DESCRIPTION["play"]
# Values of no field type: each must be refused by a field of any type (or by the params).
JUNK = st.sampled_from([[], {}, "x", 1.5, True, "1e3", [1, "a"]])


def values_of(field: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values around the field's description: legal ones, its bounds +-1, wrong types."""
    kind = field["type"]
    if kind == "int":
        low, high = field["min"], field["max"]
        return st.one_of(st.integers(low - 2, high + 2), st.sampled_from(
            [low, high, low - 1, high + 1, str(low), f" {high} ", float(high)]), JUNK)
    if kind == "bool":
        return st.one_of(st.booleans(), JUNK)
    if kind == "choice":
        return st.one_of(st.sampled_from([c["value"] for c in field["choices"]]), JUNK)
    if kind == "text":
        return st.one_of(st.sampled_from(["", "2d6+1", "4dF", "3d6kh2", "d%", "1d6!"]),
                         st.text(max_size=8), st.just("d" * (field["max_length"] + 1)), JUNK)
    low, high = field["min"], field["max"]
    bound = st.integers(-1 if low is None else low - 1, 7 if high is None else high + 1)
    return st.one_of(st.none(), st.lists(bound, max_size=8), st.just([1] * 65),
                     st.just(" ".join(["2"] * 70)), JUNK)


def params_of(fields: list[dict[str, Any]], skip: tuple[str, ...] = ()) -> st.SearchStrategy[Any]:
    """Params with a few of the fields set (each value drawn as above), maybe an unknown key,
    or not an object at all."""
    usable = [f for f in fields if f["name"] not in skip]
    one = st.sampled_from(usable).flatmap(lambda f: st.tuples(st.just(f["name"]), values_of(f)))
    params = st.lists(one, max_size=3).map(dict)
    extra = st.dictionaries(st.sampled_from(["nope", "Pot", ""]), st.integers(0, 3), max_size=1)
    return st.one_of(params, st.builds(lambda p, e: {**p, **e}, params, extra),
                     st.sampled_from([None, [], "pot", 3]))


def same_check(request: dict[str, Any]) -> None:
    """validate(request) is ok exactly when request is, else answers the very same error."""
    checked = call({"op": "validate", "request": request})
    answer = call(request)
    if answer["ok"]:
        assert checked["ok"], (request, checked)
        assert checked["result"]["valid"] is True
        assert checked["result"]["op"] == request["op"]
    else:
        assert checked == answer, request


SYSTEM_IDS = st.sampled_from(sorted(SYSTEMS))
SEEDS = st.one_of(st.integers(0, 2**20), st.sampled_from([-1, 2**53, "7", 1.5, True]))
# Cheap params for the ops that compute odds on valid params (the check is the point here).
CHEAP = {"pool": {"pot": 3}, "d6": {"attribute": 1, "skill": 0}, "d100": {}, "steps": {},
         "notation": {"expression": "1d6"}}


def request_of(draw: Any, op: str, system: str) -> dict[str, Any]:
    fields = FIELDS[system]
    params = draw(params_of(fields))
    if op in ("odds", "luck", "sweep", "compare", "oppose_odds", "fairness") and isinstance(
            params, dict):
        params = {**params, **CHEAP[system]} if draw(st.booleans()) else params
    req: dict[str, Any] = {"op": op, "system": system, "lang": draw(st.sampled_from(["fr", "en"]))}
    if op in ("oppose", "oppose_odds"):
        req["actor"] = params
        req["opponent"] = draw(params_of(fields))
    elif op == "compare":
        req["a"], req["b"] = params, draw(params_of(fields))
    else:
        req["params"] = params
    if op in ("roll", "oppose", "fairness") and draw(st.booleans()):
        req["seed"] = draw(SEEDS)
    if op == "luck":
        req["margins"] = draw(st.one_of(st.lists(st.integers(-5, 5), max_size=3),
                                        st.sampled_from([None, [True], "1", [10**7]])))
    if op == "fairness":
        req["n"] = draw(st.sampled_from([1, 2, 0, 5001, True, "3", None]))
        req["previous"] = draw(st.sampled_from([None, {}, {"nope": 1}, []]))
    if op == "sweep":
        req["field"] = draw(st.sampled_from(["diff", "difficulty", "modifier", "threshold",
                                             "bonus", "nope", 3]))
        req["values"] = draw(st.sampled_from([None, [1, 2], [], [1, 1], [0, 99], "1", [True]]))
    return req


@st.composite
def system_requests(draw: Any) -> dict[str, Any]:
    op = draw(st.sampled_from(["roll", "dice", "odds", "oppose", "oppose_odds", "luck",
                               "fairness", "sweep", "compare"]))
    return request_of(draw, op, draw(SYSTEM_IDS))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(system_requests())
# Found by Hypothesis (issue 21): valid to `validate`, refused or not by the roll by its dice.
@example({"op": "roll", "system": "pool", "params": {"placement": [0]}})
def test_validate_agrees_with_every_system_op(request: dict[str, Any]) -> None:
    same_check(request)


@st.composite
def table_requests(draw: Any) -> dict[str, Any]:
    op = draw(st.sampled_from(["combat", "sources", "effort", "qr"]))
    req: dict[str, Any] = {"op": op}
    if op == "combat":
        steps = FIELDS["steps"]
        req["params"] = draw(params_of(TABLE["combat"]["fields"]))
        for side in ("actor", "opponent"):
            side_fields = steps + TABLE["combat"]["participant"]
            req[side] = draw(params_of(side_fields))
        if draw(st.booleans()):
            req["seed"] = draw(SEEDS)
    elif op == "qr":
        req["text"] = draw(st.one_of(st.sampled_from(["", "x" * 2001, "https://x/#r=1"]), JUNK))
    else:
        req["params"] = draw(params_of(TABLE[op]["fields"]))
    return req


@settings(max_examples=300, deadline=None)
@given(table_requests())
def test_validate_agrees_with_the_table_ops(request: dict[str, Any]) -> None:
    same_check(request)


def test_validate_rolls_nothing_and_answers_the_params_as_read() -> None:
    result = ok({"op": "validate", "request": {"op": "roll", "system": "pool",
                                                "params": {"pot": "5", "diff": " 3 "}}})
    assert result["valid"] is True
    assert result["params"]["pot"] == 5 and result["params"]["diff"] == 3
    assert "dice" not in result and "seed" not in result and "outcome" not in result


def test_validate_keeps_each_error_field_and_message() -> None:
    request = {"op": "oppose", "system": "d6", "actor": {}, "opponent": {"skill": 99},
               "lang": "en"}
    error = err({"op": "validate", "request": request})
    assert error == err(request)
    assert error["field"] == "opponent.skill" and "Skill" in error["message"]


def test_validate_of_typed_faces_checks_the_placement_they_allow() -> None:
    # A placement on a Flame die showing 1 is refused only once the faces are known.
    request = {"op": "roll", "system": "pool",
               "params": {"pot": 2, "flame": 1, "augmentations": 1, "placement": [1],
                          "dice": [4], "flame_dice": [1]}}
    assert err({"op": "validate", "request": request}) == err(request)
    assert err(request)["field"] == "placement"


def test_validate_refuses_what_is_not_a_request() -> None:
    for bad in (None, [], "roll"):
        error = err({"op": "validate", "request": bad})
        assert (error["code"], error["field"]) == ("invalid_param", "request")
    nested = err({"op": "validate", "request": {"op": "validate", "request": {}}})
    assert (nested["code"], nested["field"]) == ("invalid_param", "op")
    unknown = err({"op": "validate", "request": {"op": "nope"}})
    assert unknown == err({"op": "nope"})


def test_the_registry_gives_the_limits_of_typed_faces() -> None:
    # The page cuts a faces box at the engine's own limit (no JS constant).
    from pyrules.fields import FACES_MAX

    for system in DESCRIPTION["systems"]:
        for field in system["fields"]:
            if field["type"] in ("faces", "placement", "list"):
                # Free dice throw up to 100 dice, with their rerolls and explosions.
                most = 1000 if system["id"] == "notation" else FACES_MAX
                assert field["max_items"] == most, (system["id"], field["name"])
                assert field["max_length"] == most * 5
    long_text = " ".join(["1"] * 200)[: FACES_MAX * 5 + 1]
    error = err({"op": "roll", "system": "pool", "params": {"dice": long_text}})
    assert (error["code"], error["field"]) == ("invalid_param", "dice")


def test_typed_whole_numbers_are_read_by_the_engine() -> None:
    # The page sends an int field's text as typed: the engine reads it or names the field.
    assert ok({"op": "validate", "request": {"op": "odds", "system": "pool",
                                              "params": {"pot": "+7"}}})["params"]["pot"] == 7
    huge = err({"op": "odds", "system": "pool", "params": {"pot": "9" * 20}})
    assert huge == err({"op": "odds", "system": "pool", "params": {"pot": 10**20}})
    assert huge["code"] == "invalid_param" and huge["field"] == "pot"
    assert err({"op": "odds", "system": "pool", "params": {"pot": "1.5"}})["field"] == "pot"


# -- oppose: each side's own result and luck, so the page sends nothing back down ---------

OWN_SIDES = {"pool": ({"pot": 5, "flame": 2}, {"pot": 4}), "d6": ({"attribute": 3}, {}),
             "d100": ({"value": 60}, {"value": 40}), "steps": ({"bonus": 2}, {"threshold": 9}),
             "notation": ({"expression": "2d6"}, {"expression": "1d12"})}


def single(system: str, params: dict[str, Any], side: dict[str, Any]) -> dict[str, Any]:
    """The side's dice resolved as a single roll of its own params (the page's old way)."""
    plan = ok({"op": "dice", "system": system, "params": params})["groups"]
    faces = {g["field"]: [d["rolled"] for d in side["dice"] if d["kind"] == g["kind"]]
             for g in plan}
    return ok({"op": "roll", "system": system, "params": {**params, **faces}})


def test_oppose_gives_each_side_its_own_result_and_luck() -> None:
    for system, (actor, opponent) in OWN_SIDES.items():
        for seed in range(12):
            answer = ok({"op": "oppose", "system": system, "actor": actor,
                         "opponent": opponent, "seed": seed})
            for name, params in (("actor", actor), ("opponent", opponent)):
                own = answer[name]["own"]
                if system != "notation":  # its faces include rerolls: checked by luck below
                    alone = single(system, params, answer[name])
                    assert (own["outcome"], own["margin"]) == (alone["outcome"], alone["margin"])
                luck = ok({"op": "luck", "system": system, "params": params,
                           "margins": [own["margin"]]})
                assert own["luck"] == luck["percentiles"][0]
                assert own["luck_exact"] == luck["exact"][0]


def test_physical_oppositions_have_no_luck() -> None:
    answer = ok({"op": "oppose", "system": "steps", "actor": {"dice": [5]},
                 "opponent": {"dice": [2]}})
    assert answer["actor"]["own"]["luck"] is None and answer["opponent"]["own"]["luck"] is None
    # Judged alone against its own threshold, not against the other side's total.
    alone = ok({"op": "roll", "system": "steps", "params": {"dice": [5]}})
    assert answer["actor"]["own"]["margin"] == alone["margin"]


def test_a_seed_replays_the_dice_a_placement_moves() -> None:
    # The page re-places Flame dice by sending the same request, its seed and the placement:
    # the engine replays the dice (never sent back down) and applies the moves it allows.
    params = {"pot": 6, "flame": 3, "augmentations": 2, "diminutions": 1}
    checked = 0
    for seed in range(40):
        first = ok({"op": "roll", "system": "pool", "params": params, "seed": seed})
        flame = [d for d in first["dice"] if d["kind"] == "flame"]
        moves = first["placement_moves"]
        place = [0] * len(flame)
        legal = next((i for i, m in enumerate(moves) if m["plus"]), None)
        if legal is None:
            continue
        place[legal] = 1
        again = ok({"op": "roll", "system": "pool", "params": {**params, "placement": place},
                    "seed": seed})
        assert [d["rolled"] for d in again["dice"]] == [d["rolled"] for d in first["dice"]]
        assert again["seed"] == seed and again["placement"] == place
        moved = [d for d in again["dice"] if d["kind"] == "flame"][legal]
        assert moved["final"] == moved["rolled"] + 1
        checked += 1
    assert checked > 10


def test_the_d6_sheet_says_where_its_efforts_per_day_come_from() -> None:
    # The page reads efforts per day from the registry (no copy in JS): the field it names
    # is the d6 Flame, and the effort op counts as many per day.
    d6 = next(s for s in DESCRIPTION["systems"] if s["id"] == "d6")
    per_day = d6["sheet"]["efforts_per_day"]
    assert per_day["field"] in {f["name"] for f in d6["fields"]}
    assert set(per_day["label"]) == set(per_day["restore"]) == {"fr", "en"}
    for flame in range(0, 8):
        answer = ok({"op": "effort", "params": {per_day["field"]: flame, "action": "check"}})
        assert answer["per_day"] == answer["available"] == flame


def test_the_registry_gives_the_fairness_cap_the_op_keeps() -> None:
    for system in DESCRIPTION["systems"]:
        cap = system["limits"]["fairness_n"]
        request = {"op": "fairness", "system": system["id"], "params": CHEAP[system["id"]],
                   "seed": 1}
        assert ok({"op": "validate", "request": {**request, "n": cap}})["valid"]
        assert err({**request, "n": cap + 1})["field"] == "n"


def test_valid_requests_of_every_op_are_valid_without_their_work() -> None:
    requests = [
        {"op": "systems"}, {"op": "version"}, {"op": "qr", "text": "https://x/#r=1"},
        {"op": "sources", "params": {"aspect": 2}}, {"op": "effort", "params": {"flame": 2}},
        {"op": "sweep", "system": "pool", "field": "diff", "params": {"pot": 3}},
        {"op": "sweep", "system": "steps", "field": "bonus", "values": [0, 1]},
        {"op": "compare", "system": "d6", "a": {}, "b": {"effort": True}},
        {"op": "fairness", "system": "d100", "params": {}, "n": 5000, "seed": 3},
        {"op": "luck", "system": "pool", "params": {"pot": 3}, "margins": [0, 2]},
        {"op": "combat", "params": {"kind": "ranged"}, "actor": {"ardeur": 3}, "opponent": {}},
        {"op": "oppose", "system": "pool", "actor": {"dice": [1, 2, 3, 4, 5, 6]},
         "opponent": {"dice": [6, 6, 6, 6, 6, 6]}},
    ]
    for request in requests:
        checked = ok({"op": "validate", "request": request})
        assert checked["valid"] is True and checked["op"] == request["op"]
        assert ok(request)  # and the op itself accepts it
        # Nothing of the op's work is in the answer: no rows, no counts, no matrix, no dice.
        assert not {"rows", "counts", "size", "groups", "winner", "dice", "exact"} & set(checked)


PLACED = {"pot": 3, "flame": 1, "augmentations": 1, "placement": [1]}


@pytest.mark.parametrize("request_", [
    {"op": "roll", "system": "pool", "params": PLACED},
    {"op": "roll", "system": "pool", "params": {"placement": [0]}},
    {"op": "oppose", "system": "pool", "actor": PLACED, "opponent": {}},
    {"op": "oppose", "system": "pool", "actor": {}, "opponent": PLACED},
    {"op": "fairness", "system": "pool", "params": PLACED, "n": 3, "seed": 5},
])
def test_a_placement_on_unknown_dice_is_refused_by_the_op_and_by_validate(
        request_: dict[str, Any]) -> None:
    """Issue 21: a placement only means something on known dice; without a seed or typed
    faces it is refused up front (the same answer every time, whatever the dice)."""
    for _ in range(5):
        e = err(request_)
        assert e["field"].endswith("placement") and e["code"] == "invalid_param"
        assert call({"op": "validate", "request": request_}) == call(request_)
    assert "graine" in e["message"]


def test_a_placement_on_known_dice_is_checked_against_them() -> None:
    seeded = {"op": "roll", "system": "pool", "params": PLACED, "seed": 3}
    same_check(seeded)
    typed = {"op": "roll", "system": "pool",
             "params": {**PLACED, "dice": [4, 4], "flame_dice": [3]}}
    assert ok(typed)["placement"] == [1]
    assert err({**typed, "params": {**typed["params"], "flame_dice": [6]}})["field"] == (
        "placement")
    assert ok({"op": "oppose", "system": "pool", "actor": PLACED, "opponent": {}, "seed": 9})


# -- issue 21: characters and sheet rolls --------------------------------------------------

SHEETS = {s["id"]: s["sheet"] for s in DESCRIPTION["systems"]}
LABELS = st.sampled_from(["Combat", "", " ", "x" * 61, 5, None])
ONE_IN_TEN = st.sampled_from([False] * 9 + [True])  # False first: what Hypothesis favours
ONE_IN_FOUR = st.sampled_from([False] * 3 + [True])


@st.composite
def entries(draw: Any, system: str) -> Any:
    entry: dict[str, Any] = {"label": draw(LABELS)}
    if draw(st.booleans()):
        entry["params"] = draw(params_of(FIELDS[system])) if draw(st.booleans()) else {}
    if draw(st.booleans()):
        entry["id"] = draw(st.sampled_from(["e-1", "", 7, "e" * 101]))
    if SHEETS[system]["extras"] and draw(st.booleans()):
        entry["sources"] = draw(params_of(SHEETS[system]["extras"]))
    return draw(st.one_of(st.just(entry), JUNK))


@st.composite
def characters(draw: Any) -> Any:
    system = draw(SYSTEM_IDS)
    rare = draw(ONE_IN_TEN)  # one character in ten gets a wrong system or name
    c: dict[str, Any] = {"system": draw(st.sampled_from(["nope", None, 3])) if rare else system,
                         "name": draw(LABELS) if rare else "Aldo"}
    stats = SHEETS[system]["stats"]
    if draw(st.booleans()):
        c["stats"] = draw(params_of(stats)) if stats else draw(
            st.sampled_from([None, {}, [], {"nope": 1}]))
    if draw(st.booleans()):
        c["entries"] = draw(st.lists(entries(system), max_size=3))
    for key, values in (("pc", [True, False, "yes", None]), ("note", ["", "n", 4]),
                        ("id", ["c-1", "", 4]), ("created", ["2024-01-01T00:00:00Z", "x"]),
                        ("colour", ["red"])):
        if draw(ONE_IN_TEN if key == "colour" else ONE_IN_FOUR):
            c[key] = draw(st.sampled_from(values))
    return draw(st.one_of(st.just(c), JUNK)) if draw(st.integers(0, 9)) == 0 else c


@st.composite
def character_requests(draw: Any) -> dict[str, Any]:
    op = draw(st.sampled_from(["character", "characters", "roll", "dice", "oppose"]))
    lang = draw(st.sampled_from(["fr", "en"]))
    if op == "character":
        return {"op": op, "character": draw(characters()), "lang": lang}
    if op == "characters":
        return {"op": op, "characters": draw(st.one_of(st.lists(characters(), max_size=3),
                                                       JUNK)), "lang": lang}
    c = draw(characters())
    system = c.get("system") if isinstance(c, dict) and c.get("system") in FIELDS else "d6"
    listed = c.get("entries") if isinstance(c, dict) else None
    ids = [e["id"] for e in listed or [] if isinstance(e, dict) and "id" in e]
    inner: dict[str, Any] = {"character": c}
    if draw(st.booleans()):
        inner["entry"] = draw(st.sampled_from([*ids, "e-none", 3]))
    if draw(st.booleans()):
        inner["situation"] = draw(params_of(SHEETS[system]["situation"] or FIELDS[system]))
    params: Any = {"sheet": inner}
    req: dict[str, Any] = {"op": op, "system": system, "lang": lang}
    if op == "oppose":
        req["actor"], req["opponent"] = params, draw(params_of(FIELDS[system]))
    else:
        req["params"] = params
    if op != "dice" and draw(st.booleans()):
        req["seed"] = draw(SEEDS)
    return req


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(character_requests())
@example({"op": "roll", "system": "d6", "seed": 1, "params": {"sheet": {
    "character": {"system": "d6", "name": "A", "stats": {"flame": 1, "efforts_used": 1}},
    "situation": {"effort": True}}}})
def test_validate_agrees_with_the_character_ops_and_sheet_rolls(request: dict[str, Any]) -> None:
    """What validate answers of a character or a sheet roll is what the op answers (the ids
    and dates a character gets are made fresh by each call: compared without them)."""
    checked = call({"op": "validate", "request": request})
    answer = call(request)
    if answer["ok"]:
        assert checked["ok"] and checked["result"]["valid"] is True, (request, checked)
    else:
        assert checked == answer, request
