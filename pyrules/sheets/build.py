"""How a sheet becomes a roll's params (the page's former ``rollParams``,
web/js/characters/sheet.js, kept exactly), and where a refusal of those params points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import System
from ..errors import PyrulesError
from ..sheetspec import SheetSpec


def build_params(system: System[Any], spec: SheetSpec, character: Mapping[str, Any],
                 entry: Mapping[str, Any], situation: Mapping[str, Any] | None,
                 ) -> tuple[dict[str, Any], set[str]]:
    """The raw params of a roll of ``entry`` by ``character`` in ``situation`` (cleaned
    values), and the params the situation changed. The meaning of the page's former
    ``rollParams`` (web/js/characters/sheet.js), kept exactly."""
    defaults = {f.name: f.default for f in system.fields}
    params = {k: v for k, v in (entry.get("params") or {}).items()}
    stats = character.get("stats") or {}
    for param, key in spec.set.items():
        value = stats.get(key)
        if value not in (None, "", []):  # an empty list stat, like a blank one, sets nothing
            params[param] = value
    for param, key in spec.add.items():
        if stats.get(key):
            params[param] = (params.get(param) if params.get(param) is not None
                             else defaults.get(param) or 0) + stats[key]
    if spec.pc:
        params[spec.pc] = bool(character.get("pc"))
    changed: set[str] = set()
    for name, mode in spec.situation:
        value = (situation or {}).get(name)
        if value is None or value == "":
            continue
        if mode in ("replace", "set"):
            params[name] = value
        elif mode == "add" and value:
            base = params.get(name)
            params[name] = (base if base is not None else defaults.get(name) or 0) + value
        elif mode == "or" and value:
            params[name] = True
        elif mode == "append":
            text = str(value).strip()
            if text:
                sign = "" if text[0] in "+-" else "+"
                params[name] = f"{params.get(name) or ''}{sign}{text}"
        else:
            continue
        changed.add(name)
    return params, changed


def refusal(spec: SheetSpec, character: Mapping[str, Any], err: PyrulesError,
            index: int | None, from_situation: set[str], prefix: str = "") -> PyrulesError:
    """A refusal of built params, named where the value came from: the situation, a sheet
    number (``stats.<key>``), or the entry (``entries.<i>.params.<field>``)."""
    field = (err.field or "").split(".")[0]
    stats = character.get("stats") or {}
    source = {**spec.set, **spec.add}.get(field)
    if field in from_situation:
        where = f"situation.{field}"
    elif source is not None and stats.get(source) not in (None, "", 0, []):
        where = f"{prefix}stats.{source}"
    elif index is None:
        where = f"{prefix}stats"
    else:
        where = f"{prefix}entries.{index}.params.{field}" if field else f"{prefix}entries.{index}"
    clone = err.prefixed("")
    clone.field = where
    return clone
