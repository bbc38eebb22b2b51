"""The GM's tools: the odds as a curve (op ``sweep``) and two choices compared (``compare``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from pyrules.registry import SYSTEMS
from pyrules.sweep import COMPARE, MAX_VALUES, SWEEPS
from pyrules.systems.pool import successes_weights

from .helpers import err, ok

# Settings away from the defaults, so that a sweep that ignored them would differ.
PARAMS: dict[str, dict[str, Any]] = {
    "pool": {"pot": 7, "flame": 3, "augmentations": 2, "diff": 5, "actor_size": 1},
    "d6": {"attribute": 4, "skill": 3, "effort": True, "flame": 3, "clarity": 3,
           "difficulty": 12},
    "d100": {"value": 55, "modifier": -15},
    "steps": {"die": 6, "edge": "advantage", "edge_rule": "keep", "threshold": 4, "bonus": 1},
}
CASES = [(s, spec.field) for s, specs in SWEEPS.items() for spec in specs]


def odds(system: str, params: dict[str, Any]) -> dict[str, Any]:
    return ok({"op": "odds", "system": system, "params": params})


DOCUMENTED = ("pool", "d6", "d100", "steps")  # the four systems of the rules documents


def test_every_documented_system_has_a_sweep_and_a_comparison() -> None:
    assert set(DOCUMENTED) <= set(SWEEPS) and set(DOCUMENTED) <= set(COMPARE)
    described = {s["id"]: s for s in ok({"op": "systems"})["systems"]}
    for system, specs in SWEEPS.items():
        assert [d["field"] for d in described[system]["sweep"]] == [s.field for s in specs]
    for system in described.values():  # any other system is described too (maybe empty)
        assert isinstance(system["sweep"], list)
        assert system["compare"] is None or system["compare"]["fields"]


@pytest.mark.parametrize(("system", "field"), CASES)
def test_each_row_is_the_odds_op(system: str, field: str) -> None:
    spec = next(d for d in ok({"op": "systems"})["systems"] if d["id"] == system)
    sweep_spec = next(s for s in spec["sweep"] if s["field"] == field)
    values = list(range(sweep_spec["min"], sweep_spec["max"] + 1, sweep_spec["step"]))
    res = ok({"op": "sweep", "system": system, "params": PARAMS[system], "field": field,
              "values": values[:MAX_VALUES]})
    assert [r["value"] for r in res["rows"]] == values[:MAX_VALUES]
    for row in res["rows"]:
        expected = odds(system, {**PARAMS[system], field: row["value"]})
        assert row["exact"] == expected["exact"]
        assert row["success"] == expected["success"]
        assert row["probabilities"] == expected["probabilities"]


@pytest.mark.parametrize(("system", "field"), CASES)
def test_default_values_cover_the_current_one_and_every_change(system: str, field: str) -> None:
    res = ok({"op": "sweep", "system": system, "params": PARAMS[system], "field": field})
    values = [r["value"] for r in res["rows"]]
    assert res["current"] == PARAMS[system][field]
    assert res["current"] in values and values == sorted(values)
    # Only flat ends are trimmed: the value just outside each end gives the same odds.
    spec = next(s for s in SWEEPS[system] if s.field == field)
    f = next(f for f in SYSTEMS[system].fields if f.name == field)
    low = f.min if spec.low is None else spec.low
    high = f.max if spec.high is None else spec.high
    for edge, outside in ((values[0], values[0] - spec.step), (values[-1], values[-1] + spec.step)):
        if low <= outside <= high:
            assert odds(system, {**PARAMS[system], field: outside})["exact"] == \
                odds(system, {**PARAMS[system], field: edge})["exact"]


def test_half_names_the_even_chance() -> None:
    res = ok({"op": "sweep", "system": "pool", "params": {"pot": 6}, "field": "diff"})
    chance = {r["value"]: Fraction(r["success"]) for r in res["rows"]}
    half = res["half"]
    nearest = half["nearest"]
    assert all(abs(chance[nearest] - Fraction(1, 2)) <= abs(c - Fraction(1, 2))
               for c in chance.values())
    assert half["nearest_success"] == str(chance[nearest])
    assert half["between"] == [[4, 5]]  # POT 6: DIFF 4 is above 1/2, DIFF 5 below
    assert chance[4] > Fraction(1, 2) > chance[5]
    exact = ok({"op": "sweep", "system": "steps", "params": {"die": 8}, "field": "threshold"})
    assert exact["half"]["exact"] == [5] and exact["half"]["nearest"] == 5  # 4/8 on a D8


def test_largest_pool_sweep() -> None:
    params = {"pot": 40, "modifiers": "+10D+10DF+20", "flame": 10, "augmentations": 20}
    res = ok({"op": "sweep", "system": "pool", "params": params, "field": "diff",
              "values": list(range(1, 10))})
    assert res["rows"][-1]["exact"] == odds("pool", {**params, "diff": 9})["exact"]


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ({"field": "bogus"}, "field"),
        ({"field": "pot"}, "field"),  # a real field, but not sweepable
        ({"field": None}, "field"),
        ({"field": "diff", "values": [1, 10]}, "values.diff"),  # DIFF is 1..9
        ({"field": "diff", "values": [0]}, "values.diff"),
        ({"field": "diff", "values": list(range(MAX_VALUES + 1))}, "values"),
        ({"field": "diff", "values": []}, "values"),
        ({"field": "diff", "values": [2, 2]}, "values"),
        ({"field": "diff", "values": ["3"]}, "values"),
        ({"field": "diff", "values": [True]}, "values"),
        ({"field": "diff", "values": 3}, "values"),
        ({"field": "diff", "params": {"pot": 99}}, "pot"),
        ({"field": "diff", "params": {"nope": 1}}, "nope"),
        ({"field": "diff", "params": [1]}, "params"),
    ],
)
def test_bad_sweeps_name_the_field(request_: dict[str, Any], field: str) -> None:
    error = err({"op": "sweep", "system": "pool", "params": {}, **request_})
    assert error["code"] == "invalid_param"
    assert error["field"] == field
    assert error["message"]


def test_too_many_values_says_the_limit_in_both_languages() -> None:
    req = {"op": "sweep", "system": "d100", "field": "modifier",
           "values": list(range(-100, 100))}
    assert str(MAX_VALUES) in err(req)["message"]
    assert "distinct whole numbers" in err({**req, "lang": "en"})["message"]


# -- compare ---------------------------------------------------------------------------------


@pytest.mark.parametrize("system", list(COMPARE))
def test_compare_is_two_odds_and_their_difference(system: str) -> None:
    spec = next(d for d in ok({"op": "systems"})["systems"] if d["id"] == system)["compare"]
    a, b = dict(PARAMS[system]), dict(PARAMS[system])
    for side, params in ((spec["a"], a), (spec["b"], b)):
        params[side["field"]] = side["value"] if "value" in side else \
            params.get(side["field"], 0) + side["delta"]
    res = ok({"op": "compare", "system": system, "a": a, "b": b})
    oa, ob = odds(system, a), odds(system, b)
    assert res["a"]["exact"] == oa["exact"] and res["b"]["exact"] == ob["exact"]
    assert res["a"]["success"] == oa["success"] and res["b"]["success"] == ob["success"]
    for outcome in oa["exact"]:
        assert Fraction(res["difference"][outcome]) == \
            Fraction(ob["exact"][outcome]) - Fraction(oa["exact"][outcome])
    assert Fraction(res["success_difference"]) == \
        Fraction(ob["success"]) - Fraction(oa["success"])
    assert sum(Fraction(d) for d in res["difference"].values()) == 0
    assert set(spec["fields"]) <= {f["name"] for f in next(
        d for d in ok({"op": "systems"})["systems"] if d["id"] == system)["fields"]}


def test_compare_errors_name_the_side() -> None:
    assert err({"op": "compare", "system": "pool", "a": {"pot": 0}, "b": {}})["field"] == "a.pot"
    assert err({"op": "compare", "system": "d6", "a": {}, "b": {"x": 1}})["field"] == "b.x"
    assert err({"op": "compare", "system": "d6", "a": {}, "b": 4})["field"] == "b.params"


# -- document 000: "from Flame 3, an augmentation is statistically more interesting than an
# extra die" (see docs/rules.md). What the exact odds say about it:


def mean_successes(**params: Any) -> Fraction:
    p, _ = SYSTEMS["pool"].parse(params)
    weights = successes_weights(p)
    return Fraction(sum(s * w for s, w in weights.items()), 6**p.dice_count)


def success(**params: Any) -> Fraction:
    return Fraction(ok({"op": "odds", "system": "pool", "params": params})["success"])


@pytest.mark.parametrize("flame", range(0, 8))
def test_flame_3_claim_in_mean_successes(flame: int) -> None:
    pot = max(flame, 1) + 3
    base = mean_successes(pot=pot, flame=flame)
    die = mean_successes(pot=pot + 1, flame=flame) - base
    aug = mean_successes(pot=pot, flame=flame, augmentations=1) - base
    assert die == Fraction(2, 3)  # a d6 is worth 2/3 of a success on average
    # One augmentation adds a success when a Flame die shows 3 or 5: 1 - (2/3)^Flame.
    assert aug == 1 - Fraction(2, 3) ** flame
    assert (aug > die) == (flame >= 3)  # the claim holds exactly, in mean successes


def test_flame_3_claim_in_the_chance_of_success() -> None:
    """In the chance of succeeding, from Flame 3 the augmentation wins most (POT, DIFF), not
    all: a small POT against a high DIFF still prefers the extra die."""
    counts: dict[int, list[int]] = {}
    for flame in (2, 3, 6, 7):
        better = worse = 0
        for pot in range(flame, 21):
            for diff in range(1, 10):
                d = success(pot=pot, flame=flame, diff=diff, augmentations=1) - \
                    success(pot=pot + 1, flame=flame, diff=diff)
                better += d > 0
                worse += d < 0
        counts[flame] = [better, worse]
    assert counts[2][1] > 0.4 * sum(counts[2])  # Flame 2: the die wins almost half the time
    assert counts[3][0] > 5 * counts[3][1] > 0  # Flame 3: mostly better, not always
    assert counts[6][1] > 0 and counts[7][1] == 0  # Flame 7 (POT 7..20): always better
    assert success(pot=3, flame=3, diff=5, augmentations=1) < success(pot=4, flame=3, diff=5)


def test_a_system_without_presets_is_still_described() -> None:
    from pyrules.sweep import describe
    from pyrules.systems.d100 import D100System
    from pyrules.systems.steps import StepsSystem

    class Other(D100System):
        id = "other"

    class NoSettings(StepsSystem):
        id = "bare"
        fields = tuple(f for f in StepsSystem.fields if f.kind == "faces")

    other = describe(Other())
    assert other["sweep"] == []
    assert other["compare"]["a"] == {"field": "value", "delta": 0}
    assert other["compare"]["b"] == {"field": "value", "delta": 1}
    assert describe(NoSettings()) == {"sweep": [], "compare": None}


# -- free dice: a sum is no success test (issue 22) ---------------------------------------------


def _dist(expression: str) -> dict[int, Fraction]:
    answer = odds("notation", {"expression": expression})
    return {int(k): Fraction(v) for k, v in answer["distribution"].items()}


def _higher(x: dict[int, Fraction], y: dict[int, Fraction]) -> Fraction:
    """P(X > Y), the plain double loop (the oracle of the engine's sorted sweep)."""
    return sum((px * py for vx, px in x.items() for vy, py in y.items() if vx > vy),
               Fraction(0))


@pytest.mark.parametrize(("a", "b"), [("2d6", "1d12"), ("3d6", "1d20"), ("4d6kh3", "3d6+1")])
def test_compare_of_two_sums_gives_means_and_who_rolls_higher_not_a_success(a: str, b: str) -> None:
    res = ok({"op": "compare", "system": "notation", "a": {"expression": a},
              "b": {"expression": b}})
    assert res["kind"] == "sum"
    assert res["success_difference"] is None and res["a"]["success"] is None
    assert res["difference"] == {}
    da, db = _dist(a), _dist(b)
    mean = sum(v * p for v, p in db.items()) - sum(v * p for v, p in da.items())
    assert Fraction(res["mean_difference"]) == mean
    assert Fraction(res["higher"]["b"]) == _higher(db, da)
    assert Fraction(res["higher"]["a"]) == _higher(da, db)
    assert Fraction(res["higher"]["tie"]) == sum(p * db.get(v, 0) for v, p in da.items())
    if (a, b) == ("2d6", "1d12"):  # worked by hand: means 7 and 13/2; B > A in 15 of 36
        assert res["mean_difference"] == "-1/2"          # pairs of 12 (5/12), ties 1/12
        assert (res["higher"]["b"], res["higher"]["tie"]) == ("5/12", "1/12")


def test_compare_of_two_counts_gives_the_chance_of_at_least_one_success() -> None:
    res = ok({"op": "compare", "system": "notation", "a": {"expression": "5d10>=8"},
              "b": {"expression": "6d10>=8"}})
    assert res["kind"] == "count"
    # At least one 8+ on n d10: 1 - (7/10)^n.
    at_least = {n: 1 - Fraction(7, 10) ** n for n in (5, 6)}
    assert Fraction(res["a"]["at_least_one"]) == at_least[5]
    assert Fraction(res["success_difference"]) == at_least[6] - at_least[5]
    assert Fraction(res["difference"]["success"]) == at_least[6] - at_least[5]
    mixed = ok({"op": "compare", "system": "notation", "a": {"expression": "5d10>=8"},
                "b": {"expression": "2d6"}})
    assert mixed["kind"] == "mixed" and mixed["success_difference"] is None
