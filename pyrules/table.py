"""Table-play helpers, kept under their old name: each now lives with its system
(``pyrules/systems/<id>/table.py``). Import from here or from there: same objects.
"""

from __future__ import annotations

from .stats import percentile
from .systems.d6.table import EFFORT_FIELDS, effort
from .systems.pool.table import SOURCE_FIELDS, Source, pool_sources
from .systems.steps.table import (
    ARDEUR_FIELD,
    COMBAT_FIELDS,
    COMBAT_KINDS,
    CombatOutcome,
    combat,
    split_ardeur,
)

__all__ = [
    "ARDEUR_FIELD", "COMBAT_FIELDS", "COMBAT_KINDS", "EFFORT_FIELDS", "SOURCE_FIELDS",
    "CombatOutcome", "Source", "combat", "effort", "percentile", "pool_sources", "split_ardeur",
]
