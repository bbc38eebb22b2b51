// The roll screen's own strings (saved expressions, issue 23). Most of the roll screen's
// words are shared with other screens: web/js/widgets/strings.js and web/js/ui/strings.js.

import { addStrings } from "../lib/i18n.js";

addStrings({
  fr: {
    "roll.fair.noForm": "Le formulaire « Lancer » n’est pas encore prêt.",
    "roll.fair.formErrors": "Le formulaire « Lancer » contient une erreur : corrigez-la d’abord.",
    "saved.title": "Expressions enregistrées",
    "saved.empty": "Aucune expression enregistrée. Donnez un nom à l’expression ci-dessus pour la relancer d’un geste.",
    "saved.name": "Nom de l’expression",
    "saved.namePlaceholder": "Attaque du gobelin",
    "saved.save": "Enregistrer l’expression",
    "saved.saved": "« {name} » enregistrée.",
    "saved.noName": "Donnez un nom à l’expression.",
    "saved.notStored": "L’expression n’a pas pu être enregistrée sur cet appareil (stockage plein ou indisponible).",
    "saved.rollLabel": "Lancer « {name} » : {expression}",
    "saved.delete": "Supprimer « {name} »",
    "saved.deleted": "« {name} » supprimée.",
    "saved.full": "{max} expressions au plus : supprimez-en une avant d’en enregistrer une autre.",
  },
  en: {
    "roll.fair.noForm": "The Roll form is not ready yet.",
    "roll.fair.formErrors": "The Roll form has an error: fix it first.",
    "saved.title": "Saved expressions",
    "saved.empty": "No saved expression yet. Name the expression above to roll it again with one tap.",
    "saved.name": "Expression name",
    "saved.namePlaceholder": "Goblin attack",
    "saved.save": "Save the expression",
    "saved.saved": "“{name}” saved.",
    "saved.noName": "Give the expression a name.",
    "saved.notStored": "The expression could not be saved on this device (storage full or unavailable).",
    "saved.rollLabel": "Roll “{name}”: {expression}",
    "saved.delete": "Delete “{name}”",
    "saved.deleted": "“{name}” deleted.",
    "saved.full": "At most {max} expressions: delete one before saving another.",
  },
});
