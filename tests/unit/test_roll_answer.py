"""Issue 21: one tap is one call. A roll's answer carries what the page shows after it lands
(headline, luck, chances), from exact odds the engine keeps in a bounded LRU."""

from __future__ import annotations

from typing import Any

import pytest

from pyrules.ops import cache
from pyrules.registry import SYSTEMS

from .helpers import call, ok

CASES = [
    ("pool", {"pot": 5, "flame": 2, "augmentations": 1}),
    ("d6", {"effort": True}),
    ("d100", {"value": 60, "modifier": -5}),
    ("steps", {"weapons": [2, 1], "edge": "handicap"}),
    ("notation", {"expression": "2d6+1"}),
]


@pytest.mark.parametrize(("system", "params"), CASES)
@pytest.mark.parametrize("seed", [1, 77, 2024])
def test_a_roll_carries_the_luck_and_chances_the_other_ops_answer(
        system: str, params: dict[str, Any], seed: int) -> None:
    r = ok({"op": "roll", "system": system, "params": params, "seed": seed})
    # free dice have no margin: their luck is the total's place in its distribution
    margin = r["total"] if system == "notation" else r["margin"]
    luck = ok({"op": "luck", "system": system, "params": params, "margins": [margin]})
    odds = ok({"op": "odds", "system": system, "params": params})
    assert r["luck_exact"] == luck["exact"][0] and r["luck"] == luck["percentiles"][0]
    if r.get("kind") == "sum":  # a sum is no test: no outcome, no chance of one
        assert r["outcome"] is None and r["chance"] is None
        return
    assert r["chance"]["outcome_exact"] == odds["exact"][r["outcome"]]
    assert r["chance"]["outcome"] == odds["probabilities"][r["outcome"]]
    assert r["chance"]["success_exact"] == odds["success"]
    assert r["chance"]["success"] == odds["success_probability"]


def test_physical_dice_have_chances_but_no_luck() -> None:
    r = ok({"op": "roll", "system": "d6", "params": {"dice": [6]}})
    assert r["physical"] and r["luck"] is None and r["luck_exact"] is None
    assert r["chance"]["outcome_exact"]


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_the_headline_is_the_number_a_player_reads_first(seed: int) -> None:
    pool = ok({"op": "roll", "system": "pool", "seed": seed})
    assert pool["headline"] == pool["successes"] == sum(d["value"] for d in pool["dice"])
    d6 = ok({"op": "roll", "system": "d6", "seed": seed})
    assert d6["headline"] == d6["total"]
    d100 = ok({"op": "roll", "system": "d100", "seed": seed})
    assert d100["headline"] == d100["dice"][0]["final"]
    steps = ok({"op": "roll", "system": "steps", "seed": seed, "params": {"bonus": 2}})
    assert steps["headline"] == steps["total"] == steps["dice"][0]["final"] + 2


@pytest.mark.parametrize(("system", "params", "fr", "en"), [
    ("pool", {}, "{n} réussites", "{n} successes"),
    ("d6", {}, "Total {n}", "Total {n}"),
    ("d100", {}, "{n}", "{n}"),
    ("steps", {"bonus": 2}, "Total {n}", "Total {n}"),
    ("notation", {"expression": "2d6+3"}, "Total {n}", "Total {n}"),
    ("notation", {"expression": "8d10>=6"}, "{n} réussites", "{n} successes"),
])
def test_the_headline_says_what_its_number_is(system: str, params: dict[str, Any], fr: str,
                                             en: str) -> None:
    """Issue 39, item 1: the number with its unit, in the system's words, number first for a
    count (what a screen reader says first)."""
    for seed in (3, 4, 5):
        r = ok({"op": "roll", "system": system, "params": params, "seed": seed, "lang": "en"})
        n = r["headline"]
        assert n >= 2 or fr == "{n}" or "Total" in fr  # these seeds: a plural for counts
        assert r["headline_texts"] == {"fr": fr.format(n=n), "en": en.format(n=n)}
        assert r["headline_text"] == en.format(n=n)
        # what a screen reader says: the number first
        assert all(said.startswith(str(n)) for said in r["headline_spoken"].values())
        if fr.startswith("Total"):
            assert r["headline_spoken"] == {"fr": f"{n} au total", "en": f"{n} in total"}


def test_counts_of_0_and_1_are_singular_in_french_and_1_in_english() -> None:
    one = ok({"op": "roll", "system": "notation", "params": {"expression": "1d6>=1"},
              "seed": 1})
    assert one["headline_texts"] == {"fr": "1 réussite", "en": "1 success"}
    none = ok({"op": "roll", "system": "notation", "params": {"expression": "1d6>=7"},
               "seed": 1})
    assert none["headline_texts"] == {"fr": "0 réussite", "en": "0 successes"}
    below = ok({"op": "roll", "system": "notation", "params": {"expression": "1d4-9"},
                "seed": 1})
    assert below["headline_texts"]["fr"] == f"Total \u2212{-below['headline']}"


