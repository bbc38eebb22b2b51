"""The one JSON-in/JSON-out entry point: :func:`handle`. It never raises.

See docs/api.md for the contract. The browser worker and the CLI both come through here.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from fractions import Fraction
from itertools import accumulate
from typing import Any

from . import __version__, sweep
from .core import (
    SEED_MAX,
    Faces,
    Odds,
    OpposeOdds,
    OpposeResult,
    RollResult,
    System,
    make_rng,
    new_seed,
)
from .explain import both
from .fields import ParamError, validate
from .i18n import LANGS, message
from .qr import check_text, qr
from .registry import SYSTEMS, describe
from .stats import FAIRNESS_MAX, chi_square, percentile
from .systems.d6.table import effort
from .systems.pool.table import SOURCE_FIELDS, pool_sources
from .systems.steps.table import parse_combat, parse_fight, resolve_combat, split_ardeur

MAX_REQUEST = 100_000  # characters
MAX_DEPTH = 32  # nesting of arrays and objects; checked before parsing (a deep text overflows
# the wasm stack of Pyodide, which no RecursionError catches)
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]")
OPS = ("systems", "roll", "odds", "oppose", "oppose_odds", "dice", "version", "sources",
       "combat", "fight", "effort", "luck", "fairness", "sweep", "compare", "qr", "validate")


class ApiError(Exception):
    def __init__(self, code: str, field: str | None, key: str, **args: Any) -> None:
        super().__init__(key)
        self.code, self.field, self.key, self.args_ = code, field, key, args


def handle(request: str) -> str:
    """Answer one JSON request with one JSON answer (never raises)."""
    lang = "fr"
    try:
        if not isinstance(request, str):
            raise ApiError("invalid_json", None, "not_request")
        if len(request) > MAX_REQUEST:
            raise ApiError("invalid_json", None, "invalid_json",
                           detail=f"more than {MAX_REQUEST} characters")
        if nesting(request) > MAX_DEPTH:
            raise ApiError("invalid_json", None, "too_deep", max=MAX_DEPTH)
        try:
            req = json.loads(request)
        except (ValueError, RecursionError) as exc:
            raise ApiError("invalid_json", None, "invalid_json", detail=str(exc)[:200]) from None
        if not isinstance(req, dict):
            raise ApiError("invalid_json", None, "not_request")
        raw_lang = req.get("lang")
        if raw_lang is not None and raw_lang not in LANGS:
            raise ApiError("invalid_param", "lang", "lang")
        lang = raw_lang or "fr"
        inner = req.get("request") if req.get("op") == "validate" else None
        if isinstance(inner, dict) and inner.get("lang") in LANGS:
            lang = inner["lang"]  # `validate` answers as the op would: in its request's lang
        answer = {"ok": True, "result": dispatch(req, lang)}
    except ApiError as err:
        answer = error(err.code, err.field, message(err.key, lang, **err.args_))
    except ParamError as err:
        answer = error("invalid_param", err.field, err.message(lang))
    except Exception as exc:  # a bug: still answer in JSON, never raise into JavaScript
        answer = error("internal", None, message("internal", lang, detail=repr(exc)[:200]))
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":"))


def nesting(text: str) -> int:
    """How deeply arrays and objects nest in a JSON text, counted without parsing it
    (brackets inside strings do not count; unbalanced text is left to the parser)."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    if not brackets:
        return 0
    return max(accumulate(1 if c in "[{" else -1 for c in brackets))


def error(code: str, field: str | None, text: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "field": field, "message": text}}


