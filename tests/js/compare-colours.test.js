// « Comparer deux choix » (web/js/widgets/odds/compare.js): a difference is coloured by what it does
// for the roller, not by its sign: more chance of a success tier (or of success) helps, more
// chance of a failure tier hurts, and the other way round. Tiers and their `success` come
// from the engine's own description of the systems.
import assert from "node:assert/strict";
import { test } from "node:test";

import { systemsDescription } from "./helpers.js";

const { effect } = await import("../../web/js/widgets/odds/compare.js");

test("every tier of every system: up helps a success, hurts a failure; down the reverse", () => {
  let seen = 0;
  for (const system of systemsDescription().systems) {
    for (const outcome of system.outcomes) {
      const up = effect(outcome.success, 0.068);
      const down = effect(outcome.success, -0.068);
      assert.equal(up, outcome.success ? "helps" : "hurts", `${system.id} ${outcome.id} +`);
      assert.equal(down, outcome.success ? "hurts" : "helps", `${system.id} ${outcome.id} −`);
      seen += 1;
    }
  }
  assert.ok(seen > 10);
});

test("« Échec +6,8 pts » is red, « Chance de réussite −2 pts » too; no change is neither", () => {
  const d100 = systemsDescription().systems.find((s) => s.id === "d100");
  const failure = d100.outcomes.find((o) => !o.success);
  assert.equal(effect(failure.success, 0.068), "hurts");
  assert.equal(effect(true, -0.02), "hurts");
  assert.equal(effect(true, 0.02), "helps");
  for (const p of [0, -0, Number.NaN, undefined]) assert.equal(effect(true, p), "same");
});
