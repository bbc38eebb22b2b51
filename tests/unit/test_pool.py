"""The d6 success pool with Flame dice (document 000): every stated rule and example."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from pyrules.core import all_faces
from pyrules.fields import ParamError
from pyrules.registry import SYSTEMS
from pyrules.systems.pool import (
    Modifiers,
    apply_placement,
    optimal_placement,
    parse_modifiers,
    placed_successes,
    successes_of,
)

from .helpers import err, ok, rule

POOL = SYSTEMS["pool"]


def roll(faces: list[int], flame_dice: list[int] | None = None, **params: object) -> dict:
    params = {"dice": faces, **params}
    if flame_dice is not None:
        params["flame_dice"] = flame_dice
    return rule("pool", **params)


def test_face_values() -> None:
    assert [successes_of(f) for f in range(1, 7)] == [0, 0, 0, 1, 1, 2]


def test_lockpicking_example_counts_five_successes_mr_three() -> None:
    # POT 6 (AGI 4 + Serrurerie 2), DIFF 2, faces 1, 6, 3, 6, 3, 4.
    r = roll([1, 6, 3, 6, 3, 4], pot=6, diff=2)
    assert r["successes"] == 5
    assert r["margin"] == 3
    assert r["success"]


def test_lockpicking_example_is_critical() -> None:
    # "dans l'exemple précédent, le joueur fait une réussite critique": 5 >= 2 x 2.
    assert roll([1, 6, 3, 6, 3, 4], pot=6, diff=2)["outcome"] == "critical_success"


@pytest.mark.parametrize("rule", ["classic", "revised"])
def test_four_ones_example_is_a_fumble(rule: str) -> None:
    r = roll([1, 2, 1, 3, 1, 1, 6], pot=7, diff=3, fumble_rule=rule)
    assert r["successes"] == 2
    assert r["ones"] == 4
    assert r["outcome"] == "fumble"


@pytest.mark.parametrize("rule", ["classic", "revised"])
def test_six_instead_of_three_avoids_the_fumble(rule: str) -> None:
    r = roll([1, 2, 1, 6, 1, 1, 6], pot=7, diff=3, fumble_rule=rule)
    assert r["successes"] == 4
    assert r["outcome"] == "success"


@pytest.mark.parametrize("rule", ["classic", "revised"])
def test_three_ones_three_successes_is_not_a_fumble(rule: str) -> None:
    r = roll([1, 4, 1, 1, 6, 3], pot=6, diff=4, fumble_rule=rule)
    assert r["successes"] == 3
    assert r["outcome"] == "failure"
    assert r["margin"] == -1


def test_rules_differ_when_ones_are_not_more_than_half_the_pot() -> None:
    # POT 8, 3 ones, 1 success, DIFF 4: more 1s than successes, but not more than 4.
    faces = [1, 1, 1, 4, 2, 2, 3, 3]
    assert roll(faces, pot=8, diff=4, fumble_rule="classic")["outcome"] == "fumble"
    assert roll(faces, pot=8, diff=4, fumble_rule="revised")["outcome"] == "failure"


def test_revised_rule_needs_strictly_more_than_half() -> None:
    faces = [1, 1, 1, 2, 2, 3]  # 3 ones of 6 dice: exactly half
    assert roll(faces, pot=6, diff=4, fumble_rule="revised")["outcome"] == "failure"
    faces = [1, 1, 1, 1, 2, 3]
    assert roll(faces, pot=6, diff=4, fumble_rule="revised")["outcome"] == "fumble"


def test_fumble_needs_more_ones_than_successes_not_equal() -> None:
    r = roll([1, 1, 4, 4, 2], pot=5, diff=4, fumble_rule="classic")  # 2 ones, 2 successes
    assert r["outcome"] == "failure"


def test_margin_minus_five_is_always_a_fumble() -> None:
    r = roll([2, 3, 2], pot=3, diff=5)
    assert r["margin"] == -5
    assert r["outcome"] == "fumble"
    r = roll([4, 3, 2], pot=3, diff=5)
    assert r["margin"] == -4
    assert r["outcome"] == "failure"


def test_no_fumble_on_a_success_even_with_many_ones() -> None:
    r = roll([1, 1, 1, 1, 6], pot=5, diff=2)
    assert (r["ones"], r["successes"], r["outcome"]) == (4, 2, "success")


def test_critical_threshold_is_twice_the_diff() -> None:
    assert roll([6, 6, 2, 2], pot=4, diff=2)["outcome"] == "critical_success"
    assert roll([6, 5, 2, 2], pot=4, diff=2)["outcome"] == "success"


def test_opposition_example_peru_against_artakeus() -> None:
    # Péru POT 4 gets 3 successes, Artakéus POT 6 gets 4: Artakéus wins.
    res = ok({"op": "oppose", "system": "pool",
              "actor": {"pot": 4, "dice": [4, 6, 1, 2]},
              "opponent": {"pot": 6, "dice": [6, 6, 1, 1, 2, 3]}})
    assert res["actor"]["successes"] == 3
    assert res["opponent"]["successes"] == 4
    assert res["winner"] == "opponent"
    assert res["margin"] == 1


def test_equal_successes_in_opposition_is_a_tie() -> None:
    res = ok({"op": "oppose", "system": "pool",
              "actor": {"pot": 2, "dice": [4, 1]}, "opponent": {"pot": 2, "dice": [5, 2]}})
    assert res["winner"] == "tie"
    assert res["margin"] == 0


def test_flame_dice_are_taken_from_the_pot() -> None:
    plan = ok({"op": "dice", "system": "pool", "params": {"pot": 6, "flame": 2}})
    assert plan["groups"] == [
        {"field": "dice", "sides": 6, "count": 4, "kind": "normal"},
        {"field": "flame_dice", "sides": 6, "count": 2, "kind": "flame"},
    ]


def test_negative_flame_gives_black_flame_dice() -> None:
    r = roll([2, 2], [4, 5], pot=4, flame=-2)
    assert [d["kind"] for d in r["dice"]] == ["normal", "normal", "black_flame", "black_flame"]


def test_excess_flame_dice_are_lost() -> None:
    plan = ok({"op": "dice", "system": "pool",
               "params": {"pot": 3, "flame": 2, "modifiers": "+2DF"}})
    assert [g["count"] for g in plan["groups"]] == [0, 3]


def test_augmentation_turns_a_three_into_a_four() -> None:
    r = roll([2], [3], pot=2, flame=1, diff=1, augmentations=1)
    flame_die = r["dice"][1]
    assert (flame_die["rolled"], flame_die["final"], flame_die["value"]) == (3, 4, 1)
    assert r["successes"] == 1


def test_diminution_turns_a_six_into_a_five() -> None:
    r = roll([2], [6], pot=2, flame=1, diff=1, diminutions=1)
    assert r["dice"][1]["final"] == 5
    assert r["successes"] == 1


def test_a_one_is_never_changed() -> None:
    r = roll([2], [1], pot=2, flame=1, augmentations=5)
    assert r["dice"][1]["final"] == 1
    assert r["unused_augmentations"] == 5
    e = err({"op": "roll", "system": "pool",
             "params": {"pot": 2, "flame": 1, "augmentations": 1, "dice": [2],
                        "flame_dice": [1], "placement": [1]}})
    assert e["field"] == "placement"


def test_modified_faces_stay_between_two_and_six() -> None:
    assert apply_placement(6, 3) == 6
    assert apply_placement(2, -3) == 2
    assert apply_placement(3, -5) == 2
    assert apply_placement(1, 4) == 1
    r = roll([4], [2], pot=2, flame=1, diminutions=3)
    assert r["dice"][1]["final"] == 2


def test_black_flame_dice_take_augmentations_too() -> None:
    r = roll([2], [5], pot=2, flame=-1, augmentations=1, diff=2)
    assert r["dice"][1] == {"sides": 6, "rolled": 5, "final": 6, "kind": "black_flame",
                            "value": 2, "tags": [], "delta": 1}


def test_augmentations_and_diminutions_cancel_one_for_one() -> None:
    r = roll([2], [3, 5], pot=3, flame=2, augmentations=2, diminutions=1)
    assert r["placement"] in ([1, 0], [0, 1])  # one augmentation left, worth one success
    assert r["successes"] == 2


def test_explicit_placement_is_applied() -> None:
    r = roll([2], [3, 5], pot=3, flame=2, augmentations=2, diminutions=1,
             placement=[2, -1])
    assert [d["final"] for d in r["dice"][1:]] == [5, 4]
    assert r["successes"] == 2
    assert r["unused_augmentations"] == 0
    assert r["unused_diminutions"] == 0


def test_explicit_placement_budget_is_checked() -> None:
    base = {"pot": 3, "flame": 2, "augmentations": 1, "dice": [2], "flame_dice": [3, 3]}
    e = err({"op": "roll", "system": "pool", "params": {**base, "placement": [1, 1]}})
    assert e["field"] == "placement"
    assert "2" in e["message"] and "1" in e["message"]
    e = err({"op": "roll", "system": "pool", "params": {**base, "placement": [0, -1]}})
    assert e["field"] == "placement"
    e = err({"op": "roll", "system": "pool", "params": {**base, "placement": [1]}})
    assert e["field"] == "placement"


def _all_splits(total: int, parts: int) -> list[tuple[int, ...]]:
    return [c for c in itertools.product(range(total + 1), repeat=parts) if sum(c) <= total]


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_optimal_placement_is_truly_optimal(count: int) -> None:
    """Against every way of placing the points, greedy gives the best (or worst) result."""
    for faces in itertools.product(range(1, 7), repeat=count):
        for budget in range(0, 7):
            splits = [s for s in _all_splits(budget, count)
                      if all(d == 0 for f, d in zip(faces, s, strict=True) if f == 1)]

            def score(deltas: tuple[int, ...], sign: int, faces: tuple[int, ...] = faces) -> int:
                return sum(successes_of(apply_placement(f, sign * d))
                           for f, d in zip(faces, deltas, strict=True))

            best = max(score(s, 1) for s in splits)
            worst = min(score(s, -1) for s in splits)
            up = optimal_placement(faces, budget, 0)
            down = optimal_placement(faces, 0, budget)
            assert sum(d for d in up) <= budget and all(d >= 0 for d in up)
            assert -sum(down) <= budget and all(d <= 0 for d in down)
            assert score(up, 1) == best, (faces, budget, up)
            assert score(tuple(-d for d in down), -1) == worst, (faces, budget, down)


@pytest.mark.parametrize("count", [0, 1, 2, 3, 4, 5])
def test_closed_form_matches_placement_on_every_roll(count: int) -> None:
    """The odds use a closed form of the placement; it must match the roll's greedy."""
    for faces in itertools.product(range(1, 7), repeat=count):
        counts = tuple(faces.count(f) for f in range(1, 7))
        for aug, dim in [(a, 0) for a in range(9)] + [(0, d) for d in range(1, 9)]:
            place = optimal_placement(faces, aug, dim)
            got = sum(successes_of(apply_placement(f, d))
                      for f, d in zip(faces, place, strict=True))
            assert placed_successes(counts, aug, dim) == got, (faces, aug, dim)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", Modifiers()),
        ("+2D+1", Modifiers(dice=2, augmentations=1)),
        ("+1D+1DF+2", Modifiers(dice=1, flame=1, augmentations=2)),
        ("-1D", Modifiers(dice=-1)),
        ("-2", Modifiers(diminutions=2)),
        (" + 1 d + 1 df - 1 ", Modifiers(dice=1, flame=1, diminutions=1)),
        ("+1DF+1DF", Modifiers(flame=2)),
    ],
)
def test_modifier_notation(text: str, expected: Modifiers) -> None:
    assert parse_modifiers(text) == expected


