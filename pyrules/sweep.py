"""Tools for the GM: the odds as a curve (op ``sweep``) and two choices compared (``compare``).

``sweep`` answers the exact odds of one roll for each value of one of its fields (the DIFF of a
pool, the difficulty of a d6 roll, ...): every row is what the ``odds`` op answers for those
params with that field set to that value. Which fields may be swept, and over which values
by default, is part of the registry (:data:`SWEEPS`, described by ``systems``).
``compare`` answers the odds of two variations of the same roll and their difference per tier.

The work is capped: at most :data:`MAX_VALUES` values a sweep, and every sweepable field has
a small range. The pool's costly part (the Flame dice's distribution) does not depend on the
DIFF and is cached by the pool module, so a DIFF sweep pays it once (bench/sweep.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .core import Odds, System
from .fields import Field, ParamError
from .i18n import ERRORS, Text

MAX_VALUES = 61  # values in one sweep
HALF = Fraction(1, 2)

ERRORS.update({
    "sweep_field": Text(
        "« {name} » ne peut pas être balayé pour ce système. Champs possibles : {fields}.",
        "'{name}' cannot be swept for this system. Possible fields: {fields}.",
    ),
    "sweep_values": Text(
        "« values » doit être une liste de 1 à {max} nombres entiers distincts.",
        "'values' must be a list of 1 to {max} distinct whole numbers.",
    ),
})


@dataclass(frozen=True)
class SweepSpec:
    """A field that may be swept; ``low``..``high`` by ``step`` are the values a sweep takes
    when the request gives none (``None``: the field's own bound)."""

    field: str
    step: int = 1
    low: int | None = None
    high: int | None = None


SWEEPS: dict[str, tuple[SweepSpec, ...]] = {
    "pool": (SweepSpec("diff"),),
    "d6": (SweepSpec("difficulty"),),
    "d100": (SweepSpec("modifier", step=5, low=-100, high=100),),
    "steps": (SweepSpec("threshold"), SweepSpec("bonus")),
}

# Two variations offered first by the comparison (document 000: +1 die against +1
# augmentation; document 001: an exceptional effort or not). ``delta`` adds to the current
# value, ``value`` replaces it.
COMPARE: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "pool": ({"field": "pot", "delta": 1}, {"field": "augmentations", "delta": 1}),
    "d6": ({"field": "effort", "value": False}, {"field": "effort", "value": True}),
    "d100": ({"field": "modifier", "delta": 0}, {"field": "modifier", "delta": -15}),
    "steps": ({"field": "edge", "value": "none"}, {"field": "edge", "value": "advantage"}),
}


def _field(system: System[Any], name: str) -> Field:
    return next(f for f in system.fields if f.name == name)


def comparable(system: System[Any]) -> tuple[str, ...]:
    """The fields a comparison may change: the roll's own settings (not the dice, the manual
    placement or a free-text field)."""
    return tuple(f.name for f in system.fields
                 if f.kind in ("int", "bool", "choice") and not f.optional
                 and f.group in ("main", "advanced"))


def describe(system: System[Any]) -> dict[str, Any]:
    """What ``systems`` says of a system's sweeps and comparisons."""
    sweeps = []
    for spec in SWEEPS.get(system.id, ()):
        f = _field(system, spec.field)
        assert f.kind == "int" and f.min is not None and f.max is not None
        sweeps.append({"field": spec.field, "step": spec.step,
                       "min": f.min if spec.low is None else spec.low,
                       "max": f.max if spec.high is None else spec.high})
    fields = comparable(system)
    preset = COMPARE.get(system.id)
    if preset is None and fields:  # a system without a preset: its first setting, +0 / +1
        f = _field(system, fields[0])
        preset = (({"field": f.name, "delta": 0}, {"field": f.name, "delta": 1})
                  if f.kind == "int" else
                  ({"field": f.name, "value": f.default}, {"field": f.name, "value": f.default}))
    compare = None if preset is None else {"fields": list(fields), "a": preset[0],
                                           "b": preset[1]}
    return {"sweep": sweeps, "compare": compare}


