"""Step dice as the registry takes it: the system, its sheet, the ``combat`` op (and
``fight``, which the page does not draw)."""

from ...plugin import Plugin
from . import StepsSystem
from .play import ARDEUR_FIELD, COMBAT_FIELDS, COMBAT_KINDS, SHEET

PLUGIN = Plugin(StepsSystem(), SHEET, {"combat": {
    "fields": [f.describe() for f in COMBAT_FIELDS],
    "kinds": list(COMBAT_KINDS),
    "participant": [ARDEUR_FIELD.describe()],
}}, ops=f"{__package__}.ops")
