"""A roll from a character sheet (issue 21): ``{"sheet": {"character", "entry"?,
"situation"?}}`` stands, wherever params are accepted, for the params the engine builds
from the sheet: the entry's params, the sheet's numbers set or added, the PC flag, then the
situation of a quick roll (replace, set, add, or, append), then the dice faces typed for
this very roll (physical dice: the only keys allowed beside ``sheet``). A d6 exceptional
effort spends one of the day's efforts; the roll's answer then carries the updated
character and its efforts.

Refusals name the field inside the ``sheet`` object: ``character.stats.flame``,
``entry``, ``situation.bonus``, ``situation.effort``; a typed face by its own field
(``dice``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core import System
from ..errors import PyrulesError
from ..fields import ParamError
from ..lru import LRU
from ..registry import sheet_of
from ..sheetspec import SheetSpec
from .build import build_params, refusal
from .character import normalise, now_iso

SHEET_KEYS = ("character", "entry", "situation")


@dataclass(frozen=True)
class SheetRoll:
    """What a sheet stands for: the raw params built from it, and the character after the
    roll (None: unchanged)."""

    params: dict[str, Any]
    character: dict[str, Any] | None
    #: The sheet's character as checked (before the roll changed anything).
    sheet: dict[str, Any] | None = None


#: Characters already checked for a sheet roll, by their text: a page sends the same
#: sheet roll after roll, and checking a 100-entry character costs more than the roll.
CHECKED = LRU(32)


def checked_sheet(raw: Any) -> dict[str, Any]:
    """``normalise(raw)`` without the other entries' rolls (this roll is checked by its
    caller), remembered for the same character (only a character that passed is kept)."""
    if not isinstance(raw, dict):
        return normalise(raw, rolls=False)
    key = repr(raw)  # cheap in Pyodide (json.dumps took 4 ms for 100 entries); a JSON
    # value's repr is the same for the same value, keys in the same order
    character: dict[str, Any] = CHECKED.get(key, lambda: normalise(raw, rolls=False))
    return character


def is_sheet(raw: Any) -> bool:
    return isinstance(raw, Mapping) and "sheet" in raw


def situation_values(system: System[Any], spec: SheetSpec, raw: Any) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ParamError("situation", "not_object")
    fields = {f.name: f for f in spec.situation_fields(system.fields)}
    out = {}
    for key, value in raw.items():
        f = fields.get(key)
        if f is None:
            raise ParamError(f"situation.{str(key)[:40]}", "unknown_field", name=str(key)[:40])
        if value is None or value == "":
            continue
        try:
            out[key] = f.clean(value)
        except ParamError as err:
            raise err.prefixed("situation") from None
    return out


def sheet_roll(system: System[Any], raw: Mapping[str, Any], spend: bool) -> SheetRoll:
    """The params a ``{"sheet": {...}}`` stands for (``spend``: the roll is thrown, so an
    exceptional effort is counted, and refused when none is left)."""
    # Beside the sheet: only the dice faces typed for this very roll (physical dice).
    faces_names = {f.name for f in system.fields if f.kind == "faces"}
    extra = next((k for k in raw if k != "sheet" and k not in faces_names), None)
    if extra is not None:
        raise ParamError(str(extra)[:40], "unknown_field", name=str(extra)[:40])
    typed = {k: v for k, v in raw.items() if k in faces_names and v is not None}
    sheet = raw["sheet"]
    if not isinstance(sheet, Mapping):
        raise ParamError("sheet", "not_object")
    for key in sheet:
        if key not in SHEET_KEYS:
            raise ParamError(str(key)[:40], "unknown_field", name=str(key)[:40])
    try:
        character = checked_sheet(sheet.get("character"))
    except PyrulesError as err:
        raise err.prefixed("character") from None
    if character["system"] != system.id:
        raise ParamError("character.system", "sheet_system", sheet=character["system"],
                         system=system.id)
    spec = sheet_of(system)
    entry_id = sheet.get("entry")
    index = next((i for i, e in enumerate(character["entries"]) if e["id"] == entry_id), None)
    if entry_id is not None and index is None:
        raise ParamError("entry", "sheet_entry", entry=str(entry_id)[:40])
    entry = character["entries"][index] if index is not None else {"params": {}}
    situation = situation_values(system, spec, sheet.get("situation"))
    params, changed = build_params(system, spec, character, entry, situation)
    params.update(typed)
    try:
        system.parse(params)
    except PyrulesError as err:
        if (err.field or "").split(".")[0] in typed:  # a typed face: named as typed
            raise
        raise refusal(spec, character, err, index, changed, "character.") from None
    updated = None
    if spend and spec.effort is not None and params.get(spec.effort[2]):
        per_day, used_key, _ = spec.effort
        per, used = character["stats"][per_day], character["stats"][used_key]
        if used >= per:
            raise ParamError("situation.effort", "no_effort_left", flame=per)
        updated = {**character, "stats": {**character["stats"], used_key: used + 1},
                   "updated": now_iso()}
    return SheetRoll(params, updated, character)


def efforts_of(system: System[Any], character: Mapping[str, Any]) -> dict[str, int] | None:
    """A sheet's exceptional efforts as the `effort` op counts them (``per_day``, ``used``,
    ``available``), or None when its system has none."""
    spec = sheet_of(system)
    if spec.effort is None:
        return None
    per_day, used_key, _ = spec.effort
    per = character["stats"][per_day]
    used = min(character["stats"][used_key], per)
    return {"per_day": per, "used": used, "available": per - used}