@pytest.mark.parametrize("text", ["2D", "+D", "+1X", "++1", "+1D+", "abc", "+1 2"])
def test_bad_modifier_notation_names_the_field(text: str) -> None:
    with pytest.raises(ParamError) as info:
        parse_modifiers(text)
    assert info.value.field == "modifiers"
    e = err({"op": "roll", "system": "pool", "params": {"modifiers": text}})
    assert e["field"] == "modifiers"


@pytest.mark.parametrize(("text", "fr", "en"), [
    ("+99D", "le nombre de dés (POT + D) doit rester entre 0 et 50",
     "the number of dice (POT + D) must stay between 0 and 50"),
    ("+30DF", "le nombre de dés de Flamme (Flamme + DF) doit rester entre -20 et 20",
     "the number of Flame dice (Flame + DF) must stay between -20 and 20"),
    ("+41", "le total des augmentations doit rester entre 0 et 40",
     "the total of augmentations must stay between 0 and 40"),
    ("-41", "le total des diminutions doit rester entre 0 et 40",
     "the total of diminutions must stay between 0 and 40"),
])
def test_modifiers_out_of_range_are_named_in_the_players_words(
    text: str, fr: str, en: str,
) -> None:
    # Issue 22: "+99D" answered "dice_count doit rester entre 0 et 50" (an internal name).
    for lang, words in (("fr", fr), ("en", en)):
        e = err({"op": "roll", "system": "pool", "lang": lang,
                 "params": {"pot": 5, "modifiers": text}})
        assert e["field"] == "modifiers"
        assert words in e["message"]
        assert "_count" not in e["message"]


