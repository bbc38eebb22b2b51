"""The pool's play op, ``sources`` (document 000: where augmentations and diminutions
come from), as the API serves it. Named by the pool's plugin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...explain import both
from ...fields import validate
from ...ops.base import Checked, Op
from .play import SOURCE_FIELDS, pool_sources


def parse_sources(req: Mapping[str, Any], lang: str) -> Checked:
    validate(SOURCE_FIELDS, req.get("params"))
    return {"raw": req.get("params"), "lang": lang, "shown": {}}


def run_sources(c: Checked) -> dict[str, Any]:
    sources, totals = pool_sources(c["raw"])
    lang = c["lang"]
    return {
        **totals,
        "modifiers": f"+{totals['flame_dice']}DF" if totals["flame_dice"] else "",
        "sources": [
            {"id": s.id, "augmentations": s.augmentations, "diminutions": s.diminutions,
             "flame_dice": s.flame_dice, "explanations": both([s.line]),
             "explanation": both([s.line])[lang][0]}
            for s in sources
        ],
    }


OPS = {"sources": Op(parse_sources, run_sources)}
