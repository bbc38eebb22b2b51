import assert from "node:assert/strict";
import { test } from "node:test";

import { engineCall } from "./helpers.js";
import { Briefs } from "../../web/js/widgets/briefs.js";
import { setLang } from "../../web/js/lib/i18n.js";

/** engineCall, counting the calls by op. */
function counted() {
  const asked = [];
  const call = (request) => {
    asked.push(request);
    return engineCall(request);
  };
  return { call, asked };
}

globalThis.document ??= { documentElement: {}, querySelectorAll: () => [], title: "" }; // setLang draws the page's static text

const heard = (briefs) => new Promise((resolve) => briefs.onChange(resolve));

test("what one drawing asks goes in one briefs call, and the engine's words come back", async () => {
  setLang("fr");
  const { call, asked } = counted();
  const briefs = new Briefs(call);
  const pool = { system: "pool", params: { pot: 7, diff: 5, placement: [1, 0, -1] } };
  const steps = { system: "steps", params: { die: 8, bonus: 1, weapons: [2, 3] } };
  const bad = { system: "pool", params: { pot: "many" } };
  const changed = heard(briefs);
  assert.equal(briefs.text(pool), ""); // asked, not known yet
  assert.equal(briefs.text(steps), "");
  assert.equal(briefs.text(bad), "");
  await changed;
  assert.equal(asked.length, 1);
  assert.deepEqual(asked[0].rolls, [pool, steps, bad]);
  assert.match(briefs.text(pool), /^POT 7 · DIFF 5.* · \[\+1 0 -1\]$/);
  // The steps line says the whole bonus the roll adds (1 + the best weapon, 3), as a sheet's button does.
  assert.match(briefs.text(steps), /Bonus \+4/);
  assert.doesNotMatch(briefs.text(steps), /Armes/);
  assert.equal(briefs.text(bad), ""); // refused: nothing to say, and not asked again
  setLang("en");
  assert.match(briefs.text(steps), /^Skill die: D8/);
  setLang("fr");
  assert.equal(asked.length, 1);
});

test("a roll's answer brief is remembered: no call for it", async () => {
  const { call, asked } = counted();
  const briefs = new Briefs(call);
  const item = { system: "d100", params: { value: 40 } };
  const answer = await engineCall({ op: "roll", system: "d100", params: { value: 40 }, seed: 3 });
  briefs.remember(item, answer.result.brief);
  assert.match(briefs.text(item), /40/);
  await briefs.ready([item]);
  assert.equal(asked.length, 0);
});

test("ready() waits for every brief; an engine that fails leaves the lines bare and quiet", async () => {
  const briefs = new Briefs(async () => {
    throw new Error("the worker is gone");
  });
  let told = 0;
  briefs.onChange(() => (told += 1));
  const item = { system: "d6", params: { attribute: 3, skill: 2 } };
  const warn = console.warn;
  console.warn = () => {};
  try {
    assert.equal(briefs.text(item), "");
    await briefs.ready([item]);
  } finally {
    console.warn = warn;
  }
  assert.equal(told, 0); // no redraw, so no new ask in a loop
  const { call } = counted();
  const working = new Briefs(call);
  await working.ready([item, { system: "steps", situation: { bonus: 2 } }]);
  assert.match(working.text(item), /3/);
  assert.equal(working.text({ system: "steps", situation: { bonus: 2 } }), "Bonus 2");
});
