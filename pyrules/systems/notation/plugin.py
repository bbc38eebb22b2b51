"""Free dice as the registry takes it: the system alone (no sheet numbers, no play)."""

from ...plugin import Plugin
from . import NotationSystem

PLUGIN = Plugin(NotationSystem())
