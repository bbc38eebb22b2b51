"""Participants joining a fight (issue 21: one tap is one engine call). In a `fight`
state, a participant may be given as what the page has in hand when one joins, and the
engine makes the participant the fight keeps:

- ``{"id", "sheet": {"character": {...}}, "ardeur"?, "unarmed"?}``: a step-dice character;
  the sheet's Ardeur unless one is given, one skill per entry with the params a sheet roll
  of that entry builds (no entry: one skill, the sheet's numbers alone);
- ``{"id", "quick": {step-dice params, "ardeur"?}, "unarmed"?}``: a participant made on the
  spot; its numbers checked as a combat side's (Ardeur within a combat action's bounds),
  one unnamed skill.

The `fight` answer then carries ``joined``: by id, the ``ardeur`` and ``skills`` made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import PyrulesError
from ...fields import ParamError
from ...ops.base import params_json
from ...registry import play_system
from ...sheets.character import normalise
from ...sheets.rolls import sheet_roll
from .play import ARDEUR_FIELD, split_ardeur

KEYS = {"sheet": ("id", "ardeur", "unarmed", "sheet"), "quick": ("id", "unarmed", "quick")}


def _how(p: Any) -> str | None:
    if isinstance(p, dict):
        return next((how for how in KEYS if how in p), None)
    return None


def joining(raw: Any) -> tuple[Any, dict[str, Any]]:
    """The fight state with each joining participant made, and what was made, by id."""
    people = raw.get("participants") if isinstance(raw, dict) else None
    if not isinstance(people, list) or not any(_how(p) for p in people):
        return raw, {}
    joined: dict[str, Any] = {}
    out = []
    for i, p in enumerate(people):
        how = _how(p)
        if how is None:
            out.append(p)
            continue
        where = f"fight.participants.{i}"
        extra = next((k for k in p if k not in KEYS[how]), None)
        if extra is not None:
            raise ParamError(f"{where}.{str(extra)[:40]}", "unknown_field", name=str(extra)[:40])
        ardeur, skills = (from_sheet if how == "sheet" else from_quick)(p, f"{where}.{how}")
        person = {"id": p.get("id"), "ardeur": ardeur, "skills": skills}
        if "unarmed" in p:
            person["unarmed"] = p["unarmed"]
        out.append(person)
        if isinstance(person["id"], str):
            joined[person["id"]] = {"ardeur": ardeur, "skills": skills}
    return {**raw, "participants": out}, joined


def from_sheet(p: Mapping[str, Any], where: str) -> tuple[Any, list[dict[str, Any]]]:
    system = play_system("combat")
    sheet = p["sheet"]
    if not isinstance(sheet, Mapping) or set(sheet) != {"character"}:
        raise ParamError(where, "not_object")
    try:
        given = sheet["character"]
        if isinstance(given, Mapping) and given.get("system") != system.id:
            raise ParamError("system", "sheet_system", sheet=str(given.get("system"))[:40],
                             system=system.id)
        character = normalise(given)
    except PyrulesError as err:
        raise err.prefixed(f"{where}.character") from None
    entries: list[Any] = [e["id"] for e in character["entries"]] or [None]
    skills = []
    for entry in entries:
        made = sheet_roll(system, {"sheet": {"character": character, "entry": entry}}, False)
        label = next((e["label"] for e in character["entries"] if e["id"] == entry), "")
        skills.append({"label": label, "params": params_json(system.parse(made.params)[0])})
    return p.get("ardeur", character["stats"].get(ARDEUR_FIELD.name)), skills


def from_quick(p: Mapping[str, Any], where: str) -> tuple[int, list[dict[str, Any]]]:
    system = play_system("combat")
    raw = p["quick"]
    if not isinstance(raw, dict):
        raise ParamError(where, "not_object")
    ardeur, rest = split_ardeur(where, raw)
    for f in system.fields:
        if f.kind == "faces" and rest.get(f.name) is not None:
            raise ParamError(f"{where}.{f.name}", "unknown_field", name=f.name)
    try:
        params, _ = system.parse(rest)
    except PyrulesError as err:
        raise err.prefixed(where) from None
    return ardeur, [{"label": "", "params": params_json(params)}]
