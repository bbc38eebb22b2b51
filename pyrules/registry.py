"""One registry describes every system: fields, bounds, defaults, outcomes and labels."""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Sequence
from typing import Any

from . import __version__, sweep
from .core import System
from .plugin import Plugin
from .sheetspec import EMPTY, SheetSpec
from .stats import FAIRNESS_MAX

#: The one list of systems, by their folder under pyrules/systems/. A new system is a
#: folder (its rules, odds, explanations, sheet and play ops, and a ``plugin.py``
#: declaring them) named here: nothing else changes.
SYSTEM_FOLDERS = ("pool", "d6", "d100", "steps", "notation")


def load(names: Sequence[str],
         package: str | None = f"{__package__}.systems") -> tuple[Plugin, ...]:
    """The ``PLUGIN`` of each system folder named (``package`` None: top-level packages)."""
    plugins = []
    for name in names:
        module = importlib.import_module(f"{package}.{name}.plugin" if package
                                         else f"{name}.plugin")
        plugins.append(module.PLUGIN)
    return tuple(plugins)


PLUGINS: tuple[Plugin, ...] = load(SYSTEM_FOLDERS)
SYSTEM_LIST: tuple[System[Any], ...] = tuple(p.system for p in PLUGINS)
SYSTEMS: dict[str, System[Any]] = {s.id: s for s in SYSTEM_LIST}
#: Which system serves each play op (each system names its own ``play_ops``).
PLAY_SYSTEMS: dict[str, System[Any]] = {op: s for s in SYSTEM_LIST for op in s.play_ops}
#: Each system's character sheet, as its plugin declares it.
SHEETS: dict[str, SheetSpec] = {p.system.id: p.sheet for p in PLUGINS}
#: What the page draws of each play op (its fields), as its system's plugin says.
PLAY: dict[str, dict[str, Any]] = {op: {"system": p.system.id, **described}
                                   for p in PLUGINS for op, described in p.play.items()}


def sheet_of(system: System[Any]) -> SheetSpec:
    return SHEETS.get(system.id, EMPTY)


def play_system(op: str) -> System[Any]:
    """The system whose play ``op`` is (``combat`` -> the step dice)."""
    return PLAY_SYSTEMS[op]


def describe_system(system: System[Any]) -> dict[str, Any]:
    return {
        "id": system.id,
        "doc": system.doc,
        "name": system.name.as_dict(),
        "description": system.description.as_dict(),
        "fields": [f.describe() for f in system.fields],
        "outcomes": [
            {"id": o.id, "success": o.success, "label": o.label.as_dict(),
             "rank": len(system.outcomes) - i}
            for i, o in enumerate(system.outcomes)
        ],
        "oppose": system.oppose_rule.as_dict(),
        "sheet": {**sheet_of(system).describe(system.fields), **system.sheet},
        "limits": {"fairness_n": FAIRNESS_MAX},  # the most rolls one `fairness` call makes
        **sweep.describe(system),  # "sweep" and "compare"
    }


def describe() -> dict[str, Any]:
    """The ``systems`` answer: every system, the play ops' fields, and their ``digest``."""
    described = _described()
    return {**described, "digest": digest(described)}


def _described() -> dict[str, Any]:
    return {
        "version": __version__,
        "systems": [describe_system(s) for s in SYSTEMS.values()],
        "play": PLAY,
    }


_DIGESTS: dict[tuple[Any, ...], str] = {}


def digest(described: dict[str, Any] | None = None) -> str:
    """A digest of the ``systems`` answer without it (16 hex digits of the SHA-256 of its
    JSON, keys sorted), given by the ``version`` op: a page drawn from the description its
    build baked in, of the same digest, skips its ``systems`` call (issue 40). Computed once
    for as long as the registry holds the same systems (``described``: that answer, when the
    caller has it)."""
    key = tuple(map(id, (*SYSTEMS.values(), *SHEETS.values())))
    if key not in _DIGESTS:
        text = json.dumps(described if described is not None else _described(),
                          sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        _DIGESTS.clear()
        _DIGESTS[key] = hashlib.sha256(text.encode()).hexdigest()[:16]
    return _DIGESTS[key]
