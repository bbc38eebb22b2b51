"""The d6 success pool as the registry takes it: the system, its sheet, the ``sources`` op."""

from ...plugin import Plugin
from . import PoolSystem
from .play import SHEET, SOURCE_FIELDS

PLUGIN = Plugin(PoolSystem(), SHEET,
                {"sources": {"fields": [f.describe() for f in SOURCE_FIELDS]}},
                ops=f"{__package__}.ops")