def dispatch(req: Mapping[str, Any], lang: str, dry: bool = False) -> dict[str, Any]:
    """Answer one request. ``dry`` (the ``validate`` op): check it exactly as the op does,
    with the same errors, but roll nothing and compute nothing; answer what was checked."""
    op = req.get("op")
    if op == "validate" and not dry:
        return validate_json(req)
    if op in ("systems", "version") and dry:
        return valid(op)
    if op == "systems":
        return describe()
    if op == "version":
        return {"version": __version__}
    if op not in OPS:
        raise ApiError("unknown_op", "op", "unknown_op", op=str(op)[:40], ops=", ".join(OPS))
    if op == "sources":
        if dry:
            validate(SOURCE_FIELDS, req.get("params"))
            return valid(op)
        return sources_json(req.get("params"), lang)
    if op == "effort":  # no dice: its one rule (no effort left) is its validation
        answer = effort(req.get("params"))
        return valid(op) if dry else answer
    if op == "qr":
        if dry:
            check_text(req.get("text"))
            return valid(op)
        return qr(req.get("text"))
    if op == "combat":
        return combat_json(req, lang, dry)
    if op == "fight":
        if dry:
            parse_fight(req.get("fight"))
            return valid(op)
        return fight_json(req.get("fight"))
    system = get_system(req.get("system"))
    if op == "sweep":  # the GM's tools (pyrules/sweep.py)
        out = sweep.sweep(system, req, dry)
        return valid(op, params=params_json(out["params"]), values=out["values"]) if dry else out
    if op == "compare":
        out = sweep.compare(system, req, dry)
        return valid(op, a=params_json(out["a"]), b=params_json(out["b"])) if dry else out
    if op == "luck":
        return luck_json(system, req, dry)
    if op == "fairness":
        return fairness_json(system, req, dry)
    if op == "oppose":
        return oppose(system, req, lang, dry)
    if op == "oppose_odds":
        (pa, _), (pb, _) = parse_sides(system, req)
        if dry:
            return valid(op, actor=params_json(pa), opponent=params_json(pb))
        return oppose_odds_json(system, system.oppose_odds(pa, pb))
    params, faces = system.parse(req.get("params"))
    if op == "dice":
        groups = [g.to_json() for g in system.dice_plan(params)]
        return valid(op, params=params_json(params)) if dry else {"groups": groups}
    if op == "odds":
        return valid(op, params=params_json(params)) if dry else odds_json(system,
                                                                              system.odds(params))
    if faces is not None and req.get("seed") is not None:
        raise ApiError("faces_in_sheet", faces_field(system, req.get("params")), "faces_in_sheet")
    system.check_known_dice(params, faces is not None or req.get("seed") is not None)
    seed = None if faces is not None else get_seed(req.get("seed"))
    if not (dry and faces is None and req.get("seed") is None):
        # Typed faces or a given seed: the dice are known, so what they allow (a placement on
        # these Flame dice) is checked too; a fresh seed's dice are not thrown by `validate`.
        result = roll_or_resolve(system, params, faces, seed)
    if dry:
        return valid(op, params=params_json(params))
    return roll_json(result, params, lang)


def valid(op: str, **normalised: Any) -> dict[str, Any]:
    """The ``validate`` answer: the request is valid; ``params`` as the op reads them."""
    return {"valid": True, "op": op, **normalised}


def validate_json(req: Mapping[str, Any]) -> dict[str, Any]:
    """``{"op": "validate", "request": {...}}``: the request checked as its op would check
    it (same error code, field and message, in the inner request's ``lang``)."""
    inner = req.get("request")
    if not isinstance(inner, dict):
        raise ApiError("invalid_param", "request", "not_request")
    raw_lang = inner.get("lang")
    if raw_lang is not None and raw_lang not in LANGS:
        raise ApiError("invalid_param", "lang", "lang")
    if inner.get("op") == "validate":
        raise ApiError("invalid_param", "op", "validate_nested")
    return dispatch(inner, raw_lang or req.get("lang") or "fr", dry=True)  # lang: see handle


def get_system(system_id: Any) -> System[Any]:
    if not isinstance(system_id, str) or system_id not in SYSTEMS:
        raise ApiError("unknown_system", "system", "unknown_system", system=str(system_id)[:40],
                       systems=", ".join(SYSTEMS))
    return SYSTEMS[system_id]


def get_seed(raw: Any) -> int:
    if raw is None:
        return new_seed()
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= SEED_MAX:
        raise ApiError("invalid_param", "seed", "seed")
    return raw


def roll_or_resolve(
    system: System[Any], params: Any, faces: Faces | None, seed: int | None
) -> RollResult:
    if faces is not None:
        return system.resolve(params, faces).with_seed(None)
    assert seed is not None
    return system.roll(params, make_rng(seed)).with_seed(seed)


def faces_field(system: System[Any], raw: Any) -> str | None:
    """The first field of ``raw`` params that holds dice faces (for an error's ``field``)."""
    if isinstance(raw, Mapping):
        for f in system.fields:
            if f.kind == "faces" and raw.get(f.name) is not None:
                return f.name
    return None


def parse_sides(system: System[Any], req: Mapping[str, Any]) -> list[tuple[Any, Faces | None]]:
    """Both sides' params (and faces) of an opposition; errors name "actor.x" or "opponent.x"."""
    sides = []
    for side in ("actor", "opponent"):
        try:
            sides.append(system.parse(req.get(side)))
        except ParamError as err:
            raise err.prefixed(side) from None
    return sides


