"""The `validate` op: any other op's request checked exactly as that op checks it (same
error code, field and message), without rolling or computing.

Property-style: requests are drawn from the registry's own fields and bounds (values inside,
at and beyond each bound, of the wrong type, unknown keys), for every op that takes params.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyrules.registry import SYSTEMS, describe

from .helpers import call, err, ok

DESCRIPTION = describe()
FIELDS = {s["id"]: s["fields"] for s in DESCRIPTION["systems"]}
TABLE = DESCRIPTION["table"]
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
