// Saved free-dice expressions (web/js/lib/expressions.js): what is saved is what the engine's
// `validate` answers (asked of pyrules itself), and the export part is read defensively.

import assert from "node:assert/strict";
import test from "node:test";

import { checkedExpression, expressionRequest, importedExpressions, mergeExpressions } from "../../web/js/lib/expressions.js";
import { engineCall } from "./helpers.js";

test("an expression is saved as the engine reads it, with the grammar it echoes", async () => {
  const { item, error } = await checkedExpression(engineCall, { name: "  Attaque du gobelin ", expression: "1d20+4" }, "fr");
  assert.equal(error, undefined);
  assert.equal(item.name, "Attaque du gobelin");
  assert.equal(item.expression, "1d20+4");
  assert.equal(item.grammar, 2);
  assert.ok(item.id);
  assert.deepEqual(expressionRequest(item, "en"), { op: "roll", system: "notation", params: { expression: "1d20+4", grammar: 2 }, lang: "en" });
});

test("an expression the engine refuses is not saved, and its message names the field", async () => {
  const { item, error } = await checkedExpression(engineCall, { name: "Cassée", expression: "1d20+" }, "en");
  assert.equal(item, undefined);
  assert.equal(error.field, "expression");
  const direct = await engineCall({ op: "roll", system: "notation", params: { expression: "1d20+" }, lang: "en" });
  assert.equal(error.message, direct.error.message);
  // Whatever the engine's roll refuses (here a divisor that can be 0), saving refuses with the same words.
  const zero = await checkedExpression(engineCall, { name: "Zéro", expression: "1d6/(1d2-1)" }, "en");
  const rolled = await engineCall({ op: "roll", system: "notation", params: { expression: "1d6/(1d2-1)" }, seed: 1, lang: "en" });
  assert.equal(rolled.ok, false);
  assert.equal(zero.item, undefined);
  assert.equal(zero.error.message, rolled.error.message);
  // And what it rolls, however costly its odds, is saved (issue 41: a roll never needs its odds).
  const big = await checkedExpression(engineCall, { name: "Big", expression: "50d100" }, "en");
  assert.equal(big.error, undefined);
  assert.equal(big.item.expression, "50d100");
});

test("the export part: absent is none, a wrong shape is refused, ids never collide", () => {
  assert.deepEqual(importedExpressions({ format: "pyrules-characters", characters: [] }), { list: [] });
  assert.deepEqual(importedExpressions([]), { list: [] });
  assert.equal(importedExpressions({ expressions: "1d20" }).error, true);
  assert.equal(importedExpressions({ expressions: [{ name: { toString: null }, expression: "1d6" }] }).error, true);
  const mine = [{ id: "x-1", name: "A", expression: "1d6", grammar: 2 }];
  const merged = mergeExpressions(mine, [{ id: "x-1", name: "B", expression: "1d8", grammar: 2 }, { name: "C", expression: "1d4" }]);
  assert.equal(merged.length, 3);
  assert.deepEqual(merged[0], mine[0]);
  assert.equal(new Set(merged.map((e) => e.id)).size, 3);
  assert.deepEqual(merged.map((e) => e.name), ["A", "B", "C"]);
});
