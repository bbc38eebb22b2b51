// Strings of the offline support (pwa.js): the offline badge and the update banner.
// Imported for its side effect by pwa.js: see docs/strings.md.

import { addStrings } from "../lib/i18n.js";

addStrings({
  fr: {
    "pwa.preparing": "Préparation hors ligne…",
    "pwa.preparingTitle": "L'application s'enregistre sur cet appareil pour marcher sans réseau.",
    "pwa.ready": "Prêt hors ligne",
    "pwa.readyTitle": "L'application est enregistrée sur cet appareil : elle s'ouvre et lance les dés sans réseau.",
    "pwa.offline": "Hors ligne",
    "pwa.offlineTitle": "Pas de réseau, et l'application n'est pas encore enregistrée sur cet appareil.",
    "pwa.offlineReady": "Hors ligne — prêt",
    "pwa.offlineReadyTitle": "Pas de réseau : tout marche quand même, l'application est enregistrée sur cet appareil.",
    "pwa.update": "Nouvelle version disponible",
    "pwa.updateButton": "Mettre à jour",
    "pwa.updating": "Mise à jour…",
    "pwa.later": "Plus tard",
    "pwa.updated": "Nouvelle version installée",
    "pwa.reload": "Recharger",
    "pwa.keep": "L'historique et les réglages sont conservés.",
    "pwa.quota": "Hors ligne impossible : {needed} nécessaires, {quota} permis",
    "pwa.quotaTitle": "Cet appareil ne laisse pas assez de place pour enregistrer l'application ({needed} nécessaires, {quota} permis). Elle marche en ligne ; libérez de la place pour l'avoir hors ligne.",
    "pwa.unknownSize": "pas assez",
    "pwa.mb": "{n} Mo",
  },
  en: {
    "pwa.preparing": "Preparing offline…",
    "pwa.preparingTitle": "The app is saving itself on this device to work without a network.",
    "pwa.ready": "Ready offline",
    "pwa.readyTitle": "The app is saved on this device: it opens and rolls dice without a network.",
    "pwa.offline": "Offline",
    "pwa.offlineTitle": "No network, and the app is not saved on this device yet.",
    "pwa.offlineReady": "Offline — ready",
    "pwa.offlineReadyTitle": "No network: everything still works, the app is saved on this device.",
    "pwa.update": "New version available",
    "pwa.updateButton": "Update",
    "pwa.updating": "Updating…",
    "pwa.later": "Later",
    "pwa.updated": "New version installed",
    "pwa.reload": "Reload",
    "pwa.keep": "History and settings are kept.",
    "pwa.quota": "Offline not possible: {needed} needed, {quota} allowed",
    "pwa.quotaTitle": "This device does not give the app enough room to save itself ({needed} needed, {quota} allowed). It works online; free some space to have it offline.",
    "pwa.unknownSize": "not enough",
    "pwa.mb": "{n} MB",
  },
});
