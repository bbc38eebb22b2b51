"""Explanation templates of the ``pool`` system (document 000): the roll, and the
sources of augmentations and diminutions.

The system records *what* happened (:class:`pyrules.core.Line`, a key and numbers);
these templates say it in French and English. No rule is decided here.
"""

from __future__ import annotations

from typing import Any

from ...i18n import Template, winner_text
from ...i18n import Text as T


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



TEMPLATES: dict[str, Template] = {
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
        f"Opposition : {a['a']} réussite(s) contre {a['b']}, {winner_text('fr', a['winner'])}.",
        f"Opposed roll: {a['a']} success(es) against {a['b']}, {winner_text('en', a['winner'])}.",
    ).get(lang),
    # table play: sources of augmentations and diminutions
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
}
