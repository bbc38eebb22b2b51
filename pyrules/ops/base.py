"""What every op shares: the :class:`Op` shape, and the request pieces several ops read
(the system, the seed, params). An op is ``parse`` (check the request, compute nothing
costly) then ``run`` (roll or compute); ``validate`` is ``parse`` alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core import SEED_MAX, Faces, RollResult, System, make_rng, new_seed
from ..errors import ApiError
from ..registry import SYSTEMS

#: What ``parse`` hands to ``run``: anything the op needs, plus ``"shown"``, the part that
#: ``validate`` echoes (the params as the op reads them).
Checked = dict[str, Any]


@dataclass(frozen=True)
class Op:
    """One op of the API: ``parse(request, lang) -> checked`` raises the op's refusal (a
    :class:`~pyrules.errors.PyrulesError`); ``run(checked) -> answer`` never refuses what
    ``parse`` accepted, so ``validate`` (``parse`` alone) answers what the op would."""

    parse: Callable[[Mapping[str, Any], str], Checked]
    run: Callable[[Checked], dict[str, Any]]


def get_system(system_id: Any) -> System[Any]:
    if not isinstance(system_id, str) or system_id not in SYSTEMS:
        raise ApiError("unknown_system", "system", "unknown_system", system=str(system_id)[:40],
                       systems=", ".join(SYSTEMS))
    return SYSTEMS[system_id]


def get_seed(raw: Any) -> int:
    """A given seed (checked), or a fresh one when none is given."""
    if raw is None:
        return new_seed()
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= SEED_MAX:
        raise ApiError("invalid_param", "seed", "seed")
    return raw


def roll_or_resolve(
    system: System[Any], params: Any, faces: Faces | None, seed: int | None
) -> RollResult:
    if faces is not None:
        return system.resolve(params, faces).with_seed(None)
    assert seed is not None
    return system.roll(params, make_rng(seed)).with_seed(seed)


def faces_field(system: System[Any], raw: Any) -> str | None:
    """The first field of ``raw`` params that holds dice faces (for an error's ``field``)."""
    if isinstance(raw, Mapping):
        for f in system.fields:
            if f.kind == "faces" and raw.get(f.name) is not None:
                return f.name
    return None


def params_json(params: Any) -> dict[str, Any]:
    """Params as the op read them (no parsed internals), JSON-ready."""
    out = {}
    for f in dataclasses.fields(params):
        if f.name == "mods" or f.metadata.get("internal"):
            continue
        value = getattr(params, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out
