"""Explanation templates of the ``d100`` system (document 002): the formula and the nine tiers.

The system records *what* happened (:class:`pyrules.core.Line`, a key and numbers);
these templates say it in French and English. No rule is decided here.
"""

from __future__ import annotations

from typing import Any

from ...i18n import Template, winner_text
from ...i18n import Text as T


def _d100_formula(lang: str, a: dict[str, Any]) -> str:
    return T(
        f"MR = {a['value']} + ({a['modifier']:+d}) - {a['face']} = {a['margin']:+d}.",
        f"MR = {a['value']} + ({a['modifier']:+d}) - {a['face']} = {a['margin']:+d}.",
    ).get(lang)


D100_TIERS = {
    "exceptional_success": T("MR de 66 ou plus : réussite exceptionnelle.",
                             "MR of 66 or more: exceptional success."),
    "remarkable_success": T("MR de +41 à +65 : réussite remarquable.",
                            "MR from +41 to +65: remarkable success."),
    "notable_success": T("MR de +21 à +40 : réussite notable.",
                         "MR from +21 to +40: notable success."),
    "simple_success": T("MR de +1 à +20 : réussite simple.", "MR from +1 to +20: simple success."),
    "narrow_success": T("MR de 0 : réussite in extremis.", "MR of 0: narrow success."),
    "poor_success": T("MR de -1 à -20 : réussite médiocre, l'action réussit à peine.",
                      "MR from -1 to -20: poor success, the action barely works."),
    "simple_failure": T("MR de -21 à -40 : échec simple.", "MR from -21 to -40: simple failure."),
    "bitter_failure": T("MR de -41 à -65 : échec cuisant.", "MR from -41 to -65: bitter failure."),
    "critical_failure": T("MR de -66 ou moins : échec critique.",
                          "MR of -66 or less: critical failure."),
}

TEMPLATES: dict[str, Template] = {
    "d100.formula": _d100_formula,
    **{f"d100.{k}": v for k, v in D100_TIERS.items()},
    "d100.oppose": lambda lang, a: T(
        f"Opposition : MR {a['a']:+d} contre {a['b']:+d}, {winner_text('fr', a['winner'])}.",
        f"Opposed roll: MR {a['a']:+d} against {a['b']:+d}, {winner_text('en', a['winner'])}.",
    ).get(lang),
}