def oppose(
    system: System[Any], req: Mapping[str, Any], lang: str, dry: bool = False
) -> dict[str, Any]:
    (pa, fa), (pb, fb) = parse_sides(system, req)
    for side, given in (("actor", fa), ("opponent", fb)):
        # Faces only in physical mode (both sides typed, no seed): never one side loaded.
        if given is not None and (req.get("seed") is not None or fa is None or fb is None):
            field = faces_field(system, req.get(side))
            raise ApiError("faces_in_sheet", f"{side}.{field}" if field else side, "faces_in_sheet")
    physical = fa is not None and fb is not None
    for side, params in (("actor", pa), ("opponent", pb)):
        try:
            system.check_known_dice(params, physical or req.get("seed") is not None)
        except ParamError as err:
            raise err.prefixed(side) from None
    seed = None if physical else get_seed(req.get("seed"))
    rng = None if seed is None else make_rng(seed)
    faces: tuple[Faces, Faces] | None = None
    if fa is not None or fb is not None:  # the side without faces is rolled
        assert rng is not None or physical
        faces = (fa if fa is not None else system.draw(pa, rng),  # type: ignore[arg-type]
                 fb if fb is not None else system.draw(pb, rng))  # type: ignore[arg-type]
    if dry and not physical and req.get("seed") is None:
        return valid("oppose", actor=params_json(pa), opponent=params_json(pb))
    result = system.oppose(pa, pb, faces, rng)
    if dry:
        return valid("oppose", actor=params_json(pa), opponent=params_json(pb))
    return oppose_json(system, result, pa, pb, seed, lang)


# -- serialisation -------------------------------------------------------------------------


