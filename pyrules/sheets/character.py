"""The one check of a stored character (issue 21): :func:`normalise` takes what a page, a
file or another device holds and answers the character the engine keeps, or refuses it
with a dotted ``field`` (``name``, ``stats.flame``, ``entries.2.params.bonus``...).

A character is ``{id, system, name, note, pc, stats, entries: [{id, label, params,
sources?}], created, updated}``. Missing stats take their defaults, a list stat is always
a list of whole numbers (text such as ``"2, 1"`` is read), missing ids are made here, and
every entry must roll, with the sheet's numbers, as the roll op would accept it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from ..core import System
from ..errors import ApiError, PyrulesError
from ..fields import ParamError
from ..registry import SYSTEMS, sheet_of
from ..sheetspec import ENTRIES_MAX, ID_MAX, LABEL_MAX, NAME_MAX, NOTE_MAX, SheetSpec
from .build import build_params, refusal

KEYS = ("id", "system", "name", "note", "pc", "stats", "entries", "created", "updated")
ENTRY_KEYS = ("id", "label", "params", "sources")


def now_iso() -> str:
    """Now, as JavaScript's ``Date.prototype.toISOString`` writes it."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def new_id(prefix: str) -> str:
    """A fresh id, shaped like the page's: ``c-<time base 36>-<random>``."""
    ms, digits = int(time.time() * 1000), ""
    while ms:
        ms, d = divmod(ms, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[d] + digits
    return f"{prefix}-{digits}-{secrets.token_hex(6)}"


def _iso(raw: Any, now: str) -> str:
    """``raw`` when it is an ISO date (as stored), else ``now``."""
    if isinstance(raw, str) and 0 < len(raw) <= 40:
        try:
            datetime.fromisoformat(raw.replace("Z", "+00:00"))
            return raw
        except ValueError:
            pass
    return now


def _id(raw: Any, field: str, prefix: str) -> str:
    if raw is None or raw == "":
        return new_id(prefix)
    if not isinstance(raw, str) or len(raw) > ID_MAX:
        raise ParamError(field, "character_id", max=ID_MAX)
    return raw


def _text(raw: Any, field: str, key: str, limit: int) -> str:
    text = raw.strip() if isinstance(raw, str) else ""
    if not text or len(text) > limit:
        raise ParamError(field, key, max=limit)
    return text


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def clean_stats(spec: SheetSpec, raw: Any) -> dict[str, Any]:
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise ParamError("stats", "character_object", what="stats")
    for key in raw:
        if spec.stat(str(key)) is None:
            raise ParamError(f"stats.{str(key)[:40]}", "unknown_field", name=str(key)[:40])
    out = {}
    for f in spec.stats:
        value = raw.get(f.name)
        if value == "" and f.kind != "list":
            value = None  # a number left blank: its default
        try:
            out[f.name] = _plain(f.default if value is None else f.clean(value))
        except ParamError as err:
            raise err.prefixed("stats") from None
    return out


def clean_entry(system: System[Any], spec: SheetSpec, raw: Any, i: int) -> dict[str, Any]:
    where = f"entries.{i}"
    if not isinstance(raw, Mapping):
        raise ParamError(where, "character_object", what=where)
    for key in raw:
        if key not in ENTRY_KEYS:
            raise ParamError(f"{where}.{str(key)[:40]}", "unknown_field", name=str(key)[:40])
    entry: dict[str, Any] = {"id": _id(raw.get("id"), f"{where}.id", "e"),
                             "label": _text(raw.get("label"), f"{where}.label",
                                            "character_label", LABEL_MAX),
                             "params": clean_params(system, raw.get("params"), where)}
    sources = raw.get("sources")
    if sources is not None:
        if not isinstance(sources, Mapping):
            raise ParamError(f"{where}.sources", "character_object", what=f"{where}.sources")
        extras = {f.name: f for f in spec.extras}
        entry["sources"] = {}
        for key, value in sources.items():
            f = extras.get(key)
            if f is None:
                raise ParamError(f"{where}.sources.{str(key)[:40]}", "unknown_field",
                                 name=str(key)[:40])
            if value is not None:
                try:
                    entry["sources"][key] = f.clean(value)
                except ParamError as err:
                    raise err.prefixed(f"{where}.sources") from None
    return entry


def clean_params(system: System[Any], raw: Any, where: str) -> dict[str, Any]:
    """An entry's stored params: the keys given, each read as the roll reads it; never
    dice faces nor a placement (they belong to one roll, not to a sheet)."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ParamError(f"{where}.params", "not_object")
    fields = {f.name: f for f in system.fields}
    out: dict[str, Any] = {}
    for key, value in raw.items():
        f = fields.get(key)
        if f is None:
            raise ParamError(f"{where}.params.{str(key)[:40]}", "unknown_field",
                             name=str(key)[:40])
        if value is None or (value == "" and f.kind not in ("text", "list")):
            continue  # blank: the roll's default (as a form's blank field means)
        if f.kind in ("faces", "placement"):
            raise ApiError("faces_in_sheet", f"{where}.params.{key}", "faces_in_sheet")
        try:
            out[key] = _plain(f.clean(value))
        except ParamError as err:
            raise err.prefixed(f"{where}.params") from None
    return out


def normalise(raw: Any, rolls: bool = True) -> dict[str, Any]:
    """The character the engine keeps for ``raw``, or a refusal naming the dotted field.
    ``normalise(normalise(x)) == normalise(x)``. ``rolls`` False: every entry's roll is
    not checked (a sheet roll checks the one it rolls)."""
    if not isinstance(raw, Mapping):
        raise ParamError(None, "character_object", what="character")
    for key in raw:
        if key not in KEYS:
            raise ParamError(str(key)[:40], "unknown_field", name=str(key)[:40])
    system_id = raw.get("system")
    if not isinstance(system_id, str) or system_id not in SYSTEMS:
        raise ApiError("invalid_param", "system", "unknown_system",
                       system=str(system_id)[:40], systems=", ".join(SYSTEMS))
    system = SYSTEMS[system_id]
    spec = sheet_of(system)
    stamp = now_iso()
    character_id = _id(raw.get("id"), "id", "c")
    name = _text(raw.get("name"), "name", "character_name", NAME_MAX)
    note = raw.get("note")
    if note is not None and not isinstance(note, str):
        raise ParamError("note", "not_text", label="note")
    pc = raw.get("pc")
    if pc is not None and not isinstance(pc, bool):
        raise ParamError("pc", "not_bool", label="pc")
    stats = clean_stats(spec, raw.get("stats"))
    entries_raw = raw.get("entries")
    if entries_raw is not None and (not isinstance(entries_raw, list)
                                    or len(entries_raw) > ENTRIES_MAX):
        raise ParamError("entries", "character_entries", max=ENTRIES_MAX)
    entries = [clean_entry(system, spec, e, i) for i, e in enumerate(entries_raw or [])]
    character = {
        "id": character_id, "system": system.id, "name": name,
        "note": (note or "")[:NOTE_MAX], "pc": True if pc is None else pc,
        "stats": stats, "entries": entries,
        "created": _iso(raw.get("created"), stamp), "updated": _iso(raw.get("updated"), stamp),
    }
    if rolls:
        check_rolls(system, spec, character)
    return character


def check_rolls(system: System[Any], spec: SheetSpec, character: dict[str, Any]) -> None:
    """Every roll from this sheet is one the roll op accepts: the sheet's numbers alone,
    then each entry with them (the same params a sheet roll builds)."""
    rolls: list[tuple[int | None, dict[str, Any]]] = [(None, {"params": {}})]
    rolls += list(enumerate(character["entries"]))
    for index, entry in rolls:
        built, from_situation = build_params(system, spec, character, entry, None)
        try:
            system.parse(built)
        except PyrulesError as err:
            raise refusal(spec, character, err, index, from_situation) from None
