// All interface strings, French first. Labels of systems, fields and outcomes are not
// here: they come from the engine's `systems` description.

import { storageGet, storageSet } from "./dom.js";

export const LANGS = ["fr", "en"];
const STORAGE_KEY = "pyrules:lang";

const STRINGS = {
  fr: {
    "app.title": "pyrules",
    "app.tagline": "Lanceur de dés pour jeux de rôle",
    "lang.label": "Langue",
    "lang.fr": "Français",
    "lang.en": "English",
    "boot.title": "Démarrage du moteur",
    "boot.step.worker": "Lancement du moteur",
    "boot.step.version": "Lecture de la version",
    "boot.step.runtime": "Téléchargement de Python",
    "boot.step.python": "Démarrage de Python",
    "boot.step.micropip": "Installation de micropip",
    "boot.step.pyrules": "Installation des règles pyrules",
    "boot.step.systems": "Lecture des systèmes de jeu",
    "boot.step.ready": "Prêt",
    "boot.megabytes": "{loaded} / {total} Mo",
    "boot.failed": "Le moteur n’a pas pu démarrer.",
    "boot.failedStep": "Étape en échec : {step}.",
    "boot.retry": "Réessayer",
    "boot.ready": "Moteur prêt",
    "boot.loadingHint": "moteur en chargement…",
    "boot.offlineHint": "Une fois chargé, le lanceur fonctionne hors ligne.",
    "system.legend": "Système de jeu",
    "mode.legend": "Type de jet",
    "mode.single": "Jet simple",
    "mode.oppose": "Opposition",
    "physical.label": "Dés physiques",
    "physical.help": "Lancez vos propres dés et saisissez les faces obtenues.",
    "physical.facesHelp": "Faces séparées par des virgules ou des espaces, par exemple 1, 6, 3.",
    "physical.group": "{label} ({count} × d{sides})",
    "physical.groupAny": "{label} ({count} dés)",
    "form.advanced": "Options avancées",
    "form.actor": "Acteur",
    "form.opponent": "Adversaire",
    "form.decrease": "Diminuer : {label}",
    "form.increase": "Augmenter : {label}",
    "form.none": "aucun",
    "form.required": "Valeur requise.",
    "form.integer": "Nombre entier attendu.",
    "form.facesRequired": "Saisissez les faces des dés.",
    "form.loading": "Chargement des formulaires…",
    "roll.button": "Lancer",
    "roll.opposeButton": "Lancer l’opposition",
    "roll.rolling": "Lancer en cours…",
    "roll.error": "Le jet n’a pas pu être fait : {message}",
    "result.title": "Résultat",
    "result.empty": "Choisissez vos réglages puis touchez « Lancer ».",
    "result.margin": "Marge",
    "result.seed": "Graine",
    "result.physical": "dés physiques",
    "result.skip": "Touchez ou appuyez sur une touche pour passer l’animation.",
    "result.explanation": "Détail du calcul",
    "result.dice": "Dés",
    "result.successes": "Réussites",
    "result.effective_diff": "DIFF effective",
    "result.ones": "Nombre de 1",
    "result.total": "Total",
    "result.threshold": "Seuil supérieur",
    "result.impact": "Impact",
    "result.value": "Valeur",
    "result.target": "Cible",
    "result.die_rolled": "Dé lancé",
    "result.extreme": "Dé extrême",
    "result.damage": "Dégâts",
    "result.ardeurLoss": "Perte d’Ardeur du perdant",
    "result.extreme.high": "haut",
    "result.extreme.low": "bas",
    "result.announce": "{outcome}, marge {margin}.",
    "result.winnerActor": "L’acteur l’emporte",
    "result.winnerOpponent": "L’adversaire l’emporte",
    "result.tie": "Égalité",
    "result.announceOppose": "{winner}, marge {margin}.",
    "result.winnerOutcome": "Résultat du vainqueur",
    "result.winnerImpact": "Impact du vainqueur",
    "result.rerolls": "Relances après égalité",
    "result.reroll": "Relance {n} : acteur {actor}, adversaire {opponent}",
    "die.success": "{n} R",
    "die.face": "{n}",
    "die.tag.one": "un 1",
    "die.tag.kept": "gardé",
    "die.tag.dropped": "écarté",
    "die.tag.extreme_high": "extrême haut",
    "die.tag.extreme_low": "extrême bas",
    "die.kind.normal": "dé",
    "die.kind.flame": "dé de Flamme",
    "die.kind.black_flame": "dé de Flamme noire",
    "die.describe": "{kind} d{sides} : {face}",
    "die.tensUnits": "dizaines {tens}, unités {units}",
    "placement.title": "Placement sur les dés de Flamme",
    "placement.help": "Touchez + ou − sous un dé de Flamme pour y placer une augmentation ou une diminution.",
    "placement.plus": "Augmentation sur le dé de Flamme {n}",
    "placement.minus": "Diminution sur le dé de Flamme {n}",
    "placement.optimal": "Placement optimal",
    "placement.left": "Augmentations restantes : {aug} · diminutions restantes : {dim}",
    "odds.title": "Probabilités",
    "odds.hint": "Chances exactes de chaque résultat avec ces réglages.",
    "odds.success": "Chance de réussite",
    "odds.unavailable": "Les probabilités s’afficheront dès que le moteur sera prêt.",
    "odds.opposeHint": "En opposition, les probabilités de chaque camp s’affichent séparément.",
    "history.title": "Historique",
    "history.empty": "Aucun jet pour l’instant.",
    "history.clear": "Effacer",
    "history.exportJson": "Exporter JSON",
    "history.exportCsv": "Exporter CSV",
    "history.confirmTitle": "Effacer l’historique ?",
    "history.confirmText": "Tous les jets enregistrés sur cet appareil seront supprimés.",
    "history.confirm": "Effacer",
    "history.cancel": "Annuler",
    "history.replay": "Rejouer",
    "history.replayLabel": "Rejouer le jet du {time}",
    "history.opposed": "{actor} contre {opponent}",
    "history.count": "{n} jet(s)",
    "csv.time": "heure",
    "csv.system": "systeme",
    "csv.mode": "mode",
    "csv.params": "parametres",
    "csv.outcome": "resultat",
    "csv.margin": "marge",
    "csv.seed": "graine",
    "csv.physical": "des_physiques",
    "footer.privacy": "Tout se passe dans votre navigateur : aucune donnée ne quitte cet appareil.",
    "footer.version": "Moteur {version}",
  },
  en: {
    "app.title": "pyrules",
    "app.tagline": "Dice roller for role-playing games",
    "lang.label": "Language",
    "lang.fr": "Français",
    "lang.en": "English",
    "boot.title": "Starting the engine",
    "boot.step.worker": "Starting the engine",
    "boot.step.version": "Reading the version",
    "boot.step.runtime": "Downloading Python",
    "boot.step.python": "Starting Python",
    "boot.step.micropip": "Installing micropip",
    "boot.step.pyrules": "Installing the pyrules rules",
    "boot.step.systems": "Reading the game systems",
    "boot.step.ready": "Ready",
    "boot.megabytes": "{loaded} / {total} MB",
    "boot.failed": "The engine could not start.",
    "boot.failedStep": "Failed step: {step}.",
    "boot.retry": "Retry",
    "boot.ready": "Engine ready",
    "boot.loadingHint": "engine loading…",
    "boot.offlineHint": "Once loaded, the roller works offline.",
    "system.legend": "Game system",
    "mode.legend": "Kind of roll",
    "mode.single": "Single roll",
    "mode.oppose": "Opposed roll",
    "physical.label": "Physical dice",
    "physical.help": "Roll your own dice and type the faces you got.",
    "physical.facesHelp": "Faces separated by commas or spaces, for example 1, 6, 3.",
    "physical.group": "{label} ({count} × d{sides})",
    "physical.groupAny": "{label} ({count} dice)",
    "form.advanced": "Advanced options",
    "form.actor": "Actor",
    "form.opponent": "Opponent",
    "form.decrease": "Decrease: {label}",
    "form.increase": "Increase: {label}",
    "form.none": "none",
    "form.required": "A value is required.",
    "form.integer": "A whole number is expected.",
    "form.facesRequired": "Type the faces of the dice.",
    "form.loading": "Loading the forms…",
    "roll.button": "Roll",
    "roll.opposeButton": "Roll the opposition",
    "roll.rolling": "Rolling…",
    "roll.error": "The roll could not be made: {message}",
    "result.title": "Result",
    "result.empty": "Pick your settings, then tap “Roll”.",
    "result.margin": "Margin",
    "result.seed": "Seed",
    "result.physical": "physical dice",
    "result.skip": "Tap or press a key to skip the animation.",
    "result.explanation": "How it was worked out",
    "result.dice": "Dice",
    "result.successes": "Successes",
    "result.effective_diff": "Effective DIFF",
    "result.ones": "Ones",
    "result.total": "Total",
    "result.threshold": "Superior threshold",
    "result.impact": "Impact",
    "result.value": "Value",
    "result.target": "Target",
    "result.die_rolled": "Die rolled",
    "result.extreme": "Extreme die",
    "result.damage": "Damage",
    "result.ardeurLoss": "Loser’s Ardour loss",
    "result.extreme.high": "high",
    "result.extreme.low": "low",
    "result.announce": "{outcome}, margin {margin}.",
    "result.winnerActor": "The actor wins",
    "result.winnerOpponent": "The opponent wins",
    "result.tie": "Tie",
    "result.announceOppose": "{winner}, margin {margin}.",
    "result.winnerOutcome": "Winner’s result",
    "result.winnerImpact": "Winner’s impact",
    "result.rerolls": "Rerolls after a tie",
    "result.reroll": "Reroll {n}: actor {actor}, opponent {opponent}",
    "die.success": "{n} S",
    "die.face": "{n}",
    "die.tag.one": "a one",
    "die.tag.kept": "kept",
    "die.tag.dropped": "dropped",
    "die.tag.extreme_high": "extreme high",
    "die.tag.extreme_low": "extreme low",
    "die.kind.normal": "die",
    "die.kind.flame": "Flame die",
    "die.kind.black_flame": "Black Flame die",
    "die.describe": "{kind} d{sides}: {face}",
    "die.tensUnits": "tens {tens}, units {units}",
    "placement.title": "Placement on the Flame dice",
    "placement.help": "Tap + or − under a Flame die to put an augmentation or a diminution on it.",
    "placement.plus": "Augmentation on Flame die {n}",
    "placement.minus": "Diminution on Flame die {n}",
    "placement.optimal": "Optimal placement",
    "placement.left": "Augmentations left: {aug} · diminutions left: {dim}",
    "odds.title": "Odds",
    "odds.hint": "Exact chance of each result with these settings.",
    "odds.success": "Chance of success",
    "odds.unavailable": "The odds will show as soon as the engine is ready.",
    "odds.opposeHint": "In an opposed roll, each side’s odds are shown separately.",
    "history.title": "History",
    "history.empty": "No roll yet.",
    "history.clear": "Clear",
    "history.exportJson": "Export JSON",
    "history.exportCsv": "Export CSV",
    "history.confirmTitle": "Clear the history?",
    "history.confirmText": "Every roll saved on this device will be deleted.",
    "history.confirm": "Clear",
    "history.cancel": "Cancel",
    "history.replay": "Replay",
    "history.replayLabel": "Replay the roll of {time}",
    "history.opposed": "{actor} versus {opponent}",
    "history.count": "{n} roll(s)",
    "csv.time": "time",
    "csv.system": "system",
    "csv.mode": "mode",
    "csv.params": "params",
    "csv.outcome": "outcome",
    "csv.margin": "margin",
    "csv.seed": "seed",
    "csv.physical": "physical",
    "footer.privacy": "Everything happens in your browser: no data leaves this device.",
    "footer.version": "Engine {version}",
  },
};

