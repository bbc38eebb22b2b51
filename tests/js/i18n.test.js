import assert from "node:assert/strict";
import { test } from "node:test";

// Every module that adds its own strings and can be imported without a page.
import "../../web/js/characters.js";
import "../../web/js/fairness.js";
import "../../web/js/history.js";
import "../../web/js/notices.js";
import "../../web/js/safety.js";
import "../../web/js/roll/strings.js";
import { catalogues, LANGS } from "../../web/js/i18n.js";

test("French and English have the same keys, catalogue by catalogue", () => {
  const tables = catalogues();
  assert.ok(tables.length >= 6);
  for (const table of tables) {
    const [fr, en] = LANGS.map((code) => Object.keys(table[code] || {}).sort());
    assert.deepEqual(en, fr);
  }
});

test("every {placeholder} of a French string is in its English one", () => {
  const [all] = catalogues();
  const names = (text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const key of Object.keys(all.fr)) assert.deepEqual(names(all.en[key]), names(all.fr[key]), key);
});

test("no string is empty", () => {
  const [all] = catalogues();
  for (const code of LANGS) for (const [key, text] of Object.entries(all[code])) assert.ok(String(text).trim(), `${code} ${key}`);
});
