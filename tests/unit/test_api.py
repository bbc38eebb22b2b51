"""The JSON contract: systems description, rolls, seeds, odds, errors of every kind."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction

import pytest

from pyrules import __version__
from pyrules.api import handle
from pyrules.registry import SYSTEMS

from .helpers import call, err, ok

EXPECTED_OUTCOMES = {
    "pool": ["critical_success", "success", "failure", "fumble"],
    "d6": ["excellent_success", "superior_success", "success", "failure", "grave_failure",
           "disastrous_failure"],
    "d100": ["exceptional_success", "remarkable_success", "notable_success", "simple_success",
             "narrow_success", "poor_success", "simple_failure", "bitter_failure",
             "critical_failure"],
    "steps": ["success", "failure"],
    "notation": ["total", "success", "failure"],
}
EXPECTED_FIELDS = {
    "pool": {"pot", "diff", "flame", "augmentations", "diminutions", "modifiers", "actor_size",
             "target_size", "complexity", "size_rule", "fumble_rule", "placement", "dice",
             "flame_dice"},
    "d6": {"attribute", "skill", "difficulty", "effort", "flame", "clarity", "take_time",
           "elementary", "instinct", "impact", "pc", "dice"},
    "d100": {"value", "level", "modifier", "dice"},
    "steps": {"die", "threshold", "bonus", "edge", "edge_rule", "weapons", "protections",
              "dice"},
    "notation": {"expression", "grammar", "dice"},
}


def test_systems_describes_every_system() -> None:
    res = ok({"op": "systems"})
    assert res["version"] == __version__
    ids = [s["id"] for s in res["systems"]]
    assert ids == ["pool", "d6", "d100", "steps", "notation"]
    for s in res["systems"]:
        assert s["name"]["fr"] and s["name"]["en"]
        assert [o["id"] for o in s["outcomes"]] == EXPECTED_OUTCOMES[s["id"]]
        assert {f["name"] for f in s["fields"]} == EXPECTED_FIELDS[s["id"]]
        for f in s["fields"]:
            assert f["label"]["fr"] and f["label"]["en"]
            assert f["type"] in ("int", "bool", "choice", "text", "faces", "placement", "list")
            if f["type"] == "int":
                assert f["min"] <= (f["default"] if f["default"] is not None else f["min"])
                assert f["default"] is None or f["default"] <= f["max"]
            if f["type"] == "choice" and f["default"] is not None:
                assert f["default"] in [c["value"] for c in f["choices"]]
        for o in s["outcomes"]:
            assert o["label"]["fr"] and o["label"]["en"]
            assert isinstance(o["success"], bool)


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_defaults_roll_and_result_shape(system: str) -> None:
    r = ok({"op": "roll", "system": system, "seed": 42})
    for key in ("system", "outcome", "success", "margin", "seed", "explanation", "dice"):
        assert key in r
    assert r["seed"] == 42
    if system == "notation":  # a total (3d6): no outcome, success or margin (issue 22)
        assert r["outcome"] is r["success"] is r["margin"] is None
        assert r["headline"] == r["total"]
    else:
        assert r["outcome"] in EXPECTED_OUTCOMES[system]
        assert isinstance(r["margin"], int)
    assert r["explanation"] == r["explanations"]["fr"]
    assert len(r["explanations"]["en"]) == len(r["explanation"]) > 0
    for d in r["dice"]:
        assert set(d) == {"sides", "rolled", "final", "kind", "value", "tags", "delta"}
        assert d["kind"] in ("normal", "flame", "black_flame")
        assert 1 <= d["rolled"] <= d["sides"]


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_same_seed_same_roll_and_replay_from_reported_seed(system: str) -> None:
    a = ok({"op": "roll", "system": system, "seed": 2024})
    b = ok({"op": "roll", "system": system, "seed": 2024})
    assert a == b
    fresh = ok({"op": "roll", "system": system})
    assert isinstance(fresh["seed"], int) and 0 <= fresh["seed"] < 2**53
    replay = ok({"op": "roll", "system": system, "seed": fresh["seed"]})
    assert replay == fresh


def test_unseeded_rolls_differ() -> None:
    seeds = {ok({"op": "roll", "system": "d100"})["seed"] for _ in range(20)}
    assert len(seeds) == 20


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_physical_faces_give_the_same_verdict_as_the_rng(system: str) -> None:
    rolled = ok({"op": "roll", "system": system, "seed": 7, "params": {}})
    plan = ok({"op": "dice", "system": system, "params": {}})["groups"]
    params: dict = {}
    i = 0
    for g in plan:
        params[g["field"]] = [d["rolled"] for d in rolled["dice"][i:i + g["count"]]]
        i += g["count"]
    typed = ok({"op": "roll", "system": system, "params": params})
    assert typed["physical"] and typed["seed"] is None
    for key in ("outcome", "margin", "dice", "explanation"):
        assert typed[key] == rolled[key]


def test_faces_may_be_given_as_text() -> None:
    r = ok({"op": "roll", "system": "pool", "params": {"pot": 3, "dice": "1, 6 4"}})
    assert [d["rolled"] for d in r["dice"]] == [1, 6, 4]


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_odds_are_exact_fractions_summing_to_one(system: str) -> None:
    res = ok({"op": "odds", "system": system, "params": {}})
    # notation's default (3d6) is a total: its one outcome, and no chance of success.
    outcomes = ["total"] if system == "notation" else EXPECTED_OUTCOMES[system]
    assert list(res["exact"]) == outcomes
    assert sum(Fraction(v) for v in res["exact"].values()) == 1
    assert sum(Fraction(v) for v in res["margins"].values()) == 1
    for k, v in res["exact"].items():
        assert res["probabilities"][k] == pytest.approx(float(Fraction(v)))
    if system == "notation":
        assert res["success"] is res["success_probability"] is None
        return
    success = sum(Fraction(res["exact"][o.id]) for o in SYSTEMS[system].outcomes if o.success)
    assert Fraction(res["success"]) == success


def test_lang_switches_messages_and_explanations() -> None:
    fr = ok({"op": "roll", "system": "d100", "params": {"dice": [42], "value": 60}})
    en = ok({"op": "roll", "system": "d100", "lang": "en",
             "params": {"dice": [42], "value": 60}})
    assert fr["explanation"] != en["explanation"]
    assert en["explanation"] == fr["explanations"]["en"]
    assert "entre" in err({"op": "roll", "system": "d100", "params": {"value": 999}})["message"]
    assert "between" in err({"op": "roll", "system": "d100", "lang": "en",
                             "params": {"value": 999}})["message"]


# -- errors of every kind ----------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "{", "nope", "[1,", '{"op": "roll",}', "\x00"])
def test_invalid_json(text: str) -> None:
    answer = json.loads(handle(text))
    assert answer == {"ok": False, "error": {"code": "invalid_json", "field": None,
                                             "message": answer["error"]["message"]}}
    assert answer["error"]["message"]


@pytest.mark.parametrize("text", ["[]", "3", '"roll"', "null"])
def test_json_that_is_not_an_object(text: str) -> None:
    assert json.loads(handle(text))["error"]["code"] == "invalid_json"


def test_huge_and_deep_requests() -> None:
    assert json.loads(handle("[" * 100_000))["error"]["code"] == "invalid_json"
    deep = '{"op":' + "[" * 5000 + "]" * 5000 + "}"
    assert json.loads(handle(deep))["ok"] is False
    assert json.loads(handle('{"op":"roll","seed":' + "9" * 5000 + "}"))["ok"] is False


@pytest.mark.parametrize("op", [None, "rol", 3, ["roll"], "SYSTEMS"])
def test_unknown_op(op: object) -> None:
    e = err({"op": op, "system": "pool"})
    assert e["code"] == "unknown_op"
    assert e["field"] == "op"


@pytest.mark.parametrize("system", [None, "Pool", "d20", 6, {}])
def test_unknown_system(system: object) -> None:
    e = err({"op": "roll", "system": system})
    assert e["code"] == "unknown_system"
    assert e["field"] == "system"
    assert "pool" in e["message"]


@pytest.mark.parametrize(
    ("system", "params", "field"),
    [
        ("pool", {"pot": 0}, "pot"),
        ("pool", {"pot": 41}, "pot"),
        ("pool", {"pot": "six"}, "pot"),
        ("pool", {"pot": 2.5}, "pot"),
        ("pool", {"pot": True}, "pot"),
        ("pool", {"diff": 10}, "diff"),
        ("pool", {"flame": -11}, "flame"),
        ("pool", {"fumble_rule": "strict"}, "fumble_rule"),
        ("pool", {"modifiers": "+100D"}, "modifiers"),
        ("pool", {"modifiers": 3}, "modifiers"),
        ("pool", {"modifiers": "x" * 41}, "modifiers"),
        ("pool", {"dice": [1, 2]}, "dice"),
        ("pool", {"pot": 3, "flame": 1, "dice": [1, 2], "flame_dice": [7]}, "flame_dice"),
        ("pool", {"pot": 3, "flame": 1, "dice": [1, 2]}, "flame_dice"),
        ("pool", {"pot": 2, "dice": [1, 2], "flame_dice": [3]}, "flame_dice"),
        ("pool", {"dice": "1, deux"}, "dice"),
        ("pool", {"dice": {"a": 1}}, "dice"),
        ("pool", {"placement": "x"}, "placement"),
        ("pool", {"colour": "red"}, "colour"),
        ("d6", {"effort": "yes"}, "effort"),
        ("d6", {"flame": 8}, "flame"),
        ("d6", {"impact": -1}, "impact"),
        ("d6", {"dice": [0]}, "dice"),
        ("d6", {"effort": True, "dice": [3]}, "dice"),
        ("d100", {"level": "legendary"}, "level"),
        ("d100", {"modifier": 201}, "modifier"),
        ("d100", {"dice": [1, 2]}, "dice"),
        ("steps", {"die": 20}, "die"),
        ("steps", {"threshold": 13}, "threshold"),
        ("steps", {"edge": "bonus"}, "edge"),
        ("steps", {"edge": "advantage", "edge_rule": "keep", "dice": [3]}, "dice"),
    ],
)
def test_invalid_params_name_the_field(system: str, params: dict, field: str) -> None:
    e = err({"op": "roll", "system": system, "params": params})
    assert e["code"] == "invalid_param"
    assert e["field"] == field
    assert e["message"]


def test_params_must_be_an_object() -> None:
    e = err({"op": "roll", "system": "pool", "params": [1]})
    assert (e["code"], e["field"]) == ("invalid_param", "params")


@pytest.mark.parametrize("seed", [-1, 2**53, 1.5, "12", True])
def test_bad_seed(seed: object) -> None:
    e = err({"op": "roll", "system": "pool", "seed": seed})
    assert (e["code"], e["field"]) == ("invalid_param", "seed")


def test_bad_lang() -> None:
    e = err({"op": "systems", "lang": "de"})
    assert (e["code"], e["field"]) == ("invalid_param", "lang")


def test_oppose_errors_name_the_side() -> None:
    e = err({"op": "oppose", "system": "pool", "actor": {"pot": 99}, "opponent": {}})
    assert e["field"] == "actor.pot"
    e = err({"op": "oppose", "system": "d6", "actor": {}, "opponent": {"dice": [9]}})
    assert e["field"] == "opponent.dice"
    e = err({"op": "oppose", "system": "d6", "actor": 3, "opponent": {}})
    assert e["field"] == "actor.params"


def test_oppose_with_one_side_physical_is_refused() -> None:
    # Issue 14: faces come only from the RNG or from physical dice typed for this roll
    # (both sides, no seed). One loaded side in a seeded opposition was a loaded roll.
    for seed in (5, None):
        req = {"op": "oppose", "system": "steps", "actor": {"dice": [8]}, "opponent": {}}
        if seed is not None:
            req["seed"] = seed
        e = err(req)
        assert (e["code"], e["field"]) == ("faces_in_sheet", "actor.dice")
    both = ok({"op": "oppose", "system": "steps",
               "actor": {"dice": [8]}, "opponent": {"dice": [3]}})
    assert both["physical"] is True and both["actor"]["dice"][0]["rolled"] == 8


def test_null_means_default() -> None:
    a = ok({"op": "roll", "system": "pool", "seed": 1, "params": {"pot": None, "diff": None}})
    b = ok({"op": "roll", "system": "pool", "seed": 1, "params": {}})
    assert a == b


def test_version_op() -> None:
    systems = ok({"op": "systems"})
    assert call({"op": "version"}) == {
        "ok": True, "result": {"version": __version__, "digest": systems["digest"]}}


def test_the_digest_is_the_description_s_and_follows_any_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The page skips its ``systems`` call when the engine's digest is the one of the
    description it was drawn from (issue 40): the digest changes with any change of it."""
    from pyrules import registry

    systems = ok({"op": "systems"})
    described = {k: v for k, v in systems.items() if k != "digest"}
    text = json.dumps(described, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert systems["digest"] == hashlib.sha256(text.encode()).hexdigest()[:16]
    before = ok({"op": "version"})["digest"]
    other = type(registry.SYSTEMS["pool"])()  # another pool system, citing another document
    other.doc = "another document"
    monkeypatch.setitem(registry.SYSTEMS, "pool", other)
    after = ok({"op": "version"})["digest"]
    assert after != before and after == ok({"op": "systems"})["digest"]
    monkeypatch.undo()
    assert ok({"op": "version"})["digest"] == before


def test_a_field_says_which_field_it_replaces() -> None:
    """d100: a chosen level replaces the value (forms grey it out, summaries leave it out);
    no other field replaces anything, and the roll uses the level's score."""
    systems = {s["id"]: s for s in call({"op": "systems"})["result"]["systems"]}
    replacing = {
        (sid, f["name"]): f["replaces"]
        for sid, s in systems.items()
        for f in s["fields"]
        if "replaces" in f
    }
    assert replacing == {("d100", "level"): "value"}
    params = {"level": "master", "value": 45}
    result = call({"op": "roll", "system": "d100", "params": params, "seed": 1})["result"]
    assert result["value"] == 75


def test_deep_nesting_is_refused_before_parsing() -> None:
    # 5,000 "[" overflowed the wasm stack of Pyodide (a fatal error, not a RecursionError).
    nested = '{"op":"roll","params":' + "[" * 40 + "]" * 40 + "}"
    for text in ("[" * 5000, "[" * 5000 + "]" * 5000, nested):
        answer = json.loads(handle(text))
        assert answer["ok"] is False
        assert answer["error"]["code"] == "invalid_json"
        assert "32" in answer["error"]["message"]
    # Brackets inside strings do not count, and a request at the limit is read.
    deep_text = json.dumps({"op": "version", "note": "[" * 500})
    assert json.loads(handle(deep_text))["ok"] is True
    at_limit = '{"op":"version","x":' + "[" * 31 + "]" * 31 + "}"
    assert json.loads(handle(at_limit))["ok"] is True


def test_a_seeded_roll_refuses_faces_from_a_sheet() -> None:
    e = err({"op": "roll", "system": "steps", "seed": 3, "params": {"dice": [4]}})
    assert (e["code"], e["field"]) == ("faces_in_sheet", "dice")
    # The same faces without a seed are a physical roll.
    res = ok({"op": "roll", "system": "steps", "params": {"dice": [4]}})
    assert res["physical"] is True and res["seed"] is None


def test_a_seeded_combat_refuses_stored_dice() -> None:
    e = err({"op": "combat", "params": {"kind": "melee"}, "seed": 4,
             "actor": {"die": 8, "ardeur": 5, "dice": [8]}, "opponent": {"ardeur": 5}})
    assert (e["code"], e["field"]) == ("faces_in_sheet", "actor.dice")
    e = err({"op": "combat", "params": {"kind": "melee"},
             "actor": {"ardeur": 5}, "opponent": {"ardeur": 5, "dice": [1]}})
    assert (e["code"], e["field"]) == ("faces_in_sheet", "opponent.dice")


def test_the_api_is_a_table_of_ops_and_one_error_class() -> None:
    """Issue 21: dispatch is a lookup in OPS; every refusal derives from PyrulesError."""
    from pyrules.api import OPS, ApiError
    from pyrules.cli import CliError
    from pyrules.errors import PyrulesError
    from pyrules.fields import ParamError
    from pyrules.ops import Op

    assert all(isinstance(op, Op) and callable(op.parse) and callable(op.run)
               for op in OPS.values())
    assert {"roll", "validate", "combat", "systems"} <= set(OPS)
    for cls in (ApiError, ParamError, CliError):
        assert issubclass(cls, PyrulesError)
    listed = err({"op": "nope"})["message"]
    assert all(name in listed for name in OPS)
