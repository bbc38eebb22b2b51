"""Chi-square: many seeded rolls per system against the exact odds (deterministic)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from pyrules.core import make_rng
from pyrules.registry import SYSTEMS
from pyrules.stats import chi2_sf, chi_square

ROLLS = 4000
CASES = [
    ("pool", {"pot": 6, "diff": 3, "flame": 2, "augmentations": 1}),
    ("pool", {"pot": 9, "diff": 5, "flame": -3, "diminutions": 2, "fumble_rule": "classic"}),
    ("d6", {"attribute": 3, "skill": 2, "difficulty": 8, "effort": True, "flame": 4}),
    ("d6", {"difficulty": 7, "clarity": 1, "take_time": True}),
    ("d100", {"level": "good", "modifier": -10}),
    ("steps", {"die": 10, "threshold": 6, "edge": "advantage", "edge_rule": "keep"}),
    ("steps", {"die": 6, "threshold": 4, "edge": "handicap"}),
]


@pytest.mark.parametrize(("chi", "dof", "p"), [(3.841459, 1, 0.05), (18.307038, 10, 0.05),
                                               (6.634897, 1, 0.01), (0.0, 3, 1.0),
                                               (2.0, 2, 0.367879441)])
def test_chi2_survival_function(chi: float, dof: int, p: float) -> None:
    assert chi2_sf(chi, dof) == pytest.approx(p, rel=1e-5)


@pytest.mark.parametrize(("system_id", "raw"), CASES)
def test_seeded_rolls_follow_the_exact_odds(system_id: str, raw: dict) -> None:
    system = SYSTEMS[system_id]
    params, _ = system.parse(raw)
    odds = system.odds(params)
    outcomes = Counter(system.roll(params, make_rng(seed)).outcome for seed in range(ROLLS))
    fit = chi_square(outcomes, dict(odds.outcomes))
    assert fit.p_value > 1e-3, fit
    margins = Counter(str(system.roll(params, make_rng(10**6 + s)).margin)
                      for s in range(ROLLS))
    fit = chi_square(margins, {str(m): p for m, p in odds.margins})
    assert fit.p_value > 1e-3, fit


def test_the_check_catches_loaded_dice() -> None:
    """A d6 that never shows 1 must fail the same check: the test can fail."""

    class Loaded(random.Random):
        def randint(self, a: int, b: int) -> int:
            return super().randint(a + 1, b) if b == 6 else super().randint(a, b)

    system = SYSTEMS["pool"]
    params, _ = system.parse({"pot": 6, "diff": 3})
    odds = system.odds(params)
    counts = Counter(system.roll(params, Loaded(seed)).outcome for seed in range(ROLLS))
    assert chi_square(counts, dict(odds.outcomes)).p_value < 1e-6


def test_an_impossible_outcome_has_p_value_zero() -> None:
    fit = chi_square({"a": 10, "b": 1}, {"a": Fraction(1), "b": Fraction(0)})
    assert fit.p_value == 0.0


def test_fairness_op_accumulates_chunks_and_reports_a_p_value() -> None:
    from .helpers import err, ok

    first = ok({"op": "fairness", "system": "d6", "params": {"difficulty": 7}, "n": 1500,
                "seed": 3})
    assert first["total"] == 1500 == sum(first["counts"].values())
    again = ok({"op": "fairness", "system": "d6", "params": {"difficulty": 7}, "n": 1500,
                "seed": 3})
    assert again == first  # the seed replays the whole batch
    second = ok({"op": "fairness", "system": "d6", "params": {"difficulty": 7}, "n": 1500,
                 "seed": 4, "previous": first["counts"]})
    assert second["total"] == 3000
    assert all(second["counts"][o] >= first["counts"][o] for o in first["counts"])
    assert 1e-3 < second["p_value"] <= 1
    assert sum(second["expected"].values()) == pytest.approx(3000)
    assert err({"op": "fairness", "system": "d6", "n": 5001})["field"] == "n"
    assert err({"op": "fairness", "system": "d6", "n": 5,
                "previous": {"nope": 1}})["field"] == "previous"


def test_fairness_op_flags_impossible_counts() -> None:
    from .helpers import ok

    res = ok({"op": "fairness", "system": "steps", "params": {"die": 4, "threshold": 1},
              "n": 10, "previous": {"failure": 5}})
    assert res["p_value"] == 0.0  # a failure is impossible at threshold 1
