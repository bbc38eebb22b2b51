"""The ops of one system's rolls and odds: roll, dice, odds, luck, fairness, oppose,
oppose_odds, sweep and compare. Each is ``parse`` (the whole check, dice thrown only when
they are known) and ``run``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import sweep
from ..core import Faces, System, make_rng
from ..errors import ApiError, PyrulesError
from ..fields import OddsTooCostly, ParamError
from ..sheets.rolls import efforts_of, is_sheet, sheet_roll
from ..stats import FAIRNESS_MAX, chi_square
from .answers import odds_json, oppose_json, oppose_odds_json, roll_json
from .base import Checked, Op, faces_field, get_seed, get_system, params_json, roll_or_resolve
from .cache import estimate_of, odds_of, oppose_odds_of, ranks_of


def parse_params(
    system: System[Any], raw: Any, side: str | None = None, spend: bool = False
) -> tuple[Any, Faces | None, dict[str, Any] | None]:
    """A request's params for ``system`` (errors under ``side.`` when given), or the params
    a ``{"sheet": {...}}`` stands for (``spend``: this roll is thrown, an effort counts),
    with the character after the roll when the sheet changed (else None)."""
    try:
        if is_sheet(raw):
            made = sheet_roll(system, raw, spend)
            params, faces = system.parse(made.params)
            return params, faces, made.character
        params, faces = system.parse(raw)
        return params, faces, None
    except PyrulesError as err:
        raise (err.prefixed(side) if side else err) from None


def _params(req: Mapping[str, Any], lang: str, spend: bool = False) -> Checked:
    system = get_system(req.get("system"))
    params, faces, character = parse_params(system, req.get("params"), spend=spend)
    return {"system": system, "params": params, "faces": faces, "lang": lang,
            "character": character, "shown": {"params": params_json(params)}}


# -- roll --------------------------------------------------------------------------------


def parse_roll(req: Mapping[str, Any], lang: str) -> Checked:
    c = _params(req, lang, spend=True)
    system, params, faces = c["system"], c["params"], c["faces"]
    given_seed = req.get("seed")
    if faces is not None and given_seed is not None:
        raise ApiError("faces_in_sheet", faces_field(system, req.get("params")), "faces_in_sheet")
    known = faces is not None or given_seed is not None
    system.check_known_dice(params, known)
    c["seed"] = None if faces is not None else get_seed(given_seed)
    # Known dice (typed, or a given seed's): thrown now, so what they allow (a placement on
    # these Flame dice) is part of the check. Fresh dice allow everything the params do.
    c["result"] = roll_or_resolve(system, params, faces, c["seed"]) if known else None
    return c


def run_roll(c: Checked) -> dict[str, Any]:
    system, params = c["system"], c["params"]
    result = c["result"] or roll_or_resolve(system, params, None, c["seed"])
    answer = with_warnings(system, params, roll_json(system, result, params, c["lang"]),
                           c["lang"])
    return with_character(system, answer, c["character"])


def with_warnings(system: System[Any], params: Any, answer: dict[str, Any],
                  lang: str) -> dict[str, Any]:
    """What the params' reader should know although they are valid (``warnings``: code and
    message), when there is any."""
    notes = system.warnings(params)
    if not notes:
        return answer
    return {**answer, "warnings": [{"code": code, "message": text.get(lang)}
                                   for code, text in notes]}


def with_character(system: System[Any], answer: dict[str, Any],
                   character: dict[str, Any] | None) -> dict[str, Any]:
    """A sheet roll that changed the sheet (an effort spent) answers the character to keep,
    and its efforts as the `effort` op counts them."""
    if character is None:
        return answer
    efforts = efforts_of(system, character)
    return {**answer, "character": character, **({"efforts": efforts} if efforts else {})}


def parse_dice(req: Mapping[str, Any], lang: str) -> Checked:
    """``params`` (one roll), or ``actor`` and ``opponent`` (both sides of an opposition,
    one call)."""
    if "actor" in req or "opponent" in req:
        return {**parse_sides(req, lang), "sides": True}
    return _params(req, lang)


def run_dice(c: Checked) -> dict[str, Any]:
    def groups(params: Any) -> list[dict[str, Any]]:
        return [g.to_json() for g in c["system"].dice_plan(params)]

    if c.get("sides"):
        return {side: {"groups": groups(c[side])} for side in ("actor", "opponent")}
    return {"groups": groups(c["params"])}


def check_odds(system: System[Any], params: Any, side: str | None = None) -> None:
    """Refuse odds the system will not compute (notation: over its work budget) in the
    op's check, so that ``validate`` refuses them too (errors under ``side.``)."""
    try:
        system.check_odds(params)
    except PyrulesError as err:
        raise (err.prefixed(side) if side else err) from None


