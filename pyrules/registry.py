"""One registry describes every system: fields, bounds, defaults, outcomes and labels."""

from __future__ import annotations

from typing import Any

from . import __version__, sweep
from .core import System
from .sheets.spec import EMPTY, SheetSpec
from .stats import FAIRNESS_MAX
from .systems.d6 import D6System
from .systems.d6.table import EFFORT_FIELDS
from .systems.d6.table import SHEET as D6_SHEET
from .systems.d100 import D100System
from .systems.d100.table import SHEET as D100_SHEET
from .systems.notation import NotationSystem
from .systems.pool import PoolSystem
from .systems.pool.table import SHEET as POOL_SHEET
from .systems.pool.table import SOURCE_FIELDS
from .systems.steps import StepsSystem
from .systems.steps.table import ARDEUR_FIELD, COMBAT_FIELDS, COMBAT_KINDS
from .systems.steps.table import SHEET as STEPS_SHEET

#: The one list of systems. A new system is a package under pyrules/systems/ (its rules,
#: odds, explanation templates and table play together) added here.
SYSTEM_LIST: tuple[System[Any], ...] = (
    PoolSystem(), D6System(), D100System(), StepsSystem(), NotationSystem(),
)
SYSTEMS: dict[str, System[Any]] = {s.id: s for s in SYSTEM_LIST}
#: Which system serves each table-play op (each system names its own ``table_ops``).
TABLE_SYSTEMS: dict[str, System[Any]] = {op: s for s in SYSTEM_LIST for op in s.table_ops}


#: Each system's character sheet (declared with its table play); others have the empty one.
SHEETS: dict[str, SheetSpec] = {"pool": POOL_SHEET, "d6": D6_SHEET, "d100": D100_SHEET,
                                 "steps": STEPS_SHEET}


def sheet_of(system: System[Any]) -> SheetSpec:
    return SHEETS.get(system.id, EMPTY)


def table_system(op: str) -> System[Any]:
    """The system whose table play ``op`` is (``combat`` -> the step dice)."""
    return TABLE_SYSTEMS[op]


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
        "sheet": {**sheet_of(system).describe(system.fields), **system.sheet},
        "limits": {"fairness_n": FAIRNESS_MAX},  # the most rolls one `fairness` call makes
        **sweep.describe(system),  # "sweep" and "compare"
    }


def describe() -> dict[str, Any]:
    return {
        "version": __version__,
        "systems": [describe_system(s) for s in SYSTEMS.values()],
        "table": {
            "sources": {"system": table_system("sources").id,
                        "fields": [f.describe() for f in SOURCE_FIELDS]},
            "combat": {"system": table_system("combat").id,
                       "fields": [f.describe() for f in COMBAT_FIELDS],
                       "kinds": list(COMBAT_KINDS),
                       "participant": [ARDEUR_FIELD.describe()]},
            "effort": {"system": table_system("effort").id,
                       "fields": [f.describe() for f in EFFORT_FIELDS]},
        },
    }
