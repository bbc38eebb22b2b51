// The language a page starts in: one rule for js/engine/early.js, which sets <html lang>
// before the first style (a later change of it has the browser style the whole page again),
// and for lib/i18n.js, which draws the text. Imports nothing: early.js is built from it as a
// classic script.

export const LANGS = ["fr", "en"];
export const LANG_KEY = "pyrules:lang";

/**
 * The first of the browser's preferred languages that the app speaks (an English browser gets
 * English), else French.
 */
export function browserLang(preferred = globalThis.navigator?.languages ?? [globalThis.navigator?.language]) {
  for (const tag of preferred ?? []) {
    const base = String(tag ?? "").toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "fr";
}

/**
 * `stored`: the stored choice as read (null when there is none, or when it is not JSON). A
 * stored choice wins; one that is no language of the app reads as French, as lib/checks.js
 * keeps it; with none, the browser's languages decide.
 */
export function startLang(stored, preferred) {
  if (LANGS.includes(stored)) return stored;
  if (stored !== null && stored !== undefined) return "fr";
  return browserLang(preferred);
}
