"""One registry describes every system: fields, bounds, defaults, outcomes and labels."""

from __future__ import annotations

from typing import Any

from . import __version__
from .core import System
from .systems.d6 import D6System
from .systems.d100 import D100System
from .systems.notation import NotationSystem
from .systems.pool import PoolSystem
from .systems.steps import StepsSystem

SYSTEMS: dict[str, System[Any]] = {
    s.id: s for s in (PoolSystem(), D6System(), D100System(), StepsSystem(),
                     NotationSystem())
}


def describe_system(system: System[Any]) -> dict[str, Any]:
    return {
        "id": system.id,
        "doc": system.doc,
        "name": system.name.as_dict(),
        "description": system.description.as_dict(),
        "fields": [f.describe() for f in system.fields],
        "outcomes": [
            {"id": o.id, "success": o.success, "label": o.label.as_dict(),
             "rank": len(system.outcomes) - i}
            for i, o in enumerate(system.outcomes)
        ],
        "oppose": system.oppose_rule.as_dict(),
        "sheet": system.sheet,
    }


def describe() -> dict[str, Any]:
    from .table import ARDEUR_FIELD, COMBAT_FIELDS, EFFORT_FIELDS, SOURCE_FIELDS

    return {
        "version": __version__,
        "systems": [describe_system(s) for s in SYSTEMS.values()],
        "table": {
            "sources": {"system": "pool", "fields": [f.describe() for f in SOURCE_FIELDS]},
            "combat": {"system": "steps", "fields": [f.describe() for f in COMBAT_FIELDS],
                       "participant": [ARDEUR_FIELD.describe()]},
            "effort": {"system": "d6", "fields": [f.describe() for f in EFFORT_FIELDS]},
        },
    }
