"""The character ops (issue 21): ``character`` checks and normalises one character, and
answers what its sheet shows (its efforts, each entry's roll in words with its chance of
success); ``characters`` a batch (an import, a restore) in one call. See docs/api.md."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..core import System
from ..errors import ApiError, PyrulesError
from ..registry import SYSTEMS, sheet_of
from ..sheets.build import build_params
from ..sheets.character import normalise
from ..sheets.rolls import efforts_of
from ..sheetspec import IMPORT_MAX
from .base import Checked, Op
from .cache import odds_of


def entry_views(system: System[Any], character: Mapping[str, Any],
                lang: str) -> list[dict[str, Any]]:
    """What each quick-roll button of a sheet says: the roll the engine builds for it (the
    entry with the sheet's numbers, no situation) in a short line, and its chance of
    success (None when the roll is not judged a success or a failure, a sum of free dice,
    or when its exact odds cost too much)."""
    spec = sheet_of(system)
    out = []
    for entry in character["entries"]:
        raw, _ = build_params(system, spec, character, entry, None)
        params, _ = system.parse(raw)  # normalise checked every entry's roll
        chance: Fraction | None = None
        if system.judges_success(params):
            try:
                odds = odds_of(system, params)
                chance = system.success_chance(odds)
            except PyrulesError:  # odds too costly (free dice): the button shows none
                chance = None
        out.append({"id": entry["id"], "brief": system.brief(params).get(lang),
                    "chance": None if chance is None else float(chance),
                    "chance_exact": None if chance is None else str(chance)})
    return out


def sheet_answer(character: dict[str, Any], lang: str) -> dict[str, Any]:
    """A normalised character with what its sheet shows: its efforts (when its system has
    them) and each entry's brief and chance, so the page shows it without a second call."""
    answer: dict[str, Any] = {"character": character}
    system = SYSTEMS[character["system"]]
    efforts = efforts_of(system, character)
    if efforts is not None:
        answer["efforts"] = efforts
    answer["entries"] = entry_views(system, character, lang)
    return answer


def parse_character(req: Mapping[str, Any], lang: str) -> Checked:
    answer = sheet_answer(normalise(req.get("character")), lang)
    return {"answer": answer, "shown": answer}


def parse_characters(req: Mapping[str, Any], lang: str) -> Checked:
    raw = req.get("characters")
    if not isinstance(raw, list) or len(raw) > IMPORT_MAX:
        raise ApiError("invalid_param", "characters", "characters_list", max=IMPORT_MAX)
    shown = req.get("show")
    if shown is not None and (isinstance(shown, bool) or not isinstance(shown, int)):
        raise ApiError("invalid_param", "show", "not_int", label="show")
    out: list[dict[str, Any]] = []
    for i, item in enumerate(raw):
        try:
            character = normalise(item)
            out.append({"ok": True, **(sheet_answer(character, lang) if i == shown
                                       else {"character": character})})
        except PyrulesError as err:
            out.append({"ok": False, "error": {"code": err.code, "field": err.field,
                                               "message": err.message(lang)}})
    return {"answer": {"characters": out}, "shown": {"characters": out}}


CHARACTER_OPS = {
    "character": Op(parse_character, lambda c: c["answer"]),
    "characters": Op(parse_characters, lambda c: c["answer"]),
}