def test_an_opposition_and_every_combat_action_headline_both_numbers() -> None:
    o = ok({"op": "oppose", "system": "steps", "actor": {}, "opponent": {}, "seed": 11})
    a, b = o["actor"]["headline"], o["opponent"]["headline"]
    assert o["headline_texts"] == {"fr": f"{a} contre {b}", "en": f"{a} vs {b}"}
    for kind in ("melee", "skirmish"):
        c = ok({"op": "combat", "params": {"kind": kind}, "actor": {"bonus": 5},
                "opponent": {"bonus": 1}, "seed": 8, "lang": "fr"})
        a, b = (roll["headline"] for roll in c["rolls"])
        assert c["headline_text"] == f"{a} contre {b}", kind
    ranged = ok({"op": "combat", "params": {"kind": "ranged"}, "actor": {}, "opponent": {},
                 "seed": 8, "lang": "fr"})
    assert len(ranged["rolls"]) == 1  # the shooter alone: its own headline
    assert ranged["headline_text"] == f"Total {ranged['rolls'][0]['headline']}"


@pytest.mark.parametrize("system", ["pool", "d6", "d100", "steps"])
def test_an_opposition_carries_who_wins_and_each_sides_own_luck(system: str) -> None:
    req = {"system": system, "actor": {}, "opponent": {}}
    r = ok({"op": "oppose", "seed": 11, **req})
    odds = ok({"op": "oppose_odds", **req})
    for who in ("actor", "opponent", "tie"):
        assert r["chance"][f"{who}_exact"] == odds["exact"][who]
        assert r["chance"][who] == odds["probabilities"][who]
    for side in ("actor", "opponent"):
        assert r[side]["luck"] == r[side]["own"]["luck"] is not None
        single = ok({"op": "odds", "system": system, "params": {}})
        assert r[side]["chance"]["outcome_exact"] == single["exact"][r[side]["own"]["outcome"]]


def test_a_combat_roll_carries_its_luck() -> None:
    r = ok({"op": "combat", "params": {"kind": "melee"}, "actor": {}, "opponent": {},
            "seed": 8})
    for roll in r["rolls"]:
        assert roll["luck"] == roll["own"]["luck"] is not None
        assert roll["chance"]["outcome"] > 0


def test_odds_are_computed_once_for_the_odds_panel_and_the_roll(
        monkeypatch: pytest.MonkeyPatch) -> None:
    cache.ODDS.clear()
    system = SYSTEMS["d6"]
    calls: list[Any] = []
    real = type(system).odds

    def counted(self: Any, params: Any) -> Any:
        calls.append(params)
        return real(self, params)

    monkeypatch.setattr(type(system), "odds", counted)
    params = {"attribute": 4, "skill": 3}
    ok({"op": "odds", "system": "d6", "params": params})
    for seed in range(5):
        ok({"op": "roll", "system": "d6", "params": params, "seed": seed})
    ok({"op": "luck", "system": "d6", "params": params, "margins": [0, 1]})
    # a placement-free system: the same params are one key; a new value is a new key
    ok({"op": "roll", "system": "d6", "params": {**params, "skill": 4}, "seed": 1})
    assert len(calls) == 2


def test_the_cache_is_bounded_and_keeps_the_most_recent() -> None:
    lru = cache.LRU(3)
    made: list[int] = []
    for key in (1, 2, 3, 1, 4, 5):
        lru.get(key, lambda k=key: made.append(k) or k)  # type: ignore[func-returns-value]
    assert list(lru.data) == [1, 4, 5] and made == [1, 2, 3, 4, 5]
    cache.ODDS.clear()
    for pot in range(1, 41):
        ok({"op": "odds", "system": "pool", "params": {"pot": pot}})
    for diff in range(1, 10):
        for pot in range(1, 21):
            ok({"op": "odds", "system": "pool", "params": {"pot": pot, "diff": diff}})
    assert len(cache.ODDS.data) == cache.MAX_ENTRIES


def test_a_placement_shares_the_odds_of_its_roll() -> None:
    """The odds assume the optimal placement, so a placed replay reuses them."""
    system = SYSTEMS["pool"]
    a, _ = system.parse({"pot": 3, "flame": 1, "augmentations": 1})
    b, _ = system.parse({"pot": 3, "flame": 1, "augmentations": 1, "placement": [1]})
    assert cache.params_key(system, a) == cache.params_key(system, b)


@pytest.mark.parametrize(("grammar", "expression"), [(2, "100d1000"), (1, "50d100")])
def test_a_roll_whose_odds_are_too_costly_still_rolls_without_chances(
        grammar: int, expression: str) -> None:
    """Exact odds over the cost bound: grammar 2's ``odds`` answers an estimate, grammar 1's
    (kept for old links) refuses them, and ``validate`` of it agrees; either way a roll
    stands (luck and chance null: they need exact odds) and validate agrees with the roll."""
    params = {"expression": expression, "grammar": grammar}
    odds = {"op": "odds", "system": "notation", "params": params}
    for req in (odds, {"op": "validate", "request": odds}):
        answer = call(req)
        if grammar == 1:
            assert answer["ok"] is False and answer["error"]["field"] == "expression", req
            assert answer["error"]["code"] == "odds_too_costly"
        else:
            assert answer["ok"] is True, req
    if grammar == 2:
        assert ok(odds)["estimate"]["method"] == "normal"
    request = {"op": "roll", "system": "notation", "params": params, "seed": 3}
    r = ok(request)
    assert r["luck"] is None and r["luck_exact"] is None and r["chance"] is None
    assert ok({"op": "validate", "request": request})["valid"] is True
    o = ok({"op": "oppose", "system": "notation", "actor": params,
            "opponent": {"expression": "1d6"}, "seed": 3})
    assert o["chance"] is None and o["actor"]["own"]["luck"] is None
