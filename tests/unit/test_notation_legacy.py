"""Free dice notation read by grammar 1 (``"grammar": 1``), the reading of replay links made
before grammar 2: it must replay exactly as it did. Exact odds against brute force, rolls,
errors, as they were; and the one fix, a reroll-once of every face (it crashed the odds)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from fractions import Fraction

import pytest

from pyrules.systems.notation.legacy import Group, evaluate, parse_expression

from .helpers import call, err, ok


def v1(expression: str, **params: object) -> dict[str, object]:
    return {"expression": expression, "grammar": 1, **params}


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
    answer = ok({"op": "odds", "system": "notation", "params": v1(expression)})
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
    answer = ok({"op": "odds", "system": "notation", "params": v1(expression)})
    assert answer["distribution"] == {str(t): str(p) for t, p in throw_tree(expression).items()}


@pytest.mark.parametrize(("expression", "sides", "count"), [
    ("1d6ro<6", 6, 1), ("1d2ro<2", 2, 1), ("4dFro<1", 0, 4), ("3d4ro<4kh2", 4, 3)])
def test_a_reroll_once_of_every_face_is_the_plain_die(expression: str, sides: int,
                                                      count: int) -> None:
    # ro<V reads "V or less" in grammar 1: these reroll every face once; the new face stands.
    faces = (-1, 0, 1) if sides == 0 else range(1, sides + 1)
    keep = 2 if expression.endswith("kh2") else count
    want = tally(sum(sorted(c)[-keep:]) for c in itertools.product(faces, repeat=count))
    answer = ok({"op": "odds", "system": "notation", "params": v1(expression)})
    assert answer["distribution"] == {str(t): str(p) for t, p in want.items()}


@pytest.mark.parametrize(("expression", "faces", "old", "new"), [
    ("3d6!kh1", [6, 6, 2, 3, 1], 14, 6),  # ! added into one die / a die of its own
    ("2d6ro<2", [2, 5, 1, 4], 5 + 4, None),  # <2 read as 2 or less / strictly less
    ("2d6ro<2", [2, 1, 4], 1 + 4, 2 + 4),
    ("5d10!>=8", [10, 9, 3, 8, 1, 2], 2, None),  # ! then a count / ! on 8 or more
])
def test_a_link_replays_the_way_it_was_made(expression: str, faces: list[int],
                                            old: int | None, new: int | None) -> None:
    for grammar, want in ((1, old), (2, new)):
        answer = call({"op": "roll", "system": "notation",
                       "params": {"expression": expression, "grammar": grammar,
                                  "dice": faces}})
        if want is None:
            assert not answer["ok"] and answer["error"]["field"] == "dice"
        else:
            assert answer["result"]["total"] == want
            assert answer["result"]["params"]["grammar"] == grammar


def test_a_request_without_grammar_reads_grammar_2() -> None:
    r = ok({"op": "roll", "system": "notation",
            "params": {"expression": "3d6!kh1", "dice": [6, 6, 2, 3, 1]}})
    assert r["total"] == 6 and r["params"]["grammar"] == 2


def test_a_seed_replays_exactly() -> None:
    req = {"op": "roll", "system": "notation", "params": v1("6d6kh3!ro<2+4dF-2"),
           "seed": 12345}
    first, again = ok(req), ok(req)
    assert first == again
    # The same draws, read the old way: a die, its reroll once (1 or 2), its explosions added.
    rng = random.Random(12345)
    six = []
    for _ in range(6):
        face = rng.randint(1, 6)
        if face <= 2:
            face = rng.randint(1, 6)
        value, depth = face, 0
        while face == 6 and depth < 3:
            face = rng.randint(1, 6)
            value += face
            depth += 1
        six.append(value)
    fudge = [rng.randint(-1, 1) for _ in range(4)]
    assert first["total"] == sum(sorted(six)[-3:]) + sum(fudge) - 2


def test_roll_reports_kept_and_dropped_dice() -> None:
    r = ok({"op": "roll", "system": "notation", "params": v1("4d6kh3", dice=[2, 6, 1, 5])})
    assert r["total"] == 13 and r["headline"] == 13 and r["physical"] is True
    assert [d["final"] for d in r["dice"]] == [2, 6, 1, 5]
    assert ["dropped" in d["tags"] for d in r["dice"]] == [False, False, True, False]
    assert r["groups"][0]["dice"][2]["kept"] is False


def test_physical_faces_include_rerolls_and_explosions() -> None:
    r = ok({"op": "roll", "system": "notation", "params": v1("1d6ro1!+1", dice=[1, 6, 6, 2])})
    assert r["total"] == 1 + 6 + 6 + 2
    assert r["groups"][0]["dice"][0]["faces"] == [1, 6, 6, 2]
    assert r["dice"][0]["final"] == 14
    missing = err({"op": "roll", "system": "notation", "params": v1("2d6!", dice=[6])})
    assert missing["field"] == "dice"
    extra = err({"op": "roll", "system": "notation", "params": v1("2d6", dice=[1, 2, 3])})
    assert extra["field"] == "dice"


def test_explosions_stop_at_three() -> None:
    r = ok({"op": "roll", "system": "notation", "params": v1("1d6!", dice=[6, 6, 6, 6])})
    assert r["total"] == 24
    e = err({"op": "roll", "system": "notation", "params": v1("1d6!", dice=[6, 6, 6, 6, 1])})
    assert e["field"] == "dice"


@pytest.mark.parametrize(("expression", "key"), [
    ("", "vide"), ("3+4", "aucun dé"), ("2d0", "d0"), ("0d6", "0d6"),
    ("101d6", "100 dés"), ("2d6+", "incomplète"), ("hello", "illisible"),
    ("2d6*2", "illisible"), ("4d6kh5", "garder"), ("1d1!", "exploser"),
    ("2d6kh1kh1", "qu'une fois"), ("2d6=3kh1", "égaux"), ("1d6+99999", "10000"),
])
def test_bad_expressions_are_errors_on_the_field(expression: str, key: str) -> None:
    for op in ("roll", "odds"):
        e = err({"op": op, "system": "notation", "params": v1(expression)})
        assert e["code"] == "invalid_param"
        assert e["field"] == "expression"
        assert key in e["message"], e["message"]


@pytest.mark.parametrize("expression", ["100d20!", "20d100!", "40d20kh20"])
def test_too_costly_odds_are_refused_but_an_old_roll_still_replays(expression: str) -> None:
    e = err({"op": "odds", "system": "notation", "params": v1(expression), "lang": "en"})
    assert e["field"] == "expression" and "too much work" in e["message"]
    r = ok({"op": "roll", "system": "notation", "params": v1(expression), "seed": 7})
    assert isinstance(r["total"], int)


@pytest.mark.parametrize(("expression", "key"), [
    ("2d6!!", "qu'une fois"), ("2d6!6", "illisible"), ("2d6r1", "illisible"),
    ("2d6ro>2", "illisible"), ("2d6ro<=2", "illisible"), ("3d6>3f1", "illisible"),
    ("(2d6)", "illisible"), ("2d6mi2", "illisible"), ("2d6!p", "illisible"),
    ("2d6/2", "illisible"), ("3d6+-2", "illisible"), ("--3d6", "illisible"),
    ("4d6dh1dl1", "qu'une fois"),
])
def test_what_only_grammar_2_reads_is_refused_by_grammar_1(expression: str, key: str) -> None:
    """Grammar 1 reads grammar 2's parse tree (one parser) and refuses what it never had."""
    e = err({"op": "roll", "system": "notation", "params": v1(expression)})
    assert e["field"] == "expression" and key in e["message"], (expression, e["message"])
    assert isinstance(ok({"op": "roll", "system": "notation", "seed": 1,
                          "params": {"expression": expression}})["total"], int)


@pytest.mark.parametrize(("expression", "faces", "total"), [
    ("2d6ro < 2", [2, 5, 3], 8), ("2d6 ro 1 + 1", [1, 3, 4], 8), ("-1d6+10", [4], 6),
    ("+2d4", [1, 2], 3),
])
def test_grammar_1_reads_spaces_and_signs_as_it_did(expression: str, faces: list[int],
                                                     total: int) -> None:
    r = ok({"op": "roll", "system": "notation", "params": v1(expression, dice=faces)})
    assert r["total"] == total
