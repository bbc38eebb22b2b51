"""``notation``: free dice notation ("Dés libres"), e.g. ``3d6``, ``4d6kh3``, ``(1d4+1)*2``,
``4dF``, ``5d10>=8``, ``3d6!``.

Split like :mod:`pyrules.systems.pool`: :mod:`.grammar` (parsing and checks, grammar 2),
:mod:`.throw` (rolling), :mod:`.odds` (exact odds within a work budget), :mod:`.system` (the
system and its answer), :mod:`.legacy` (grammar 1, kept for old replay links) and
:mod:`.explain` (the explanation templates).
"""

from __future__ import annotations

from .grammar import EXPLODE_DEPTH, Group, Parsed, parse
from .odds import BUDGET, convolve, power
from .system import GRAMMAR_LATEST, NotationParams, NotationSystem, distribution, read
from .throw import evaluate

__all__ = [
    "BUDGET",
    "EXPLODE_DEPTH",
    "GRAMMAR_LATEST",
    "Group",
    "NotationParams",
    "NotationSystem",
    "Parsed",
    "convolve",
    "distribution",
    "evaluate",
    "parse",
    "power",
    "read",
]
