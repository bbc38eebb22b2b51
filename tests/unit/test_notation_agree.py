"""``validate``, ``roll`` and ``odds`` agree on every free-dice expression: ``validate`` of a
roll answers what the roll answers, ``validate`` of odds what the odds answer; a roll and its
odds refuse alike, but for the cost of the odds (``odds`` alone refuses it: a roll never is);
``odds`` never answers ``internal``; and a rolled total is one the odds give a chance to."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers import call

SETTINGS = settings(max_examples=250, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

POINT = st.tuples(st.sampled_from(["", ">=", "<=", ">", "<", "="]), st.integers(0, 12)).map(
    lambda p: f"{p[0]}{p[1]}")
MODIFIERS = {
    "keep": st.tuples(st.sampled_from(["kh", "kl", "dh", "dl"]), st.integers(0, 4)).map(
        lambda m: f"{m[0]}{m[1]}"),
    "drop": st.sampled_from(["dh1dl1", "dl1dh2", "dh1", "dl2"]),
    "explode": st.tuples(st.sampled_from(["!", "!!", "!p", "!!p"]),
                         st.sampled_from(["", ">=5", "=1", "<3", "10", ">8"])).map("".join),
    "reroll": st.tuples(st.sampled_from(["r", "ro"]), POINT).map("".join),
    "clamp": st.tuples(st.sampled_from(["mi", "ma"]), st.integers(0, 8)).map(
        lambda m: f"{m[0]}{m[1]}"),
    "count": st.tuples(st.sampled_from([">=", "<=", ">", "<", "="]), st.integers(0, 10),
                       st.sampled_from(["", "", "f1", "f<2", "f=3"])).map(
        lambda m: f"{m[0]}{m[1]}{m[2]}"),
    "failure": st.builds(lambda p: f"f{p}", POINT),
}
# Mostly distinct kinds of modifier (the same kind twice is one refusal among others).
MODIFIER_LISTS = st.lists(st.sampled_from(sorted(MODIFIERS)), max_size=3, unique=True).flatmap(
    lambda kinds: st.tuples(*(MODIFIERS[k] for k in kinds)))
DICE = st.tuples(st.sampled_from(["", "1", "2", "3", "5", "0", "12", "40"]),
                 st.sampled_from(["4", "6", "10", "20", "F", "%", "1", "2", "100"]),
                 MODIFIER_LISTS).map(lambda d: f"{d[0]}d{d[1]}{''.join(d[2])}")
TERM = st.one_of(DICE, st.integers(0, 12).map(str))


#: What a free-dice request may be refused with: a bad expression, or (the odds ops) its cost.
REFUSALS = ("invalid_param", "odds_too_costly")


@st.composite
def expressions(draw: st.DrawFn) -> str:
    terms = draw(st.lists(TERM, min_size=1, max_size=4))
    text = terms[0]
    for term in terms[1:]:
        op = draw(st.sampled_from(["+", "-", "*", "/"]))
        text = f"({text}){op}{term}" if draw(st.booleans()) else f"{text}{op}{term}"
    return draw(st.sampled_from(["", "-"])) + text


def errors_of(expression: str, grammar: int, lang: str) -> list[dict[str, Any]]:
    params = {"expression": expression, "grammar": grammar}
    requests = [{"op": op, "system": "notation", "params": params, "lang": lang, "seed": 9}
                for op in ("roll", "odds")]
    requests[1].pop("seed")
    answers = [call(r) for r in requests] + [call({"op": "validate", "request": r})
                                               for r in requests]
    for a in answers:
        assert a["ok"] or a["error"]["code"] in REFUSALS, (expression, a)
    return answers


@SETTINGS
@given(expressions(), st.sampled_from(["fr", "en"]))
def test_validate_roll_and_odds_agree(expression: str, lang: str) -> None:
    roll, odds, check_roll, check_odds = errors_of(expression, 2, lang)
    assert_agree(expression, lang, roll, odds, check_roll, check_odds)
    # Grammar 2 never refuses odds for their cost: past the budget they are an estimate.
    assert odds["ok"] or odds["error"]["code"] == "invalid_param", (expression, odds)
    if odds["ok"] and "estimate" not in odds["result"]:  # exact: the roll's total can come up
        total = roll["result"]["total"]
        assert Fraction(odds["result"]["distribution"][str(total)]) > 0
    elif odds["ok"]:
        estimate = odds["result"]["estimate"]
        assert estimate["method"] in ("normal", "monte_carlo")
        assert estimate["low"] <= roll["result"]["total"] <= estimate["high"]


def assert_agree(expression: str, lang: str, roll: dict[str, Any], odds: dict[str, Any],
                 check_roll: dict[str, Any], check_odds: dict[str, Any]) -> None:
    """validate answers each op's answer; the roll and the odds refuse alike, but for the
    cost of the odds, which only ``odds`` refuses."""
    case = (expression, roll, odds, check_roll, check_odds)
    assert check_roll["ok"] == roll["ok"] and check_odds["ok"] == odds["ok"], case
    if not roll["ok"]:
        assert roll["error"] == odds["error"] == check_roll["error"] == check_odds["error"], case
        assert roll["error"]["field"] == "expression"
    elif not odds["ok"]:
        assert odds["error"] == check_odds["error"], case
        assert odds["error"]["code"] == "odds_too_costly", case
        assert odds["error"]["field"] == "expression"
        assert ("trop de calcul" if lang == "fr" else "too much work") in odds["error"]["message"]


@SETTINGS
@given(expressions(), st.sampled_from(["fr", "en"]))
def test_grammar_1_never_answers_internal(expression: str, lang: str) -> None:
    # Grammar 1 replays old links: a roll there is never refused for the cost of its odds
    # (it was not), so only that refusal may differ between its roll and its odds.
    assert_agree(expression, lang, *errors_of(expression, 1, lang))


def test_the_issues_cases_agree() -> None:
    for expression in ("50d100", "20d20kh10", "1d6ro<6", "1d2ro<2", "4dFro<1", "3d4ro<4kh2",
                       "1d6ro<7", "100d10!", "40d20kh20"):
        roll, odds, check_roll, check_odds = errors_of(expression, 2, "en")
        assert roll["ok"] and check_roll["ok"], expression
        assert_agree(expression, "en", roll, odds, check_roll, check_odds)
