"""The API as a table of ops: ``OPS[name] = Op(parse, run)``. ``dispatch`` is a lookup;
``validate`` runs an op's ``parse`` alone, so it answers exactly what the op would answer
(the same refusal, or ``valid``), by construction.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from ..errors import ApiError
from ..i18n import LANGS
from ..registry import PLUGINS
from .base import Checked, Op
from .briefs import BRIEF_OPS
from .characters import CHARACTER_OPS
from .common import COMMON_OPS
from .rolls import ROLL_OPS


def parse_validate(req: Mapping[str, Any], lang: str) -> Checked:
    """``{"op": "validate", "request": {...}}``: the request checked as its op would check
    it (same error code, field and message, in the inner request's ``lang``)."""
    inner = req.get("request")
    if not isinstance(inner, dict):
        raise ApiError("invalid_param", "request", "not_request")
    raw_lang = inner.get("lang")
    if raw_lang is not None and raw_lang not in LANGS:
        raise ApiError("invalid_param", "lang", "lang")
    if inner.get("op") == "validate":
        raise ApiError("invalid_param", "op", "validate_nested")
    name = inner.get("op")
    checked = lookup(name).parse(inner, raw_lang or req.get("lang") or "fr")
    return {"answer": {"valid": True, "op": name, **checked.get("shown", {})}}


def plugin_ops() -> dict[str, Op]:
    """The play ops each system's plugin names (its folder's ``ops`` module)."""
    out: dict[str, Op] = {}
    for plugin in PLUGINS:
        if plugin.ops is not None:
            out.update(importlib.import_module(plugin.ops).OPS)
    return out


_PLAY = plugin_ops()
_ORDER = ("systems", "roll", "odds", "oppose", "oppose_odds", "dice", "version", *_PLAY,
          "luck", "fairness", "sweep", "compare", "briefs", "qr", "seat", "character",
          "characters")
_ALL = {**ROLL_OPS, **BRIEF_OPS, **COMMON_OPS, **CHARACTER_OPS, **_PLAY}
#: Every op, by name (the order of the ``unknown_op`` message).
OPS: dict[str, Op] = {name: _ALL[name] for name in _ORDER}
OPS["validate"] = Op(parse_validate, lambda c: c["answer"])
assert set(OPS) == {*_ALL, "validate"}


def lookup(name: Any) -> Op:
    op = OPS.get(name) if isinstance(name, str) else None
    if op is None:
        raise ApiError("unknown_op", "op", "unknown_op", op=str(name)[:40], ops=", ".join(OPS))
    return op


def dispatch(req: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Answer one request: its op's ``parse``, then its ``run``."""
    op = lookup(req.get("op"))
    return op.run(op.parse(req, lang))


__all__ = ["OPS", "Op", "dispatch", "lookup"]
