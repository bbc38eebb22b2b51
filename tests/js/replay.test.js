import assert from "node:assert/strict";
import { test } from "node:test";

import { decodeFragment, linkOf, payloadFits, payloadOf, PREFIX } from "../../web/js/roll/replay.js";
import { payloadRequest } from "../../web/js/roll/replay-links.js";
import { engineCall, system } from "./helpers.js";

const entry = {
  id: "h",
  time: "2026-01-01T10:00:00.000Z",
  system: "d100",
  mode: "roll",
  params: { value: 55, modifier: 0 },
  seed: 42,
  who: { id: "c", name: "Alice", label: "Tir" },
};
const encode = (text) => PREFIX + Buffer.from(text).toString("base64url");

test("a link decodes to what it encoded", () => {
  const payload = decodeFragment(linkOf(entry));
  assert.deepEqual(payload, { system: "d100", mode: "roll", params: entry.params, seed: 42, who: { name: "Alice", label: "Tir" } });
});

test("an oppose link keeps both sides", () => {
  const oppose = { ...entry, mode: "oppose", actor: { value: 40 }, opponent: { value: 60 }, seed: null };
  const payload = decodeFragment(linkOf(oppose));
  assert.equal(payload.mode, "oppose");
  assert.deepEqual([payload.actor, payload.opponent, payload.seed], [{ value: 40 }, { value: 60 }, null]);
  assert.equal(payloadOf(oppose).mode, "oppose");
});

test("a link whose param is a trap object is refused", () => {
  assert.equal(decodeFragment(encode('{"v":1,"system":"d100","mode":"roll","seed":1,"params":{"value":{"toString":null}}}')), null);
});

test("a 5,000-deep nested array is refused without throwing", () => {
  const text = '{"v":1,"system":"d100","mode":"roll","seed":1,"params":{"value":' + "[".repeat(5000) + "]".repeat(5000) + "}}";
  assert.equal(decodeFragment(encode(text)), null);
});

test("broken base64, wrong version or a bad seed give null", () => {
  assert.equal(decodeFragment(PREFIX + "%%%"), null);
  assert.equal(decodeFragment(encode('{"v":2,"system":"d100","mode":"roll","params":{}}')), null);
  assert.equal(decodeFragment(encode('{"v":1,"system":"d100","mode":"roll","params":{},"seed":-1}')), null);
  assert.equal(decodeFragment("#other"), null);
});

test("a link's shape fits the forms; whether a seeded one may carry faces is the engine's answer", async () => {
  const steps = system("steps");
  assert.equal(payloadFits(steps, { mode: "roll", params: { pot: 3 }, seed: 3 }), false);
  const seeded = { mode: "roll", system: "steps", params: { die: 8, dice: [8] }, seed: 3 };
  assert.equal(payloadFits(steps, seeded), true);
  // The page keeps no copy of the engine's rule: the link's request is refused by the engine.
  const refused = await engineCall(payloadRequest(seeded, "fr").request);
  assert.equal(refused.ok, false);
  assert.equal(refused.error.code, "faces_in_sheet");
  const physical = await engineCall(payloadRequest({ ...seeded, seed: null }, "fr").request);
  assert.equal(physical.ok, true);
  assert.deepEqual(physical.result.dice.map((d) => d.final), [8]);
});