def parse_odds(req: Mapping[str, Any], lang: str) -> Checked:
    """Exact odds, or past their budget the system's estimate (marked so in the answer);
    refused only when the system has no estimate to give."""
    c = _params(req, lang)
    try:
        check_odds(c["system"], c["params"])
    except OddsTooCostly:
        c["estimate"] = estimate_of(c["system"], c["params"])
        if c["estimate"] is None:
            raise
    return c


def run_odds(c: Checked) -> dict[str, Any]:
    system, params = c["system"], c["params"]
    answer = odds_json(system, c.get("estimate") or odds_of(system, params))
    return with_warnings(system, params, answer, c["lang"])


# -- luck and fairness -------------------------------------------------------------------


def parse_luck(req: Mapping[str, Any], lang: str) -> Checked:
    c = _params(req, lang)
    raw = req.get("margins")
    if not isinstance(raw, list) or len(raw) > 1000 or not all(
        isinstance(m, int) and not isinstance(m, bool) and abs(m) <= 10**6 for m in raw
    ):
        raise ApiError("invalid_param", "margins", "margins")
    check_odds(c["system"], c["params"])
    c["margins"] = raw
    return c


def run_luck(c: Checked) -> dict[str, Any]:
    table = ranks_of(c["system"], c["params"])
    ranks = [table.percentile(m) for m in c["margins"]]
    return {"percentiles": [float(p) for p in ranks], "exact": [str(p) for p in ranks]}


def parse_fairness(req: Mapping[str, Any], lang: str) -> Checked:
    c = _params(req, lang)
    system = c["system"]
    n = req.get("n")
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= FAIRNESS_MAX:
        raise ApiError("invalid_param", "n", "fairness_n", max=FAIRNESS_MAX)
    previous = req.get("previous") or {}
    ids = system.outcome_ids()
    if not isinstance(previous, dict) or any(
        k not in ids or isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10**7
        for k, v in previous.items()
    ):
        raise ApiError("invalid_param", "previous", "fairness_previous")
    system.check_known_dice(c["params"], False)  # n rolls of fresh dice: no placement fits all
    check_odds(system, c["params"])
    c.update(n=n, previous=previous, seed=get_seed(req.get("seed")))
    return c


def run_fairness(c: Checked) -> dict[str, Any]:
    """Roll ``n`` times with the engine's own dice and compare with the exact odds."""
    system, params, n, previous = c["system"], c["params"], c["n"], c["previous"]
    ids = system.outcome_ids()
    rng = make_rng(c["seed"])
    counts = {o: int(previous.get(o, 0)) for o in ids}
    for _ in range(n):
        counts[system.roll(params, rng).outcome] += 1
    odds = dict(odds_of(system, params).outcomes)
    fit = chi_square(counts, odds)
    total = sum(counts.values())
    return {
        "system": system.id, "seed": c["seed"], "n": n, "total": total,
        "counts": counts,
        "expected": {o: float(odds[o]) * total for o in ids},
        "exact": {o: str(odds[o]) for o in ids},
        "chi_square": fit.statistic if fit.statistic != float("inf") else None,
        "dof": fit.dof, "p_value": fit.p_value,
        "bins": [{"outcomes": label.split("+"), "observed": obs, "expected": exp}
                 for label, obs, exp in fit.bins],
    }


# -- oppositions -------------------------------------------------------------------------


