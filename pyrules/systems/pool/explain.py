"""Explanation templates of the ``pool`` system (document 000): the roll, and the
sources of augmentations and diminutions.

The system records *what* happened (:class:`pyrules.core.Line`, a key and numbers);
these templates say it in French and English. No rule is decided here.
"""

from __future__ import annotations

from typing import Any

from ...i18n import Template, agree, winner_text
from ...i18n import Text as T


def _pool_dice(lang: str, a: dict[str, Any]) -> str:
    mods = f" {a['modifiers']}" if a["modifiers"] else ""
    if a["flame"]:
        kind = (T("de Flamme noire", "black Flame") if a["kind"] == "black_flame"
                else T("de Flamme", "Flame")).get(lang)
        fr, en = agree(a["flame"], "fr", "dé", "dés"), agree(a["flame"], "en", "die", "dice")
        flame = T(f", dont {a['flame']} {fr} {kind}", f", {a['flame']} of them {kind} {en}")
    else:
        flame = T("", "")
    return T(f"POT {a['pot']}{mods} : {a['count']} d6 lancés{flame.fr}.",
             f"POT {a['pot']}{mods}: {a['count']} d6 rolled{flame.en}.").get(lang)



TEMPLATES: dict[str, Template] = {
    "pool.dice": _pool_dice,
    "pool.placement_optimal": T(
        "{aug} {aug|augmentation|augmentations} et {dim} {dim|diminution|diminutions} s'annulent"
        " une à une ; le reste est placé"
        " au mieux sur les dés de Flamme ({changes}).",
        "{aug} {aug|augmentation|augmentations} and {dim} {dim|diminution|diminutions} cancel"
        " one for one; the rest is placed"
        " optimally on the Flame dice ({changes}).",
    ),
    "pool.placement_manual": T(
        "Placement choisi sur les dés de Flamme : {changes} ({aug}"
        " {aug|augmentation|augmentations},"
        " {dim} {dim|diminution|diminutions} disponibles).",
        "Chosen placement on the Flame dice: {changes} ({aug} {aug|augmentation|augmentations},"
        " {dim} {dim|diminution|diminutions} available).",
    ),
    "pool.count": T(
        "Faces {faces} : {successes} {successes|réussite|réussites} (4-5 = 1, 6 = 2),"
        " {ones} « 1 ».",
        "Faces {faces}: {successes} {successes|success|successes} (4-5 = 1, 6 = 2), {ones} ones.",
    ),
    "pool.size": T(
        "DIFF {diff} avec l'écart de TAIlle {size:+d} : DIFF effective {eff}.",
        "DIFF {diff} with the SIZe gap {size:+d}: effective DIFF {eff}.",
    ),
    "pool.complexity_disable": T(
        "DIFF {diff}, complexité de la machine à mettre hors d'état {complexity:+d} :"
        " DIFF {task}.",
        "DIFF {diff}, complexity of the machine being disabled {complexity:+d}: DIFF {task}.",
    ),
    "pool.complexity_repair": T(
        "DIFF {diff}, complexité de la machine à réparer {complexity:+d} : DIFF {task}.",
        "DIFF {diff}, complexity of the machine being repaired {complexity:+d}: DIFF {task}.",
    ),
    "pool.size_floor_applied": T(
        "La DIFF ne descend pas sous 1 : la TAIlle ne l'a changée que de {applied:+d} (écart"
        " {size:+d}), et c'est ce {applied:+d} qui revient à la MR d'une réussite.",
        "The DIFF never goes below 1: the SIZe changed it by {applied:+d} only (gap {size:+d}),"
        " and that {applied:+d} is what a success's MR gets back.",
    ),
    "pool.size_floor_full": T(
        "La DIFF ne descend pas sous 1 : la TAIlle ne l'a changée que de {applied:+d}, mais"
        " tout l'écart ({size:+d}) revient à la MR d'une réussite (lecture choisie).",
        "The DIFF never goes below 1: the SIZe changed it by {applied:+d} only, but the whole"
        " gap ({size:+d}) goes back to a success's MR (the reading chosen).",
    ),
    "pool.critical": T(
        "{successes} réussites, au moins le double de la DIFF {eff} ({double}) : réussite"
        " critique, MR {margin:+d}.",
        "{successes} successes, at least twice the DIFF {eff} ({double}): critical success,"
        " MR {margin:+d}.",
    ),
    "pool.success": T(
        "{successes} {successes|réussite|réussites} pour une DIFF de {eff} : réussite, MR"
        " {margin:+d}.",
        "{successes} {successes|success|successes} against a DIFF of {eff}: success, MR"
        " {margin:+d}.",
    ),
    "pool.failure": T(
        "{successes} {successes|réussite|réussites} pour une DIFF de {eff} : échec, MR"
        " {margin:+d} ; pas de fumble"
        " ({ones} « 1 »).",
        "{successes} {successes|success|successes} against a DIFF of {eff}: failure, MR"
        " {margin:+d}; no fumble"
        " ({ones} ones).",
    ),
    "pool.fumble_margin": T(
        "{successes} {successes|réussite|réussites} pour une DIFF de {eff} : MR {margin:+d}, -5"
        " ou pire, c'est un"
        " échec critique (fumble).",
        "{successes} {successes|success|successes} against a DIFF of {eff}: MR {margin:+d}, -5"
        " or worse, a fumble.",
    ),
    "pool.fumble_revised": T(
        "Échec avec {ones} « 1 », plus que la moitié des {count} dés et plus que les"
        " {successes} {successes|réussite|réussites} : échec critique (fumble), MR {margin:+d}.",
        "A failure with {ones} ones, more than half the {count} dice and more than the"
        " {successes} {successes|success|successes}: fumble, MR {margin:+d}.",
    ),
    "pool.fumble_classic": T(
        "Échec avec {ones} « 1 », plus que les {successes} {successes|réussite|réussites} :"
        " échec critique"
        " (fumble), MR {margin:+d}.",
        "A failure with {ones} ones, more than the {successes} {successes|success|successes}:"
        " fumble,"
        " MR {margin:+d}.",
    ),
    "pool.oppose": lambda lang, a: T(
        f"Opposition : {a['a']} {agree(a['a'], 'fr', 'réussite', 'réussites')} contre {a['b']},"
        f" {winner_text('fr', a['winner'])}.",
        f"Opposed roll: {a['a']} {agree(a['a'], 'en', 'success', 'successes')} against {a['b']},"
        f" {winner_text('en', a['winner'])}.",
    ).get(lang),
    # play: sources of augmentations and diminutions
    "sources.aspect_aug": T("Aspect {n} (Flamme claire) : {n} {n|augmentation|augmentations}.",
                            "Aspect {n} (light Flame): {n} {n|augmentation|augmentations}."),
    "sources.dark_aspect_dim": T("Aspect noir {n} (Flamme claire) : {n}"
                                 " {n|diminution|diminutions} pour le"
                                 " MJ.", "Dark aspect {n} (light Flame): {n}"
                                         " {n|diminution|diminutions} for"
                                 " the GM."),
    "sources.dark_aspect_aug": T("Aspect noir {n} (Flamme noire) : {n}"
                                 " {n|augmentation|augmentations}.",
                                 "Dark aspect {n} (black Flame): {n}"
                                 " {n|augmentation|augmentations}."),
    "sources.aspect_dim": T("Aspect {n} (Flamme noire) : {n} {n|diminution|diminutions}"
                            " pour le MJ.",
                            "Aspect {n} (black Flame): {n} {n|diminution|diminutions} for the GM."),
    "sources.specialty": T("Spécialité : 1 augmentation.", "Specialty: 1 augmentation."),
    "sources.rewards": T("{n|Récompense|Récompenses} du MJ : {n} {n|augmentation|augmentations}.",
                         "GM {n|reward|rewards}: {n} {n|augmentation|augmentations}."),
    "sources.plain_roll": T("Le joueur s'est contenté de lancer les dés : 1 diminution.",
                            "The player just rolled the dice: 1 diminution."),
    "sources.eclat": T("Présence d'éclat : {dice} {dice|dé|dés} de Flamme et {n}"
                       " {n|augmentation|augmentations}.",
                       "Éclat present: {dice} Flame {dice|die|dice} and {n}"
                       " {n|augmentation|augmentations}."),
}