def test_plus_two_dice_plus_one_example() -> None:
    # +2D+1: two more dice (none of them Flame) and one augmentation.
    r = roll([2, 2, 2, 2], [3], pot=3, flame=1, modifiers="+2D+1", diff=1)
    assert r["dice_count"] == 5
    assert r["flame_count"] == 1
    assert r["augmentations"] == 1
    assert r["dice"][-1]["final"] == 4


def test_one_die_one_flame_die_two_augmentations_example() -> None:
    # +1D+1DF+2: one more die, one more Flame die, two more augmentations.
    plan = ok({"op": "dice", "system": "pool",
               "params": {"pot": 4, "flame": 1, "modifiers": "+1D+1DF+2"}})
    assert [g["count"] for g in plan["groups"]] == [3, 2]
    r = roll([2, 2, 2], [3, 3], pot=4, flame=1, modifiers="+1D+1DF+2", diff=1)
    assert r["augmentations"] == 2
    assert [d["final"] for d in r["dice"][3:]] == [4, 4]


def test_minotaur_shooting_a_farfadet() -> None:
    # Size +1 against -1: DIFF +2, and the 2 points come back on the MR when it succeeds.
    r = roll([6, 6, 4, 2], pot=4, diff=3, actor_size=1, target_size=-1)
    assert r["effective_diff"] == 5
    assert r["successes"] == 5
    assert r["outcome"] == "success"
    assert r["margin"] == 5 - 5 + 2


