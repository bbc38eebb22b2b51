"""The one JSON-in/JSON-out entry point: :func:`handle`. It never raises.

See docs/api.md for the contract. The browser worker and the CLI both come through here.
The ops themselves are a table (:mod:`pyrules.ops`): ``dispatch`` looks the op up.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from .errors import ApiError, PyrulesError
from .i18n import LANGS, message
from .ops import OPS, dispatch

__all__ = ["MAX_DEPTH", "MAX_REQUEST", "OPS", "ApiError", "dispatch", "handle", "nesting"]

MAX_REQUEST = 1_000_000  # characters (a `characters` import of up to 500 characters fits)
MAX_DEPTH = 32  # nesting of arrays and objects; checked before parsing (a deep text overflows
# the wasm stack of Pyodide, which no RecursionError catches)
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]")
_INNERMOST = re.compile(r"\[\]|\{\}")

def handle(request: str) -> str:
    """Answer one JSON request with one JSON answer (never raises)."""
    lang = "fr"
    try:
        if not isinstance(request, str):
            raise ApiError("invalid_json", None, "not_request")
        if len(request) > MAX_REQUEST:
            raise ApiError("invalid_json", None, "invalid_json",
                           detail=f"more than {MAX_REQUEST} characters")
        if nesting(request) > MAX_DEPTH:
            raise ApiError("invalid_json", None, "too_deep", max=MAX_DEPTH)
        try:
            req = json.loads(request)
        except (ValueError, RecursionError) as exc:
            raise ApiError("invalid_json", None, "invalid_json", detail=str(exc)[:200]) from None
        if not isinstance(req, dict):
            raise ApiError("invalid_json", None, "not_request")
        raw_lang = req.get("lang")
        if raw_lang is not None and raw_lang not in LANGS:
            raise ApiError("invalid_param", "lang", "lang")
        lang = raw_lang or "fr"
        inner = req.get("request") if req.get("op") == "validate" else None
        if isinstance(inner, dict) and inner.get("lang") in LANGS:
            lang = inner["lang"]  # `validate` answers as the op would: in its request's lang
        answer = {"ok": True, "result": dispatch(req, lang)}
    except PyrulesError as err:
        answer = error(err.code, err.field, err.message(lang))
    except Exception as exc:  # a bug: still answer in JSON, never raise into JavaScript
        answer = error("internal", None, message("internal", lang, detail=repr(exc)[:200]))
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":"))


def nesting(text: str) -> int:
    """How deeply arrays and objects nest in a JSON text, counted without parsing it
    (brackets inside strings do not count; unbalanced text is left to the parser, but is
    never counted shallower than its deepest run of openers)."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    # Peel the innermost empty pairs, one layer per pass, in C (a character loop in Python
    # took 7 ms for a 100-entry character in Pyodide). Each pass lowers the depth by one.
    depth = 0
    while brackets and depth <= MAX_DEPTH:
        peeled = _INNERMOST.sub("", brackets)
        if peeled == brackets:  # unbalanced: count what is left as before
            return depth + max(0, *accumulate(1 if c in "[{" else -1 for c in brackets))
        brackets, depth = peeled, depth + 1
    return depth


def error(code: str, field: str | None, text: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "field": field, "message": text}}
