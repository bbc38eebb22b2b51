import assert from "node:assert/strict";
import { test } from "node:test";

import { system } from "./helpers.js";
import { choiceValue, initialValue, isFormField } from "../../web/js/widgets/fields.js";

const pool = system("pool");
const field = (name) => pool.fields.find((f) => f.name === name);

test("a form draws every field but the placement, which lives on the result card", () => {
  const drawn = pool.fields.filter(isFormField).map((f) => f.name);
  assert.ok(drawn.includes("pot") && drawn.includes("dice"));
  assert.ok(!drawn.includes("placement"));
});

test("a fresh form shows each field's registry default as text", () => {
  assert.equal(initialValue(field("pot")), String(field("pot").default));
  assert.equal(initialValue(field("placement")), "");
});

test("a choice's text reads back as the registry's own value", () => {
  const rule = field("fumble_rule");
  const first = rule.choices[0].value;
  assert.equal(choiceValue(rule, String(first)), first);
  assert.equal(choiceValue(rule, "nope"), "nope"); // left for the engine to refuse
});
