// The interface language: the current language (stored), t() to translate a key, addStrings to
// register a screen's strings, applyStatic for the [data-i18n] attributes of the page, and the
// number and time formats. The strings themselves live in web/js/<screen>/strings.js (see
// docs/strings.md). Labels of systems, fields and outcomes are not
// strings here: they come from the engine's `systems` description.

import { storageGet, storageSet } from "./dom.js";
import { pageStore } from "./page-store.js";
import { browserLang, LANG_KEY, LANGS, startLang } from "./lang-choice.js";

export { browserLang, LANGS };

// Filled by the screens' strings files (web/js/<screen>/strings.js), each calling addStrings
// once when it is first imported; this module holds no string of its own.
const STRINGS = { fr: {}, en: {} };

// A stored choice wins over the browser's languages (lang-choice.js: js/engine/early.js has
// already set <html lang> by the same rule). The language is the page store's `lang` slice:
// setLang writes it, onLangChange subscribes.
pageStore.set({ lang: startLang(storageGet(LANG_KEY, null)) });

export function lang() {
  return pageStore.get("lang");
}

export function setLang(next) {
  if (!LANGS.includes(next) || next === lang()) {
    return;
  }
  storageSet(LANG_KEY, next);
  pageStore.set({ lang: next }); // the page's static text first: subscribed before any other
}

pageStore.subscribe(["lang"], () => applyStatic(document));

/** `listener(lang)` after each change of the language. */
export function onLangChange(listener) {
  pageStore.subscribe(["lang"], () => listener(lang()));
}

const FRENCH_SPACE = / ([:;!?»])|(«) /g;

/**
 * `text` with the typography of the current language: in French, the space before « : ; ! ? »
 * and the ones inside guillemets are no-break (U+00A0), so a mark never wraps alone.
 */
export function typeset(text, language = lang()) {
  if (language !== "fr" || !text.includes(" ")) return text;
  return text.replace(FRENCH_SPACE, (_, mark, open) => (mark ? `\u00a0${mark}` : `${open}\u00a0`));
}

/** "label : text" in French, "label: text" in English. */
export function colon() {
  return lang() === "fr" ? "\u00a0: " : ": ";
}

/** Translate an interface string; {name} placeholders are replaced from vars. */
export function t(key, vars = {}) {
  return textIn(lang(), key, vars);
}

/** t() in the given language, whatever the page's (the build writes index.html's French text). */
export function textIn(language, key, vars = {}) {
  const table = STRINGS[language];
  const raw = key in table ? table[key] : STRINGS.fr[key];
  if (raw === undefined) {
    return key;
  }
  const template = typeset(raw, key in table ? language : "fr");
  const value = (name) => (name in vars ? String(vars[name]) : `{${name}}`);
  // {n|jet|jets}: the word that agrees with the number n, by the language's plural rules.
  const agreed = template.replace(/\{(\w+)\|([^|{}]*)\|([^|{}]*)\}/g, (_, name, one, other) => (pluralOne(vars[name], language) ? one : other));
  // French elision: "de" before a value starting with a vowel reads "d’" ("Jet d’Aëlys").
  const elided = language === "fr" ? agreed.replace(/(^|[\s(«’'])([Dd])e \{(\w+)\}/g, (all, before, d, name) => (ELIDE.test(value(name)) ? `${before}${d}’{${name}}` : all)) : agreed;
  return elided.replace(/\{(\w+)\}/g, (_, name) => value(name));
}

const pluralRules = new Map();

/** Whether the number takes the singular in the language (French: 0 and 1). */
export function pluralOne(n, language = lang()) {
  const number = Number(n);
  if (!Number.isFinite(number)) return false;
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return rules.select(Math.abs(number)) === "one";
}

/** A word that takes "d’" rather than "de" in French: a vowel first (a silent h is not guessed). */
const ELIDE = /^[aeiouyàâäéèêëîïôöùûüœæ]/i;

const added = []; // every table given to addStrings, for the key parity tests (tests/js)

/** Add a module's own strings ({fr: {...}, en: {...}}) to the tables t() reads. */
export function addStrings(tables) {
  added.push(tables);
  for (const code of LANGS) Object.assign(STRINGS[code], tables[code] || {});
}

/** Every table given to addStrings so far, as given ({fr, en} each), in the order given. */
export function catalogues() {
  return [...added];
}

/** An interface string in every language, as {fr, en} (for field descriptors). */
export function both(key) {
  return Object.fromEntries(LANGS.map((code) => [code, STRINGS[code][key] ?? STRINGS.fr[key] ?? key]));
}

/** Pick the current language from a {fr, en} object given by the engine. */
export function pick(labels) {
  if (labels === null || labels === undefined) {
    return "";
  }
  if (typeof labels === "string") {
    return labels;
  }
  return labels[lang()] ?? labels.fr ?? Object.values(labels)[0] ?? "";
}

/** Fill every [data-i18n] element (text) and [data-i18n-<attr>] attribute in root. */
// Only what differs is written: the built index.html already holds the French text (the
// build writes it in), and a write, even of the same text, has the browser lay the page out
// again while the engine starts (WebKit relays the engine's downloads through this thread).
export function applyStatic(root) {
  if (document.documentElement.lang !== lang()) document.documentElement.lang = lang();
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const text = t(node.dataset.i18n);
    if (node.textContent !== text) node.textContent = text;
  }
  for (const attr of ["aria-label", "title", "placeholder"]) {
    const dataKey = "i18n" + attr.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase());
    for (const node of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      const text = t(node.dataset[dataKey]);
      if (node.getAttribute(attr) !== text) node.setAttribute(attr, text);
    }
  }
  const title = `${t("app.title")} · ${t("app.tagline")}`;
  if (document.title !== title) document.title = title;
}

// Building an Intl.NumberFormat is slow (tens of milliseconds for the first one of a page):
// each language and set of options gets one, kept for the life of the page.
const numberFormats = new Map();

export function formatNumber(value, options) {
  const key = `${lang()} ${JSON.stringify(options ?? {})}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang(), options);
    numberFormats.set(key, format);
  }
  return format.format(value);
}

export function formatSigned(value) {
  if (value === null || value === undefined) {
    return "—";
  }
  return value > 0 ? `+${value}` : value < 0 ? `−${Math.abs(value)}` : "0";
}

export function formatTime(iso) {
  const date = new Date(iso);
  return new Intl.DateTimeFormat(lang(), { dateStyle: "short", timeStyle: "short" }).format(date);
}
