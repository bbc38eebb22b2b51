"""The d100 margin as the registry takes it: the system and its sheet."""

from ...plugin import Plugin
from . import D100System
from .play import SHEET

PLUGIN = Plugin(D100System(), SHEET)
