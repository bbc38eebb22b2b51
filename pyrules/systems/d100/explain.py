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

#: What each tier brings at the table (document 002), said in our own words.
D100_EFFECTS = {
    "exceptional_success": T("Un coup de génie : un gros avantage, dont tout le groupe profite.",
                             "A stroke of genius: a big advantage that the whole group enjoys."),
    "remarkable_success": T("Une action saluée : un avantage net dans ce domaine.",
                            "An applauded feat: a clear advantage in this field."),
    "notable_success": T("Une action particulièrement réussie : un petit avantage dans ce"
                         " domaine.", "A particularly good action: a small advantage in this"
                         " field."),
    "simple_success": T("L'action réussit, sans rien de plus.", "The action works, nothing more."),
    "narrow_success": T("L'action réussit de justesse.", "The action works, only just."),
    "poor_success": T("L'action réussit, mais avec moins d'effet qu'espéré (souvent réduit).",
                      "The action works, but with less effect than hoped (often reduced)."),
    "simple_failure": T("L'action échoue : un petit désavantage pour le personnage ou un petit"
                        " avantage pour l'adversité, dans ce domaine.",
                        "The action fails: a small drawback for the character or a small edge"
                        " for the opposition, in this field."),
    "bitter_failure": T("L'action échoue nettement : un désavantage pour le personnage et/ou un"
                        " avantage pour l'adversité, dans ce domaine.",
                        "The action fails badly: a drawback for the character and/or an edge"
                        " for the opposition, in this field."),
    "critical_failure": T("L'action échoue lourdement : un sérieux handicap pour le personnage"
                          " et ses alliés, un sérieux avantage pour l'adversité.",
                          "The action fails dismally: a serious handicap for the character and"
                          " allies, a serious edge for the opposition."),
}

TEMPLATES: dict[str, Template] = {
    "d100.formula": _d100_formula,
    **{f"d100.{k}": v for k, v in D100_TIERS.items()},
    **{f"d100.effect_{k}": v for k, v in D100_EFFECTS.items()},
    "d100.oppose": lambda lang, a: T(
        f"Opposition : MR {a['a']:+d} contre {a['b']:+d}, {winner_text('fr', a['winner'])}.",
        f"Opposed roll: MR {a['a']:+d} against {a['b']:+d}, {winner_text('en', a['winner'])}.",
    ).get(lang),
}