let current = LANGS.includes(storageGet(STORAGE_KEY, "fr")) ? storageGet(STORAGE_KEY, "fr") : "fr";
const listeners = new Set();

export function lang() {
  return current;
}

export function setLang(next) {
  if (!LANGS.includes(next) || next === current) {
    return;
  }
  current = next;
  storageSet(STORAGE_KEY, next);
  applyStatic(document);
  for (const listener of listeners) {
    listener(next);
  }
}

export function onLangChange(listener) {
  listeners.add(listener);
}

/** Translate an interface string; {name} placeholders are replaced from vars. */
export function t(key, vars = {}) {
  const table = STRINGS[current];
  const template = key in table ? table[key] : STRINGS.fr[key];
  if (template === undefined) {
    return key;
  }
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

/** Pick the current language from a {fr, en} object given by the engine. */
export function pick(labels) {
  if (labels === null || labels === undefined) {
    return "";
  }
  if (typeof labels === "string") {
    return labels;
  }
  return labels[current] ?? labels.fr ?? Object.values(labels)[0] ?? "";
}

/** Fill every [data-i18n] element (text) and [data-i18n-<attr>] attribute in root. */
export function applyStatic(root) {
  document.documentElement.lang = current;
  for (const node of root.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.dataset.i18n);
  }
  for (const attr of ["aria-label", "title", "placeholder"]) {
    const dataKey = "i18n" + attr.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase());
    for (const node of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      node.setAttribute(attr, t(node.dataset[dataKey]));
    }
  }
  document.title = `${t("app.title")} · ${t("app.tagline")}`;
}

export function formatNumber(value, options) {
  return new Intl.NumberFormat(current, options).format(value);
}

export function formatSigned(value) {
  if (value === null || value === undefined) {
    return "—";
  }
  return value > 0 ? `+${value}` : value < 0 ? `−${Math.abs(value)}` : "0";
}

export function formatTime(iso) {
  const date = new Date(iso);
  return new Intl.DateTimeFormat(current, { dateStyle: "short", timeStyle: "short" }).format(date);
}
