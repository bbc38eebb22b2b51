import assert from "node:assert/strict";
import { test } from "node:test";

import { CHECKS } from "../../web/js/lib/checks.js";
import { startLang } from "../../web/js/lib/lang-choice.js";

// early.js (run as a classic script before the first style) and i18n.js (which draws the text)
// start the page in one language by one rule: stored choice, else the browser's languages.

test("a stored choice wins, a damaged one reads as French, none leaves it to the browser", () => {
  assert.equal(startLang("en", ["fr-FR"]), "en");
  assert.equal(startLang("fr", ["en-US"]), "fr");
  assert.equal(startLang(null, ["en-US"]), "en");
  assert.equal(startLang(undefined, ["de-DE", "en-GB"]), "en");
  assert.equal(startLang(null, ["de-DE"]), "fr");
  assert.equal(startLang(42, ["en-US"]), "fr");
  assert.equal(startLang("de", ["en-US"]), "fr");
});

// What early.js sets, run as the page runs it (its import resolved by Node), in a page whose
// storage holds `raw` (null: nothing; a throwing storage: switched off).
async function earlyLang(raw, languages, run) {
  const element = {};
  globalThis.document = { documentElement: element, currentScript: { src: "http://x/js/engine/early.js" } };
  globalThis.localStorage = {
    getItem: () => {
      if (raw instanceof Error) throw raw;
      return raw;
    },
  };
  Object.defineProperty(globalThis, "navigator", { value: { languages }, configurable: true });
  await import(`../../web/js/engine/early.js?run=${run}`);
  return element.lang;
}

test("early.js starts the page in the language i18n.js will draw", async () => {
  const cases = [
    ['"en"', ["fr-FR"]],
    ['"fr"', ["en-US"]],
    [null, ["en-US"]],
    [null, ["fr-CA"]],
    [null, ["de-DE"]],
    ["not json", ["en-US"]],
    ["42", ["en-US"]],
    [new Error("storage switched off"), ["en-GB"]],
  ];
  let run = 0;
  for (const [raw, languages] of cases) {
    // i18n.js: the stored value as lib/storage.js reads it (JSON, then lib/checks.js's check;
    // not JSON or no storage: none), then the same rule.
    let stored = null;
    if (typeof raw === "string") {
      let value;
      try {
        value = JSON.parse(raw);
      } catch {
        value = null;
      }
      if (value !== null) stored = CHECKS["pyrules:lang"](value).value ?? null;
    }
    const expected = startLang(stored, languages);
    assert.equal(await earlyLang(raw, languages, run++), expected, `${raw} ${languages}`);
  }
});
