"""Explanation templates of the ``d6`` system (document 001): the roll and the opposition.

The system records *what* happened (:class:`pyrules.core.Line`, a key and numbers);
these templates say it in French and English. No rule is decided here.
"""

from __future__ import annotations

from typing import Any

from ...i18n import Template, winner_text
from ...i18n import Text as T


def _d6_total(lang: str, a: dict[str, Any]) -> str:
    effort = T(" (effort exceptionnel : 2d6)", " (exceptional effort: 2d6)") if a["effort"] \
        else T("", "")
    return T(
        f"Total : attribut {a['attribute']} + compétence {a['skill']} + dés {a['dice']}"
        f" = {a['total']}{effort.fr}.",
        f"Total: attribute {a['attribute']} + skill {a['skill']} + dice {a['dice']}"
        f" = {a['total']}{effort.en}.",
    ).get(lang)


def _d6_oppose(lang: str, a: dict[str, Any]) -> str:
    text = T(f"Opposition : {a['a']} contre {a['b']}, {winner_text('fr', a['winner'])}",
             f"Opposed roll: {a['a']} against {a['b']}, {winner_text('en', a['winner'])}").get(lang)
    if a["pc_tie"]:
        text += T(" (égalité gagnée par le PJ face au PNJ)",
                  " (a tie goes to the PC against the NPC)").get(lang)
    return text + "."


TEMPLATES: dict[str, Template] = {
    "d6.total": _d6_total,
    "d6.versus": T(
        "{total} contre une difficulté de {difficulty} : marge {margin:+d}.",
        "{total} against a difficulty of {difficulty}: margin {margin:+d}.",
    ),
    "d6.success": T(
        "Réussite : la marge {margin} ne dépasse pas le seuil de réussite supérieure"
        " ({threshold}).",
        "Success: the margin {margin} does not exceed the superior-success threshold"
        " ({threshold}).",
    ),
    "d6.superior": T(
        "La marge {margin} dépasse le seuil 8 - Flamme = {threshold} : réussite supérieure.",
        "The margin {margin} exceeds the threshold 8 - Flame = {threshold}: superior success.",
    ),
    "d6.excellent": T(
        "La marge {margin} dépasse le double du seuil ({double}) : réussite excellente.",
        "The margin {margin} exceeds twice the threshold ({double}): excellent success.",
    ),
    "d6.elementary": T(
        "Compétence élémentaire sans instinct : réussite simple seulement (marge {margin},"
        " seuil {threshold}).",
        "Elementary skill without instinct: simple success only (margin {margin},"
        " threshold {threshold}).",
    ),
    "d6.failure": T(
        "Échec de {miss}, pas plus que la clarté ({clarity}) : échec simple.",
        "Missed by {miss}, no more than the clarity ({clarity}): simple failure.",
    ),
    "d6.grave": T(
        "Échec de {miss}, plus que la clarté ({clarity}) : échec grave.",
        "Missed by {miss}, more than the clarity ({clarity}): grave failure.",
    ),
    "d6.disastrous": T(
        "Échec de {miss}, plus que le double de la clarté ({double}) : échec désastreux.",
        "Missed by {miss}, more than twice the clarity ({double}): disastrous failure.",
    ),
    "d6.take_time": T(
        "Échec de {miss}, pas plus que la clarté ({clarity}), mais en prenant son temps :"
        " l'action réussit.",
        "Missed by {miss}, no more than the clarity ({clarity}), but taking one's time:"
        " the action succeeds.",
    ),
    "d6.impact": T("Impact {base} × {factor} = {impact}.", "Impact {base} × {factor} = {impact}."),
    "d6.lost_tie": T("Égalité perdue face au PJ.", "Tie lost to the PC."),
    "d6.reroll": T("Égalité {a} contre {b} : on relance.", "Tie {a} against {b}: reroll."),
    "d6.oppose": _d6_oppose,
}
