"""Play with the d6 system (document 001): exceptional efforts, as many per day as
the Flame, all restored by a night's rest.
"""

from __future__ import annotations

from typing import Any

from ...fields import Choice, Field, ParamError, validate
from ...i18n import Text as T
from ...sheetspec import SheetSpec, stat
from . import D6System

EFFORT_FIELDS = (
    Field("flame", "int", T("Flamme", "Flame"), default=2, min=0, max=7),
    Field("used", "int", T("Efforts déjà faits aujourd'hui", "Efforts already made today"),
          default=0, min=0, max=7),
    Field("action", "choice", T("Action", "Action"), default="use", choices=(
        Choice("use", T("Faire un effort", "Make an effort")),
        Choice("rest", T("Nuit de repos", "Night's rest")),
        Choice("check", T("Consulter", "Check")),
    )),
)


def effort(raw: Any) -> dict[str, int | bool]:
    """Efforts per day equal the Flame; using one spends it; a night's rest restores all."""
    v = validate(EFFORT_FIELDS, raw)
    used = min(v["used"], v["flame"])
    if v["action"] == "rest":
        used = 0
    elif v["action"] == "use":
        if used >= v["flame"]:
            raise ParamError("effort", "no_effort_left", flame=v["flame"])
        used += 1
    return {"per_day": v["flame"], "used": used, "available": v["flame"] - used}


_D6 = {f.name: f for f in D6System.fields}
#: A d6 character sheet (document 001): Flame and clarity set on every roll, the PC flag,
#: and today's exceptional efforts (as many per day as the Flame); a quick roll may change
#: the difficulty, make an effort (it spends one) or take its time.
SHEET = SheetSpec(
    stats=(stat(_D6["flame"]), stat(_D6["clarity"]),
           stat(EFFORT_FIELDS[1], "efforts_used")),
    set={"flame": "flame", "clarity": "clarity"},
    pc="pc",
    situation=(("difficulty", "replace"), ("effort", "or"), ("take_time", "or")),
    effort=("flame", "efforts_used", "effort"),
)