def test_lutin_healing_a_giant() -> None:
    # Size -1 against +3: DIFF -4 (never below 1), and the MR loses 4 points.
    r = roll([6, 4, 2], pot=3, diff=6, actor_size=-1, target_size=3)
    assert r["effective_diff"] == 2
    assert r["outcome"] == "success"
    assert r["margin"] == 3 - 2 - 4


def test_size_is_not_given_back_on_a_failure() -> None:
    r = roll([4, 2, 2], pot=3, diff=2, actor_size=1, target_size=-1)
    assert r["effective_diff"] == 4
    assert r["margin"] == 1 - 4
    assert r["outcome"] == "failure"


def test_critical_uses_the_effective_diff() -> None:
    r = roll([6, 6, 6, 2], pot=4, diff=2, actor_size=1)  # effective DIFF 3, 6 successes
    assert r["outcome"] == "critical_success"


def test_odds_of_a_single_die() -> None:
    res = ok({"op": "odds", "system": "pool", "params": {"pot": 1, "diff": 1}})
    # A lone 1 is more 1s than half the POT and than the successes: a fumble.
    assert res["exact"] == {"critical_success": "1/6", "success": "1/3", "failure": "1/3",
                            "fumble": "1/6"}
    assert res["margins"] == {"-1": "1/2", "0": "1/3", "1": "1/6"}


