// Session statistics of free dice (web/js/gm/stats.js): a sum or a count has no tiers, so it
// is never a critical nor a fumble, old entries (outcome "total", the total as margin) neither;
// its luck is the one its answer carried.

import assert from "node:assert/strict";
import test from "node:test";

import { sessionRolls, summarizeRolls } from "../../web/js/gm/stats.js";
import { entryHeadline } from "../../web/js/widgets/entry.js";
import { systemsDescription } from "./helpers.js";

const base = { id: "e", time: "2026-01-01T10:00:00.000Z", mode: "roll", seed: 3, physical: false };

test("free dice count as rolls with their luck, never as criticals or fumbles", () => {
  const { systems } = systemsDescription();
  const entries = [
    { ...base, system: "notation", params: { expression: "3d6", grammar: 2 }, outcome: null, margin: null, kind: "sum", headline: 14, luck: 0.8 },
    { ...base, system: "notation", params: { expression: "5d10>=8", grammar: 2 }, outcome: "failure", margin: null, kind: "count", headline: 0, luck: 0.1 },
    { ...base, system: "notation", params: { expression: "3d6" }, outcome: "total", margin: 11, luck: 0.5 },
  ];
  const { total } = summarizeRolls(sessionRolls(entries, null), systems);
  assert.equal(total.rolls, 3);
  assert.equal(total.critical, 0);
  assert.equal(total.fumble, 0);
  assert.ok(Math.abs(total.luck - (0.8 + 0.1 + 0.5) / 3) < 1e-12);
  // The same outcome ids on a tiered system still count (d100's best tier is a critical).
  const d100 = systems.find((s) => s.id === "d100");
  const best = { ...base, system: "d100", params: {}, outcome: d100.outcomes[0].id, margin: 50 };
  assert.equal(summarizeRolls(sessionRolls([best], null), systems).total.critical, 1);
});

test("the headline of an entry: the answer's, or the total an old entry kept as margin", () => {
  assert.deepEqual(entryHeadline({ mode: "roll", kind: "sum", headline: 14, outcome: null }), { kind: "sum", value: 14 });
  assert.deepEqual(entryHeadline({ mode: "roll", kind: "count", headline: 2, outcome: "success" }), { kind: "count", value: 2 });
  assert.deepEqual(entryHeadline({ mode: "roll", outcome: "total", margin: 11 }), { kind: "sum", value: 11 });
  assert.equal(entryHeadline({ mode: "roll", outcome: "success", margin: 3 }), null);
  assert.equal(entryHeadline({ mode: "oppose", outcome: "actor", margin: 2 }), null);
});
