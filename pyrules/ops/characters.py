"""The character ops (issue 21): ``character`` checks and normalises one character,
``characters`` a batch (an import, a restore) in one call. See docs/api.md."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ApiError, PyrulesError
from ..registry import SYSTEMS
from ..sheets.character import normalise
from ..sheets.rolls import efforts_of
from ..sheets.spec import IMPORT_MAX
from .base import Checked, Op


def parse_character(req: Mapping[str, Any], lang: str) -> Checked:
    character = normalise(req.get("character"))
    answer: dict[str, Any] = {"character": character}
    efforts = efforts_of(SYSTEMS[character["system"]], character)
    if efforts is not None:  # what the sheet shows of them once saved: no second call
        answer["efforts"] = efforts
    return {"answer": answer, "shown": answer}


def parse_characters(req: Mapping[str, Any], lang: str) -> Checked:
    raw = req.get("characters")
    if not isinstance(raw, list) or len(raw) > IMPORT_MAX:
        raise ApiError("invalid_param", "characters", "characters_list", max=IMPORT_MAX)
    out: list[dict[str, Any]] = []
    for item in raw:
        try:
            out.append({"ok": True, "character": normalise(item)})
        except PyrulesError as err:
            out.append({"ok": False, "error": {"code": err.code, "field": err.field,
                                               "message": err.message(lang)}})
    return {"answer": {"characters": out}, "shown": {"characters": out}}


CHARACTER_OPS = {
    "character": Op(parse_character, lambda c: c["answer"]),
    "characters": Op(parse_characters, lambda c: c["answer"]),
}