def params_json(params: Any) -> dict[str, Any]:
    out = {}
    for f in dataclasses.fields(params):
        if f.name == "mods" or f.metadata.get("internal"):
            continue
        value = getattr(params, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def roll_json(result: RollResult, params: Any, lang: str) -> dict[str, Any]:
    texts = both(result.lines)
    out: dict[str, Any] = {
        "system": result.system,
        "outcome": result.outcome,
        "success": result.success,
        "margin": result.margin,
        "seed": result.seed,
        "physical": result.physical,
        "params": params_json(params),
        "dice": [d.to_json() for d in result.dice],
    }
    out.update(result.extra)
    system = SYSTEMS[result.system]
    out["headline"] = system.headline(result)
    out["explanation"] = texts[lang]
    out["explanations"] = texts
    return system.roll_answer(result, out)


def own_json(system: System[Any], params: Any, own: RollResult, seeded: bool) -> dict[str, Any]:
    """A side's dice judged as a single roll of that side (its own params): outcome, margin
    and luck (the percentile of that margin under its exact odds; None for physical dice,
    whose luck says nothing of the dice)."""
    rank = percentile(dict(system.odds(params).margins), own.margin) if seeded else None
    return {"outcome": own.outcome, "success": own.success, "margin": own.margin,
            "luck": None if rank is None else float(rank),
            "luck_exact": None if rank is None else str(rank)}


def oppose_json(
    system: System[Any], result: OpposeResult, pa: Any, pb: Any, seed: int | None, lang: str
) -> dict[str, Any]:
    def side(r: RollResult, params: Any) -> dict[str, Any]:
        return roll_json(r.with_seed(seed), params, lang)

    own_a, own_b = result.own_results

    texts = both(result.lines)
    out: dict[str, Any] = {
        "system": result.system,
        "winner": result.winner,
        "margin": result.margin,
        "seed": seed,
        "physical": seed is None,
        "actor": {**side(result.actor, pa), "own": own_json(system, pa, own_a, seed is not None)},
        "opponent": {**side(result.opponent, pb),
                     "own": own_json(system, pb, own_b, seed is not None)},
        "rerolls": [{"actor": side(a, pa), "opponent": side(b, pb)} for a, b in result.rerolls],
    }
    out.update(result.extra)
    out["explanation"] = texts[lang]
    out["explanations"] = texts
    return out


def odds_json(system: System[Any], odds: Odds) -> dict[str, Any]:
    success = sum((p for o, p in odds.outcomes if system.is_success(o)), Fraction(0))
    extra: dict[str, Any] = {}
    if system.totals:
        mean = sum((m * p for m, p in odds.margins), Fraction(0))
        extra = {"distribution": {str(m): str(p) for m, p in odds.margins},
                 "mean": str(mean), "mean_value": float(mean)}
    return system.odds_answer(odds, {
        "system": system.id,
        "exact": {o: str(p) for o, p in odds.outcomes},
        "probabilities": {o: float(p) for o, p in odds.outcomes},
        "margins": {str(m): str(p) for m, p in odds.margins},
        "success": str(success),
        "success_probability": float(success),
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


# -- table play ----------------------------------------------------------------------------


def sources_json(raw: Any, lang: str) -> dict[str, Any]:
    sources, totals = pool_sources(raw)
    return {
        **totals,
        "modifiers": f"+{totals['flame_dice']}DF" if totals["flame_dice"] else "",
        "sources": [
            {"id": s.id, "augmentations": s.augmentations, "diminutions": s.diminutions,
             "flame_dice": s.flame_dice, "explanations": both([s.line]),
             "explanation": both([s.line])[lang][0]}
            for s in sources
        ],
    }


def combat_json(req: Mapping[str, Any], lang: str, dry: bool = False) -> dict[str, Any]:
    seed = get_seed(req.get("seed"))
    setup = parse_combat(req.get("params"), req.get("actor"), req.get("opponent"))
    sides = _side_params(req)[: 1 if setup.kind == "ranged" else 2]
    # Faces only in physical mode: no seed, and every rolled side typed (a ranged action
    # rolls the shooter alone). Checked before anything of the roll is answered.
    for side, params in zip(("actor", "opponent"), sides, strict=False):
        loaded = params.get("dice") is not None
        if loaded and (req.get("seed") is not None or any(p.get("dice") is None for p in sides)):
            raise ApiError("faces_in_sheet", f"{side}.dice", "faces_in_sheet")
    if dry:
        return valid("combat", kind=setup.kind, actor=params_json(setup.actor[0]),
                     opponent=params_json(setup.opponent[0]))
    out = resolve_combat(setup, make_rng(seed))
    steps = SYSTEMS["steps"]
    texts = both(out.lines)
    physical = all(p.get("dice") is not None for p in sides)
    shown_seed = None if physical else seed
    rolls = []
    for r, own, p in zip(out.rolls, out.own, sides, strict=True):
        params = steps.parse(p)[0]
        rolls.append({**roll_json(r.with_seed(shown_seed), params, lang),
                      "own": own_json(steps, params, own, not physical)})
    return {
        "kind": out.kind, "winner": out.winner, "margin": out.margin,
        "seed": shown_seed, "physical": physical,
        "actor": {"loss": out.actor_loss, "ardeur": out.actor_ardeur,
                  "knocked_out": "actor" in out.knocked_out},
        "opponent": {"loss": out.opponent_loss, "ardeur": out.opponent_ardeur,
                     "knocked_out": "opponent" in out.knocked_out},
        "rolls": rolls,
        "explanation": texts[lang], "explanations": texts,
    }


def fight_json(raw: Any) -> dict[str, Any]:
    """What the rules of document 004 say of a fight state (see docs/api.md, `fight`)."""
    view = parse_fight(raw)
    nxt = view.next
    return {
        "round": view.round, "turn": view.turn, "current": view.current,
        "standing": list(view.standing), "over": view.over,
        "next": None if nxt is None else {"turn": nxt[0], "round": nxt[1]},
        "participants": {f.id: {"can_act": f.id in view.standing,
                                "skills": view.skills(f), "warning": view.warning(f.id)}
                         for f in view.fighters},
    }


def _side_params(req: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [split_ardeur(side, req.get(side))[1] for side in ("actor", "opponent")]


def luck_json(system: System[Any], req: Mapping[str, Any], dry: bool = False) -> dict[str, Any]:
    params, _ = system.parse(req.get("params"))
    raw = req.get("margins")
    if not isinstance(raw, list) or len(raw) > 1000 or not all(
        isinstance(m, int) and not isinstance(m, bool) and abs(m) <= 10**6 for m in raw
    ):
        raise ApiError("invalid_param", "margins", "margins")
    if dry:
        return valid("luck", params=params_json(params))
    margins = dict(system.odds(params).margins)
    ranks = [percentile(margins, m) for m in raw]
    return {"percentiles": [float(p) for p in ranks], "exact": [str(p) for p in ranks]}


def fairness_json(
    system: System[Any], req: Mapping[str, Any], dry: bool = False
) -> dict[str, Any]:
    """Roll ``n`` times with the engine's own dice and compare with the exact odds."""
    params, _ = system.parse(req.get("params"))
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
    system.check_known_dice(params, False)  # n rolls of fresh dice: no placement fits them all
    seed = get_seed(req.get("seed"))
    if dry:
        return valid("fairness", params=params_json(params))
    rng = make_rng(seed)
    counts = {o: int(previous.get(o, 0)) for o in ids}
    for _ in range(n):
        counts[system.roll(params, rng).outcome] += 1
    odds = dict(system.odds(params).outcomes)
    fit = chi_square(counts, odds)
    total = sum(counts.values())
    return {
        "system": system.id, "seed": seed, "n": n, "total": total,
        "counts": counts,
        "expected": {o: float(odds[o]) * total for o in ids},
        "exact": {o: str(odds[o]) for o in ids},
        "chi_square": fit.statistic if fit.statistic != float("inf") else None,
        "dof": fit.dof, "p_value": fit.p_value,
        "bins": [{"outcomes": label.split("+"), "observed": obs, "expected": exp}
                 for label, obs, exp in fit.bins],
    }
