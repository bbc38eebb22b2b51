// The interface language: the current language (stored), t() to translate a key, addStrings to
// register a screen's strings, applyStatic for the [data-i18n] attributes of the page, and the
// number and time formats. The strings themselves live in web/js/<screen>/strings.js (see
// docs/strings.md). Labels of systems, fields and outcomes are not
// strings here: they come from the engine's `systems` description.

import { storageGet, storageSet } from "./dom.js";
import { pageStore } from "./page-store.js";

export const LANGS = ["fr", "en"];
const STORAGE_KEY = "pyrules:lang";

// Filled by the screens' strings files (web/js/<screen>/strings.js), each calling addStrings
// once when it is first imported; this module holds no string of its own.
const STRINGS = { fr: {}, en: {} };

/**
 * The language to start in when none is stored: the first of the browser's preferred
 * languages that the app speaks (an English browser gets English), else French.
 */
export function browserLang(preferred = globalThis.navigator?.languages ?? [globalThis.navigator?.language]) {
  for (const tag of preferred ?? []) {
    const base = String(tag ?? "").toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "fr";
}

// A stored choice wins over the browser's languages.
const stored = storageGet(STORAGE_KEY, null);
// The language is the page store's `lang` slice: setLang writes it, onLangChange subscribes.
pageStore.set({ lang: LANGS.includes(stored) ? stored : browserLang() });

export function lang() {
  return pageStore.get("lang");
}

export function setLang(next) {
  if (!LANGS.includes(next) || next === lang()) {
    return;
  }
  storageSet(STORAGE_KEY, next);
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
  const table = STRINGS[lang()];
  const raw = key in table ? table[key] : STRINGS.fr[key];
  if (raw === undefined) {
    return key;
  }
  const template = typeset(raw, key in table ? lang() : "fr");
  const value = (name) => (name in vars ? String(vars[name]) : `{${name}}`);
  // {n|jet|jets}: the word that agrees with the number n, by the language's plural rules.
  const agreed = template.replace(/\{(\w+)\|([^|{}]*)\|([^|{}]*)\}/g, (_, name, one, other) => (pluralOne(vars[name]) ? one : other));
  // French elision: "de" before a value starting with a vowel reads "d’" ("Jet d’Aëlys").
  const elided = lang() === "fr" ? agreed.replace(/(^|[\s(«’'])([Dd])e \{(\w+)\}/g, (all, before, d, name) => (ELIDE.test(value(name)) ? `${before}${d}’{${name}}` : all)) : agreed;
  return elided.replace(/\{(\w+)\}/g, (_, name) => value(name));
}

const pluralRules = new Map();

/** Whether the number takes the singular in the current language (French: 0 and 1). */
export function pluralOne(n) {
  const number = Number(n);
  if (!Number.isFinite(number)) return false;
  let rules = pluralRules.get(lang());
  if (!rules) {
    rules = new Intl.PluralRules(lang());
    pluralRules.set(lang(), rules);
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
export function applyStatic(root) {
  document.documentElement.lang = lang();
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
