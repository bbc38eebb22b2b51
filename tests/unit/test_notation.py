"""Free dice notation, grammar 2 (the reading of Roll20 and rpg-dice-roller): exact odds
against brute-force enumeration, rolls, the answer's shape, refusals.

The oracles (tests/unit/notation_oracle.py) share no constant or helper with pyrules: the
explosion cap (3) and each symbol's meaning are written out here and there.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

import pytest

from pyrules.systems import notation

from .helpers import err, ok
from .notation_oracle import combine, group, high, low, of, one_throw, tally


def odds(expression: str, **more: object) -> dict[str, object]:
    return ok({"op": "odds", "system": "notation",
               "params": {"expression": expression, **more}})


def dist(expression: str) -> dict[int, Fraction]:
    answer = odds(expression)
    return {int(k): Fraction(v) for k, v in answer["distribution"].items()}  # type: ignore[attr-defined]


def total(values: tuple[int, ...]) -> int:
    return sum(values)


# Each expression with its meaning written out: dice enumerated, then kept, dropped, counted.
ORACLES: dict[str, Callable[[], dict[int, Fraction]]] = {
    # plain dice and the old symbols, unchanged
    "3d6": lambda: of(group(3, 6), total),
    "4d6kh3": lambda: of(group(4, 6), lambda v: sum(high(v, 3))),
    "2d20kl1": lambda: of(group(2, 20), min),
    "4d6dl1": lambda: of(group(4, 6), lambda v: sum(sorted(v)[1:])),
    "4d6dh1": lambda: of(group(4, 6), lambda v: sum(sorted(v)[:-1])),
    "d%": lambda: of(group(1, 100), total),
    "4dF": lambda: of(group(4, 0), total),
    "4d10>=8": lambda: of(group(4, 10), lambda v: sum(x >= 8 for x in v)),
    # < is strict everywhere: in a count and in a reroll
    "2d6<3": lambda: of(group(2, 6), lambda v: sum(x < 3 for x in v)),
    "2d6ro<3": lambda: of(group(2, 6, reroll=lambda f: f < 3, once=True), total),
    "2d6ro<=2": lambda: of(group(2, 6, reroll=lambda f: f <= 2, once=True), total),
    "2d6ro>4": lambda: of(group(2, 6, reroll=lambda f: f > 4, once=True), total),
    "2d6ro=5": lambda: of(group(2, 6, reroll=lambda f: f == 5, once=True), total),
    "2d6ro1": lambda: of(group(2, 6, reroll=lambda f: f == 1, once=True), total),
    # a reroll-once of every face: the new face stands, so the plain die (was a crash)
    "1d6ro<7": lambda: of(group(1, 6), total),
    "1d6ro<=6": lambda: of(group(1, 6), total),
    "4dFro<=1": lambda: of(group(4, 0), total),
    "1d6ro<6": lambda: of(group(1, 6, reroll=lambda f: f < 6, once=True), total),
    "1d2ro<2": lambda: of(group(1, 2, reroll=lambda f: f < 2, once=True), total),
    "4dFro<1": lambda: of(group(4, 0, reroll=lambda f: f < 1, once=True), total),
    "3d4ro<4kh2": lambda: of(group(3, 4, reroll=lambda f: f < 4, once=True),
                             lambda v: sum(high(v, 2))),
    "3d4ro<5kh2": lambda: of(group(3, 4), lambda v: sum(high(v, 2))),
    # ! : each explosion is a die of its own, kept, dropped and counted on its own
    "3d6!": lambda: of(group(3, 6, explode="each"), total),
    "3d6!kh1": lambda: of(group(3, 6, explode="each"), max),
    "3d6!kh2": lambda: of(group(3, 6, explode="each"), lambda v: sum(high(v, 2))),
    "3d4!kl2": lambda: of(group(3, 4, explode="each"), lambda v: sum(low(v, 2))),
    "3d4!dh1dl1": lambda: of(group(3, 4, explode="each"), lambda v: sum(sorted(v)[1:-1])),
    "3d6>=5!": lambda: of(group(3, 6, explode="each"), lambda v: sum(x >= 5 for x in v)),
    "2d4!>=3>=3": lambda: of(group(2, 4, explode="each", on=lambda v: v >= 3),
                             lambda v: sum(x >= 3 for x in v)),
    "2d6!>=5": lambda: of(group(2, 6, explode="each", on=lambda v: v >= 5), total),
    "2d6!=3": lambda: of(group(2, 6, explode="each", on=lambda v: v == 3), total),
    "2d6!<3": lambda: of(group(2, 6, explode="each", on=lambda v: v < 3), total),
    "3dF!kh2": lambda: of(group(3, 0, explode="each"), lambda v: sum(high(v, 2))),
    "3d6ro1!kh2": lambda: of(group(3, 6, reroll=lambda f: f == 1, once=True, explode="each"),
                             lambda v: sum(high(v, 2))),
    # !! compounds: a die and its explosions are one die
    "3d6!!": lambda: of(group(3, 6, explode="add"), total),
    "3d4!!kh2": lambda: of(group(3, 4, explode="add"), lambda v: sum(high(v, 2))),
    "3d6>=8!!": lambda: of(group(3, 6, explode="add"), lambda v: sum(x >= 8 for x in v)),
    # !p penetrates: each added die counts its face - 1 (it explodes on its own face)
    "3d6!p": lambda: of(group(3, 6, explode="each-1"), total),
    "3d6!pkh2": lambda: of(group(3, 6, explode="each-1"), lambda v: sum(high(v, 2))),
    "2d4!p>=3kl1": lambda: of(group(2, 4, explode="each-1", on=lambda v: v >= 3), min),
    "3d6!!p": lambda: of(group(3, 6, explode="add-1"), total),
    "3d6>=6!!p": lambda: of(group(3, 6, explode="add-1"), lambda v: sum(x >= 6 for x in v)),
    # keep and drop together; = with keep
    "4d6dh1dl1": lambda: of(group(4, 6), lambda v: sum(sorted(v)[1:-1])),
    "5d6dl2dh1": lambda: of(group(5, 6), lambda v: sum(sorted(v)[2:-1])),
    "4d6kh2=6": lambda: of(group(4, 6), lambda v: sum(x == 6 for x in high(v, 2))),
    # f: failures count against successes
    "4d6>=5f1": lambda: of(group(4, 6), lambda v: sum(x >= 5 for x in v) - sum(x == 1 for x in v)),
    "4d6>=5f<3kh3": lambda: of(group(4, 6), lambda v: sum(
        (x >= 5) - (x < 3) for x in high(v, 3))),
    # mi / ma clamp each die (before an explosion looks at it)
    "4d6mi2ma5": lambda: of(group(4, 6, low=2, high=5), total),
    "3d6mi3!": lambda: of(group(3, 6, low=3, explode="each"), total),
    "3d6ma4kh2": lambda: of(group(3, 6, high=4), lambda v: sum(high(v, 2))),
    "3d6min2max5": lambda: of(group(3, 6, low=2, high=5), total),  # rpg-dice-roller's spelling
    # arithmetic: + - * / with the usual precedence, / rounds down, parentheses
    "2d6*2": lambda: of(group(2, 6), lambda v: sum(v) * 2),
    "(1d4+1)*2": lambda: of(group(1, 4), lambda v: (sum(v) + 1) * 2),
    "2d6+1d4*3": lambda: combine(of(group(2, 6), total), of(group(1, 4), total),
                                 lambda x, y: x + y * 3),
    "2d6/1d3": lambda: combine(of(group(2, 6), total), of(group(1, 3), total),
                               lambda x, y: x // y),
    "1d6-2d6/2": lambda: combine(of(group(1, 6), total), of(group(2, 6), total),
                                 lambda x, y: x - y // 2),
    "-1d4/3": lambda: of(group(1, 4), lambda v: (-sum(v)) // 3),
    "1d4*1d6-1": lambda: combine(of(group(1, 4), total), of(group(1, 6), total),
                                 lambda x, y: x * y - 1),
    "3d6-1d4": lambda: combine(of(group(3, 6), total), of(group(1, 4), total),
                               lambda x, y: x - y),
}


@pytest.mark.parametrize("expression", sorted(ORACLES))
def test_exact_odds_match_enumeration(expression: str) -> None:
    want = ORACLES[expression]()
    assert dist(expression) == want
    assert sum(want.values()) == 1


def test_the_cap_is_three_explosions_per_die() -> None:
    # 1d6!: a 6 then another, at most 3 added dice; 24 = four 6s is the highest total.
    d = dist("1d6!")
    assert max(d) == 24 and d[24] == Fraction(1, 6**4)
    assert d[19] == d[23] == Fraction(1, 6**4)  # 6, 6, 6 and one more die, never a fifth
    assert 18 not in d  # three 6s always throw a fourth die
    assert d[17] == Fraction(1, 6**3)  # 6, 6, 5
    d = dist("1d6!!")
    assert max(d) == 24 and d[24] == Fraction(1, 6**4)


def test_reroll_until_is_the_die_without_those_faces() -> None:
    # r<3: 1 and 2 are thrown again until another face shows; the tree of throws, cut at
    # 40 levels, leaves less than (2/6)**40 of chance unplaced.
    want = dict(one_throw(6, reroll=lambda f: f < 3, depth=40))
    left = want.pop(None)  # type: ignore[call-overload]
    got = dist("1d6r<3")
    assert set(got) == {3, 4, 5, 6}
    for face, chance in got.items():
        assert 0 <= chance - want[face] <= left
    assert got == {f: Fraction(1, 4) for f in (3, 4, 5, 6)}
    assert dist("2d20r1") == of(group(2, 19), lambda v: sum(v) + 2)


def test_reroll_until_of_every_face_is_refused_but_reroll_once_is_the_plain_die() -> None:
    for expression in ("1d6r<7", "1d6r>=1", "4dFr<2", "1d1r1"):
        e = err({"op": "odds", "system": "notation", "params": {"expression": expression},
                 "lang": "en"})
        assert e["field"] == "expression" and "never stop" in e["message"]
    assert dist("1d6ro<7") == dist("1d6")


@pytest.mark.parametrize(("expression", "faces", "expected"), [
    ("3d6!kh1", [6, 6, 2, 3, 1], 6),  # separate dice: 6, 6, 2, 3, 1; the best is 6
    ("3d6!!kh1", [6, 6, 2, 3, 1], 14),  # compounded: 6+6+2, 3, 1
    ("1d6!p", [6, 6, 3], 6 + 5 + 2),  # each added die counts its face - 1
    ("1d6!", [6, 6, 6, 6], 24),  # the cap: four faces at most
    ("2d6ro<3", [2, 2, 1, 5], 2 + 5),  # < is strict: 2 is rerolled (once: it stands)
    ("1d6r<3", [1, 2, 1, 4], 4),  # rerolled until it matches no more
    ("5d10!>=8", [8, 3, 9, 10, 2, 1, 1, 4], 8 + 3 + 9 + 10 + 2 + 1 + 1 + 4),
    ("5d10>=8!", [10, 9, 8, 3, 1, 10, 2], 4),  # 10 adds a die (9): 10, 9, 8, 10 succeed
    ("4d6>=5f1", [6, 1, 1, 5], 0),
    ("4d10dh1dl1", [1, 10, 5, 7], 12),
    ("4d6mi3ma5", [1, 6, 4, 2], 3 + 5 + 4 + 3),
    ("(1d4+1)*2", [3], 8),
    ("7/1d4", [2], 3),
    ("-7/1d4", [2], -4),  # / rounds down
    ("2d6+1d4*3", [1, 2, 4], 15),
])
def test_typed_faces_follow_the_meaning(expression: str, faces: list[int],
                                        expected: int) -> None:
    r = ok({"op": "roll", "system": "notation",
            "params": {"expression": expression, "dice": faces}})
    assert r["total"] == expected
    assert r["physical"] is True


def test_separate_explosions_are_dice_of_their_own() -> None:
    r = ok({"op": "roll", "system": "notation",
            "params": {"expression": "2d6!kh2", "dice": [6, 4, 3]}})
    dice = r["groups"][0]["dice"]
    assert [d["value"] for d in dice] == [6, 4, 3]
    assert [d["extra"] for d in dice] == [False, True, False]
    assert [d["kept"] for d in dice] == [True, True, False]
    assert ["exploded" in d["tags"] for d in r["dice"]] == [True, False, False]
    assert ["extra" in d["tags"] for d in r["dice"]] == [False, True, False]


def test_a_seed_replays_and_draws_each_die_then_its_rerolls_and_explosions() -> None:
    req = {"op": "roll", "system": "notation", "seed": 12345,
           "params": {"expression": "6d6kh3!+4dF-1d8r1"}}
    first = ok(req)
    assert first == ok(req)
    # The same draws, read with the meaning written out: randint per throw, in order.
    rng = random.Random(12345)
    six: list[int] = []
    for _ in range(6):
        chain = [rng.randint(1, 6)]
        while chain[-1] == 6 and len(chain) < 4:
            chain.append(rng.randint(1, 6))
        six += chain
    fudge = [rng.randint(-1, 1) for _ in range(4)]
    eight = rng.randint(1, 8)
    while eight == 1:
        eight = rng.randint(1, 8)
    assert first["total"] == sum(sorted(six)[-3:]) + sum(fudge) - eight


def test_a_sum_has_a_total_and_no_success_margin_or_outcome() -> None:
    r = ok({"op": "roll", "system": "notation", "seed": 3,
            "params": {"expression": "1d6-1d6"}})
    assert r["kind"] == "sum"
    assert r["success"] is None and r["margin"] is None and r["outcome"] is None
    assert r["headline"] == r["total"]
    assert "successes" not in r
    assert r["explode_cap"] is None
    o = odds("1d6-1d6")
    assert o["kind"] == "sum" and o["success"] is None and o["success_probability"] is None
    assert o["exact"] == {"total": "1"}
    assert o["mean"] == "0" and o["distribution"]["-5"] == "1/36"
    assert o["explodes"] is False and o["explode_cap"] == 3


def test_a_count_has_its_successes_and_the_chance_of_at_least_one() -> None:
    r = ok({"op": "roll", "system": "notation",
            "params": {"expression": "5d10>=8", "dice": [8, 1, 9, 2, 3]}})
    assert r["kind"] == "count"
    assert r["successes"] == r["headline"] == r["total"] == 2
    assert r["success"] is True and r["outcome"] == "success" and r["margin"] is None
    none = ok({"op": "roll", "system": "notation",
               "params": {"expression": "5d10>=8", "dice": [1, 1, 2, 3, 7]}})
    assert none["success"] is False and none["outcome"] == "failure"
    o = odds("5d10>=8")
    at_least_one = 1 - Fraction(7, 10) ** 5
    assert o["kind"] == "count"
    assert Fraction(o["at_least_one"]) == Fraction(o["success"]) == at_least_one
    assert o["exact"] == {"success": str(at_least_one), "failure": str(1 - at_least_one)}
    assert o["mean"] == "3/2"


def test_a_sum_beside_a_count_is_a_sum_and_the_cap_is_in_both_answers() -> None:
    assert odds("5d10>=8+1d6")["kind"] == "sum"
    assert odds("5d10>=8+1")["kind"] == "count"
    r = ok({"op": "roll", "system": "notation", "seed": 1, "params": {"expression": "3d6!"}})
    assert r["explode_cap"] == 3
    assert odds("3d6!")["explodes"] is True


REFUSALS = [
    ("", "vide", "empty"), ("3+4", "aucun dé", "no dice"), ("2d0", "d0", "d0"),
    ("0d6", "0d6", "0d6"), ("101d6", "100 dés", "100 dice"), ("60d6+60d6", "100 dés", "100 dice"),
    ("2d6+", "incomplète", "incomplete"), ("2d6kh", "incomplète", "incomplete"),
    ("(2d6", "incomplète", "incomplete"), ("2d6)", "illisible", "cannot be read"),
    ("hello", "illisible", "cannot be read"), ("2d6**2", "illisible", "cannot be read"),
    ("2d1001", "1000 faces", "1000 sides"), ("4d6kh5", "garder", "keep"),
    ("4d6dl4", "garder", "keep"), ("4d6dh2dl2", "garder", "keep"), ("1d1!", "exploser", "explode"),
    ("2d6kh1kh1", "qu'une fois", "only once"), ("2d6r1ro2", "qu'une fois", "only once"),
    ("4d6kh2dl1", "pas les deux", "not both"), ("4d6kh2kl1", "pas les deux", "not both"),
    ("1d6+99999", "10000", "10000"), ("1d6" + "+1d6" * 8, "groupes", "groups"),
    ("x" * 61, "trop long", "too long"), ("1d6r<7", "jamais", "never stop"),
    ("1d6mi5ma3", "minimum", "minimum"), ("1d6mi2min3", "qu'une fois", "only once"),
    ("4d6f1", "échecs", "failures"),
    ("1d6/(1d2-1)", "diviseur", "divisor"), ("1d6/0", "diviseur", "divisor"),
]  # too costly odds refuse the odds alone: tests/unit/test_notation_any_size.py


@pytest.mark.parametrize(("expression", "fr", "en"), REFUSALS)
def test_refusals_name_the_expression_in_french_and_english(expression: str, fr: str,
                                                            en: str) -> None:
    for op in ("roll", "odds", "validate"):
        for lang, words in (("fr", fr), ("en", en)):
            inner = {"op": "odds" if op == "validate" else op, "system": "notation",
                     "params": {"expression": expression}, "lang": lang}
            e = err({"op": "validate", "request": inner} if op == "validate" else inner)
            assert e["code"] == "invalid_param"
            assert e["field"] == "expression"
            assert words in e["message"], (op, lang, e["message"])


@pytest.mark.parametrize("expression", ["100d20", "6d1000", "30d100", "30d6!", "10d20kh5",
                                        "100d100>=50", "100dF", "8d100!", "12d20!kh5",
                                        "20d20kh10", "4d10!dh1dl1", "2d100*2d100"])
def test_large_accepted_expressions_get_exact_odds(expression: str) -> None:
    answer = odds(expression)
    assert sum(Fraction(p) for p in answer["distribution"].values()) == 1  # type: ignore[attr-defined]


def test_the_canonical_form_keeps_the_precedence() -> None:
    r = ok({"op": "roll", "system": "notation", "seed": 1,
            "params": {"expression": " ( 1D4 + 1 ) * 2 - 3d6!>=5KH2 / 2 "}})
    assert r["expression"] == "(1d4+1)*2-3d6kh2!>=5/2"
    assert r["params"] == {"expression": " ( 1D4 + 1 ) * 2 - 3d6!>=5KH2 / 2 ", "grammar": 2}


@pytest.mark.parametrize("expression", sorted(ORACLES))
def test_the_canonical_form_reads_back_the_same(expression: str) -> None:
    parsed = notation.parse(expression)
    assert notation.parse(parsed.canonical()) == parsed


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


def test_tally_helper_is_exact() -> None:  # the oracle's own arithmetic, on a known case
    assert tally([(1, Fraction(1, 2)), (1, Fraction(1, 4)), (2, Fraction(1, 4))]) == {
        1: Fraction(3, 4), 2: Fraction(1, 4)}


def test_the_odds_written_in_docs_rules_are_the_engines() -> None:
    """Every "`expr` : P(x) = a/b" (and "au moins une = a/b") of docs/rules.md §5."""
    import re
    from pathlib import Path

    text = Path(__file__).resolve().parents[2].joinpath("docs", "rules.md").read_text("utf-8")
    section = text[text.index("### Chaque symbole"):text.index("### Nos choix (grammaire 2)")]
    seen = 0
    for expression, value, num, den in re.findall(
            r"`([^`]+)` : P\((-?\d+)\) = (\d+)/(\d+)", section):
        assert dist(expression).get(int(value), 0) == Fraction(int(num), int(den)), expression
        seen += 1
    for expression, num, den in re.findall(r"`([^`]+)` : au moins une = (\d+)/(\d+)", section):
        assert Fraction(odds(expression)["at_least_one"]) == Fraction(int(num), int(den))
        seen += 1
    assert seen >= 15


def test_fudge_faces_read_as_marked_in_the_explanation() -> None:
    """Issue 39: a Fudge die reads « +1 », « 0 », « −1 », as its faces are marked."""
    result = ok({"op": "roll", "system": "notation", "params": {"expression": "4dF",
                                                                "dice": [1, 0, -1, 1]}})
    assert result["explanation"][0] == "4dF\u00a0: +1, 0, \u22121, +1 → 1."
    plain = ok({"op": "roll", "system": "notation", "params": {"expression": "2d6",
                                                               "dice": [1, 6]}})
    assert plain["explanation"][0] == "2d6\u00a0: 1, 6 → 7."
