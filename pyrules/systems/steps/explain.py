"""Explanation templates of the ``steps`` system (document 004): the roll, the
conflict and the combat actions.

The system records *what* happened (:class:`pyrules.core.Line`, a key and numbers);
these templates say it in French and English. No rule is decided here.
"""

from __future__ import annotations

from typing import Any

from ...i18n import Template, agree, winner_text
from ...i18n import Text as T


def _steps_oppose(lang: str, a: dict[str, Any]) -> str:
    text = T(f"Conflit : {a['a']} contre {a['b']}, {winner_text('fr', a['winner'])}",
             f"Conflict: {a['a']} against {a['b']}, {winner_text('en', a['winner'])}").get(lang)
    if a["winner"] != "tie":
        text += T(f" ; s'il ne s'avoue pas vaincu, le perdant perd {a['margin']}"
                  f" {agree(a['margin'], 'fr', 'point', 'points')}"
                  " d'Ardeur.",
                  f"; unless they concede, the loser loses {a['margin']} Ardeur"
                  f" {agree(a['margin'], 'en', 'point', 'points')}."
                  ).get(lang)
    else:
        text += "."
    return text


def _loss(lang: str, a: dict[str, Any]) -> str:
    if a["winner"] == "tie":
        return T("Égalité : personne ne perd d'Ardeur.", "Tie: nobody loses Ardeur.").get(lang)
    who = T("L'opposant", "The opponent") if a["winner"] == "actor" else T("L'acteur",
                                                                          "The actor")
    fr, en = (agree(a["margin"], code, "point", "points") for code in ("fr", "en"))
    return T(f"{who.fr} perd {a['margin']} {fr} d'Ardeur.",
             f"{who.en} loses {a['margin']} Ardeur {en}.").get(lang)


def _gear(lang: str, a: dict[str, Any]) -> str:
    parts = []
    if a["weapons"]:
        parts.append(T(f"meilleure arme {a['weapon']:+d} (parmi {a['weapons']})",
                       f"best weapon {a['weapon']:+d} (of {a['weapons']})").get(lang))
    if a["protections"]:
        parts.append(T(f"meilleure protection {a['protection']:+d} (parmi {a['protections']})",
                       f"best protection {a['protection']:+d} (of {a['protections']})"
                       ).get(lang))
    sep = T(" ; ", "; ").get(lang)
    head = T("Accessoires : ", "Accessories: ").get(lang) + sep.join(parts)
    return head + T(f", seules les meilleures comptent ; bonus {a['bonus']:+d} + accessoires"
                    f" = {a['total']:+d}.",
                    f", only the best count; bonus {a['bonus']:+d} + accessories"
                    f" = {a['total']:+d}.").get(lang)


TEMPLATES: dict[str, Template] = {
    "steps.advantage_step": T("Avantage (D+) : D{die} devient D{sides}.",
                              "Advantage (D+): D{die} becomes D{sides}."),
    "steps.handicap_step": T("Handicap (D-) : D{die} devient D{sides}.",
                             "Handicap (D-): D{die} becomes D{sides}."),
    "steps.advantage_keep": T("Avantage (D+) : deux D{die} ({faces}), on garde le meilleur,"
                              " {kept}.", "Advantage (D+): two D{die} ({faces}), keep the"
                              " better, {kept}."),
    "steps.handicap_keep": T("Handicap (D-) : deux D{die} ({faces}), on garde le pire, {kept}.",
                             "Handicap (D-): two D{die} ({faces}), keep the worse, {kept}."),
    "steps.gear": lambda lang, a: _gear(lang, a),
    "steps.total": T("D{sides} : {face}, bonus {bonus:+d}, total {total}.",
                     "D{sides}: {face}, bonus {bonus:+d}, total {total}."),
    "steps.success": T("{total} atteint le seuil {threshold} : réussite, marge {margin:+d}.",
                       "{total} reaches the threshold {threshold}: success, margin {margin:+d}."),
    "steps.failure": T("{total} n'atteint pas le seuil {threshold} : échec, marge {margin:+d}.",
                       "{total} falls short of the threshold {threshold}: failure,"
                       " margin {margin:+d}."),
    "steps.extreme_high": T("Dé extrême : {face}, le maximum du dé (exploit ?).",
                            "Extreme die: {face}, the die's maximum (a feat?)."),
    "steps.extreme_low": T("Dé extrême : 1 (catastrophe ?).", "Extreme die: 1 (a disaster?)."),
    "steps.oppose": _steps_oppose,
    # play: combat actions with Ardeur points
    "combat.ranged": lambda lang, a: (
        T(f"Touché : la cible perd {a['damage']} {agree(a['damage'], 'fr', 'point', 'points')}"
          f" d'Ardeur.",
          f"Hit: the target loses {a['damage']} Ardeur"
          f" {agree(a['damage'], 'en', 'point', 'points')}.") if a["hit"]
        else T("Manqué : pas de dégâts.", "Missed: no damage.")).get(lang),
    "combat.melee": lambda lang, a: _loss(lang, a),
    "combat.conflict": lambda lang, a: _loss(lang, a),
    "combat.conceded": T("Le perdant s'avoue vaincu : il ne perd aucun point d'Ardeur.",
                         "The loser concedes: no Ardeur point lost."),
    "combat.skirmish_won": T("Escarmouche remportée d'un seul jet : les figurants sont hors"
                             " de combat.", "Skirmish won in one roll: the extras are out of"
                             " the fight."),
    "combat.skirmish_twist": T("Escarmouche : les figurants sont vaincus, mais le jet perdu"
                               " amène un rebondissement (le héros n'est pas blessé).",
                               "Skirmish: the extras are beaten, but the lost roll brings a"
                               " twist (the hero is not wounded)."),
}
