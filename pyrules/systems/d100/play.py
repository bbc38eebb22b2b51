"""Play with the d100 (document 002): its character sheet."""

from __future__ import annotations

from ...sheetspec import SheetSpec

#: A d100 character sheet holds no numbers of its own: each skill keeps its value; a quick
#: roll may add a modifier.
SHEET = SheetSpec(situation=(("modifier", "add"),))
