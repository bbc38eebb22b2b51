"""Odds of an opposition (op "oppose_odds"): who wins, checked against a brute-force oracle
that resolves every pair of face combinations through ``oppose`` itself, and against
seeded opposed rolls (rerolled ties included)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from pyrules.core import all_faces
from pyrules.registry import SYSTEMS
from pyrules.stats import chi_square

from .helpers import err, ok

# Pairs of sides small enough to enumerate every pair of face combinations.
PAIRS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("pool", {"pot": 3, "flame": 1, "augmentations": 1}, {"pot": 2, "diff": 3}),
    ("pool", {"pot": 2, "flame": -1}, {"pot": 3, "flame": 2, "diminutions": 1}),
    ("pool", {"pot": 2, "modifiers": "+1D"}, {"pot": 3, "flame": 1, "modifiers": "-1"}),
    ("d6", {"attribute": 2, "skill": 1, "pc": True}, {"attribute": 2, "skill": 1, "pc": False}),
    ("d6", {"attribute": 2, "skill": 1, "pc": False}, {"attribute": 1, "skill": 1, "pc": True}),
    ("d6", {"attribute": 3, "skill": 0}, {"attribute": 2, "skill": 1, "effort": True}),
    ("d100", {"value": 40}, {"value": 55}),
    ("d100", {"value": 90}, {"value": 12}),
    ("steps", {}, {}),
    ("steps", {"die": 12, "bonus": 1, "edge": "advantage"}, {"die": 4, "edge": "handicap"}),
    ("steps", {"die": 6, "weapons": [1, 3], "protections": [2]}, {"die": 8, "weapons": [0, 1]}),
    ("pool", {"pot": 3, "complexity": -2, "actor_size": -3}, {"pot": 2, "size_rule": "full"}),
]


def exchange(system_id: str, actor: dict[str, Any], opponent: dict[str, Any]) -> dict[str, Any]:
    """One exchange of ``oppose`` for every pair of face combinations (each equally likely)."""
    system = SYSTEMS[system_id]
    pa, _ = system.parse(actor)
    pb, _ = system.parse(opponent)
    counts = {"actor": 0, "opponent": 0, "tie": 0}
    theirs = list(all_faces(system.dice_plan(pb)))
    for fa in all_faces(system.dice_plan(pa)):
        for fb in theirs:
            counts[system.oppose(pa, pb, (fa, fb), None).winner] += 1
    total = sum(counts.values())
    return {k: Fraction(n, total) for k, n in counts.items()}


@pytest.mark.parametrize(("system_id", "actor", "opponent"), PAIRS)
def test_odds_match_every_exchange_resolved_by_oppose(
    system_id: str, actor: dict[str, Any], opponent: dict[str, Any]
) -> None:
    oracle = exchange(system_id, actor, opponent)
    odds = ok({"op": "oppose_odds", "system": system_id, "actor": actor, "opponent": opponent})
    exact = {k: Fraction(v) for k, v in odds["exact"].items()}
    assert sum(exact.values()) == 1
    assert odds["probabilities"] == {k: float(v) for k, v in exact.items()}
    rerolls = odds["tie_rerolls"]
    if rerolls == 0:  # the exchange decides: the oracle is the answer
        assert exact == oracle
        return
    # A tie is rolled again, up to `rerolls` times: the exchange repeats while tied.
    tie = oracle["tie"]
    assert Fraction(odds["exchange_tie"]) == tie
    again = sum(tie**k for k in range(rerolls + 1))
    assert exact == {
        "actor": oracle["actor"] * again,
        "opponent": oracle["opponent"] * again,
        "tie": tie ** (rerolls + 1),
    }
    # Rerolled until someone wins, the chances are the exchange's, tie left out (to within
    # the tie's chance of lasting through every reroll).
    assert abs(exact["actor"] - oracle["actor"] / (1 - tie)) <= exact["tie"]


def test_who_wins_a_tie_by_system() -> None:
    """d6: a PC beats an NPC on a tie, two PCs (or NPCs) roll again; elsewhere a tie stands."""
    def odds(system_id: str, actor: dict[str, Any], opponent: dict[str, Any]) -> dict[str, Any]:
        request = {"op": "oppose_odds", "system": system_id, "actor": actor, "opponent": opponent}
        return ok(request)

    same = {"attribute": 2, "skill": 2}
    pc_vs_npc = odds("d6", {**same, "pc": True}, {**same, "pc": False})
    assert pc_vs_npc["tie_rerolls"] == 0 and pc_vs_npc["exact"]["tie"] == "0"
    assert Fraction(pc_vs_npc["exact"]["actor"]) > Fraction(1, 2)
    npc_vs_pc = odds("d6", {**same, "pc": False}, {**same, "pc": True})
    assert npc_vs_pc["exact"]["opponent"] == pc_vs_npc["exact"]["actor"]
    twins = odds("d6", {**same, "pc": True}, {**same, "pc": True})
    assert twins["tie_rerolls"] == 100
    assert twins["exact"]["actor"] == twins["exact"]["opponent"]
    assert 0 < Fraction(twins["exact"]["tie"]) < Fraction(1, 10**70)
    for system_id in ("pool", "d100", "steps"):
        answer = odds(system_id, {}, {})
        assert answer["tie_rerolls"] == 0
        assert answer["exact"]["actor"] == answer["exact"]["opponent"]
        assert answer["exact"]["tie"] == answer["exchange_tie"] != "0"


@pytest.mark.parametrize(
    ("system_id", "actor", "opponent"),
    [
        ("pool", {"pot": 6, "flame": 2, "augmentations": 1}, {"pot": 5, "diff": 3}),
        ("d6", {"attribute": 2, "skill": 1}, {"attribute": 1, "skill": 2}),  # ties rerolled
        ("d100", {"value": 45}, {"value": 50}),
        ("steps", {"die": 8}, {"die": 6, "bonus": 1}),
    ],
)
def test_seeded_opposed_rolls_agree_with_the_odds(
    system_id: str, actor: dict[str, Any], opponent: dict[str, Any]
) -> None:
    odds = ok({"op": "oppose_odds", "system": system_id, "actor": actor, "opponent": opponent})
    system = SYSTEMS[system_id]
    pa, _ = system.parse(actor)
    pb, _ = system.parse(opponent)
    counts = {"actor": 0, "opponent": 0, "tie": 0}
    for seed in range(3000):
        counts[system.oppose(pa, pb, None, random.Random(seed)).winner] += 1
    expected = {k: Fraction(v) for k, v in odds["exact"].items()}
    fit = chi_square(counts, expected)
    assert fit.p_value > 1e-4, (counts, odds["probabilities"], fit)


def test_oppose_odds_errors_name_the_side_and_field() -> None:
    e = err({"op": "oppose_odds", "system": "pool", "actor": {"pot": 0}, "opponent": {}})
    assert (e["code"], e["field"]) == ("invalid_param", "actor.pot")
    e = err({"op": "oppose_odds", "system": "d100", "actor": {}, "opponent": {"value": "x"}})
    assert (e["code"], e["field"]) == ("invalid_param", "opponent.value")
    e = err({"op": "oppose_odds", "system": "nope", "actor": {}, "opponent": {}})
    assert e["code"] == "unknown_system"
