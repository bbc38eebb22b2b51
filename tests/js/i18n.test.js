import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import { catalogues, LANGS } from "../../web/js/lib/i18n.js";

// Every catalogue of the page: the screens' strings files (web/js/<screen>/strings.js and
// the like) and any module that still calls addStrings itself. Found by reading the sources,
// so a new strings file is checked without being listed here.
const WEB = fileURLToPath(new URL("../../web/", import.meta.url));
const JS = path.join(WEB, "js");

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(path.join(dir, d.name)) : d.name.endsWith(".js") ? [path.join(dir, d.name)] : []));
}

const SOURCES = new Map(walk(JS).map((file) => [path.relative(JS, file).split(path.sep).join("/"), fs.readFileSync(file, "utf-8")]));
const HTML = fs.readFileSync(path.join(WEB, "index.html"), "utf-8");
const CATALOGUE_FILES = [...SOURCES].filter(([name, text]) => name !== "lib/i18n.js" && /\baddStrings\(/.test(text)).map(([name]) => name).sort();
for (const name of CATALOGUE_FILES) await import(pathToFileURL(path.join(JS, name)).href);
const TABLES = catalogues();

/** Every key of every catalogue, in each language: {fr: Map(key -> text), en: ...}. */
const ALL = Object.fromEntries(LANGS.map((code) => [code, new Map(TABLES.flatMap((table) => Object.entries(table[code] || {})))]));
const definedIn = (key) => CATALOGUE_FILES.filter((name) => SOURCES.get(name).includes(`"${key}":`));

test("the strings live in the screens' files, i18n.js keeps the machinery only", () => {
  assert.ok(CATALOGUE_FILES.filter((name) => name.endsWith("/strings.js")).length >= 6, CATALOGUE_FILES.join(" "));
  assert.ok(ALL.fr.size > 400, `${ALL.fr.size} keys`);
  assert.doesNotMatch(SOURCES.get("lib/i18n.js"), /^\s+"[\w.]+": "/m);
  assert.ok(SOURCES.get("lib/i18n.js").split("\n").length < 200);
});

test("French and English have the same keys, catalogue by catalogue", () => {
  assert.equal(TABLES.length, CATALOGUE_FILES.length, "one addStrings call per catalogue file");
  for (const table of TABLES) {
    const [fr, en] = LANGS.map((code) => Object.keys(table[code] || {}).sort());
    assert.deepEqual(en, fr);
  }
});

test("no key is defined twice, across files or inside one", () => {
  const seen = new Map();
  for (const table of TABLES) {
    for (const key of Object.keys(table.fr)) {
      assert.ok(!seen.has(key), `"${key}" is defined twice: ${definedIn(key).join(", ")}`);
      seen.set(key, table);
    }
  }
  // Inside one object literal a repeated key silently wins: count the written keys.
  for (const name of CATALOGUE_FILES) {
    const counts = new Map();
    const blocks = [...SOURCES.get(name).matchAll(/addStrings\(\{[\s\S]*?\n\}\);/g)].join("\n");
    for (const [, key] of blocks.matchAll(/"([^"\n]+)"\s*:/g)) counts.set(key, (counts.get(key) || 0) + 1);
    for (const [key, n] of counts) assert.ok(n <= LANGS.length, `${name}: "${key}" written ${n} times`);
  }
});

test("every {placeholder} of a French string is in its English one", () => {
  const names = (text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const [key, text] of ALL.fr) assert.deepEqual(names(ALL.en.get(key)), names(text), key);
});

test("no string is empty", () => {
  for (const code of LANGS) for (const [key, text] of ALL[code]) assert.ok(String(text).trim(), `${code} ${key}`);
});

// Keys built at run time from a template (t(`prefix${...}`)): each prefix is listed here, with
// where its endings come from; the test below fails on a template whose prefix is not listed.
const DYNAMIC = {
  "boot.step.": "main.js: each step of the engine start",
  "combat.hint.": "combat.js: one per kind of action (the engine's combat kinds)",
  "combat.kind.": "combat.js: one per kind of action (the engine's combat kinds)",
  "compare.effect.": "compare.js: a difference that helps or hurts the roller",
  "compare.higher.": "compare.js: free dice, who rolls higher (b, a, tie)",
  "csv.": "history.js: one per CSV column",
  "dice.colour.": "dice-settings.js: one per dice colour (DICE_COLOURS)",
  "dice.mode.": "dice-settings.js: one per animation mode",
  "dice.size.": "dice-settings.js: one per dice size (SIZES)",
  "die.kind.": "result.js: one per kind of die in the engine's answer",
  "die.tag.": "result.js: one per tag of a die in the engine's answer",
  "fair.verdict.": "fairness.js: one per verdict of the fairness test",
  "history.filter.": "history.js: one per filter of the history (FILTERS)",
  "history.kind.": "history-entry.js: one per kind of combat entry",
  "history.status.": "history-entry.js: one per verdict of a shared table roll",
  "odds.versus.": "odds.js: actor, opponent, tie",
  "pwa.": "pwa.js: the offline badge's states (and their titles) and the update banner",
  "result.": "result.js: one per number of a result worth showing (NUMBERS)",
  "result.extreme.": "result.js: high or low extreme die",
  "sources.unit.": "sources.js: one per unit of an augmentation source",
  "what.": "notices.js: what a storage key holds (unknown keys fall back to what.other)",
};

/** [module, key] for every key a module names literally: t("…"), t(a ? "…" : "…"), {key: "…"}. */
function literalKeys() {
  const prefixes = new Set([...ALL.fr.keys()].map((key) => key.split(".")[0]));
  const found = [];
  for (const [name, text] of SOURCES) {
    if (name.endsWith("strings.js")) continue;
    for (const [, key] of text.matchAll(/(?<![\w.$])t\(\s*"([^"]+)"/g)) found.push([name, key]);
    // Any other string that reads like a key of a known family ("import.json" in {key: …}).
    for (const [, key] of text.matchAll(/"([a-z][A-Za-z]*\.[\w.:-]*\w)"/g)) if (prefixes.has(key.split(".")[0])) found.push([name, key]);
  }
  for (const [, key] of HTML.matchAll(/data-i18n(?:-[\w-]+)?="([^"]+)"/g)) found.push(["index.html", key]);
  return [...new Set(found.map((pair) => pair.join(" ")))].map((pair) => pair.split(" "));
}

test("every key the page names literally exists in French and in English", () => {
  const used = literalKeys();
  assert.ok(used.length > 300, `${used.length} uses found`);
  const missing = used.filter(([, key]) => !LANGS.every((code) => ALL[code].has(key)));
  assert.deepEqual(missing, []);
});

test("every key built from a template has a listed prefix with keys in both languages", () => {
  const templates = [];
  for (const [name, text] of SOURCES) for (const [, prefix] of text.matchAll(/(?<![\w.$])t\(`([^`$]*)\$\{/g)) templates.push([name, prefix]);
  assert.ok(templates.length >= 10);
  for (const [name, prefix] of templates) {
    assert.ok(prefix in DYNAMIC, `${name}: t(\`${prefix}\${…}\`) is not in DYNAMIC`);
    for (const code of LANGS) assert.ok([...ALL[code].keys()].some((key) => key.startsWith(prefix)), `${code}: no key starts with ${prefix}`);
  }
});

/** The files a module imports, directly or not (static imports only). */
function closure(start) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name) || !SOURCES.has(name)) return;
    seen.add(name);
    for (const [, spec] of SOURCES.get(name).matchAll(/^\s*(?:import|export)\s+(?:[^"';]*?\sfrom\s+)?"(\.[^"]+)"/gm)) {
      visit(path.posix.normalize(path.posix.join(path.posix.dirname(name), spec)));
    }
  };
  visit(start);
  return seen;
}

test("a module that translates a key imports the file that defines it (registered before use)", () => {
  // i18n.js's own keys (page title) are main.js's to load.
  const translating = [...SOURCES].filter(([name, text]) => name !== "lib/i18n.js" && /import\s*\{[^}]*\bt\b[^}]*\}\s*from\s*"[^"]*i18n\.js"/.test(text)).map(([name]) => name);
  assert.ok(translating.length >= 15);
  const problems = [];
  for (const [name, key] of literalKeys()) {
    if (!translating.includes(name)) continue;
    const files = definedIn(key);
    const reach = closure(name);
    if (!files.some((file) => reach.has(file))) problems.push(`${name} shows "${key}" but imports none of ${files.join(", ") || "(nowhere)"}`);
  }
  assert.deepEqual(problems, []);
});

test("no lazy plural « (s) » in any string table, in either language", () => {
  for (const tables of catalogues()) {
    for (const code of LANGS) {
      for (const [key, text] of Object.entries(tables[code] || {})) {
        assert.doesNotMatch(text, /\w\((s|es|x)\)/, `${code} ${key}: ${text}`);
      }
    }
  }
});

test("French typography: every French string reads with no-break spaces inside guillemets and before : ; ! ?", async () => {
  const { typeset } = await import("../../web/js/lib/i18n.js");
  let checked = 0;
  for (const tables of catalogues()) {
    for (const [key, text] of Object.entries(tables.fr || {})) {
      assert.doesNotMatch(typeset(text, "fr"), / [:;!?»]|« /, `fr ${key}: ${text}`);
      checked += 1;
    }
    for (const [key, text] of Object.entries(tables.en || {})) {
      assert.doesNotMatch(text, /[«»]/, `en ${key}: ${text}`); // English quotes its own way
    }
  }
  assert.ok(checked > 300, checked);
  assert.equal(typeset("Dés : « 3 » ; encore ! non ?", "fr"), "Dés\u00a0: «\u00a03\u00a0»\u00a0; encore\u00a0! non\u00a0?");
  assert.equal(typeset("Dice: « 3 »", "en"), "Dice: « 3 »");
});

test("t() gives French strings their no-break spaces, the values as they are", async () => {
  const { addStrings, setLang, t } = await import("../../web/js/lib/i18n.js");
  globalThis.document ??= { documentElement: {}, querySelectorAll: () => [], title: "" };
  addStrings({ fr: { "test.typo": "{name} : « {what} »" }, en: { "test.typo": "{name}: “{what}”" } });
  setLang("fr");
  assert.equal(t("test.typo", { name: "Aldo !", what: "x" }), "Aldo !\u00a0: «\u00a0x\u00a0»");
  setLang("en");
  assert.equal(t("test.typo", { name: "Aldo", what: "x" }), "Aldo: “x”");
  setLang("fr");
});

test("a word agrees with its number: French 0 and 1 singular, English 1 alone", async () => {
  const { addStrings, setLang, t } = await import("../../web/js/lib/i18n.js");
  globalThis.document ??= { documentElement: {}, querySelectorAll: () => [], title: "" };
  addStrings({ fr: { "test.rolls": "{n} {n|jet|jets}" }, en: { "test.rolls": "{n} {n|roll|rolls}" } });
  setLang("fr");
  assert.deepEqual([0, 1, 2, 10].map((n) => t("test.rolls", { n })), ["0 jet", "1 jet", "2 jets", "10 jets"]);
  setLang("en");
  assert.deepEqual([0, 1, 2].map((n) => t("test.rolls", { n })), ["0 rolls", "1 roll", "2 rolls"]);
  setLang("fr");
});

test("an English browser starts in English, a French or any other one in French", async () => {
  const { browserLang } = await import("../../web/js/lib/i18n.js");
  assert.equal(browserLang(["en-US", "en"]), "en");
  assert.equal(browserLang(["fr-CA"]), "fr");
  assert.equal(browserLang(["de-DE", "en-GB"]), "en"); // the first the app speaks
  assert.equal(browserLang(["de-DE"]), "fr");
  assert.equal(browserLang([]), "fr");
  assert.equal(browserLang([undefined]), "fr");
});
