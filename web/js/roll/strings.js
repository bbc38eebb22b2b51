// The roll screen's own strings (see i18n.js addStrings): imported for its side effect.

import { addStrings } from "../i18n.js";

addStrings({
  fr: {
    "odds.pending": "calcul…",
    "odds.cancel": "Annuler",
    "odds.incomplete": "Remplissez les champs pour voir les probabilités.",
    "odds.cancelled": "Calcul annulé : les probabilités affichées sont les précédentes.",
    "engine.unavailable": "le moteur ne répond pas (il redémarre) ; rien n’a été enregistré, réessayez.",
  },
  en: {
    "odds.pending": "computing…",
    "odds.cancel": "Cancel",
    "odds.incomplete": "Fill in the fields to see the odds.",
    "odds.cancelled": "Computation cancelled: the odds shown are the previous ones.",
    "engine.unavailable": "the engine is not answering (it is restarting); nothing was recorded, try again.",
  },
});
