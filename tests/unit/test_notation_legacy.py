"""Free dice notation (system ``notation``): exact odds against brute force, rolls, errors."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from fractions import Fraction

import pytest

from pyrules.registry import SYSTEMS
from pyrules.systems import notation
from pyrules.systems.notation import Group, evaluate, parse_expression

from .helpers import err, ok

SYSTEM = SYSTEMS["notation"]


def tally(outcomes: Iterable[int]) -> dict[int, Fraction]:
    counts: dict[int, int] = {}
    for total in outcomes:
        counts[total] = counts.get(total, 0) + 1
    n = sum(counts.values())
    return {t: Fraction(c, n) for t, c in sorted(counts.items())}


def dice(n: int, sides: int) -> Iterable[tuple[int, ...]]:
    return itertools.product(range(1, sides + 1), repeat=n)


# Oracles written from the notation's meaning, each die enumerated (no engine code).
ORACLES: dict[str, Callable[[], dict[int, Fraction]]] = {
    "3d6": lambda: tally(sum(c) for c in dice(3, 6)),
    "4d6kh3": lambda: tally(sum(sorted(c)[1:]) for c in dice(4, 6)),
    "2d20kl1": lambda: tally(min(c) for c in dice(2, 20)),
    "2d10+3": lambda: tally(sum(c) + 3 for c in dice(2, 10)),
    "1d100": lambda: tally(range(1, 101)),
    "d%": lambda: tally(range(1, 101)),
    "4dF": lambda: tally(sum(c) for c in itertools.product((-1, 0, 1), repeat=4)),
    "5d10>=8": lambda: tally(sum(f >= 8 for f in c) for c in dice(5, 10)),
    "3d6-1d4": lambda: tally(sum(c[:3]) - c[3] for c in itertools.product(
        *[range(1, 7)] * 3, range(1, 5))),
    "4d6dl1": lambda: tally(sum(sorted(c)[1:]) for c in dice(4, 6)),
    "4d6dh1": lambda: tally(sum(sorted(c)[:-1]) for c in dice(4, 6)),
    "5d6kh2<3": lambda: tally(sum(f < 3 for f in sorted(c)[-2:]) for c in dice(5, 6)),
}


@pytest.mark.parametrize("expression", sorted(ORACLES))
def test_exact_odds_match_enumeration(expression: str) -> None:
    answer = ok({"op": "odds", "system": "notation", "params": {"expression": expression}})
    want = ORACLES[expression]()
    assert answer["distribution"] == {str(t): str(p) for t, p in want.items()}
    assert sum(Fraction(p) for p in answer["distribution"].values()) == 1


class _More(Exception):
    def __init__(self, group: Group) -> None:
        self.group = group


def throw_tree(expression: str) -> dict[int, Fraction]:
    """Every sequence of throws the rules allow (rerolls, explosions), each with its chance,
    resolved through the engine's own roll code: the oracle for ! and ro."""
    params = parse_expression(expression)
    out: dict[int, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        faces = iter(prefix)

        def source(group: Group, faces: Iterable[int] = faces) -> int:
            face = next(iter(faces), None)  # type: ignore[call-overload]
            if face is None:
                raise _More(group)
            return int(face)

        try:
            total, _ = evaluate(params, source)
        except _More as more:
            g = more.group
            n = g.high - g.low + 1
            stack.extend(((*prefix, f), p / n) for f in range(g.low, g.high + 1))
            continue
        out[total] = out.get(total, Fraction(0)) + p
    return dict(sorted(out.items()))


@pytest.mark.parametrize("expression", [
    "3d6!", "2d6ro1", "2d4ro<2!", "3d4!kh2", "2d6!>=6", "1d6ro<3-1dF", "4dF!", "2d4!kl1",
])
def test_rerolls_and_explosions_match_the_throw_tree(expression: str) -> None:
    answer = ok({"op": "odds", "system": "notation", "params": {"expression": expression}})
    assert answer["distribution"] == {str(t): str(p) for t, p in throw_tree(expression).items()}


def test_odds_answer_carries_what_the_odds_panel_reads() -> None:
    answer = ok({"op": "odds", "system": "notation", "params": {"expression": "2d6"}})
    assert answer["exact"] == {"total": "1"}
    assert answer["success"] == "1"
    assert answer["margins"] == answer["distribution"]
    assert answer["distribution"]["7"] == "1/6"
    assert answer["mean"] == "7"


def test_a_seed_replays_exactly() -> None:
    req = {"op": "roll", "system": "notation", "params": {"expression": "6d6kh3!+4dF"},
           "seed": 12345}
    first, again = ok(req), ok(req)
    assert first == again
    rng = random.Random(12345)
    params = parse_expression("6d6kh3!+4dF")
    total, _ = evaluate(params, lambda g: rng.randint(g.low, g.high))
    assert first["total"] == total


def test_roll_reports_kept_and_dropped_dice() -> None:
    r = ok({"op": "roll", "system": "notation",
            "params": {"expression": "4d6kh3", "dice": [2, 6, 1, 5]}})
    assert r["total"] == 13 and r["margin"] == 13 and r["physical"] is True
    assert [d["final"] for d in r["dice"]] == [2, 6, 1, 5]
    assert ["dropped" in d["tags"] for d in r["dice"]] == [False, False, True, False]
    assert r["groups"][0]["dice"][2]["kept"] is False


def test_physical_faces_include_rerolls_and_explosions() -> None:
    r = ok({"op": "roll", "system": "notation",
            "params": {"expression": "1d6ro1!+1", "dice": [1, 6, 6, 2]}})
    assert r["total"] == 1 + 6 + 6 + 2
    assert r["groups"][0]["dice"][0]["faces"] == [1, 6, 6, 2]
    missing = err({"op": "roll", "system": "notation",
                   "params": {"expression": "2d6!", "dice": [6]}})
    assert missing["field"] == "dice"
    extra = err({"op": "roll", "system": "notation",
                 "params": {"expression": "2d6", "dice": [1, 2, 3]}})
    assert extra["field"] == "dice"
    fudge = err({"op": "roll", "system": "notation",
                 "params": {"expression": "1dF", "dice": [2]}})
    assert fudge["field"] == "dice"


def test_explosions_stop_at_the_cap() -> None:
    faces = [6] * (notation.EXPLODE_DEPTH + 1)
    r = ok({"op": "roll", "system": "notation", "params": {"expression": "1d6!", "dice": faces}})
    assert r["total"] == 6 * (notation.EXPLODE_DEPTH + 1)


@pytest.mark.parametrize(("expression", "key"), [
    ("", "vide"), ("   ", "vide"), ("3+4", "aucun dé"), ("2d0", "d0"), ("0d6", "0d6"),
    ("101d6", "100 dés"), ("60d6+60d6", "100 dés"), ("2d6+", "incomplète"),
    ("2d6kh", "incomplète"), ("2d6-", "incomplète"), ("hello", "illisible"),
    ("2d6**2", "illisible"), ("d", "incomplète"), ("2d1001", "1000 faces"),
    ("4d6kh5", "garder"), ("4d6dl4", "garder"), ("1d1!", "exploser"),
    ("2d6kh1kh1", "qu'une fois"), ("2d6=3kh1", "égaux"), ("1d6+99999", "10000"),
    ("1d6" + "+1d6" * 8, "groupes"), ("x" * 61, "trop long"),
])
def test_bad_expressions_are_errors_on_the_field(expression: str, key: str) -> None:
    for op in ("roll", "odds"):
        e = err({"op": op, "system": "notation", "params": {"expression": expression}})
        assert e["code"] == "invalid_param"
        assert e["field"] == "expression"
        assert key in e["message"], e["message"]


def test_expression_must_be_text() -> None:
    e = err({"op": "odds", "system": "notation", "params": {"expression": 36}})
    assert e["field"] == "expression"


@pytest.mark.parametrize("expression", ["50d100", "100d20!", "20d100!", "40d20kh20",
                                        "8d100+8d100+8d100+8d100+8d100"])
def test_too_costly_odds_are_refused_but_the_roll_works(expression: str) -> None:
    e = err({"op": "odds", "system": "notation", "params": {"expression": expression},
             "lang": "en"})
    assert e["field"] == "expression" and "too much work" in e["message"]
    r = ok({"op": "roll", "system": "notation", "params": {"expression": expression},
            "seed": 7})
    assert isinstance(r["total"], int)


@pytest.mark.parametrize("expression", ["100d20", "10d1000", "30d6!", "10d20kh5",
                                        "100d100>=50", "100dF"])
def test_largest_allowed_odds_are_exact_distributions(expression: str) -> None:
    answer = ok({"op": "odds", "system": "notation", "params": {"expression": expression}})
    assert sum(Fraction(p) for p in answer["distribution"].values()) == 1


def test_power_matches_repeated_convolution() -> None:
    die = {1: 1, 2: 3, 5: 2}
    slow = {0: 1}
    for n in range(1, 7):
        nxt: dict[int, int] = {}
        for a, qa in slow.items():
            for b, qb in die.items():
                nxt[a + b] = nxt.get(a + b, 0) + qa * qb
        slow = nxt
        assert notation.power(die, n) == slow
        assert notation.convolve(notation.power(die, n - 1) if n > 1 else {0: 1}, die) == slow
