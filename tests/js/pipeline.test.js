// widgets/pipeline.js: one module owns every roll (issue 21). The engine here is pyrules itself
// (helpers.js engineCall), counted: what a test says about calls and answers is the engine's.
import assert from "node:assert/strict";
import { test } from "node:test";

import { createStore } from "../../web/js/lib/store.js";
import { createOddsCache, createPipeline, luckOf, pipelineEntry, withoutSheets } from "../../web/js/widgets/pipeline.js";
import { nextOdds, rollBarState } from "../../web/js/roll/odds-panel.js";
import { BARS_MAX, barsOf } from "../../web/js/widgets/odds/totals.js";
import { engineCall } from "./helpers.js";

/** A pipeline over the real engine, with every call, play and history entry kept. */
function harness({ landing = null, seeds = [], add = () => true } = {}) {
  const calls = [];
  const played = [];
  const added = [];
  const store = createStore({ rolling: null });
  const rollingSeen = [];
  store.subscribe(["rolling"], () => rollingSeen.push(store.get("rolling")));
  const pipeline = createPipeline({
    call: async (request) => {
      calls.push(request);
      return engineCall(request);
    },
    stage: { play: (shown) => (played.push(shown), landing ? landing() : Promise.resolve()) },
    history: { add: (entry) => (added.push(entry), add(entry)) },
    store,
    takeSeed: () => (seeds.length ? seeds.shift() : 4242),
  });
  return { pipeline, calls, played, added, store, rollingSeen };
}

/** A promise and the function that resolves it: the dice land when the test says so. */
function gate() {
  let open;
  const promise = new Promise((resolve) => (open = resolve));
  return { promise, open };
}

test("a roll is one engine call, played, then recorded once with the answer's luck and chance", async () => {
  const { pipeline, calls, played, added, rollingSeen } = harness({ seeds: [7] });
  const heard = [];
  pipeline.onRolled((event) => heard.push(event));
  const request = { op: "roll", system: "pool", params: { pot: 5 }, lang: "fr" };
  const done = await pipeline.roll(request, { id: "c1", name: "Alice", label: "Épée" });
  assert.equal(calls.length, 1);
  assert.deepEqual(calls[0], { ...request, seed: 7 }); // the page's seed, added to a copy
  assert.equal(request.seed, undefined);
  const { result } = done.answer;
  assert.equal(typeof result.luck, "number");
  assert.equal(played.length, 1);
  assert.equal(added.length, 1);
  const [entry] = added;
  assert.equal(entry, done.entry);
  assert.equal(entry.seed, 7);
  assert.deepEqual(entry.who, { id: "c1", name: "Alice", label: "Épée" });
  assert.equal(entry.luck, result.luck);
  assert.equal(entry.success, result.chance.success);
  assert.equal(heard.length, 1);
  assert.equal(heard[0].entry, entry);
  assert.deepEqual(rollingSeen, ["roll", null]); // the store says a roll is being sent, then not
});

test("a second roll of the same origin while one is in flight does nothing; once landed, a tap is a new roll", async () => {
  const dice = gate();
  const { pipeline, calls, added } = harness({ landing: () => dice.promise, seeds: [1, 3, 2] });
  const request = { op: "roll", system: "d100", params: { value: 50 }, lang: "fr" };
  const first = pipeline.roll(request);
  assert.equal(pipeline.rolling("roll"), true);
  assert.equal(await pipeline.roll(request), null); // the double tap, before the answer
  while (!calls.length) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(await pipeline.roll(request), null); // the dice are rolling: still in flight
  // Another origin is not held up by this one.
  const other = await pipeline.roll(request, null, { origin: "quick", present: async () => {} });
  assert.equal(other.answer.ok, true);
  dice.open();
  const done = await first;
  assert.equal(done.entry.seed, 1);
  assert.equal(pipeline.rolling("roll"), false);
  assert.equal(calls.filter((r) => r.seed === 1).length, 1);
  assert.equal(added.length, 2); // the roll and the other origin's, nothing twice
  const again = await pipeline.roll(request);
  assert.equal(again.entry.seed, 2);
});

