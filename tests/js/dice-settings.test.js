// The dice settings read back from storage (web/js/ui/dice-settings.js): what was saved comes
// back as it was; anything else (another type, an unknown value, a prototype trick, not an
// object at all) takes the default for that setting and never stops the app.
import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeStorage } from "./helpers.js";

globalThis.window = { localStorage: new FakeStorage() };
globalThis.localStorage = globalThis.window.localStorage;
const { DEFAULTS, DICE_COLOURS, SIZES, readPrefs } = await import("../../web/js/ui/dice-settings.js");

test("every valid set of settings round-trips through JSON", () => {
  for (const mode of ["3d", "2d", "none"])
    for (const colour of Object.keys(DICE_COLOURS))
      for (const size of SIZES)
        for (const flag of [true, false]) {
          const saved = { mode, sound: flag, colour, size, awake: !flag };
          assert.deepEqual(readPrefs(JSON.parse(JSON.stringify(readPrefs(saved)))), saved);
        }
});

test("untrusted values fall back to the defaults, one setting at a time", () => {
  const bad = [null, 7, "3d", [], { mode: "4d" }, { sound: "yes" }, { colour: "toString" }, { colour: "__proto__" }, { size: "huge" }, { awake: 1 }, JSON.parse('{"__proto__": {"mode": "2d"}}'), Object.create({ mode: "2d" })];
  for (const stored of bad) assert.deepEqual(readPrefs(stored), { ...DEFAULTS }, JSON.stringify(stored));
  assert.deepEqual(readPrefs({ mode: "none", colour: "teal", size: "large" }), { ...DEFAULTS, mode: "none", size: "large" });
});

test("the screen stays awake by default, the sound is off, the dice ivory and medium", () => {
  assert.deepEqual({ ...DEFAULTS }, { mode: "3d", sound: false, colour: "ivory", size: "medium", awake: true });
});
