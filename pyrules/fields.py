"""Field descriptions for the registry, and the generic validation that uses them.

A field knows its name, type, bounds, default and labels. ``validate`` turns raw JSON
params into clean Python values or raises :class:`ParamError` naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import PyrulesError
from .i18n import Text

FACES_MAX = 64  # no roll of the four systems needs more dice than this (free dice: their own)


def read_face(face: int, sides: int) -> int:
    """A face as a player reads it off a real die: a d10 prints its 10 as « 0 », percentile
    dice show 100 as « 00 » + « 0 », so 0 (typed "0" or "00") on a d10 or a d100 is its top
    face. Every other face is itself (docs/rules.md, « Dés physiques »)."""
    return sides if face == 0 and sides in (10, 100) else face


class ParamError(PyrulesError):
    """A request parameter is wrong (code ``invalid_param``). ``field`` names it; the
    message is bilingual."""

    def prefixed(self, prefix: str) -> ParamError:
        clone = super().prefixed(prefix)
        assert isinstance(clone, ParamError)
        return clone


class OddsTooCostly(ParamError):
    """The exact odds of these params would cost too much (code ``odds_too_costly``): only
    the ops that answer odds refuse them; a roll of the same params is thrown."""

    code = "odds_too_costly"


@dataclass(frozen=True)
class Choice:
    value: str | int
    label: Text


@dataclass(frozen=True)
class Field:
    """One input of a system.

    ``kind`` is ``int``, ``bool``, ``choice``, ``text``, ``faces``, ``placement`` or ``list``
    (whole numbers within min..max, e.g. the bonuses of several weapons).
    """

    name: str
    kind: str
    label: Text
    default: Any = None
    help: Text | None = None
    min: int | None = None
    max: int | None = None
    choices: tuple[Choice, ...] = ()
    max_length: int | None = None
    sides: int | None = None
    optional: bool = False
    group: str = "main"
    pattern: str | None = field(default=None, compare=False)
    #: The field whose value this one replaces when it is set (d100: a level replaces the
    #: value), so that forms and summaries show only what the roll uses.
    replaces: str | None = None
    #: int fields only: names of some values (e.g. the nine DIFF steps), shown by the form.
    steps: tuple[Choice, ...] = ()
    #: faces, placement and list fields: how many items a typed list may hold (free dice throw
    #: up to 100 dice, plus their rerolls and explosions, as the player types them).
    max_items: int = FACES_MAX

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "label": self.label.as_dict(),
            "group": self.group,
            "optional": self.optional,
        }
        if self.help is not None:
            out["help"] = self.help.as_dict()
        if self.replaces is not None:
            out["replaces"] = self.replaces
        if self.kind in ("int", "faces", "placement", "list"):
            out["min"] = self.min
            out["max"] = self.max
        if self.steps:
            out["steps"] = [{"value": c.value, "label": c.label.as_dict()} for c in self.steps]
        if self.kind == "choice":
            out["choices"] = [{"value": c.value, "label": c.label.as_dict()} for c in self.choices]
        if self.kind == "text":
            out["max_length"] = self.max_length
        if self.kind == "faces":
            out["sides"] = self.sides
        if self.kind in ("faces", "placement", "list"):
            # What a typed list may hold: max_items items, 5 characters of text each ("100, ").
            out["max_items"] = self.max_items
            out["max_length"] = self.max_items * 5
        return out

    def clean(self, raw: Any) -> Any:
        """Validate one raw value (already known not to be ``None``)."""
        if self.kind == "int":
            return self._clean_int(raw)
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            raise ParamError(self.name, "not_bool", label=self.label)
        if self.kind == "choice":
            for c in self.choices:
                if isinstance(raw, bool) != isinstance(c.value, bool):
                    continue
                if raw == c.value or (isinstance(raw, str) and raw == str(c.value)):
                    return c.value
            values = ", ".join(str(c.value) for c in self.choices)
            raise ParamError(self.name, "not_choice", label=self.label, choices=values)
        if self.kind == "text":
            if not isinstance(raw, str):
                raise ParamError(self.name, "not_text", label=self.label)
            assert self.max_length is not None
            if len(raw) > self.max_length:
                raise ParamError(self.name, "too_long", label=self.label, max=self.max_length)
            return raw
        if self.kind in ("faces", "placement", "list"):
            return self._clean_list(raw)
        raise AssertionError(self.kind)  # pragma: no cover

    def _clean_int(self, raw: Any) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int | float | str):
            raise ParamError(self.name, "not_int", label=self.label)
        if isinstance(raw, str):
            text = raw.strip()
            # Any number of digits is read (a long one is out of range, not "not a number"),
            # up to a length that keeps int() cheap.
            if not re.fullmatch(r"[+-]?\d{1,40}", text):
                raise ParamError(self.name, "not_int", label=self.label)
            raw = int(text)
        if isinstance(raw, float):
            if not raw.is_integer():
                raise ParamError(self.name, "not_int", label=self.label)
            raw = int(raw)
        assert self.min is not None and self.max is not None
        if not self.min <= raw <= self.max:
            raise ParamError(
                self.name, "out_of_range", label=self.label, min=self.min, max=self.max
            )
        return int(raw)

    def _clean_list(self, raw: Any) -> tuple[int, ...]:
        items: Sequence[Any]
        if isinstance(raw, str):
            text = raw.strip()
            if len(text) > self.max_items * 5:
                raise ParamError(self.name, "too_many_faces", label=self.label, max=self.max_items)
            items = [t for t in re.split(r"[\s,;]+", text) if t]
        elif isinstance(raw, list):
            items = raw
        else:
            raise ParamError(self.name, "not_faces", label=self.label)
        if len(items) > self.max_items:
            raise ParamError(self.name, "too_many_faces", label=self.label, max=self.max_items)
        out: list[int] = []
        for item in items:
            if isinstance(item, bool):
                raise ParamError(self.name, "not_faces", label=self.label)
            if isinstance(item, str) and re.fullmatch(r"[+-]?\d{1,4}", item.strip()):
                item = int(item.strip())
            elif isinstance(item, float) and item.is_integer():
                item = int(item)
            if not isinstance(item, int):
                raise ParamError(self.name, "not_faces", label=self.label)
            if self.kind == "faces" and self.sides is None:
                # The die is known only once the other params are read: the system checks
                # each face against that die's own range (« un d8 va de 1 à 8 »).
                out.append(item)
                continue
            if self.kind == "faces" and self.sides is not None:
                item = read_face(item, self.sides)
            if self.min is not None and self.max is not None and not self.min <= item <= self.max:
                raise ParamError(
                    self.name, "face_out_of_range", label=self.label, min=self.min, max=self.max
                )
            out.append(item)
        return tuple(out)


def validate(fields: Sequence[Field], raw: Any) -> dict[str, Any]:
    """Check raw params against ``fields``; unknown keys and bad values raise ParamError."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise ParamError("params", "not_object")
    names = {f.name for f in fields}
    for key in raw:
        if key not in names:
            raise ParamError(str(key)[:40], "unknown_field", name=str(key)[:40])
    values: dict[str, Any] = {}
    for f in fields:
        value = raw.get(f.name)
        values[f.name] = f.default if value is None else f.clean(value)
    return values