test("a refused request is answered once and neither played nor recorded", async () => {
  const { pipeline, calls, played, added, store } = harness();
  const done = await pipeline.roll({ op: "roll", system: "pool", params: { pot: "x" }, lang: "en" });
  assert.equal(done.answer.ok, false);
  assert.equal(done.answer.error.field, "pot");
  assert.equal(calls.length, 1);
  assert.deepEqual([played.length, added.length], [0, 0]);
  assert.equal(store.get("rolling"), null);
  assert.equal(pipeline.rolling("roll"), false);
});

test("seeds: the request's own, the seed source's, none for physical dice, the engine's when the source has none", async () => {
  const { pipeline, calls } = harness({ seeds: [99] });
  await pipeline.roll({ op: "roll", system: "d6", params: {}, seed: 5, lang: "fr" });
  assert.equal(calls.at(-1).seed, 5);
  const faces = await pipeline.roll({ op: "roll", system: "d6", params: { dice: [4] }, lang: "fr" }, null, { physical: true });
  assert.equal("seed" in calls.at(-1), false);
  assert.equal(faces.entry.physical, true);
  assert.deepEqual(luckOf(calls.at(-1), faces.answer.result), {}); // no luck for the player's own dice
  pipeline.setSeedSource(async (request) => (request.system === "d6" ? 31 : null));
  await pipeline.roll({ op: "roll", system: "d6", params: {}, lang: "fr" });
  assert.equal(calls.at(-1).seed, 31);
  const drawn = await pipeline.roll({ op: "roll", system: "d100", params: {}, lang: "fr" });
  assert.equal("seed" in calls.at(-1), false); // null from the source: the engine draws one
  assert.ok(Number.isSafeInteger(drawn.entry.seed));
  pipeline.setSeedSource(null);
  await pipeline.roll({ op: "roll", system: "d6", params: {}, lang: "fr" });
  assert.equal(calls.at(-1).seed, 99); // back to the page's seed
});

test("a seed the source gave to a request the engine refuses is handed back, once; a roll's own seed never is", async () => {
  const { pipeline } = harness({ seeds: [] });
  const refused = [];
  pipeline.setSeedSource(async () => 77, { refused: (request) => refused.push(request) });
  const bad = await pipeline.roll({ op: "roll", system: "d6", params: { attribute: 99 }, lang: "fr" });
  assert.equal(bad.answer.ok, false);
  assert.deepEqual(refused.map((r) => [r.seed, r.params.attribute]), [[77, 99]]);
  const own = await pipeline.roll({ op: "roll", system: "d6", params: { attribute: 99 }, seed: 5, lang: "fr" });
  assert.equal(own.answer.ok, false);
  assert.equal(refused.length, 1); // its seed was not the source's
  await pipeline.roll({ op: "roll", system: "d6", params: {}, lang: "fr" });
  assert.equal(refused.length, 1);
});

test("an opposition records who rolled on each side and each side's luck from the answer", async () => {
  const { pipeline, calls, added } = harness({ seeds: [11] });
  const who = { actor: { id: "a", name: "Alice", label: "" }, opponent: { id: null, name: "PNJ", label: "" } };
  const done = await pipeline.roll({ op: "oppose", system: "d6", actor: {}, opponent: {}, lang: "fr" }, who);
  assert.equal(calls.length, 1);
  const { result } = done.answer;
  assert.deepEqual(added[0].actorWho, who.actor);
  assert.deepEqual(added[0].opponentWho, who.opponent);
  assert.equal(added[0].actorLuck, result.actor.luck);
  assert.equal(added[0].opponentLuck, result.opponent.luck);
  assert.equal(typeof added[0].actorLuck, "number");
});

test("a flow's own area replaces the stage; a replay is shown and not recorded; a hidden roll is recorded unseen", async () => {
  const { pipeline, played, added } = harness({ seeds: [1, 2, 3] });
  const request = { op: "roll", system: "steps", params: {}, lang: "fr" };
  const mine = [];
  await pipeline.roll(request, null, { present: async (shown) => mine.push(shown.entry) });
  assert.deepEqual([mine.length, played.length, added.length], [1, 0, 1]);
  await pipeline.roll(request, null, { record: false });
  assert.deepEqual([played.length, added.length], [1, 1]);
  await pipeline.roll(request, null, { hidden: true });
  assert.deepEqual([played.length, added.length], [1, 2]);
});

