"""Direct tests of the rule choices docs/rules.md records: faces in, outcome out, through
the systems' Python API. Each expected value is worked out from the documents in a comment,
not copied from the engine's output."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from pyrules.core import all_faces
from pyrules.explain import both
from pyrules.fields import ParamError
from pyrules.registry import SYSTEMS
from pyrules.systems.d100.explain import D100_EFFECTS

from .helpers import resolve

POOL, D6, D100, STEPS = (SYSTEMS[s] for s in ("pool", "d6", "d100", "steps"))


def pool(dice: list[int], flame_dice: list[int] | None = None, **params: Any) -> Any:
    return resolve("pool", {"dice": dice, "flame_dice": flame_dice or []}, **params)


def oracle(system: Any, raw: dict[str, Any]) -> None:
    """Exact odds against every face combination resolved one by one."""
    p, _ = system.parse(raw)
    counts: dict[str, int] = {}
    margins: dict[int, int] = {}
    total = 0
    for faces in all_faces(system.dice_plan(p)):
        r = system.resolve(p, faces)
        counts[r.outcome] = counts.get(r.outcome, 0) + 1
        margins[r.margin] = margins.get(r.margin, 0) + 1
        total += 1
    odds = system.odds(p)
    for outcome, prob in odds.outcomes:
        assert prob == Fraction(counts.get(outcome, 0), total), (raw, outcome)
    assert dict(odds.margins) == {m: Fraction(c, total) for m, c in margins.items()}, raw


# -- pool: size beyond the DIFF floor (issue 15 §9) ---------------------------------------


def test_size_at_the_floor_gives_back_only_what_moved_the_diff() -> None:
    # POT 2, DIFF 2, sizes -1 (actor) against +3 (target): gap -1 - 3 = -4.
    # DIFF 2 - 4 = -2, floored to 1: the size really moved the DIFF by 1 - 2 = -1.
    # Dice 4 and 2: 1 success >= 1, a success; MR = 1 - 1 + (-1) = -1 (not 1 - 1 - 4 = -4).
    r = pool([4, 2], pot=2, diff=2, actor_size=-1, target_size=3)
    assert (r.outcome, r.margin) == ("success", -1)
    assert r.get("size_applied") == -1 and r.get("size_modifier") == -4


def test_size_full_reading_gives_back_the_whole_gap() -> None:
    # Same roll with the other reading: MR = 1 - 1 + (-4) = -4.
    r = pool([4, 2], pot=2, diff=2, actor_size=-1, target_size=3, size_rule="full")
    assert (r.outcome, r.margin) == ("success", -4)


def test_size_above_the_floor_is_unchanged_by_the_reading() -> None:
    # DIFF 6, gap -4: DIFF 2, not clipped, so both readings give back -4.
    # Dice 4, 4: 2 successes, MR = 2 - 2 - 4 = -4.
    for rule in ("applied", "full"):
        r = pool([4, 4], pot=2, diff=6, actor_size=-1, target_size=3, size_rule=rule)
        assert (r.outcome, r.margin) == ("success", -4)
    # The minotaur shooting a sprite: +1 - (-1) = +2; DIFF 2 + 2 = 4; 6, 6, 4 = 5 successes
    # (fewer than 2 x 4 = 8: no critical); MR = 5 - 4 + 2 = 3.
    r = pool([6, 6, 4], pot=3, diff=2, actor_size=1, target_size=-1)
    assert (r.outcome, r.margin) == ("success", 3)


def test_the_size_floor_is_explained() -> None:
    r = pool([4, 2], pot=2, diff=2, actor_size=-1, target_size=3)
    texts = both(r.lines)
    assert any("-1" in line and "-4" in line for line in texts["fr"])
    assert [line.key for line in r.lines].count("pool.size_floor_applied") == 1


# -- pool: complexity of a machine (issue 15 §11) -----------------------------------------


def test_disabling_a_machine_lowers_the_diff() -> None:
    # DIFF 4, complexity -2: DIFF 2; dice 4, 4: 2 successes >= 2, MR 0 (nothing given back).
    r = pool([4, 4], pot=2, diff=4, complexity=-2)
    assert (r.outcome, r.margin, r.get("effective_diff")) == ("success", 0, 2)
    assert "pool.complexity_disable" in [line.key for line in r.lines]


def test_repairing_a_machine_raises_the_diff() -> None:
    # DIFF 4, complexity +3: DIFF 7; dice 6, 6, 6: 6 successes < 7: failure, MR -1.
    r = pool([6, 6, 6], pot=3, diff=4, complexity=3)
    assert (r.outcome, r.margin, r.get("effective_diff")) == ("failure", -1, 7)
    line = next(li for li in r.lines if li.key == "pool.complexity_repair")
    assert dict(line.args) == {"diff": 4, "complexity": 3, "task": 7}
    texts = both([line])
    assert "répar" in texts["fr"][0] and "repair" in texts["en"][0]


def test_complexity_never_takes_the_diff_below_one_then_size_applies() -> None:
    # DIFF 2, complexity -3: -1, floored to 1. Size +2 then: DIFF 3, all of it applied.
    # Dice 6, 4: 3 successes >= 3: success (not 2 x 3); MR = 3 - 3 + 2 = 2.
    r = pool([6, 4], pot=2, diff=2, complexity=-3, actor_size=2)
    assert (r.outcome, r.margin, r.get("task_diff"), r.get("effective_diff")) == \
        ("success", 2, 1, 3)


@pytest.mark.parametrize("raw", [
    {"pot": 2, "diff": 2, "actor_size": -1, "target_size": 3},
    {"pot": 2, "diff": 2, "actor_size": -1, "target_size": 3, "size_rule": "full"},
    {"pot": 3, "diff": 3, "actor_size": -5, "target_size": 0, "flame": 1, "augmentations": 1},
    {"pot": 3, "diff": 4, "complexity": -3, "actor_size": -2},
    {"pot": 3, "diff": 2, "complexity": 3, "actor_size": 1, "fumble_rule": "classic"},
])
def test_pool_odds_with_size_floor_and_complexity_match_the_oracle(raw: dict[str, Any]) -> None:
    oracle(POOL, raw)


# -- pool: the DIFF scale (issue 15 §10) --------------------------------------------------


def test_the_nine_diff_steps_are_named_in_both_languages() -> None:
    diff = next(f for f in POOL.fields if f.name == "diff").describe()
    assert [s["value"] for s in diff["steps"]] == list(range(diff["min"], diff["max"] + 1))
    assert [s["label"]["fr"] for s in diff["steps"]] == [
        "Évident", "Facile", "Aisé", "Normal", "Malaisé", "Difficile", "Très difficile",
        "Improbable", "Chimérique"]
    assert all(s["label"]["en"] and s["label"]["en"] != "" for s in diff["steps"])
    assert len({s["label"]["en"] for s in diff["steps"]}) == 9


# -- pool: pinned choices (issue 15 §14, issue 11 §4) -------------------------------------


def test_the_diff_never_goes_below_one() -> None:
    # DIFF 1, sizes 0 vs +3: 1 - 3 = -2, floored to 1. Dice 2, 3: 0 successes < 1: failure,
    # MR 0 - 1 = -1 (without the floor 0 successes would reach -2 and succeed).
    r = pool([2, 3], pot=2, diff=1, target_size=3)
    assert (r.outcome, r.margin, r.get("effective_diff")) == ("failure", -1, 1)


def test_default_fumble_rule_is_the_revised_one() -> None:
    p, _ = POOL.parse({})
    assert p.fumble_rule == "revised"
    # POT 6, DIFF 4, dice 1 1 4 2 3 2: 1 success, two 1s. More 1s than successes (classic:
    # fumble) but not more than half the POT (2 > 3 is false): revised, a plain failure.
    assert pool([1, 1, 4, 2, 3, 2], pot=6, diff=4).outcome == "failure"
    assert pool([1, 1, 4, 2, 3, 2], pot=6, diff=4, fumble_rule="classic").outcome == "fumble"


def test_half_the_pot_counts_the_dice_actually_rolled() -> None:
    # POT 4 with +2D: 6 dice 1 1 1 2 3 4: three 1s, 1 success. Half of the 6 dice is 3, and
    # 3 > 3 is false: failure (half the POT, 2, would have made it a fumble).
    r = pool([1, 1, 1, 2, 3, 4], pot=4, diff=3, modifiers="+2D")
    assert (r.outcome, r.margin) == ("failure", -2)
    # POT 6 with -2D: 4 dice 1 1 1 4: three 1s > 4 / 2 and > 1 success: fumble (half the
    # POT, 3, would not).
    r = pool([1, 1, 1, 4], pot=6, diff=3, modifiers="-2D")
    assert (r.outcome, r.margin) == ("fumble", -2)


def test_plus_one_flame_die_on_flame_zero_is_a_light_flame_die() -> None:
    # Flamme 0 with +1DF: one of the POT's dice becomes a Flame die, of the light Flame.
    p, _ = POOL.parse({"pot": 3, "flame": 0, "modifiers": "+1DF"})
    assert [(g.field, g.count, g.kind) for g in POOL.dice_plan(p)] == [
        ("dice", 2, "normal"), ("flame_dice", 1, "flame")]
    r = pool([2, 2], [3], pot=3, flame=0, modifiers="+1DF+1")
    assert r.dice[-1].kind == "flame" and r.dice[-1].final == 4  # 3 + 1 augmentation


def test_minus_flame_dice_never_go_below_zero() -> None:
    # Flamme 1 with -2DF: 1 - 2 = -1, floored to 0 Flame dice (not one black Flame die).
    p, _ = POOL.parse({"pot": 3, "flame": 1, "modifiers": "-2DF"})
    assert p.flame_count == 0
    assert [g.count for g in POOL.dice_plan(p)] == [3, 0]


def test_minus_one_die_on_pot_one_rolls_nothing() -> None:
    # POT 1 with -1D: 0 dice, 0 successes. DIFF 4: MR -4, a failure; DIFF 5: MR -5, fumble.
    r = pool([], pot=1, diff=4, modifiers="-1D")
    assert (r.outcome, r.margin, r.dice) == ("failure", -4, ())
    assert pool([], pot=1, diff=5, modifiers="-1D").outcome == "fumble"


# -- pool: placement moves on the Flame dice (issue 12 §1) --------------------------------


def test_placement_moves_on_a_one_and_on_a_two() -> None:
    # Flame dice 1 and 2 with 2 augmentations and 2 diminutions, nothing placed yet:
    # the 1 takes nothing; the 2 can go up (3) but not down (a Flame die stays >= 2).
    r = pool([4], [1, 2], pot=3, flame=2, augmentations=2, diminutions=2, placement=[0, 0])
    assert r.get("placement_moves") == [{"plus": False, "minus": False},
                                        {"plus": True, "minus": False}]
    assert r.get("placement_left") == {"augmentations": 2, "diminutions": 2}


def test_placement_moves_at_six_and_after_a_step() -> None:
    # A 6 cannot go up; a 5 raised to 6 can be stepped back (-1 undoes the augmentation),
    # and with no augmentation left the 3 cannot go up.
    r = pool([], [6, 5, 3], pot=3, flame=3, augmentations=1, placement=[0, 1, 0])
    assert r.get("placement_moves") == [{"plus": False, "minus": False},
                                        {"plus": False, "minus": True},
                                        {"plus": False, "minus": False}]
    assert r.get("placement_left") == {"augmentations": 0, "diminutions": 0}


def test_a_placement_past_two_or_six_is_refused() -> None:
    for faces, place in (([2], [-1]), ([6], [1]), ([5], [2]), ([3], [-2])):
        with pytest.raises(ParamError) as info:
            pool([], faces, pot=1, flame=1, augmentations=2, diminutions=2, placement=place)
        assert info.value.field == "placement" and info.value.key == "placement_bounds"


def test_every_offered_move_is_accepted_and_every_other_refused() -> None:
    """Oracle: for two Flame dice, every face pair, budget and reachable placement, a move
    the answer offers is accepted by the engine and a move it does not offer is refused."""
    checked = 0
    for aug, dim in itertools.product(range(3), repeat=2):
        for faces in itertools.product(range(1, 7), repeat=2):
            for place in itertools.product(range(-2, 3), repeat=2):
                raw = {"pot": 2, "flame": 2, "augmentations": aug, "diminutions": dim,
                       "placement": list(place)}
                try:
                    r = pool([], list(faces), **raw)
                except ParamError:
                    continue
                for i, moves in enumerate(r.get("placement_moves")):
                    for key, step in (("plus", 1), ("minus", -1)):
                        moved = [d + step if j == i else d for j, d in enumerate(place)]
                        try:
                            pool([], list(faces), **{**raw, "placement": moved})
                            accepted = True
                        except ParamError:
                            accepted = False
                        assert accepted == moves[key], (faces, place, aug, dim, i, key)
                        checked += 1
    assert checked > 1000


def test_optimal_placement_comes_with_its_moves() -> None:
    # Flame 3 and 5 with one augmentation: the optimum puts it on the 3 (3 -> 4, one
    # success for one point). From there, +1 on the 4 needs a second augmentation: no;
    # -1 on the 4 undoes it: yes; the 5 can take the freed point only after that.
    r = pool([2], [3, 5], pot=3, flame=2, augmentations=1)
    assert r.get("placement") == [1, 0]
    assert r.get("placement_moves") == [{"plus": False, "minus": True},
                                        {"plus": False, "minus": False}]


# -- d6 (document 001) ---------------------------------------------------------------


def d6(face: list[int], **params: Any) -> Any:
    return resolve("d6", {"dice": face}, **params)


def test_clarity_zero_makes_every_failure_disastrous() -> None:
    # 2 + 2 + 3 = 7 against 8: missed by 1, more than 2 x 0: disastrous.
    r = d6([3], attribute=2, skill=2, difficulty=8, clarity=0)
    assert (r.outcome, r.margin) == ("disastrous_failure", -1)


def test_taking_time_succeeds_with_impact_times_one() -> None:
    # 2 + 2 + 3 = 7 against 9: missed by 2, no more than clarity 2: taking one's time, a
    # success; impact 3 x 1 = 3 (the negative margin is kept).
    r = d6([3], attribute=2, skill=2, difficulty=9, clarity=2, take_time=True, impact=3)
    assert (r.outcome, r.success, r.margin, r.get("impact")) == ("success", True, -2, 3)


def test_taking_time_is_ignored_in_an_opposition() -> None:
    # Actor 2 + 2 + 3 = 7 against the opponent's 2 + 2 + 4 = 8: the actor misses by 1,
    # within clarity 2, but taking one's time does not apply: the opponent wins, and the
    # actor's side is a plain failure.
    a, _ = D6.parse({"attribute": 2, "skill": 2, "clarity": 2, "take_time": True})
    b, _ = D6.parse({"attribute": 2, "skill": 2, "pc": False})
    res = D6.oppose(a, b, ({"dice": (3,)}, {"dice": (4,)}), None)
    assert res.winner == "opponent"
    assert (res.actor.outcome, res.actor.success) == ("failure", False)


# -- d100 (document 002) --------------------------------------------------------------


@pytest.mark.parametrize(("margin", "tier"), [
    (66, "exceptional_success"), (41, "remarkable_success"), (21, "notable_success"),
    (1, "simple_success"), (0, "narrow_success"), (-1, "poor_success"),
    (-21, "simple_failure"), (-41, "bitter_failure"), (-66, "critical_failure"),
])
def test_each_d100_tier_says_its_consequence(margin: int, tier: str) -> None:
    # MR = 100 + 0 - face, so face = 100 - MR.
    r = resolve("d100", {"dice": [100 - margin]}, value=100)
    assert (r.outcome, r.margin) == (tier, margin)
    texts = both(r.lines)
    assert texts["fr"][-1] == D100_EFFECTS[tier].get("fr")
    assert texts["en"][-1] == D100_EFFECTS[tier].en
    assert len({t.fr for t in D100_EFFECTS.values()}) == 9


# -- steps (document 004) -------------------------------------------------------------


def test_only_the_best_weapon_and_the_best_protection_count() -> None:
    # D8 shows 4, bonus 1, weapons +2 +1 +3 (best +3), protections +1 +0 (best +1):
    # 4 + 1 + 3 + 1 = 9 against 9: success, margin 0 (all of them would give 12, margin 3).
    r = resolve("steps", {"dice": [4]}, die=8, threshold=9, bonus=1, weapons=[2, 1, 3],
                protections="1 0")
    assert (r.outcome, r.margin, r.get("total")) == ("success", 0, 9)
    assert "steps.gear" in [line.key for line in r.lines]


def test_best_gear_counts_in_a_conflict() -> None:
    # Actor D6 shows 3, weapons +1 +2: 3 + 2 = 5. Opponent D6 shows 4, protection +0: 4.
    a, _ = STEPS.parse({"die": 6, "weapons": [1, 2]})
    b, _ = STEPS.parse({"die": 6, "protections": [0]})
    res = STEPS.oppose(a, b, ({"dice": (3,)}, {"dice": (4,)}), None)
    assert (res.winner, res.margin) == ("actor", 1)


def test_steps_odds_with_gear_match_the_oracle() -> None:
    oracle(STEPS, {"die": 6, "threshold": 8, "weapons": [1, 3], "protections": [2, 0]})
    oracle(STEPS, {"die": 4, "threshold": 5, "edge": "advantage", "edge_rule": "keep",
                   "weapons": [2]})


def test_only_the_kept_die_is_extreme() -> None:
    # D8, advantage kept: 1 and 5, the 5 is kept: no extreme die, though a 1 was rolled.
    r = resolve("steps", {"dice": [1, 5]}, die=8, edge="advantage", edge_rule="keep")
    assert r.get("extreme") is None
    assert [d.tags for d in r.dice] == [("dropped",), ("kept",)]
    # Handicap kept: 8 and 3, the 3 is kept: the dropped 8 is not extreme either.
    r = resolve("steps", {"dice": [8, 3]}, die=8, edge="handicap", edge_rule="keep")
    assert r.get("extreme") is None
    # Advantage kept: 8 and 3, the 8 is kept: a D8's maximum, extreme high.
    r = resolve("steps", {"dice": [8, 3]}, die=8, edge="advantage", edge_rule="keep")
    assert r.get("extreme") == "high"
    assert r.dice[0].tags == ("kept", "extreme_high")


# --- Physical dice read as a player reads them (docs/rules.md, « Dés physiques ») -----------

def _typed(system: str, lang: str = "fr", **params: Any) -> dict[str, Any]:
    from .helpers import call
    return call({"op": "roll", "system": system, "lang": lang, "params": params})


@pytest.mark.parametrize("typed", ["100", "00", "0", "000"])
def test_physical_d100_reads_00_and_0_as_100(typed: str) -> None:
    # Percentile dice show 100 as « 00 » (tens) + « 0 » (units): value 45, no modifier,
    # d100 = 100 → MR 45 − 100 = −55, an « échec cuisant » (−41 to −65).
    answer = _typed("d100", level=None, value=45, dice=typed)
    assert answer["ok"], answer
    assert [d["final"] for d in answer["result"]["dice"]] == [100]
    assert answer["result"]["margin"] == -55


def test_physical_d10_reads_0_as_10_in_steps_and_notation() -> None:
    # A d10 prints its 10 as « 0 »: D10 + bonus 0 against threshold 10 → 10 ≥ 10, margin 0.
    answer = _typed("steps", die=10, threshold=10, bonus=0, dice="0")
    assert answer["ok"], answer
    assert answer["result"]["dice"][0]["final"] == 10
    assert answer["result"]["margin"] == 0
    free = _typed("notation", expression="2d10", dice="0 3")
    assert free["ok"], free
    assert free["result"]["total"] == 13


@pytest.mark.parametrize(("die", "fr", "en"), [
    (8, "un d8 n'a pas de face 0 (ses faces vont de 1 à 8)",
     "a d8 has no face 0 (its faces go from 1 to 8)"),
    (4, "un d4 n'a pas de face 0 (ses faces vont de 1 à 4)",
     "a d4 has no face 0 (its faces go from 1 to 4)"),
])
def test_a_physical_face_out_of_range_gives_that_dies_own_range(die: int, fr: str, en: str) -> None:
    # Issue 22: "0" on a physical d8 said « entre 1 et 12 » (the range of every step die).
    for lang, words in (("fr", fr), ("en", en)):
        answer = _typed("steps", lang, die=die, dice="0")
        assert not answer["ok"]
        assert answer["error"]["field"] == "dice"
        assert words in answer["error"]["message"]
        assert "12" not in answer["error"]["message"]


def test_zero_stays_refused_on_dice_that_do_not_print_it() -> None:
    # Only the d10 and the d100 print a 0 for their top face: a 0 on a d6 or a d8 is a typo.
    d6 = _typed("d6", attribute=2, skill=1, dice="0")
    assert not d6["ok"] and "entre 1 et 6" in d6["error"]["message"]
    assert _typed("d6", attribute=2, skill=1, dice="1")["ok"]
    d8 = _typed("notation", expression="1d8", dice="0")
    assert not d8["ok"] and "de 1 à 8" in d8["error"]["message"]
    fudge = _typed("notation", expression="1dF", dice="0")  # a Fudge blank is 0
    assert fudge["ok"] and fudge["result"]["total"] == 0
