"""How a roll, an opposition and odds are answered in JSON (shared by the ops)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core import Odds, OpposeOdds, OpposeResult, RollResult, System
from ..errors import PyrulesError
from ..explain import both
from ..i18n import LANGS, VERSUS, number_text
from ..sweep import odds_row
from .base import params_json
from .cache import odds_of, oppose_odds_of, ranks_of


def chance_json(system: System[Any], params: Any, judged: RollResult | None,
                seeded: bool) -> dict[str, Any]:
    """What a page shows after a roll lands, from the exact odds of ``params`` (cached):
    ``luck`` (the percentile of the margin, None for physical dice, whose luck says nothing
    of the dice) and the ``chance`` of the outcome and of success (``success`` None when
    the system's outcomes are all successes or all failures). ``judged`` None: no chances
    (the rerolls of an opposition)."""
    none = {"luck": None, "luck_exact": None, "chance": None}
    if judged is None:
        return none
    try:
        odds = odds_of(system, params)
    except PyrulesError:  # odds too costly to compute (notation): the roll stands without
        return none
    rank = ranks_of(system, params).percentile(judged.margin) if seeded else None
    outcome = dict(odds.outcomes).get(judged.outcome, Fraction(0))
    success = system.success_chance(odds) if system.judges_success(params) else None
    return {
        "luck": None if rank is None else float(rank),
        "luck_exact": None if rank is None else str(rank),
        "chance": {"outcome": float(outcome), "outcome_exact": str(outcome),
                   "success": None if success is None else float(success),
                   "success_exact": None if success is None else str(success)},
    }


def roll_json(system: System[Any], result: RollResult, params: Any, lang: str,
              judged: RollResult | bool | None = True) -> dict[str, Any]:
    """A roll's answer. Its ``luck`` and ``chance`` are those of ``judged`` (True: the
    result itself; an opposition's side: its own result; None: none)."""
    texts = both(result.lines)
    out: dict[str, Any] = {
        "system": result.system,
        "outcome": result.outcome,
        "success": result.success,
        "margin": result.margin,
        "seed": result.seed,
        "physical": result.physical,
        "params": params_json(params),
        "brief": system.brief(params).as_dict(),
        "dice": [d.to_json() for d in result.dice],
    }
    out.update(result.extra)
    out["headline"] = system.headline(result)
    out.update(headline_json(system.headline_texts(result), lang,
                             system.headline_texts(result, spoken=True)))
    mine = result if judged is True else judged or None
    out.update(chance_json(system, params, mine, not result.physical))
    out["explanation"] = texts[lang]
    out["explanations"] = texts
    return system.roll_answer(result, out)


def own_json(system: System[Any], params: Any, own: RollResult, seeded: bool) -> dict[str, Any]:
    """A side's dice judged as a single roll of that side (its own params): outcome, margin
    and luck (the percentile of that margin under its exact odds; None for physical dice,
    whose luck says nothing of the dice)."""
    try:
        rank = ranks_of(system, params).percentile(own.margin) if seeded else None
    except PyrulesError:  # odds too costly to compute: no luck to tell
        rank = None
    return {"outcome": own.outcome, "success": own.success, "margin": own.margin,
            "luck": None if rank is None else float(rank),
            "luck_exact": None if rank is None else str(rank)}


def headline_json(texts: dict[str, str] | None, lang: str,
                  spoken: dict[str, str] | None = None) -> dict[str, Any]:
    """The headline in words: ``headline_text`` in the request's language, ``headline_texts``
    in each (a page switches language without asking again) and ``headline_spoken`` in each,
    as a screen reader says it, the number first (the same words when no other)."""
    if texts is None:
        return {"headline_text": None, "headline_texts": None, "headline_spoken": None}
    return {"headline_text": texts[lang], "headline_texts": texts,
            "headline_spoken": spoken or texts}


def versus_json(sides: list[dict[str, Any]], lang: str) -> dict[str, Any]:
    """Two sides' numbers side by side (« 12 contre 7 »), one side's headline alone (a shot:
    the shooter's roll), or none."""
    if len(sides) == 1:
        return headline_json(sides[0].get("headline_texts"), lang, sides[0]["headline_spoken"])
    numbers = [n for n in (side.get("headline") for side in sides) if isinstance(n, int)]
    if len(numbers) != 2 or len(sides) != 2:
        return headline_json(None, lang)
    a, b = (number_text(n) for n in numbers)
    return headline_json({code: VERSUS.get(code).format(a=a, b=b) for code in LANGS}, lang)


def oppose_json(
    system: System[Any], result: OpposeResult, pa: Any, pb: Any, seed: int | None, lang: str
) -> dict[str, Any]:
    def side(r: RollResult, params: Any, own: RollResult | None) -> dict[str, Any]:
        return roll_json(system, r.with_seed(seed), params, lang, own)

    own_a, own_b = result.own_results
    try:
        odds = oppose_odds_of(system, pa, pb)
        chance: dict[str, Any] | None = {
            **{k: float(p) for k, p in odds_items(odds)},
            **{f"{k}_exact": str(p) for k, p in odds_items(odds)}}
    except PyrulesError:  # odds too costly to compute (notation)
        chance = None
    texts = both(result.lines)
    out: dict[str, Any] = {
        "system": result.system,
        "winner": result.winner,
        "margin": result.margin,
        "seed": seed,
        "physical": seed is None,
        "actor": {**side(result.actor, pa, own_a),
                  "own": own_json(system, pa, own_a, seed is not None)},
        "opponent": {**side(result.opponent, pb, own_b),
                     "own": own_json(system, pb, own_b, seed is not None)},
        "rerolls": [{"actor": side(a, pa, None), "opponent": side(b, pb, None)}
                    for a, b in result.rerolls],
        "chance": chance,
    }
    out.update(result.extra)
    out.update(versus_json([out["actor"], out["opponent"]], lang))
    out["explanation"] = texts[lang]
    out["explanations"] = texts
    return out


def odds_items(odds: OpposeOdds) -> tuple[tuple[str, Fraction], ...]:
    return (("actor", odds.actor), ("opponent", odds.opponent), ("tie", odds.tie))


def odds_json(system: System[Any], odds: Odds) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    if system.totals:
        mean = sum((m * p for m, p in odds.margins), Fraction(0))
        extra = {"distribution": {str(m): str(p) for m, p in odds.margins},
                 "mean": str(mean), "mean_value": float(mean)}
    return system.odds_answer(odds, {
        "system": system.id,
        **odds_row(system, odds),  # exact, probabilities, success (as a sweep's rows)
        "margins": {str(m): str(p) for m, p in odds.margins},
        **extra,
    })


def oppose_odds_json(system: System[Any], odds: OpposeOdds) -> dict[str, Any]:
    chances = {"actor": odds.actor, "opponent": odds.opponent, "tie": odds.tie}
    return {
        "system": system.id,
        "exact": {k: str(p) for k, p in chances.items()},
        "probabilities": {k: float(p) for k, p in chances.items()},
        "exchange_tie": str(odds.exchange_tie),
        "tie_rerolls": odds.tie_rerolls,
    }