test("show() plays and records an answer from elsewhere without calling the engine", async () => {
  const answer = await engineCall({ op: "roll", system: "d100", params: { value: 30 }, seed: 8, lang: "fr" });
  const { pipeline, calls, played, added } = harness();
  const request = { op: "roll", system: "d100", params: { value: 30 }, seed: 8, lang: "fr" };
  const done = await pipeline.show(answer, { name: "Bob" }, { request });
  assert.equal(calls.length, 0);
  assert.equal(played.length, 1);
  assert.equal(added[0], done.entry);
  assert.equal(done.entry.luck, answer.result.luck);
  assert.equal(await pipeline.show({ ok: false, error: {} }, null, { request }), null);
});

test("a flow's own history entry (combat) is the one recorded", async () => {
  const { pipeline, added } = harness({ seeds: [3] });
  const request = { op: "combat", params: { kind: "melee" }, actor: { ardeur: 5 }, opponent: { ardeur: 5 }, lang: "fr" };
  const done = await pipeline.roll(request, null, { entry: (sent, answer) => ({ id: "x", seed: sent.seed, winner: answer.result.winner }), present: async () => {} });
  assert.equal(done.answer.ok, true, JSON.stringify(done.answer.error));
  assert.deepEqual(added, [{ id: "x", seed: 3, winner: done.answer.result.winner }]);
});

test("the odds cache asks the engine once per request, keeps only answers that came back ok, and is bounded", async () => {
  let calls = 0;
  const call = async (request) => (calls += 1, engineCall(request));
  const cache = createOddsCache(2);
  const odds = { op: "odds", system: "d100", params: { value: 40 }, lang: "fr" };
  const [a, b] = await Promise.all([cache.ask(odds, call), cache.ask({ ...odds }, call)]);
  assert.equal(calls, 1);
  assert.equal(a, b);
  assert.equal(a.ok, true);
  assert.equal((await cache.get(odds)).result.success_probability, a.result.success_probability);
  await cache.ask({ ...odds, lang: "en" }, call); // another request (the words differ)
  assert.equal(calls, 2);
  const bad = { op: "odds", system: "d100", params: { value: "x" }, lang: "fr" };
  assert.equal((await cache.ask(bad, call)).ok, false);
  await cache.ask(bad, call);
  assert.equal(calls, 4); // a refusal is asked again
  assert.ok(cache.size <= 2);
  assert.equal(cache.get(odds), undefined); // the oldest went first
});

test("the roll bar greys its chance out while the form shows an error, or the odds are stale", () => {
  const fresh = { mode: "single", charts: [{ side: "actor", odds: { success_probability: 0.4 } }], stale: false };
  assert.deepEqual(rollBarState(fresh, false), { key: "rollbar.chance", p: 0.4, stale: false });
  assert.deepEqual(rollBarState(fresh, true), { key: "rollbar.chance", p: 0.4, stale: true });
  assert.equal(rollBarState({ ...fresh, stale: true }, false).stale, true);
  const versus = { mode: "oppose", charts: [], versus: { probabilities: { actor: 0.55 } }, stale: false };
  assert.deepEqual(rollBarState(versus, true), { key: "rollbar.versus", p: 0.55, stale: true });
  assert.deepEqual(rollBarState(null, true), { key: null, p: null, stale: false });
  const noChance = { mode: "single", charts: [{ side: "actor", odds: { success_probability: null } }], stale: false };
  assert.equal(rollBarState(noChance, true).key, null);
});

