"""The d6 system's play op, ``effort`` (document 001: exceptional efforts a day), as
the API serves it. Named by the d6 plugin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...ops.base import Checked, Op
from .play import effort


def parse_effort(req: Mapping[str, Any], lang: str) -> Checked:
    # No dice: its one rule (no effort left) is its check, so the answer is made here.
    return {"answer": effort(req.get("params")), "shown": {}}


OPS = {"effort": Op(parse_effort, lambda c: c["answer"])}
