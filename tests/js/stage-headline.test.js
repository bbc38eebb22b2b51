// The stage's headline (web/js/stage/headline.js): the engine's `headline` shown as is, both
// sides' for an opposition or a combat action, nothing when the answer names no number.
import assert from "node:assert/strict";
import { test } from "node:test";

// setLang() repaints the page's static strings: a document with none.
globalThis.document = { documentElement: {}, querySelectorAll: () => [], title: "" };

const { setLang } = await import("../../web/js/lib/i18n.js");
const { headlineNumbers, headlineParts, headlineText } = await import("../../web/js/stage/headline.js");

test("a roll's headline is its own number, a real minus below zero", () => {
  assert.equal(headlineText({ headline: 35 }), "35");
  assert.equal(headlineText({ headline: 0 }), "0");
  assert.equal(headlineText({ headline: -3 }), "\u22123");
});

test("an opposition and a combat action show both sides, in the page's language", () => {
  setLang("fr");
  assert.equal(headlineText({ actor: { headline: 6 }, opponent: { headline: 3 } }), "6 contre 3");
  assert.equal(headlineText({ rolls: [{ headline: 12 }, { headline: 9 }] }), "12 contre 9");
  setLang("en");
  assert.equal(headlineText({ actor: { headline: 6 }, opponent: { headline: 3 } }), "6 vs 3");
  setLang("fr");
});

test("no number named by the engine: no headline (nothing worked out in JS)", () => {
  for (const answer of [null, {}, { headline: null }, { headline: "7" }, { headline: 2.5 }, { headline: 1e300 }, { actor: { headline: 6 }, opponent: { headline: null } }, { rolls: [{ headline: 1 }] }, { successes: 4, total: 9 }]) {
    assert.deepEqual(headlineNumbers(answer), [], JSON.stringify(answer));
    assert.equal(headlineText(answer), "");
  }
});

test("the engine's words win, in the page's language; the stage draws their numbers large", () => {
  const answer = { headline: 9, headline_texts: { fr: "9 réussites", en: "9 successes" } };
  setLang("en");
  assert.equal(headlineText(answer), "9 successes");
  setLang("fr");
  assert.equal(headlineText(answer), "9 réussites");
  // a combat action: its sides hold losses, the top of the answer holds « 12 contre 7 »
  assert.equal(headlineText({ actor: { loss: 2 }, opponent: { loss: 0 }, headline_texts: { fr: "12 contre 7", en: "12 vs 7" } }), "12 contre 7");
  assert.deepEqual(headlineParts("Total \u22128"), [{ text: "Total ", number: false }, { text: "\u22128", number: true }]);
  assert.deepEqual(headlineParts("12 contre 7").map((p) => p.number), [true, false, true]);
  assert.equal(headlineParts("9 réussites").map((p) => p.text).join(""), "9 réussites");
});
