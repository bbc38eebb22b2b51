"""What a character sheet of a system holds and how it becomes a roll (issue 21).

Each system with a sheet declares one :class:`SheetSpec` next to its play
(``pyrules/systems/<id>/play.py``); the registry maps systems to them. A system without
one (notation) has the empty sheet: a name, a note and entries, no numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .fields import Field
from .i18n import Text as T

#: What a character holds at most (the page's former limits, web/js/characters/sheet.js).
NAME_MAX = 60  # characters of a name
NOTE_MAX = 500  # characters of a note (a longer one is cut)
LABEL_MAX = 60  # characters of an entry's label
ENTRIES_MAX = 100  # entries of one character
IMPORT_MAX = 500  # characters of one `characters` call (an import, a restore)
ID_MAX = 100  # characters of an id
LIMITS = {"name_max": NAME_MAX, "note_max": NOTE_MAX, "label_max": LABEL_MAX,
          "entries_max": ENTRIES_MAX, "import_max": IMPORT_MAX, "id_max": ID_MAX}

#: How a situation field changes the entry's params just before a quick roll.
MODES = ("replace", "set", "add", "or", "append")
SITUATION_HELP = {
    "replace": T("Vide : la valeur de la compétence.", "Empty: the skill’s value."),
    "add": T("S’ajoute à la compétence.", "Added to the skill."),
    "append": T("S’ajoute aux modificateurs de la compétence, par exemple +1D.",
                "Added to the skill’s modifiers, for example +1D."),
}


def stat(source: Field, key: str | None = None, **changes: Any) -> Field:
    """A sheet number described like ``source`` (a roll's or a table op's field) under the
    stat's own ``key``. A list stat's default is the empty list."""
    default = () if source.kind == "list" else source.default
    return replace(source, name=key or source.name, group="main", optional=False,
                   **{"default": default, **changes})


@dataclass(frozen=True)
class SheetSpec:
    """``stats``: the sheet numbers (fields named by stat key), in display order.
    ``set``: roll param <- stat (replaces the entry's value when the stat is set).
    ``add``: roll param <- entry's value (or the param's default) + stat.
    ``pc``: the roll param that carries the character's PC flag.
    ``extras``: per-entry fields of a table op, stored in ``entry.sources``.
    ``situation``: (roll param, mode) a player may change before a quick roll.
    ``effort``: (stat of efforts per day, stat of efforts used, roll param spending one)."""

    stats: tuple[Field, ...] = ()
    set: Mapping[str, str] = field(default_factory=dict)
    add: Mapping[str, str] = field(default_factory=dict)
    pc: str | None = None
    extras: tuple[Field, ...] = ()
    situation: tuple[tuple[str, str], ...] = ()
    effort: tuple[str, str, str] | None = None

    def stat(self, key: str) -> Field | None:
        return next((f for f in self.stats if f.name == key), None)

    def controlled(self) -> frozenset[str]:
        """Roll params the sheet fills in (an entry's form does not ask for them)."""
        return frozenset([*self.set, *([self.pc] if self.pc else [])])

    def situation_fields(self, system_fields: tuple[Field, ...]) -> tuple[Field, ...]:
        """The situation form's fields: each a roll param's, its default and help by mode."""
        out = []
        by_name = {f.name: f for f in system_fields}
        for name, mode in self.situation:
            f = replace(by_name[name], group="main")
            if mode == "replace":
                f = replace(f, optional=True, default=None, help=SITUATION_HELP["replace"])
            elif mode == "add":
                f = replace(f, default=0, help=SITUATION_HELP["add"])
            elif mode == "append":
                f = replace(f, default="", help=SITUATION_HELP["append"])
            elif mode == "or":
                f = replace(f, default=False)
            out.append(f)
        return tuple(out)

    def describe(self, system_fields: tuple[Field, ...]) -> dict[str, Any]:
        """The ``sheet`` of the ``systems`` answer (see docs/api.md)."""
        skip = self.controlled()
        modes = dict(self.situation)
        return {
            "stats": [_listed(f.describe()) for f in self.stats],
            "entry_fields": [f.name for f in system_fields
                             if f.kind not in ("faces", "placement") and f.name not in skip],
            "extras": [f.describe() for f in self.extras],
            "situation": [{**f.describe(), "mode": modes[f.name]}
                          for f in self.situation_fields(system_fields)],
            "set": dict(self.set), "add": dict(self.add), "pc": self.pc,
            "limits": LIMITS,
        }


def _listed(described: dict[str, Any]) -> dict[str, Any]:
    if isinstance(described.get("default"), tuple):
        described["default"] = list(described["default"])
    return described


EMPTY = SheetSpec()
