"""What a system's folder gives the registry (issue 42): the system (its rules, odds and
explanations), its character sheet, and the description of the play ops it serves.

Each ``pyrules/systems/<id>/plugin.py`` declares one ``PLUGIN``; the registry builds every
list from them (``registry.SYSTEM_FOLDERS`` names the folders, one line each).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .core import System
from .sheetspec import EMPTY, SheetSpec


@dataclass(frozen=True)
class Plugin:
    system: System[Any]
    #: What a character sheet of this system holds (none: a name, a note and entries).
    sheet: SheetSpec = EMPTY
    #: The description of each play op it serves that the page draws (its fields and
    #: choices), by op: the ``play`` part of the ``systems`` answer, with ``system`` added.
    play: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    #: The module of its play ops (its ``OPS``: op name -> ``pyrules.ops.base.Op``),
    #: by name: the API imports it when it builds its table of ops (the ops use the API's
    #: answers, which need the registry this plugin is part of).
    ops: str | None = None