def test_pool_odds_match_brute_force_oracle() -> None:
    """Odds by convolution against every face combination resolved one by one."""
    cases = [
        {"pot": 4, "diff": 3},
        {"pot": 5, "diff": 2, "fumble_rule": "classic"},
        {"pot": 5, "diff": 4, "flame": 2, "augmentations": 2},
        {"pot": 5, "diff": 3, "flame": -3, "diminutions": 3, "augmentations": 1},
        {"pot": 4, "diff": 6, "flame": 1, "modifiers": "+1D+1DF-1"},
        {"pot": 4, "diff": 2, "actor_size": 2, "target_size": -1, "flame": 2,
         "augmentations": 3},
        {"pot": 5, "diff": 1, "actor_size": -2, "target_size": 2},
        {"pot": 3, "diff": 9},
        {"pot": 1, "diff": 4, "modifiers": "-1D"},
    ]
    for raw in cases:
        p, _ = POOL.parse(raw)
        groups = POOL.dice_plan(p)
        counts: dict[str, int] = {}
        margins: dict[int, int] = {}
        total = 0
        for faces in all_faces(groups):
            r = POOL.resolve(p, faces)
            counts[r.outcome] = counts.get(r.outcome, 0) + 1
            margins[r.margin] = margins.get(r.margin, 0) + 1
            total += 1
        odds = POOL.odds(p)
        for outcome, prob in odds.outcomes:
            assert prob == Fraction(counts.get(outcome, 0), total), (raw, outcome)
        assert dict(odds.margins) == {m: Fraction(c, total) for m, c in margins.items()}, raw


def test_placement_moves_agree_with_placement_error_on_each_moved_placement() -> None:
    """placement_moves is linear (issue 21: a 20-Flame-die roll spent most of its time
    there); its verdicts must stay those of placement_error on every one-point move."""
    import random

    from pyrules.registry import SYSTEMS
    from pyrules.systems.pool.rules import placement_error, placement_moves

    pool = SYSTEMS["pool"]
    rng = random.Random(21)
    for _ in range(3000):
        k = rng.randint(1, 5)
        p, _ = pool.parse({"pot": 8, "flame": k, "augmentations": rng.randint(0, 6),
                           "diminutions": rng.randint(0, 6)})
        faces = tuple(rng.randint(1, 6) for _ in range(k))
        place = tuple(rng.randint(-3, 3) for _ in range(rng.choice([k, k, k, k - 1])))
        expected = tuple(
            tuple(placement_error(p, faces, tuple(d + step if j == i else d
                                                  for j, d in enumerate(place))) is None
                  for step in (1, -1))
            for i in range(k))
        assert placement_moves(p, faces, place) == expected, (faces, place)


@pytest.mark.parametrize("seed", range(20))
def test_placement_dice_name_the_flame_dice_each_value_moves(seed: int) -> None:
    """Issue 42: the page learns from the answer which die each placement value moves."""
    for flame in (-3, 0, 2, 4):
        result = ok({"op": "roll", "system": "pool", "seed": seed,
                     "params": {"pot": 3 + seed % 4, "flame": flame, "augmentations": 2}})
        kinds = [d["kind"] for d in result["dice"]]
        assert len(result["placement_dice"]) == len(result["placement"])
        assert [kinds[i] for i in result["placement_dice"]] == [
            k for k in kinds if k in ("flame", "black_flame")]
