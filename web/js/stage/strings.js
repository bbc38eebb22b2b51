// Strings of the roll stage (the dice animation overlay).
// Imported for its side effect by every module that shows one of them: see
// docs/strings.md.

import { addStrings } from "../lib/i18n.js";

addStrings({
  fr: {
    // stage.js
    "stage.label": "Lancer de dés",
    "stage.close": "Fermer",
    "stage.details": "Détails",
    "stage.soundOn": "Son des dés : activé",
    "stage.soundOff": "Son des dés : coupé",
    "stage.versus": "{a} contre {b}",
  },
  en: {
    // stage.js
    "stage.label": "Dice roll",
    "stage.close": "Close",
    "stage.details": "Details",
    "stage.soundOn": "Dice sound: on",
    "stage.soundOff": "Dice sound: muted",
    "stage.versus": "{a} vs {b}",
  },
});