# -- the ops ---------------------------------------------------------------------------------


def odds_row(system: System[Any], odds: Odds) -> dict[str, Any]:
    """The ``exact``, ``probabilities`` and ``success`` of an ``odds`` answer."""
    success = system.success_chance(odds)
    return {
        "exact": {o: str(p) for o, p in odds.outcomes},
        "probabilities": {o: float(p) for o, p in odds.outcomes},
        "success": str(success),
        "success_probability": float(success),
    }


def _raw_params(raw: Any) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ParamError("params", "not_object")
    return dict(raw)


def _default_values(spec: SweepSpec, f: Field, current: int) -> list[int]:
    assert f.min is not None and f.max is not None
    low = f.min if spec.low is None else max(f.min, spec.low)
    high = f.max if spec.high is None else min(f.max, spec.high)
    return sorted({*range(low, high + 1, spec.step), current})


def _trim(rows: list[dict[str, Any]], keep: int) -> list[dict[str, Any]]:
    """Drop the flat ends of a default sweep (the same odds again and again), keeping one row
    of each flat end and the current value ``keep``."""
    start, end = 0, len(rows)
    while start + 1 < end and rows[start]["exact"] == rows[start + 1]["exact"] \
            and rows[start]["value"] != keep:
        start += 1
    while end - 1 > start and rows[end - 1]["exact"] == rows[end - 2]["exact"] \
            and rows[end - 1]["value"] != keep:
        end -= 1
    return rows[start:end]


