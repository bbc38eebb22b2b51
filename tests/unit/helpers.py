"""Small helpers shared by the unit tests."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pyrules.api import handle
from pyrules.core import RollResult
from pyrules.registry import SYSTEMS


def call(request: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(handle(json.dumps(request)))
    return answer


def ok(request: dict[str, Any]) -> dict[str, Any]:
    answer = call(request)
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


def err(request: dict[str, Any]) -> dict[str, Any]:
    answer = call(request)
    assert not answer["ok"], answer
    error: dict[str, Any] = answer["error"]
    return error


def resolve(system_id: str, faces: dict[str, Sequence[int]], **params: Any) -> RollResult:
    """Resolve given faces through the engine's pure function, bypassing JSON."""
    system = SYSTEMS[system_id]
    p, _ = system.parse(params)
    return system.resolve(p, {k: tuple(v) for k, v in faces.items()})


def rule(system_id: str, **params: Any) -> dict[str, Any]:
    """A roll through the system's Python API (parse, then the pure resolve), for rule tests:
    outcome, success, margin, dice and the system's own fields, as plain values."""
    system = SYSTEMS[system_id]
    p, faces = system.parse(params)
    assert faces is not None, "a rule test gives the faces"
    r = system.resolve(p, faces)
    return {"outcome": r.outcome, "success": r.success, "margin": r.margin,
            "dice": [d.to_json() for d in r.dice], **dict(r.extra)}


#: Every list field filled, every stat away from its default, an entry of every shape.
FULL: dict[str, dict[str, Any]] = {
    "pool": {"stats": {"flame": -2, "aspect": 3, "dark_aspect": 1},
             "entries": [{"label": "Athlétisme", "params": {"pot": 7, "diff": 5,
                                                             "modifiers": "+1D"},
                          "sources": {"linked": False, "specialty": True}},
                         {"label": "Vigilance", "params": {}}]},
    "d6": {"pc": False, "stats": {"flame": 3, "clarity": 4, "efforts_used": 1},
           "entries": [{"label": "Épée", "params": {"attribute": 4, "skill": 3,
                                                    "impact": 5, "elementary": True}}]},
    "d100": {"entries": [{"label": "Discrétion", "params": {"value": 62, "modifier": -5}},
                         {"label": "Lien", "params": {"level": "bond_2"}}]},
    "steps": {"stats": {"ardeur": 7, "accessories": 2, "weapons": "2, 1",
                        "protections": [1, 3]},
              "entries": [{"label": "Combat", "params": {"die": 10, "threshold": 6,
                                                         "edge_rule": "keep"}},
                          {"label": "Tir", "params": {"die": "6", "bonus": "1"}}]},
    "notation": {"entries": [{"label": "Dégâts", "params": {"expression": "2d6+1"}}]},
}


def character(system: str, **more: Any) -> dict[str, Any]:
    return {"system": system, "name": f"Héros {system}", **more}