test("the roll bar of free dice: the mean of a sum, the chance of at least one success of a count", () => {
  // Shapes of the engine's notation odds (docs/api.md): a sum has no success probability.
  const sum = { mode: "single", charts: [{ side: "actor", odds: { kind: "sum", success_probability: null, mean_value: 10.5 } }], stale: false };
  assert.deepEqual(rollBarState(sum, false), { key: "rollbar.mean", p: null, mean: 10.5, stale: false });
  assert.equal(rollBarState(sum, true).stale, true);
  const count = { mode: "single", charts: [{ side: "actor", odds: { kind: "count", success_probability: 0.83193 } }], stale: false };
  assert.deepEqual(rollBarState(count, false), { key: "rollbar.atLeastOne", p: 0.83193, stale: false });
  // Past the exact budget the engine answers an estimate: the bar says « environ ».
  const estimate = { method: "normal", bound: 0.0617 };
  const big = { ...sum, charts: [{ side: "actor", odds: { ...sum.charts[0].odds, estimate } }] };
  assert.equal(rollBarState(big, false).key, "rollbar.meanAbout");
  const many = { ...count, charts: [{ side: "actor", odds: { ...count.charts[0].odds, estimate } }] };
  assert.equal(rollBarState(many, false).key, "rollbar.atLeastOneAbout");
});

test("more totals than the chart's bars share bars, in runs of consecutive totals that keep every chance", () => {
  const rows = Array.from({ length: 1001 }, (_, i) => ({ total: 10 + i, exact: "1/1001", p: 1 / 1001 }));
  const bars = barsOf(rows);
  assert.ok(bars.length <= BARS_MAX);
  assert.equal(bars[0].total, 10);
  assert.equal(bars.at(-1).last, 1010);
  for (let i = 1; i < bars.length; i++) assert.equal(bars[i].total, bars[i - 1].last + 1);
  assert.ok(Math.abs(bars.reduce((sum, b) => sum + b.p, 0) - 1) < 1e-9);
  assert.ok(bars.every((b) => b.exact === null)); // a run's chance is a sum: no single fraction
  const few = barsOf(rows.slice(0, 5));
  assert.deepEqual(few.map((b) => [b.total, b.last, b.exact]), [[10, 10, "1/1001"], [11, 11, "1/1001"], [12, 12, "1/1001"], [13, 13, "1/1001"], [14, 14, "1/1001"]]);
});

test("a sheet roll's history entry keeps the params the engine built, not a copy of the sheet", () => {
  const character = { id: "c1", name: "Alice", stats: { flame: 2 } };
  const request = { op: "roll", system: "d6", params: { sheet: { character, entry: "e1" } }, seed: 4 };
  assert.deepEqual(withoutSheets(request), { op: "roll", system: "d6", params: {}, seed: 4 });
  const oppose = { op: "oppose", system: "d6", actor: { sheet: { character, entry: "e1" }, dice: [3] }, opponent: { attribute: 2 } };
  assert.deepEqual(withoutSheets(oppose).actor, { dice: [3] });
  assert.deepEqual(withoutSheets(oppose).opponent, { attribute: 2 });
  const result = { params: { attribute: 3, skill: 1, flame: 2 }, outcome: "success", margin: 1, seed: 4, physical: false, luck: 0.5, chance: { success: 0.75 } };
  const entry = pipelineEntry(request, result, { id: "c1", name: "Alice", label: "Épée" });
  assert.deepEqual(entry.params, result.params);
  assert.deepEqual([entry.luck, entry.success], [0.5, 0.75]);
});

test("odds too costly to give are said in the panel, not held against the form: not stale, no chance on the roll bar", () => {
  const refused = { ok: false, error: { code: "odds_too_costly", field: "expression", message: "trop de calcul ; le jet, lui, se lance" } };
  const charts = [{ side: "actor", refused: refused.error.message }];
  const next = nextOdds({ systemId: "notation", mode: "roll", charts, answers: [{ side: "actor", odds: refused }], versus: null, previous: null });
  assert.equal(next.stale, false);
  assert.equal(next.incomplete, false);
  assert.deepEqual(rollBarState(next, false), { key: null, p: null, stale: false });
  // Any other refusal of the odds is the form's: the figures shown are stale.
  const bad = { ok: false, error: { code: "invalid_param", field: "expression", message: "incomplète" } };
  assert.equal(nextOdds({ systemId: "notation", mode: "roll", charts: [], answers: [{ side: "actor", odds: bad }], versus: null, previous: null }).stale, true);
});