def half(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Which value gives an even chance of success: the nearest, those exactly at 1/2, and
    each pair of neighbouring values that 1/2 falls between."""
    ordered = sorted(rows, key=lambda r: r["value"])
    chance = [Fraction(r["success"]) for r in ordered]
    nearest = min(range(len(ordered)), key=lambda i: (abs(chance[i] - HALF), -chance[i]))
    between = [[ordered[i]["value"], ordered[i + 1]["value"]] for i in range(len(ordered) - 1)
               if (chance[i] - HALF) * (chance[i + 1] - HALF) < 0]
    return {
        "nearest": ordered[nearest]["value"],
        "nearest_success": str(chance[nearest]),
        "exact": [r["value"] for r, c in zip(ordered, chance, strict=True) if c == HALF],
        "between": between,
    }


def sweep(system: System[Any], req: Mapping[str, Any], dry: bool = False) -> dict[str, Any]:
    """The odds for each value of one field (``dry``: only validate, answer the params)."""
    name = req.get("field")
    specs = {s.field: s for s in SWEEPS.get(system.id, ())}
    if not isinstance(name, str) or name not in specs:
        raise ParamError("field", "sweep_field", name=str(name)[:40],
                         fields=", ".join(specs) or "-")
    raw = _raw_params(req.get("params"))
    base, _ = system.parse(raw)  # the other params' errors name their own field
    current = getattr(base, name)
    values = req.get("values")
    chosen = values is None
    if chosen:
        values = _default_values(specs[name], _field(system, name), current)
    elif (not isinstance(values, list) or not 1 <= len(values) <= MAX_VALUES
          or any(isinstance(v, bool) or not isinstance(v, int) for v in values)
          or len(set(values)) != len(values)):
        raise ParamError("values", "sweep_values", max=MAX_VALUES)
    parsed = []
    for value in values:
        try:
            parsed.append(system.parse({**raw, name: value})[0])
        except ParamError as err:  # "values.diff": a value out of the field's bounds
            raise (err.prefixed("values") if err.field == name else err) from None
    if dry:
        return {"params": base, "values": values}
    rows = [{"value": value, **odds_row(system, system.odds(params))}
            for value, params in zip(values, parsed, strict=True)]
    if chosen:
        rows = _trim(rows, current)
    return {"system": system.id, "field": name, "current": current, "rows": rows,
            "half": half(rows)}


def _totals_row(system: System[Any], odds: Odds) -> dict[str, Any]:
    """A free-dice row as the ``odds`` op shapes it: ``kind`` (``sum`` or ``count``), the
    ``distribution`` of totals and its ``mean``; a count's ``at_least_one`` success, a sum no
    chance of success at all."""
    mean = sum((m * p for m, p in odds.margins), Fraction(0))
    row = {**odds_row(system, odds),
           "distribution": {str(m): str(p) for m, p in odds.margins},
           "mean": str(mean), "mean_value": float(mean)}
    return system.odds_answer(odds, row)


def _beats(x: tuple[tuple[int, Fraction], ...], y: tuple[tuple[int, Fraction], ...]) -> Fraction:
    """P(X > Y) for independent totals X, Y given as (value, probability) pairs."""
    ys = sorted(y)
    below, j, out = Fraction(0), 0, Fraction(0)
    for value, p in sorted(x):
        while j < len(ys) and ys[j][0] < value:
            below += ys[j][1]
            j += 1
        out += p * below
    return out


def _compare_totals(system: System[Any], a: Odds, b: Odds) -> dict[str, Any]:
    """Two free-dice choices: a sum is no success test, so they are compared by their mean
    and by which one rolls higher; two counts also by the chance of at least one success."""
    ra, rb = _totals_row(system, a), _totals_row(system, b)
    kind = ra["kind"] if ra["kind"] == rb["kind"] else "mixed"
    mean = Fraction(rb["mean"]) - Fraction(ra["mean"])
    b_higher, a_higher = _beats(b.margins, a.margins), _beats(a.margins, b.margins)
    tie = 1 - b_higher - a_higher
    shown = list(ra["exact"]) if kind == "count" else []  # a sum has no tiers
    diff = {o: Fraction(rb["exact"][o]) - Fraction(ra["exact"][o]) for o in shown}
    success = (Fraction(rb["at_least_one"]) - Fraction(ra["at_least_one"])
               if kind == "count" else None)
    return {
        "system": system.id, "kind": kind, "a": ra, "b": rb,
        "difference": {o: str(d) for o, d in diff.items()},
        "difference_probabilities": {o: float(d) for o, d in diff.items()},
        "success_difference": None if success is None else str(success),
        "success_difference_probability": None if success is None else float(success),
        "mean_difference": str(mean), "mean_difference_value": float(mean),
        "higher": {"b": str(b_higher), "a": str(a_higher), "tie": str(tie)},
        "higher_probabilities": {"b": float(b_higher), "a": float(a_higher),
                                 "tie": float(tie)},
    }


def compare(system: System[Any], req: Mapping[str, Any], dry: bool = False) -> dict[str, Any]:
    """The odds of two variations (``dry``: only validate, answer both sides' params)."""
    parsed = []
    for side in ("a", "b"):
        try:
            parsed.append(system.parse(req.get(side))[0])
        except ParamError as err:
            raise err.prefixed(side) from None
    if dry:
        return {"a": parsed[0], "b": parsed[1]}
    a, b = (system.odds(params) for params in parsed)
    if system.totals:
        return _compare_totals(system, a, b)
    pa, pb = dict(a.outcomes), dict(b.outcomes)
    ra, rb = odds_row(system, a), odds_row(system, b)
    diff = {o: pb[o] - pa[o] for o in system.outcome_ids()}
    success = Fraction(rb["success"]) - Fraction(ra["success"])
    return {
        "system": system.id, "a": ra, "b": rb,
        "difference": {o: str(d) for o, d in diff.items()},
        "difference_probabilities": {o: float(d) for o, d in diff.items()},
        "success_difference": str(success),
        "success_difference_probability": float(success),
    }
