import assert from "node:assert/strict";
import { test } from "node:test";

import { CHECKS, isCharacter, isFight, isHistoryEntry, isParams, paramsFit, withoutFaces } from "../../web/js/lib/checks.js";
import { system, systemsDescription } from "./helpers.js";

const TRAP = { toString: null };
const entry = (changes = {}) => ({
  id: "h-1",
  time: "2026-01-01T10:00:00.000Z",
  system: "d100",
  mode: "roll",
  params: { value: 50, level: null, modifier: 0 },
  outcome: "success",
  margin: 3,
  seed: 5,
  physical: false,
  ...changes,
});

test("the engine's own description passes the systems check", () => {
  const verdict = CHECKS["pyrules:systems"](systemsDescription());
  assert.equal(verdict.ok, true);
});

test("a systems cache whose choices is a string is refused", () => {
  const description = systemsDescription();
  const field = description.systems.flatMap((s) => s.fields).find((f) => f.choices);
  field.choices = "revised";
  assert.equal(CHECKS["pyrules:systems"](description).ok, false);
});

test("a systems cache whose label hides an object is refused", () => {
  const description = systemsDescription();
  description.systems[0].fields[0].label = { fr: TRAP };
  assert.equal(CHECKS["pyrules:systems"](description).ok, false);
  const other = systemsDescription();
  other.systems[1].outcomes[0].label = TRAP;
  assert.equal(CHECKS["pyrules:systems"](other).ok, false);
});

test("a history entry with plain params passes", () => {
  assert.equal(isHistoryEntry(entry()), true);
  assert.equal(isHistoryEntry(entry({ params: { dice: [3, 4], placement: [1] } })), true);
});

test("free-dice entries pass with a null outcome and margin (a sum), and old ones still pass", () => {
  // The engine's notation answer (docs/api.md): a sum has outcome and margin null.
  const sum = entry({ system: "notation", params: { expression: "3d6", grammar: 2 }, outcome: null, margin: null, kind: "sum", headline: 14 });
  assert.equal(isHistoryEntry(sum), true);
  assert.equal(isHistoryEntry({ ...sum, kind: "count", outcome: "success", headline: 2 }), true);
  // Stored before `kind`: outcome "total", the total as margin, no grammar.
  assert.equal(isHistoryEntry(entry({ system: "notation", params: { expression: "3d6" }, outcome: "total", margin: 11 })), true);
  assert.equal(isHistoryEntry({ ...sum, headline: "14" }), false);
  assert.equal(isHistoryEntry({ ...sum, kind: { toString: null } }), false);
  const verdict = CHECKS["pyrules:history"]([sum, entry()]);
  assert.equal(verdict.ok, true);
});

test("a history entry whose params hold {toString: null} is refused", () => {
  assert.equal(isHistoryEntry(entry({ params: { value: TRAP } })), false);
});

test("a history entry with nested arrays in its params is refused", () => {
  assert.equal(isHistoryEntry(entry({ params: { value: [[1]] } })), false);
});

test("the history check keeps the good entries and says what it dropped", () => {
  const verdict = CHECKS["pyrules:history"]([entry(), entry({ id: "h-2", params: { value: TRAP } })]);
  assert.equal(verdict.ok, false);
  assert.deepEqual(verdict.value.map((e) => e.id), ["h-1"]);
});

test("params fit their system only with its own fields and types", () => {
  const d100 = system("d100");
  assert.equal(paramsFit(d100, { value: 50, modifier: -10 }), true);
  assert.equal(paramsFit(d100, { pot: 3 }), false); // a pool field
  assert.equal(paramsFit(d100, { value: [50] }), false); // a list where a number goes
  const steps = system("steps");
  assert.equal(paramsFit(steps, { die: 8, dice: [8] }), true);
  assert.equal(paramsFit(steps, { die: 8, dice: "8" }), true);
});

test("isParams refuses long lists and long texts", () => {
  assert.equal(isParams({ dice: new Array(401).fill(1) }), false);
  assert.equal(isParams({ modifiers: "x".repeat(401) }), false);
  assert.equal(isParams({ modifiers: "+1DF" }), true);
});

test("withoutFaces drops the faces fields only", () => {
  assert.deepEqual(withoutFaces(system("steps"), { die: 8, dice: [8], bonus: 1 }), { die: 8, bonus: 1 });
});

test("the form state check keeps scalar values and drops a trap", () => {
  const verdict = CHECKS["pyrules:state"]({ system: "pool", values: { pool: { actor: { pot: 6 }, opponent: { pot: TRAP } } } });
  assert.equal(verdict.ok, false);
  assert.deepEqual(verdict.value.values.pool, { actor: { pot: 6 } });
});

test("a shared table's marks on a stored roll are checked; the history's filter is one of three", () => {
  const marked = (table) => entry({ who: { id: "p1", name: "Aïcha" }, table });
  assert.equal(isHistoryEntry(marked({ from: "p1", status: "yes", colour: "red" })), true);
  assert.equal(isHistoryEntry(marked({ from: "p1", status: "no", diff: ["result.margin: 2 ≠ 3"] })), true);
  for (const junk of [[], "p1", { from: 1, status: "yes" }, { from: "p1" }, { from: "p1", status: "no", diff: "x" }, { from: "p1", status: "no", diff: Array(9).fill("x") }, { from: "p1", status: "yes", colour: TRAP }]) {
    assert.equal(isHistoryEntry(marked(junk)), false, JSON.stringify(junk));
  }
  const filter = CHECKS["pyrules:history-filter"];
  for (const name of ["all", "mine", "table"]) assert.deepEqual(filter(name), { ok: true, value: name });
  for (const junk of ["toString", null, 3, ["mine"]]) assert.deepEqual(filter(junk), { ok: false, value: "all" });
});