def brief(fields: tuple[Field, ...], values: Mapping[str, Any],
          shown: Mapping[str, str] | None = None) -> Text:
    """A short line of what params roll, in every language (« POT 6 · DIFF 4 · Effort »,
    a sheet's quick-roll button): each field a form shows, by its short label, unless it is
    unset, left at a neutral default (0, no, empty, « none ») or at an advanced default, or
    replaced by another set field (d100: a level replaces the value), then a placement of
    dice that moves any (« [+1 0 -1] »). ``shown``: a field's value as a system words it
    (steps: the whole bonus, signed)."""
    shown = shown or {}
    placed = next((values.get(f.name) for f in fields if f.kind == "placement"), None) or ()
    replaced = {f.replaces for f in fields if f.replaces and values.get(f.name) not in (None, "")}
    parts: dict[str, list[str]] = {"fr": [], "en": []}
    for f in fields:
        value = values.get(f.name)
        if f.kind in ("faces", "placement") or f.name in replaced:
            continue
        if value is None or value == "" or (isinstance(value, (list, tuple)) and not value):
            continue
        if f.kind == "choice" and f.default == "none" and value == "none":
            continue
        neutral = f.default is None or f.default is False or f.default == "" or (
            f.default == 0 and not isinstance(f.default, bool))
        if (f.group == "advanced" or neutral) and value == f.default and f.name not in shown:
            continue
        for lang, out in parts.items():
            short = f.label.get(lang).split(" (")[0]
            if f.kind == "bool":
                if value:
                    out.append(short)
            elif f.kind == "choice":
                choice = next((c for c in f.choices if c.value == value), None)
                colon = "\u00a0: " if lang == "fr" else ": "
                out.append(f"{short}{colon}{choice.label.get(lang) if choice else value}")
            elif f.name in shown:
                out.append(f"{short} {shown[f.name]}")
            elif isinstance(value, (list, tuple)):
                out.append(f"{short} {' '.join(str(v) for v in value)}")
            else:
                out.append(f"{short} {value}")
    if any(placed):  # where the Flame dice were moved, one signed number per die
        for out in parts.values():
            out.append(f"[{' '.join(f'{v:+d}' if v else '0' for v in placed)}]")
    return Text(" · ".join(parts["fr"]), " · ".join(parts["en"]))
