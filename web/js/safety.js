// Strings and the notice of the safe start (issue 14): when something stored passed the
// checks but threw while the page was drawn, the roll screen starts with its defaults and
// the notice of data set aside says so (with the download of what was stored).

import { addStrings } from "./i18n.js";
import { setAside } from "./storage.js";

addStrings({
  fr: {
    "engine.unserialisable": "La requête ne peut pas s’écrire en JSON ({detail}) : rien n’a été envoyé.",
    "engine.tooDeep": "La requête imbrique plus de {max} tableaux ou objets : elle n’est pas lue.",
    "what.start": "une donnée enregistrée qui empêchait l’affichage (l’application a démarré avec le formulaire par défaut)",
  },
  en: {
    "engine.unserialisable": "The request cannot be written as JSON ({detail}); nothing was sent.",
    "engine.tooDeep": "The request nests more than {max} arrays or objects: it is not read.",
    "what.start": "stored data that kept the page from drawing (the app started with the default form)",
  },
});

/** Report the safe start: the form state it replaces is copied aside, with the error. */
export function safeStartNotice(state, error) {
  let copy;
  try {
    copy = JSON.parse(JSON.stringify(state));
  } catch {
    copy = null;
  }
  setAside("pyrules:state", { state: copy, error: String((error && error.message) || error) }, "start");
}
