"""The ``briefs`` op: what rolls are, each in the short line the engine words (the one a
sheet's quick-roll button and a roll's answer carry), for rolls the page keeps without it:
the history's entries, a quick roll's situation. One call for a whole list (docs/api.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import System
from ..errors import ApiError, PyrulesError
from ..fields import brief
from ..registry import sheet_of
from .base import Checked, Op, get_system


def parse_briefs(req: Mapping[str, Any], lang: str) -> Checked:
    """``rolls``: a list of any length. It is what the page holds (its whole history for a
    CSV export, asked in one call), and each item costs a check of its params, no dice."""
    raw = req.get("rolls")
    if not isinstance(raw, list):
        raise ApiError("invalid_param", "rolls", "briefs_list")
    return {"rolls": raw, "shown": {}}


def situation_brief(system: System[Any], raw: Any) -> dict[str, str]:
    """A quick roll's situation in a short line: each situation field the player set, as the
    roll's brief words it; a value the field refuses says nothing (the roll names it)."""
    if not isinstance(raw, Mapping):
        raise ApiError("invalid_param", "situation", "not_object", label="situation")
    fields = sheet_of(system).situation_fields(system.fields)
    values: dict[str, Any] = {}
    for f in fields:
        value = raw.get(f.name)
        if value is None or value == "":
            continue
        try:
            values[f.name] = f.clean(value)
        except PyrulesError:
            continue
    return brief(fields, values).as_dict()


def brief_of(item: Any) -> dict[str, str] | None:
    """One roll's brief in every language: ``{"system", "params"}`` (params as a roll takes
    them, sheets aside) or ``{"system", "situation"}``; None for what the engine refuses."""
    if not isinstance(item, Mapping):
        return None
    try:
        system = get_system(item.get("system"))
        if "situation" in item:
            return situation_brief(system, item["situation"])
        params, _ = system.parse(item.get("params"))
        return system.brief(params).as_dict()
    except PyrulesError:
        return None


BRIEF_OPS = {
    "briefs": Op(parse_briefs, lambda c: {"briefs": [brief_of(item) for item in c["rolls"]]}),
}
