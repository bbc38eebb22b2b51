"""Bilingual text: labels (:class:`Text`) and the message catalogue for errors.

French comes first; English is always available. Nothing here does any maths.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

LANGS = ("fr", "en")


#: French typography: a no-break space inside guillemets and before « : ; ! ? ».
_FRENCH_SPACE = re.compile(r" ([:;!?»])|(«) ")
NBSP = "\u00a0"


def typeset(text: str, lang: str) -> str:
    """``text`` with the typography of ``lang``: in French, the space before « : ; ! ? »
    and the ones inside guillemets are no-break, so « gardés » never wraps apart."""
    if lang == "en" or " " not in text:
        return text
    return _FRENCH_SPACE.sub(lambda m: f"{NBSP}{m[1]}" if m[1] else f"{m[2]}{NBSP}", text)


@dataclass(frozen=True)
class Text:
    fr: str
    en: str

    def get(self, lang: str) -> str:
        return self.en if lang == "en" else typeset(self.fr, "fr")

    def as_dict(self) -> dict[str, str]:
        return {"fr": typeset(self.fr, "fr"), "en": self.en}


#: An explanation template: a bilingual text with ``{placeholders}``, or a function of the
#: language and the line's arguments (for wording that depends on the values).
Template = Text | Callable[[str, dict[str, Any]], str]


def winner_text(lang: str, winner: str) -> str:
    """Who won an opposition, in words (shared by every system's templates)."""
    return {
        "actor": Text("l'acteur l'emporte", "the actor wins"),
        "opponent": Text("l'opposant l'emporte", "the opponent wins"),
        "tie": Text("égalité", "tie"),
    }[winner].get(lang)


def number_text(n: int) -> str:
    """A number as the headline writes it: digits, a real minus sign below zero."""
    return f"\u2212{-n}" if n < 0 else str(n)


#: What a headline number is (:meth:`pyrules.core.System.headline_kind`), in words: a total,
#: successes (French keeps 0 and 1 singular), or the number alone (a d100's roll).
def headline_words(kind: str, n: int, lang: str, spoken: bool = False) -> str:
    """``spoken``: as a screen reader says it, the number first (« 12 au total »)."""
    shown = number_text(n)
    if kind == "total" and spoken:
        return f"{shown} au total" if lang == "fr" else f"{shown} in total"
    if kind == "total":
        return f"Total {shown}"
    if kind == "successes":
        if lang == "en":
            return f"{shown} success" if n == 1 else f"{shown} successes"
        return f"{shown} réussite" if abs(n) < 2 else f"{shown} réussites"
    return shown


#: Two sides' headlines side by side (an opposition, a combat action).
VERSUS = Text("{a} contre {b}", "{a} vs {b}")


#: ``{name|one|other}`` in a template: the word that agrees with the number ``name``.
PLURAL = re.compile(r"\{(\w+)\|([^|{}]*)\|([^|{}]*)\}")


def is_one(n: Any, lang: str) -> bool:
    """Whether ``n`` takes the singular: French 0 and 1 (and -1), English 1 alone."""
    try:
        value = abs(float(n))
    except (TypeError, ValueError):
        return False
    return value < 2 if lang == "fr" else value == 1


def agree(n: Any, lang: str, one: str, other: str) -> str:
    """The word that agrees with ``n`` in ``lang`` (for templates written as functions)."""
    return one if is_one(n, lang) else other


def fill(text: str, lang: str, args: dict[str, Any]) -> str:
    """``text`` with its plural words agreeing (``{n|jet|jets}``), then its placeholders."""
    agreed = PLURAL.sub(lambda m: m.group(2) if is_one(args.get(m.group(1)), lang)
                        else m.group(3), text)
    return agreed.format(**args)


def render(template: Text, lang: str, **args: Any) -> str:
    """Fill ``template`` in ``lang``; any :class:`Text` argument is rendered in ``lang`` too."""
    clean = {k: (v.get(lang) if isinstance(v, Text) else v) for k, v in args.items()}
    return fill(template.get(lang), lang, clean)


ERRORS: dict[str, Text] = {
    "invalid_json": Text(
        "La requête n'est pas du JSON valide : {detail}.",
        "The request is not valid JSON: {detail}.",
    ),
    "too_deep": Text(
        "La requête imbrique plus de {max} tableaux ou objets : elle n'est pas lue.",
        "The request nests more than {max} arrays or objects: it is not read.",
    ),
    "faces_in_sheet": Text(
        "Des faces de dés ne peuvent venir que des dés physiques lancés pour ce jet "
        "(sans graine, toutes les faces saisies) : ces paramètres en contiennent.",
        "Dice faces can only come from physical dice thrown for this roll "
        "(no seed, every face typed): these parameters hold some.",
    ),
    "not_request": Text(
        "La requête doit être un objet JSON.", "The request must be a JSON object."
    ),
    "unknown_op": Text(
        "Opération inconnue « {op} ». Opérations possibles : {ops}.",
        "Unknown operation '{op}'. Possible operations: {ops}.",
    ),
    "validate_nested": Text(
        "« validate » vérifie la requête d'une autre opération, pas une autre validation.",
        "'validate' checks another operation's request, not another validation.",
    ),
    "unknown_system": Text(
        "Système inconnu « {system} ». Systèmes possibles : {systems}.",
        "Unknown system '{system}'. Possible systems: {systems}.",
    ),
    "not_object": Text(
        "Les paramètres doivent être un objet JSON.", "The parameters must be a JSON object."
    ),
    "unknown_field": Text(
        "Paramètre inconnu « {name} ».", "Unknown parameter '{name}'."
    ),
    "not_int": Text(
        "« {label} » doit être un nombre entier.", "'{label}' must be a whole number."
    ),
    "out_of_range": Text(
        "« {label} » doit être compris entre {min} et {max}.",
        "'{label}' must be between {min} and {max}.",
    ),
    "not_bool": Text("« {label} » doit valoir vrai ou faux.", "'{label}' must be true or false."),
    "not_choice": Text(
        "« {label} » doit être l'une de ces valeurs : {choices}.",
        "'{label}' must be one of: {choices}.",
    ),
    "seat_taken": Text(
        "« Places prises » doit être un nombre entier de 0 à {max}.",
        "'Seats taken' must be a whole number from 0 to {max}.",
    ),
    "table_full": Text(
        "La table est pleine : {max} joueurs au plus. Un joueur parti libère sa place.",
        "The table is full: {max} players at most. A player who left frees their seat.",
    ),
    "not_text": Text("« {label} » doit être un texte.", "'{label}' must be text."),
    "too_long": Text(
        "« {label} » est trop long ({max} caractères au plus).",
        "'{label}' is too long (at most {max} characters).",
    ),
    "not_faces": Text(
        "« {label} » doit être une liste de nombres entiers, par exemple 1, 6, 3.",
        "'{label}' must be a list of whole numbers, for example 1, 6, 3.",
    ),
    "too_many_faces": Text(
        "« {label} » : {max} valeurs au plus.", "'{label}': at most {max} values."
    ),
    "face_out_of_range": Text(
        "« {label} » : chaque valeur doit être comprise entre {min} et {max}.",
        "'{label}': each value must be between {min} and {max}.",
    ),
    "face_count": Text(
        "« {label} » : il faut exactement {count} {count|dé|dés} à {sides} faces, {given}"
        " {given|donné|donnés}.",
        "'{label}': exactly {count} {sides}-sided dice are needed, {given} given.",
    ),
    "face_sides": Text(
        "« {label} » : un d{sides} n'a pas de face {face} (ses faces vont de {low} à {high}).",
        "'{label}': a d{sides} has no face {face} (its faces go from {low} to {high}).",
    ),
    "bad_modifiers": Text(
        "Modificateurs illisibles « {text} ». Notation attendue : +2D, +1DF, +2 (augmentations),"
        " -1 (diminutions), par exemple +1D+1DF+2.",
        "Unreadable modifiers '{text}'. Expected notation: +2D, +1DF, +2 (augmentations),"
        " -1 (diminutions), for example +1D+1DF+2.",
    ),
    "modifiers_range": Text(
        "Modificateurs trop grands : {what} doit rester entre {min} et {max}.",
        "Modifiers too large: {what} must stay between {min} and {max}.",
    ),
    "placement_count": Text(
        "Le placement doit donner une valeur par dé de Flamme ({count}), {given}"
        " {given|donnée|données}.",
        "The placement must give one value per Flame die ({count}), {given} given.",
    ),
    "placement_on_one": Text(
        "Un 1 ne peut être ni augmenté ni diminué (dé de Flamme n° {index}).",
        "A 1 can be neither raised nor lowered (Flame die #{index}).",
    ),
    "placement_bounds": Text(
        "Un dé de Flamme reste entre 2 et 6 : le dé n° {index} ({face}) ne peut pas devenir"
        " {final}.",
        "A Flame die stays between 2 and 6: die #{index} ({face}) cannot become {final}.",
    ),
    "placement_budget": Text(
        "Placement impossible : {used} {what} {used|placée|placées} pour {available}"
        " {available|disponible|disponibles}.",
        "Impossible placement: {used} {what} placed but only {available} available.",
    ),
    "seed": Text(
        "La graine doit être un entier entre 0 et 2^53 - 1.",
        "The seed must be a whole number between 0 and 2^53 - 1.",
    ),
    "lang": Text("La langue doit être « fr » ou « en ».", "The language must be 'fr' or 'en'."),
    "missing": Text("« {name} » est obligatoire.", "'{name}' is required."),
    "no_oppose": Text(
        "Ce système n'a pas de jet en opposition.", "This system has no opposed roll."
    ),
    "no_effort_left": Text(
        "Plus d'effort exceptionnel aujourd'hui ({flame} par jour) : il faut une nuit de repos.",
        "No exceptional effort left today ({flame} per day): a night's rest is needed.",
    ),
    "margins": Text(
        "« margins » doit être une liste d'au plus 1000 marges entières.",
        "'margins' must be a list of at most 1000 whole margins.",
    ),
    "fairness_n": Text(
        "« n » doit être un nombre de lancers entre 1 et {max}.",
        "'n' must be a number of rolls between 1 and {max}.",
    ),
    "fairness_previous": Text(
        "« previous » doit associer des issues du système à des nombres de lancers.",
        "'previous' must map the system's outcomes to numbers of rolls.",
    ),
    "notation_empty": Text(
        "« {label} » est vide : écrire des dés, par exemple 3d6.",
        "'{label}' is empty: write some dice, for example 3d6.",
    ),
    "notation_no_dice": Text(
        "« {label} » ne lance aucun dé : il faut au moins un groupe comme 2d6.",
        "'{label}' rolls no dice: at least one group such as 2d6 is needed.",
    ),
    "notation_zero_sides": Text(
        "« {label} » : un dé doit avoir au moins une face (d0 n'existe pas).",
        "'{label}': a die needs at least one side (there is no d0).",
    ),
    "notation_zero_dice": Text(
        "« {label} » : un groupe doit lancer au moins un dé (0d6 ne lance rien).",
        "'{label}': a group must roll at least one die (0d6 rolls nothing).",
    ),
    "notation_too_many": Text(
        "« {label} » : {max} dés au plus en tout.", "'{label}': at most {max} dice in all."
    ),
    "notation_sides": Text(
        "« {label} » : {max} faces au plus par dé.", "'{label}': at most {max} sides per die."
    ),
    "notation_groups": Text(
        "« {label} » : {max} groupes de dés au plus.", "'{label}': at most {max} groups of dice."
    ),
    "notation_constant": Text(
        "« {label} » : les nombres ne dépassent pas {max}.",
        "'{label}': numbers go up to {max}.",
    ),
    "notation_keep": Text(
        "« {label} » : on ne peut garder ou écarter qu'entre 1 et {count} {count|dé|dés} de ce"
        " groupe"
        " (et il doit en rester un).",
        "'{label}': keep or drop between 1 and {count} dice of that group (one must remain).",
    ),
    "notation_keep_equal": Text(
        "« {label} » : garder des dés puis compter ceux égaux à une valeur n'est pas pris en"
        " charge ; utiliser >=, >, <= ou <.",
        "'{label}': keeping dice and then counting those equal to a value is not supported;"
        " use >=, >, <= or <.",
    ),
    "notation_twice": Text(
        "« {label} » : un groupe de dés ne prend chaque modificateur (kh, kl, dh, dl, !, r"
        " ou ro, mi, ma, comparaison, f) qu'une fois.",
        "'{label}': a group of dice takes each modifier (kh, kl, dh, dl, !, r or ro, mi, ma,"
        " comparison, f) only once.",
    ),
    "notation_explode": Text(
        "« {label} » : un dé à une seule face ne peut pas exploser.",
        "'{label}': a one-sided die cannot explode.",
    ),
    "notation_trailing": Text(
        "« {label} » est incomplète : elle finit par un opérateur ou un modificateur sans"
        " valeur.",
        "'{label}' is incomplete: it ends with an operator or a modifier without a value.",
    ),
    "notation_syntax": Text(
        "« {label} » illisible à la position {column} (« {char} »). Exemples : 3d6, 4d6kh3,"
        " 2d10+3, 4dF.",
        "'{label}' cannot be read at position {column} ('{char}'). Examples: 3d6, 4d6kh3,"
        " 2d10+3, 4dF.",
    ),
    "notation_too_costly": Text(
        "« {label} » : ses chances exactes demanderaient trop de calcul pour une tablette"
        " (plus d'une seconde) ; le jet, lui, se lance. Pour ses chances : moins de dés ou"
        " de faces, ou moins de dés gardés.",
        "'{label}': its exact odds would take too much work for a tablet (over a second);"
        " the roll itself still rolls. For its odds: fewer dice or sides, or fewer kept dice.",
    ),
    "notation_faces_missing": Text(
        "« {label} » : il manque des dés ({given} {given|donné|donnés}) ; noter chaque dé lancé,"
        " relances"
        " et explosions comprises.",
        "'{label}': dice are missing ({given} given); enter every die thrown, rerolls and"
        " explosions included.",
    ),
    "notation_faces_extra": Text(
        "« {label} » : {given} dés donnés, ce jet n'en lance que {used}.",
        "'{label}': {given} dice given, this roll only throws {used}.",
    ),
    # -- free dice, grammar 2 (pyrules/systems/notation/grammar.py) --------------------------
    "notation_keep_mix": Text(
        "« {label} » : un groupe garde (kh ou kl) ou écarte (dh, dl, ou les deux), pas les"
        " deux à la fois.",
        "'{label}': a group keeps (kh or kl) or drops (dh, dl, or both), not both at once.",
    ),
    "notation_reroll_all": Text(
        "« {label} » : « r » relance tant que le dé montre une face visée, et elle les vise"
        " toutes : le dé ne s'arrêterait jamais. Utiliser « ro » (une seule relance) ou une"
        " autre comparaison.",
        "'{label}': 'r' rerolls while the die shows a face it matches, and it matches them"
        " all: the die would never stop. Use 'ro' (reroll once) or another comparison.",
    ),
    "notation_clamp": Text(
        "« {label} » : le minimum (mi) dépasse le maximum (ma).",
        "'{label}': the minimum (mi) is above the maximum (ma).",
    ),
    "notation_failure_alone": Text(
        "« {label} » : « f » compte des échecs contre des réussites ; il faut d'abord une"
        " comparaison de réussite, par ex. 4d6>=5f1.",
        "'{label}': 'f' counts failures against successes; a success comparison comes first,"
        " e.g. 4d6>=5f1.",
    ),
    "notation_divide_zero": Text(
        "« {label} » : le diviseur peut valoir 0 ; diviser par un nombre ou des dés qui ne"
        " font jamais 0.",
        "'{label}': the divisor can be 0; divide by a number or dice that never make 0.",
    ),
    "fight_state": Text(
        "État du combat invalide : {what}.",
        "Invalid fight state: {what}.",
    ),
    "internal": Text(
        "Erreur interne inattendue : {detail}.", "Unexpected internal error: {detail}."
    ),
}

# -- issue 21 (engine helper): known dice, characters and sheets -----------------------------
ERRORS.update({
    "cli_pair": Text("attendu key=value (clé=valeur), reçu {pair}",
                     "expected key=value, got {pair}"),
    "character_object": Text("« {what} » doit être un objet JSON.",
                             "'{what}' must be a JSON object."),
    "character_id": Text("Un identifiant est un texte d'au plus {max} caractères.",
                         "An id is a text of at most {max} characters."),
    "character_name": Text("Le nom est obligatoire ({max} caractères au plus).",
                           "The name is required (at most {max} characters)."),
    "character_label": Text("Chaque compétence a un nom ({max} caractères au plus).",
                            "Each skill has a name (at most {max} characters)."),
    "character_entries": Text("Les compétences sont une liste ({max} au plus).",
                              "The skills are a list (at most {max})."),
    "briefs_list": Text("« rolls » est une liste de jets.", "'rolls' is a list of rolls."),
    "characters_list": Text("« characters » est une liste d'au plus {max} personnages.",
                            "'characters' is a list of at most {max} characters."),
    "sheet_system": Text("Cette fiche est du système « {sheet} », pas « {system} ».",
                         "This sheet is of the system '{sheet}', not '{system}'."),
    "sheet_entry": Text("Aucune compétence « {entry} » sur cette fiche.",
                        "No skill '{entry}' on this sheet."),
    "fight_fighter": Text("Aucun participant « {id} » dans ce combat.",
                          "No participant '{id}' in this fight."),
    "fight_same": Text("On n'agit pas contre soi-même : choisir un autre participant.",
                       "One does not act against oneself: pick another participant."),
    "fight_out": Text("Qui agit est hors de combat (Ardeur à 0 ou moins) : il ne peut plus agir.",
                      "The one acting is out of the fight (Ardeur at 0 or below): they can no"
                      " longer act."),
    "fight_skill": Text("La compétence choisie doit être l'une des {count} du participant.",
                        "The chosen skill must be one of the participant's {count}."),
    "fight_ranged": Text("Un tir ne fait lancer que le tireur : la cible ne lance rien.",
                         "A shot is rolled by the shooter alone: the target rolls nothing."),
    "placement_needs_dice": Text(
        "Un placement sur les dés de Flamme ne vaut que pour des dés connus : donner la graine"
        " du jet ou les faces lancées.",
        "A placement on the Flame dice only applies to known dice: give the roll's seed or the"
        " faces thrown.",
    ),
})

WORDS: dict[str, Text] = {
    "augmentations": Text("augmentation", "augmentation"),
    "diminutions": Text("diminution", "diminution"),
}


def message(key: str, lang: str, **args: Any) -> str:
    return render(ERRORS[key], lang, **args)
