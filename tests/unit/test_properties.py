"""Hypothesis properties over the whole API, with params drawn from the registry itself."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyrules.api import handle
from pyrules.fields import Field
from pyrules.registry import SYSTEMS

from .helpers import call

CODES = {"invalid_json", "unknown_op", "unknown_system", "invalid_param"}
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def field_strategy(f: Field) -> st.SearchStrategy[Any]:
    if f.kind == "int":
        assert f.min is not None and f.max is not None
        return st.integers(f.min, f.max)
    if f.kind == "bool":
        return st.booleans()
    if f.kind == "choice":
        values = [c.value for c in f.choices]
        return st.sampled_from([*values, None]) if f.optional else st.sampled_from(values)
    if f.kind == "text" and f.name == "expression":  # free dice notation
        mods = st.sampled_from(["", "kh1", "kl1", "dl1", "!", "ro1", ">=3", "<2", "!kh1",
                                "!!", "r<2", "dh1dl1", ">=3f1", "mi2"])
        group = st.tuples(st.sampled_from("+-"), st.integers(2, 4),
                          st.sampled_from(["4", "6", "10", "F"]), mods)
        return st.lists(group, min_size=1, max_size=3).map(
            lambda gs: "".join(f"{s}{n}d{d}{m}" for s, n, d, m in gs).lstrip("+"))
    if f.kind == "text":  # pool modifiers in the document's notation
        term = st.tuples(st.sampled_from("+-"), st.integers(0, 3), st.sampled_from(["D", "DF", ""]))
        return st.lists(term, max_size=3).map(lambda ts: "".join(f"{s}{n}{u}" for s, n, u in ts))
    if f.kind == "list":  # several bonuses (weapons, protections), or none listed
        assert f.min is not None and f.max is not None
        return st.none() | st.lists(st.integers(f.min, f.max), max_size=4)
    return st.none()  # faces and placement: let the engine roll and place


@st.composite
def system_params(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    system_id = draw(st.sampled_from(list(SYSTEMS)))
    params = {f.name: draw(field_strategy(f)) for f in SYSTEMS[system_id].fields}
    return system_id, params


def answer(request: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(handle(json.dumps(request)))
    return out


@SETTINGS
@given(system_params(), st.integers(0, 2**53 - 1))
def test_a_rolled_outcome_always_has_non_zero_odds(sp: tuple[str, dict], seed: int) -> None:
    system_id, params = sp
    roll = answer({"op": "roll", "system": system_id, "params": params, "seed": seed})
    if not roll["ok"]:  # modifiers may push the pool out of its bounds: a clear error
        assert roll["error"]["code"] == "invalid_param"  # (notation: a modifier grammar 1
        assert roll["error"]["field"] == ("expression" if system_id == "notation"  # lacks)
                                          else "modifiers")
        return
    odds = answer({"op": "odds", "system": system_id, "params": params})["result"]
    r = roll["result"]
    if system_id == "notation":  # a total or a count: the number rolled is in the odds
        assert Fraction(odds["distribution"][str(r["total"])]) > 0
        assert r["headline"] == r["total"]
        if r["kind"] == "sum":
            assert r["outcome"] is r["success"] is r["margin"] is None
            return
        assert r["success"] == (r["total"] >= 1)  # a count: at least one success
        assert Fraction(odds["exact"][r["outcome"]]) > 0
        return
    assert Fraction(odds["exact"][r["outcome"]]) > 0
    assert Fraction(odds["margins"][str(r["margin"])]) > 0
    assert r["success"] == any(o.id == r["outcome"] and o.success
                               for o in SYSTEMS[system_id].outcomes)


@SETTINGS
@given(system_params(), st.integers(0, 2**53 - 1))
def test_the_same_seed_gives_the_same_result(sp: tuple[str, dict], seed: int) -> None:
    system_id, params = sp
    request = {"op": "roll", "system": system_id, "params": params, "seed": seed}
    assert handle(json.dumps(request)) == handle(json.dumps(request))
    opp = {"op": "oppose", "system": system_id, "actor": params, "opponent": params,
           "seed": seed}
    assert handle(json.dumps(opp)) == handle(json.dumps(opp))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_string_gets_a_json_answer(text: str) -> None:
    out = json.loads(handle(text))
    assert out["ok"] in (True, False)
    if not out["ok"]:
        assert out["error"]["code"] in CODES
        assert out["error"]["message"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=4),
    max_leaves=12,
)


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    system_id = draw(st.sampled_from([*SYSTEMS, "x"]))
    fields = [f.name for f in SYSTEMS[system_id].fields] if system_id in SYSTEMS else ["a"]
    params = draw(st.dictionaries(st.sampled_from(fields), json_values, max_size=5))
    req: dict[str, Any] = {
        "op": draw(st.sampled_from(["roll", "odds", "oppose", "dice", "systems", "x"])),
        "system": system_id,
        "params": params,
        "actor": params,
        "opponent": draw(st.dictionaries(st.sampled_from(fields), json_values, max_size=3)),
    }
    if draw(st.booleans()):
        req["seed"] = draw(json_values)
    if draw(st.booleans()):
        req["lang"] = draw(st.sampled_from(["fr", "en", "de", None, 3]))
    return req


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_arbitrary_requests_get_a_result_or_a_structured_error(req: dict[str, Any]) -> None:
    out = call(req)
    if not out["ok"]:
        assert out["error"]["code"] in CODES, out
        assert isinstance(out["error"]["message"], str) and out["error"]["message"]
        return
    result = out["result"]
    expected = {"roll": {"outcome", "success", "margin", "dice", "explanation", "seed"},
                "odds": {"exact", "probabilities", "margins"},
                "oppose": {"winner", "margin", "actor", "opponent"},
                "dice": {"groups"}, "systems": {"systems", "version"}}[req["op"]]
    if req["op"] == "dice" and "groups" not in result:  # both sides given: each its own groups
        expected = {"actor", "opponent"}
        assert {"groups"} <= set(result["actor"]) and {"groups"} <= set(result["opponent"])
    assert expected <= set(result), (req, result)
