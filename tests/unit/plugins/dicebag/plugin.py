"""The dummy system as the registry takes it: the system alone."""

from pyrules.plugin import Plugin

from . import DiceBagSystem

PLUGIN = Plugin(DiceBagSystem())
