"""Explanation templates of the free dice (``notation``): what each line says, in French
and in English."""

from __future__ import annotations

from typing import Any

from ...i18n import Template
from ...i18n import Text as T

_WINNER = {"actor": T("l'acteur l'emporte", "the actor wins"),
           "opponent": T("l'opposant l'emporte", "the opponent wins"),
           "tie": T("égalité", "tie")}


def _group_line(lang: str, a: dict[str, Any]) -> str:
    sign = "-" if a["sign"] < 0 else ""
    sep = " :" if lang == "fr" else ":"
    return f"{sign}{a['notation']}{sep} {a['faces']} → {a['subtotal']}."


def _oppose_line(lang: str, a: dict[str, Any]) -> str:
    return T(f"Opposition : {a['a']} contre {a['b']}, {_WINNER[a['winner']].fr}.",
             f"Opposed roll: {a['a']} against {a['b']}, {_WINNER[a['winner']].en}.").get(lang)


TEMPLATES: dict[str, Template] = {
    "notation.group": _group_line,
    "notation.total": T("{expression} : total {total}.", "{expression}: total {total}."),
    "notation.count": T("{expression} : {total} {total|réussite|réussites}.",
                        "{expression}: {total} {total|success|successes}."),
    "notation.oppose": _oppose_line,
}
