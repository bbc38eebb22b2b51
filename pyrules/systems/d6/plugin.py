"""Attribute + skill + d6 as the registry takes it: the system, its sheet, the ``effort`` op."""

from ...plugin import Plugin
from . import D6System
from .play import EFFORT_FIELDS, SHEET

PLUGIN = Plugin(D6System(), SHEET, {"effort": {"fields": [f.describe() for f in EFFORT_FIELDS]}},
                ops=f"{__package__}.ops")
