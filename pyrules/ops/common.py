"""The ops of no system: systems, version, qr, and seat (the shared table's seats). The
play ops of a system (sources, effort, combat, fight) live in its folder
(``pyrules/systems/<id>/ops.py``), named by its plugin (issue 42).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import __version__
from ..errors import ApiError
from ..qr import check_text, qr
from ..registry import describe, digest
from .base import Checked, Op


def _nothing(req: Mapping[str, Any], lang: str) -> Checked:
    return {"lang": lang, "shown": {}}


def parse_qr(req: Mapping[str, Any], lang: str) -> Checked:
    check_text(req.get("text"))
    return {"text": req.get("text"), "shown": {}}


#: How many players one shared table seats (issue 24). The engine decides it: the GM's page
#: asks ``seat`` before each invite and each join, and shows the refusal it answers.
MAX_PLAYERS = 8
_TAKEN_MAX = 10_000  # a count the page could send, far above any table


def parse_seat(req: Mapping[str, Any], lang: str) -> Checked:
    """``{"op": "seat", "taken": n, "text"?}``: may one more player sit at a table where
    ``n`` seats are taken (players there, invites open)? Refused with ``table_full``."""
    taken = req.get("taken")
    if isinstance(taken, bool) or not isinstance(taken, int) or not 0 <= taken <= _TAKEN_MAX:
        raise ApiError("invalid_param", "taken", "seat_taken", max=_TAKEN_MAX)
    if taken >= MAX_PLAYERS:
        raise ApiError("table_full", "taken", "table_full", max=MAX_PLAYERS)
    text = req.get("text")
    if text is not None:
        check_text(text)
    return {"taken": taken, "text": text, "shown": {"max": MAX_PLAYERS}}


def run_seat(c: Checked) -> dict[str, Any]:
    """The seat given: how many stay free after it, and the invite's QR code when asked
    (the host's tap on « nouvelle invitation » is this one call)."""
    out: dict[str, Any] = {"max": MAX_PLAYERS, "free": MAX_PLAYERS - c["taken"] - 1}
    if c["text"] is not None:
        out["qr"] = qr(c["text"])
    return out


COMMON_OPS = {
    "systems": Op(_nothing, lambda c: describe()),
    "version": Op(_nothing, lambda c: {"version": __version__, "digest": digest()}),
    "qr": Op(parse_qr, lambda c: qr(c["text"])),
    "seat": Op(parse_seat, run_seat),
}
