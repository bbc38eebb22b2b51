"""Explanations: turn the explanation steps a system records into French or English.

The systems only record *what* happened (:class:`pyrules.core.Line`: a key and numbers);
this module says it in words. No rule is decided here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .core import Line
from .i18n import LANGS, Text

T = Text
Template = Text | Callable[[str, dict[str, Any]], str]


def _winner(lang: str, winner: str) -> str:
    return {
        "actor": T("l'acteur l'emporte", "the actor wins"),
        "opponent": T("l'opposant l'emporte", "the opponent wins"),
        "tie": T("égalité", "tie"),
    }[winner].get(lang)


def _pool_dice(lang: str, a: dict[str, Any]) -> str:
    mods = f" {a['modifiers']}" if a["modifiers"] else ""
    if a["flame"]:
        kind = (T("de Flamme noire", "black Flame") if a["kind"] == "black_flame"
                else T("de Flamme", "Flame")).get(lang)
        flame = T(f", dont {a['flame']} dé(s) {kind}", f", {a['flame']} of them {kind} dice")
    else:
        flame = T("", "")
    return T(f"POT {a['pot']}{mods} : {a['count']} d6 lancés{flame.fr}.",
             f"POT {a['pot']}{mods}: {a['count']} d6 rolled{flame.en}.").get(lang)


def _d6_total(lang: str, a: dict[str, Any]) -> str:
    effort = T(" (effort exceptionnel : 2d6)", " (exceptional effort: 2d6)") if a["effort"] \
        else T("", "")
    return T(
        f"Total : attribut {a['attribute']} + compétence {a['skill']} + dés {a['dice']}"
        f" = {a['total']}{effort.fr}.",
        f"Total: attribute {a['attribute']} + skill {a['skill']} + dice {a['dice']}"
        f" = {a['total']}{effort.en}.",
    ).get(lang)


def _d100_formula(lang: str, a: dict[str, Any]) -> str:
    return T(
        f"MR = {a['value']} + ({a['modifier']:+d}) - {a['face']} = {a['margin']:+d}.",
        f"MR = {a['value']} + ({a['modifier']:+d}) - {a['face']} = {a['margin']:+d}.",
    ).get(lang)


def _steps_oppose(lang: str, a: dict[str, Any]) -> str:
    text = T(f"Conflit : {a['a']} contre {a['b']}, {_winner('fr', a['winner'])}",
             f"Conflict: {a['a']} against {a['b']}, {_winner('en', a['winner'])}").get(lang)
    if a["winner"] != "tie":
        text += T(f" ; s'il ne s'avoue pas vaincu, le perdant perd {a['margin']} point(s)"
                  " d'Ardeur.",
                  f"; unless they concede, the loser loses {a['margin']} Ardeur point(s)."
                  ).get(lang)
    else:
        text += "."
    return text


def _d6_oppose(lang: str, a: dict[str, Any]) -> str:
    text = T(f"Opposition : {a['a']} contre {a['b']}, {_winner('fr', a['winner'])}",
             f"Opposed roll: {a['a']} against {a['b']}, {_winner('en', a['winner'])}").get(lang)
    if a["pc_tie"]:
        text += T(" (égalité gagnée par le PJ face au PNJ)",
                  " (a tie goes to the PC against the NPC)").get(lang)
    return text + "."


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
    # pool
    "pool.dice": _pool_dice,
    "pool.placement_optimal": T(
        "{aug} augmentation(s) et {dim} diminution(s) s'annulent une à une ; le reste est placé"
        " au mieux sur les dés de Flamme ({changes}).",
        "{aug} augmentation(s) and {dim} diminution(s) cancel one for one; the rest is placed"
        " optimally on the Flame dice ({changes}).",
    ),
    "pool.placement_manual": T(
        "Placement choisi sur les dés de Flamme : {changes} ({aug} augmentation(s),"
        " {dim} diminution(s) disponibles).",
        "Chosen placement on the Flame dice: {changes} ({aug} augmentation(s),"
        " {dim} diminution(s) available).",
    ),
    "pool.count": T(
        "Faces {faces} : {successes} réussite(s) (4-5 = 1, 6 = 2), {ones} « 1 ».",
        "Faces {faces}: {successes} success(es) (4-5 = 1, 6 = 2), {ones} ones.",
    ),
    "pool.size": T(
        "DIFF {diff} avec l'écart de TAIlle {size:+d} : DIFF effective {eff}.",
        "DIFF {diff} with the SIZe gap {size:+d}: effective DIFF {eff}.",
    ),
    "pool.critical": T(
        "{successes} réussites, au moins le double de la DIFF {eff} ({double}) : réussite"
        " critique, MR {margin:+d}.",
        "{successes} successes, at least twice the DIFF {eff} ({double}): critical success,"
        " MR {margin:+d}.",
    ),
    "pool.success": T(
        "{successes} réussite(s) pour une DIFF de {eff} : réussite, MR {margin:+d}.",
        "{successes} success(es) against a DIFF of {eff}: success, MR {margin:+d}.",
    ),
    "pool.failure": T(
        "{successes} réussite(s) pour une DIFF de {eff} : échec, MR {margin:+d} ; pas de fumble"
        " ({ones} « 1 »).",
        "{successes} success(es) against a DIFF of {eff}: failure, MR {margin:+d}; no fumble"
        " ({ones} ones).",
    ),
    "pool.fumble_margin": T(
        "{successes} réussite(s) pour une DIFF de {eff} : MR {margin:+d}, -5 ou pire, c'est un"
        " échec critique (fumble).",
        "{successes} success(es) against a DIFF of {eff}: MR {margin:+d}, -5 or worse, a fumble.",
    ),
    "pool.fumble_revised": T(
        "Échec avec {ones} « 1 », plus que la moitié des {count} dés et plus que les"
        " {successes} réussite(s) : échec critique (fumble), MR {margin:+d}.",
        "A failure with {ones} ones, more than half the {count} dice and more than the"
        " {successes} success(es): fumble, MR {margin:+d}.",
    ),
    "pool.fumble_classic": T(
        "Échec avec {ones} « 1 », plus que les {successes} réussite(s) : échec critique"
        " (fumble), MR {margin:+d}.",
        "A failure with {ones} ones, more than the {successes} success(es): fumble,"
        " MR {margin:+d}.",
    ),
    "pool.oppose": lambda lang, a: T(
        f"Opposition : {a['a']} réussite(s) contre {a['b']}, {_winner('fr', a['winner'])}.",
        f"Opposed roll: {a['a']} success(es) against {a['b']}, {_winner('en', a['winner'])}.",
    ).get(lang),
    # d6
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
    # d100
    "d100.formula": _d100_formula,
    **{f"d100.{k}": v for k, v in D100_TIERS.items()},
    "d100.oppose": lambda lang, a: T(
        f"Opposition : MR {a['a']:+d} contre {a['b']:+d}, {_winner('fr', a['winner'])}.",
        f"Opposed roll: MR {a['a']:+d} against {a['b']:+d}, {_winner('en', a['winner'])}.",
    ).get(lang),
    # steps
    "steps.advantage_step": T("Avantage (D+) : D{die} devient D{sides}.",
                              "Advantage (D+): D{die} becomes D{sides}."),
    "steps.handicap_step": T("Handicap (D-) : D{die} devient D{sides}.",
                             "Handicap (D-): D{die} becomes D{sides}."),
    "steps.advantage_keep": T("Avantage (D+) : deux D{die} ({faces}), on garde le meilleur,"
                              " {kept}.", "Advantage (D+): two D{die} ({faces}), keep the"
                              " better, {kept}."),
    "steps.handicap_keep": T("Handicap (D-) : deux D{die} ({faces}), on garde le pire, {kept}.",
                             "Handicap (D-): two D{die} ({faces}), keep the worse, {kept}."),
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
    # notation
    "notation.group": lambda lang, a: T(
        f"{'-' if a['sign'] < 0 else ''}{a['notation']} : {a['faces']} → {a['subtotal']}.",
        f"{'-' if a['sign'] < 0 else ''}{a['notation']}: {a['faces']} → {a['subtotal']}.",
    ).get(lang),
    "notation.total": T("{expression} : total {total}.", "{expression}: total {total}."),
    "notation.oppose": lambda lang, a: T(
        f"Opposition : {a['a']} contre {a['b']}, {_winner('fr', a['winner'])}.",
        f"Opposed roll: {a['a']} against {a['b']}, {_winner('en', a['winner'])}.",
    ).get(lang),
    # table play: sources of augmentations and diminutions, combat actions
    "sources.aspect_aug": T("Aspect {n} (Flamme claire) : {n} augmentation(s).",
                            "Aspect {n} (light Flame): {n} augmentation(s)."),
    "sources.dark_aspect_dim": T("Aspect noir {n} (Flamme claire) : {n} diminution(s) pour le"
                                 " MJ.", "Dark aspect {n} (light Flame): {n} diminution(s) for"
                                 " the GM."),
    "sources.dark_aspect_aug": T("Aspect noir {n} (Flamme noire) : {n} augmentation(s).",
                                 "Dark aspect {n} (black Flame): {n} augmentation(s)."),
    "sources.aspect_dim": T("Aspect {n} (Flamme noire) : {n} diminution(s) pour le MJ.",
                            "Aspect {n} (black Flame): {n} diminution(s) for the GM."),
    "sources.specialty": T("Spécialité : 1 augmentation.", "Specialty: 1 augmentation."),
    "sources.rewards": T("Récompense(s) du MJ : {n} augmentation(s).",
                         "GM reward(s): {n} augmentation(s)."),
    "sources.plain_roll": T("Le joueur s'est contenté de lancer les dés : 1 diminution.",
                            "The player just rolled the dice: 1 diminution."),
    "sources.eclat": T("Présence d'éclat : {dice} dé(s) de Flamme et {n} augmentation(s).",
                       "Éclat present: {dice} Flame dice and {n} augmentation(s)."),
    "combat.ranged": lambda lang, a: (
        T(f"Touché : la cible perd {a['damage']} point(s) d'Ardeur.",
          f"Hit: the target loses {a['damage']} Ardeur point(s).") if a["hit"]
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


def _loss(lang: str, a: dict[str, Any]) -> str:
    if a["winner"] == "tie":
        return T("Égalité : personne ne perd d'Ardeur.", "Tie: nobody loses Ardeur.").get(lang)
    who = T("L'opposant", "The opponent") if a["winner"] == "actor" else T("L'acteur",
                                                                          "The actor")
    return T(f"{who.fr} perd {a['margin']} point(s) d'Ardeur.",
             f"{who.en} loses {a['margin']} Ardeur point(s).").get(lang)


def render_line(line: Line, lang: str) -> str:
    template = TEMPLATES[line.key]
    args = dict(line.args)
    if isinstance(template, Text):
        return template.get(lang).format(**args)
    return template(lang, args)


def render(lines: Iterable[Line], lang: str) -> list[str]:
    return [render_line(line, lang) for line in lines]


def both(lines: Iterable[Line]) -> dict[str, list[str]]:
    seq = tuple(lines)
    return {lang: render(seq, lang) for lang in LANGS}