def parse_sides(req: Mapping[str, Any], lang: str, spend: bool = False) -> Checked:
    """Both sides' params (and faces) of an opposition; errors name "actor.x" or "opponent.x"."""
    system = get_system(req.get("system"))
    (pa, fa, ca), (pb, fb, cb) = (parse_params(system, req.get(side), side, spend)
                                  for side in ("actor", "opponent"))
    return {"system": system, "actor": pa, "opponent": pb, "faces": (fa, fb), "lang": lang,
            "characters": (ca, cb),
            "shown": {"actor": params_json(pa), "opponent": params_json(pb)}}


def parse_oppose(req: Mapping[str, Any], lang: str) -> Checked:
    c = parse_sides(req, lang, spend=True)
    system, pa, pb, (fa, fb) = c["system"], c["actor"], c["opponent"], c["faces"]
    given_seed = req.get("seed")
    for side, given in (("actor", fa), ("opponent", fb)):
        # Faces only in physical mode (both sides typed, no seed): never one side loaded.
        if given is not None and (given_seed is not None or fa is None or fb is None):
            field = faces_field(system, req.get(side))
            raise ApiError("faces_in_sheet", f"{side}.{field}" if field else side, "faces_in_sheet")
    physical = fa is not None and fb is not None
    for side, params in (("actor", pa), ("opponent", pb)):
        try:
            system.check_known_dice(params, physical or given_seed is not None)
        except ParamError as err:
            raise err.prefixed(side) from None
    seed = None if physical else get_seed(given_seed)
    rng = None if seed is None else make_rng(seed)
    faces = (fa, fb) if physical else None
    result = None
    if physical or given_seed is not None:  # known dice: thrown now, as part of the check
        result = system.oppose(pa, pb, faces, rng)
    c.update(seed=seed, rng=rng, result=result, faces=faces)
    return c


def run_oppose(c: Checked) -> dict[str, Any]:
    system, pa, pb = c["system"], c["actor"], c["opponent"]
    result = c["result"] or system.oppose(pa, pb, c["faces"], c["rng"])
    out = oppose_json(system, result, pa, pb, c["seed"], c["lang"])
    for side, character in zip(("actor", "opponent"), c["characters"], strict=True):
        out[side] = with_character(system, out[side], character)
    return out


def parse_oppose_odds(req: Mapping[str, Any], lang: str) -> Checked:
    c = parse_sides(req, lang)
    for side in ("actor", "opponent"):
        check_odds(c["system"], c[side], side)
    return c


def run_oppose_odds(c: Checked) -> dict[str, Any]:
    system = c["system"]
    return oppose_odds_json(system, oppose_odds_of(system, c["actor"], c["opponent"]))


# -- the GM's tools (pyrules/sweep.py) -----------------------------------------------------


def parse_sweep(req: Mapping[str, Any], lang: str) -> Checked:
    system = get_system(req.get("system"))
    out = sweep.sweep(system, req, True)
    return {"system": system, "req": req,
            "shown": {"params": params_json(out["params"]), "values": out["values"]}}


def parse_compare(req: Mapping[str, Any], lang: str) -> Checked:
    system = get_system(req.get("system"))
    out = sweep.compare(system, req, True)
    for side in ("a", "b"):
        check_odds(system, out[side], side)
    return {"system": system, "req": req,
            "shown": {"a": params_json(out["a"]), "b": params_json(out["b"])}}


ROLL_OPS = {
    "roll": Op(parse_roll, run_roll),
    "odds": Op(parse_odds, run_odds),
    "oppose": Op(parse_oppose, run_oppose),
    "oppose_odds": Op(parse_oppose_odds, run_oppose_odds),
    "dice": Op(parse_dice, run_dice),
    "luck": Op(parse_luck, run_luck),
    "fairness": Op(parse_fairness, run_fairness),
    "sweep": Op(parse_sweep, lambda c: sweep.sweep(c["system"], c["req"])),
    "compare": Op(parse_compare, lambda c: sweep.compare(c["system"], c["req"])),
}
