import assert from "node:assert/strict";
import { test } from "node:test";

import { csvCell } from "../../web/js/lib/csv.js";
import { MAX_DEPTH, nesting, prepare } from "../../web/js/engine/guard.js";

test("nesting counts brackets outside strings only", () => {
  assert.equal(nesting('{"a":[1,[2]]}'), 3);
  assert.equal(nesting('{"a":"[[[[\\"[["}'), 1);
  assert.equal(nesting("[".repeat(5000)), 5000);
});

test("a text nested too deep is refused as invalid_json before it is sent", () => {
  const { answer } = prepare("[".repeat(MAX_DEPTH + 1));
  assert.equal(answer.error.code, "invalid_json");
  assert.match(answer.error.message, /32/);
  assert.equal(prepare("[".repeat(MAX_DEPTH) + "]".repeat(MAX_DEPTH)).text.length, 2 * MAX_DEPTH);
});

test("a BigInt, a circular object or undefined resolve to invalid_request", () => {
  const circular = { op: "version" };
  circular.self = circular;
  for (const request of [{ seed: 10n }, circular, undefined]) {
    assert.equal(prepare(request).answer.error.code, "invalid_request");
  }
});

test("an ordinary request becomes its JSON text", () => {
  assert.equal(prepare({ op: "version" }).text, '{"op":"version"}');
});

test("CSV cells that a spreadsheet would run are neutralised", () => {
  for (const text of ["=1+1", "+1", "-cmd", "@SUM(A1)", "\tx", "\rx"]) {
    const cell = csvCell(text);
    assert.ok(!/^"?[=+\-@\t\r]/.test(cell), `${JSON.stringify(text)} -> ${JSON.stringify(cell)}`);
  }
});

test("CSV numbers stay numbers, quotes and commas are quoted", () => {
  assert.equal(csvCell(-3), "-3");
  assert.equal(csvCell('a,"b"'), '"a,""b"""');
  assert.equal(csvCell(null), "");
});
