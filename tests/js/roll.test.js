// The pure parts of the roll screen (web/js/roll/): its state object, the boot bar, where an
// error goes, the odds panel's state, the requests built for a roll, a history entry and a
// replay link, and skipping the dice animation.

import assert from "node:assert/strict";
import { test } from "node:test";

import { BOOT_AT, BOOT_STEPS, bootPercent, stepState } from "../../web/js/app/boot-panel.js";
import { errorTarget } from "../../web/js/roll/side-forms.js";
import { entryWho, historyRequest, payloadRequest } from "../../web/js/roll/replay-links.js";
import { urlSeed } from "../../web/js/app/hooks.js";
import { nextOdds } from "../../web/js/roll/odds-panel.js";
import { pickerName, RollScreen } from "../../web/js/roll/screen.js";
import { placedEntry, rollRequest, seedTaker } from "../../web/js/roll/rolling.js";
import { RollAnimation, sideNames, shownResult } from "../../web/js/widgets/result-card.js";
import { createRollApp, restoreState, restoreSystems, SIDES, seedOr, sidesOf } from "../../web/js/roll/state.js";
import { system, systemsDescription } from "./helpers.js";

// ---------------------------------------------------------------------------- state

test("a stored state keeps only what is well formed", () => {
  assert.deepEqual(restoreState(null), { system: null, mode: "single", physical: false, values: {}, ui: {} });
  const values = { d100: { actor: { value: "40" } } };
  const kept = restoreState({ system: "d100", mode: "oppose", physical: 1, values, ui: "x", extra: true });
  assert.deepEqual(kept, { system: "d100", mode: "oppose", physical: true, values, ui: {} });
  assert.equal(restoreState({ system: 3, mode: "sideways" }).mode, "single");
  assert.equal(restoreState({ system: 3 }).system, null);
});

test("a kept description needs a systems list; its play ops must be an object", () => {
  assert.deepEqual(restoreSystems(null), { systems: null, play: null, digest: null });
  assert.deepEqual(restoreSystems({ systems: "pool", play: {}, digest: "ab" }), { systems: null, play: {}, digest: null });
  const systems = [{ id: "d100" }];
  assert.deepEqual(restoreSystems({ systems, play: "no" }), { systems, play: null, digest: null });
  assert.deepEqual(restoreSystems({ systems, digest: 7 }), { systems, play: null, digest: null });
  assert.deepEqual(restoreSystems({ systems, digest: "7885063af3e86351" }), { systems, play: null, digest: "7885063af3e86351" });
});

test("the current system is the stored one, else the first; each system and side has its own values", () => {
  const app = createRollApp();
  assert.equal(app.currentSystem(), null);
  app.systems = systemsDescription().systems;
  assert.equal(app.currentSystem().id, app.systems[0].id);
  app.state.system = "d100";
  assert.equal(app.currentSystem().id, "d100");
  app.sideValues("actor").value = "55";
  app.sideUI("opponent").open = true;
  app.state.system = "steps";
  assert.deepEqual(app.sideValues("actor"), {});
  app.state.system = "d100";
  assert.equal(app.sideValues("actor").value, "55");
  assert.deepEqual(app.state.ui, { d100: { opponent: { open: true } } });
  app.state.system = "no such system";
  assert.equal(app.currentSystem().id, app.systems[0].id);
});

test("a side's values made or typed are store writes: the subscribers of `values` hear them", () => {
  const app = createRollApp();
  app.systems = systemsDescription().systems;
  app.state.system = "d100";
  const heard = [];
  app.subscribe(["values"], (keys) => heard.push(keys.join()));
  const actor = app.sideValues("actor"); // made: heard
  assert.deepEqual(heard, ["values"]);
  assert.equal(app.sideValues("actor"), actor); // there: nothing to hear
  assert.deepEqual(heard, ["values"]);
  actor.value = "55"; // typed in place by the form, then said
  app.valuesChanged();
  assert.deepEqual(heard, ["values", "values"]);
  assert.equal(app.state.values.d100.actor.value, "55");
  assert.equal(app.sideValues("actor"), actor); // the form keeps writing the same object
});

test("a state given at creation is checked like a stored one", () => {
  const app = createRollApp({ mode: "oppose", physical: "yes", values: 5 });
  assert.deepEqual(app.state, { system: null, mode: "oppose", physical: true, values: {}, ui: {} });
  assert.deepEqual(app.forms, { actor: null, opponent: null });
  assert.equal(app.engineReady || app.booted || app.safeStarted, false);
});

test("a single roll is the actor's; an opposition both sides', actor first", () => {
  assert.deepEqual(sidesOf("single"), ["actor"]);
  assert.deepEqual(sidesOf("oppose"), SIDES);
  assert.deepEqual(SIDES, ["actor", "opponent"]);
});

test("the asked seed is used when it is a non-negative safe integer, else a fresh one", () => {
  const fresh = () => 7;
  assert.equal(seedOr(0, fresh), 0);
  assert.equal(seedOr(12, fresh), 12);
  for (const bad of [null, undefined, -1, 1.5, "3", 2 ** 53, NaN]) assert.equal(seedOr(bad, fresh), 7, String(bad));
});

test("the page's next seed is used once, then fresh ones", () => {
  const hooks = { nextSeed: 99 };
  const take = seedTaker(hooks);
  assert.equal(take(), 99);
  assert.equal(hooks.nextSeed, null);
  const a = take();
  assert.ok(Number.isSafeInteger(a) && a >= 0);
});

test("?seed=N gives N only for digits", () => {
  assert.equal(urlSeed("?seed=42"), 42);
  assert.equal(urlSeed("?x=1&seed=0"), 0);
  for (const search of ["", "?seed=", "?seed=-1", "?seed=1e3", "?seed=4x"]) assert.equal(urlSeed(search), null, search);
});

// ---------------------------------------------------------------------------- boot panel

test("the boot bar never goes backwards, except when the worker starts again", () => {
  let percent = 0;
  for (const step of ["worker", "version", "runtime", "python", "micropip", "pyrules", "systems", "ready"]) {
    const next = bootPercent(percent, { step });
    assert.ok(next >= percent, step);
    percent = next;
  }
  assert.equal(percent, 100);
  assert.equal(bootPercent(BOOT_AT.micropip, { step: "runtime" }), BOOT_AT.micropip);
  assert.equal(bootPercent(80, { step: "worker" }), 0);
  assert.equal(bootPercent(50, { step: "boot" }), 50); // a step with no mark keeps the bar
});

test("the runtime's download moves the bar between its mark and the next one", () => {
  const half = bootPercent(0, { step: "runtime", loaded: 5, total: 10 });
  assert.equal(half, (BOOT_AT.runtime + BOOT_AT.python) / 2);
  assert.equal(bootPercent(0, { step: "runtime", loaded: 20, total: 10 }), BOOT_AT.python);
});

test("the listed steps before the active one are done, those after pending", () => {
  const states = (step) => BOOT_STEPS.map((item) => stepState(step, item));
  assert.deepEqual(states("micropip"), ["done", "done", "active", "pending", "pending"]);
  assert.deepEqual(states("worker"), states("runtime"));
  assert.deepEqual(states("systems"), states("pyrules"));
  assert.ok(states("ready").every((s) => s === "done"));
});

// ---------------------------------------------------------------------------- errors, odds

test("an error's field goes to its side only in an opposition", () => {
  assert.deepEqual(errorTarget("opponent.pot", "oppose"), { side: "opponent", field: "pot" });
  assert.deepEqual(errorTarget("actor.weapons.0", "oppose"), { side: "actor", field: "weapons.0" });
  assert.deepEqual(errorTarget("opponent.pot", "single"), { side: "actor", field: "opponent.pot" });
  assert.deepEqual(errorTarget("pot", "oppose"), { side: "actor", field: "pot" });
  assert.deepEqual(errorTarget(undefined, "oppose"), { side: "actor", field: undefined });
});

test("the odds panel keeps the previous opposition chart only while no side is incomplete", () => {
  const ok = { ok: true, result: {} };
  const failed = { ok: false, error: {} };
  const previous = { system: "pool", mode: "oppose", charts: [], versus: { old: true } };
  const both = [{ side: "actor", odds: ok }, { side: "opponent", odds: ok }];
  const fresh = nextOdds({ systemId: "pool", mode: "oppose", charts: [], answers: both, versus: { ok: true, result: { now: 1 } }, previous });
  assert.deepEqual([fresh.versus, fresh.stale, fresh.incomplete], [{ now: 1 }, false, false]);
  const kept = nextOdds({ systemId: "pool", mode: "oppose", charts: [], answers: both, versus: failed, previous });
  assert.deepEqual([kept.versus, kept.stale], [{ old: true }, true]);
  const skipped = [{ side: "actor", odds: ok }, { side: "opponent", skipped: true }];
  const gone = nextOdds({ systemId: "pool", mode: "oppose", charts: [], answers: skipped, versus: null, previous });
  assert.deepEqual([gone.versus, gone.stale, gone.incomplete], [null, true, true]);
  const otherSystem = nextOdds({ systemId: "d6", mode: "oppose", charts: [], answers: both, versus: null, previous });
  assert.equal(otherSystem.versus, null);
  const single = nextOdds({ systemId: "pool", mode: "single", charts: [], answers: [{ side: "actor", odds: failed }], versus: null, previous });
  assert.deepEqual([single.versus, single.stale, single.mode], [null, true, "single"]);
});

// ---------------------------------------------------------------------------- requests

test("a roll request carries the actor's params; an opposition both sides'", () => {
  const collected = { actor: { value: 40 }, opponent: { value: 60 } };
  assert.deepEqual(rollRequest({ mode: "single", systemId: "d100", collected, language: "en" }), { op: "roll", system: "d100", params: { value: 40 }, lang: "en" });
  assert.deepEqual(rollRequest({ mode: "oppose", systemId: "d100", collected, language: "fr" }), { op: "oppose", system: "d100", actor: { value: 40 }, opponent: { value: 60 }, lang: "fr" });
});

test("rolling a history entry again leaves out its faces and placement; reviewing keeps them", () => {
  const pool = system("pool");
  const faces = pool.fields.filter((f) => f.type === "faces" || f.type === "placement").map((f) => f.name);
  assert.ok(faces.length >= 2);
  const params = { pot: 5, diff: 3, modifiers: null, ...Object.fromEntries(faces.map((name) => [name, [1]])) };
  const entry = { system: "pool", mode: "roll", params };
  const again = historyRequest(entry, pool, { again: true, language: "fr" });
  assert.deepEqual(again.request, { op: "roll", system: "pool", params: { pot: 5, diff: 3 }, lang: "fr" });
  assert.deepEqual(again.load, { actor: { pot: 5, diff: 3 } });
  const review = historyRequest(entry, pool, { again: false, language: "fr" });
  const { modifiers, ...rest } = params;
  assert.equal(modifiers, null);
  assert.deepEqual(review.request.params, rest);
  const oppose = historyRequest({ system: "pool", mode: "oppose", actor: { pot: 4 }, opponent: { pot: 6, dice: [2] } }, pool, { again: true, language: "en" });
  assert.deepEqual(oppose.request, { op: "oppose", system: "pool", actor: { pot: 4 }, opponent: { pot: 6 }, lang: "en" });
  assert.deepEqual(oppose.load, { actor: { pot: 4 }, opponent: { pot: 6 } });
});

test("who rolled follows a history entry into the new one", () => {
  const who = { name: "Alice" };
  assert.deepEqual(entryWho({ who, actorWho: null, other: 1 }), { who });
  assert.deepEqual(entryWho({ actorWho: who, opponentWho: who }), { actorWho: who, opponentWho: who });
});

test("a replay link's request drops empty values and keeps its seed; physical rolls have none", () => {
  const payload = { system: "d100", mode: "roll", params: { value: 40, modifier: null }, seed: 8, who: { name: "Bob" } };
  const { load, request, extra } = payloadRequest(payload, "fr");
  assert.deepEqual(request, { op: "roll", system: "d100", params: { value: 40 }, lang: "fr", seed: 8 });
  assert.deepEqual(load, { actor: payload.params });
  assert.deepEqual(extra, { who: { name: "Bob" } });
  const oppose = payloadRequest({ system: "d100", mode: "oppose", actor: { value: 1 }, opponent: { value: null }, seed: null, opponentWho: { name: "Eve" } }, "en");
  assert.deepEqual(oppose.request, { op: "oppose", system: "d100", actor: { value: 1 }, opponent: {}, lang: "en" });
  assert.deepEqual(oppose.extra, { opponentWho: { name: "Eve" } });
  assert.ok(!("seed" in oppose.request));
});

test("free dice linked or stored before `grammar` replay under the former reading (grammar 1); new ones as they are", () => {
  const notation = system("notation");
  const old = payloadRequest({ system: "notation", mode: "roll", params: { expression: "3d6!" }, seed: 4 }, "fr");
  assert.deepEqual(old.request.params, { expression: "3d6!", grammar: 1 });
  assert.deepEqual(old.load, { actor: { expression: "3d6!", grammar: 1 } });
  const fresh = payloadRequest({ system: "notation", mode: "roll", params: { expression: "3d6!", grammar: 2 }, seed: 4 }, "fr");
  assert.deepEqual(fresh.request.params, { expression: "3d6!", grammar: 2 });
  const versus = payloadRequest({ system: "notation", mode: "oppose", actor: { expression: "1d6" }, opponent: { expression: "1d8", grammar: 2 }, seed: 1 }, "fr");
  assert.deepEqual([versus.request.actor.grammar, versus.request.opponent.grammar], [1, 2]);
  const entry = historyRequest({ system: "notation", mode: "roll", params: { expression: "2d6ro<2" } }, notation, { again: true, language: "fr" });
  assert.deepEqual(entry.request.params, { expression: "2d6ro<2", grammar: 1 });
  // Another system's params are never touched.
  assert.deepEqual(payloadRequest({ system: "d100", mode: "roll", params: { value: 40 }, seed: 8 }, "fr").request.params, { value: 40 });
});

test("a placed roll's entry replays with the placement, the new outcome and brief, and no luck", () => {
  const entry = { id: "e", params: { pot: 3 }, outcome: "failure", margin: -1, luck: 0.4, brief: { fr: "POT 3", en: "POT 3" } };
  const brief = { fr: "POT 3 · [+1 0]", en: "POT 3 · [+1 0]" };
  const result = { outcome: "success", margin: 2, brief };
  const seeded = placedEntry(entry, { physical: false, params: { pot: 3 } }, { pot: 3, dice: [4, 5] }, [1, 0], result);
  assert.deepEqual(seeded, { id: "e", params: { pot: 3, placement: [1, 0] }, outcome: "success", margin: 2, brief });
  const physical = placedEntry(entry, { physical: true, params: { pot: 3 } }, { pot: 3, dice: [4, 5] }, null, result);
  assert.deepEqual(physical.params, { pot: 3, dice: [4, 5], placement: null });
  assert.equal(entry.luck, 0.4); // the entry itself is left as it was
});

test("a placement re-roll is shown with the seed of the roll it came from", () => {
  const base = { seed: 5, physical: false, outcome: "failure" };
  assert.equal(shownResult({ result: base, base }), base);
  assert.deepEqual(shownResult({ result: { seed: 9, physical: true, outcome: "success" }, base }), { seed: 5, physical: false, outcome: "success" });
});

test("an opposition between characters names its sides; other rolls do not", () => {
  const request = { op: "oppose" };
  assert.deepEqual(sideNames({ request, entry: { actorWho: { name: "A" } } }), { actor: "A", opponent: undefined });
  assert.equal(sideNames({ request, entry: {} }), undefined);
  assert.equal(sideNames({ request: { op: "roll" }, entry: { actorWho: { name: "A" } } }), undefined);
});

test("a system's name keeps its en dashes with their neighbours", () => {
  assert.equal(pickerName("d6 – x"), "d6 – x");
  assert.equal(pickerName("A–B"), "A\u2060–\u2060B");
});

// ---------------------------------------------------------------------------- animation

class FakeKey extends Event {
  constructor(key) {
    super("keydown", { cancelable: true });
    this.key = key;
  }
}

test("a key or pointer press lands moving dice; Space and Enter do nothing else", () => {
  const doc = new EventTarget();
  const animation = new RollAnimation(doc);
  let skipped = 0;
  const control = { done: false, skip: () => (skipped += 1) };
  animation.started(control);
  assert.ok(animation.running);
  const space = new FakeKey(" ");
  doc.dispatchEvent(space);
  assert.ok(space.defaultPrevented);
  const letter = new FakeKey("a");
  doc.dispatchEvent(letter);
  assert.ok(!letter.defaultPrevented);
  doc.dispatchEvent(new Event("pointerdown"));
  assert.equal(skipped, 3);
  animation.landed();
  assert.ok(!animation.running);
  const after = new FakeKey("Enter");
  doc.dispatchEvent(after);
  assert.ok(!after.defaultPrevented);
  assert.equal(skipped, 3);
});

test("dice already landed (reduced motion) leave nothing to skip", () => {
  const doc = new EventTarget();
  const animation = new RollAnimation(doc);
  animation.started({ done: true, skip: () => assert.fail("skipped") });
  assert.ok(!animation.running);
  animation.finish();
  doc.dispatchEvent(new FakeKey(" "));
});

// ---------------------------------------------------------------------------- the whole screen

function fakeScreen(app) {
  const calls = [];
  const log = (name) => () => calls.push(name);
  const parts = {
    picker: { build: log("picker") },
    forms: { build: log("forms"), applyMode: log("mode"), updateRollButton: log("button") },
    card: { redraw: log("redraw"), clear: log("clear") },
    odds: { redraw: log("odds"), refresh: log("refresh") },
    history: { render: log("history") },
    bootPanel: { progress: ({ step }) => calls.push(`boot:${step}`) },
    renderPlayView: log("play"),
  };
  return { screen: new RollScreen({ app, ...parts }), calls };
}

test("the build's systems.json is drawn only while the engine has not answered", () => {
  const app = createRollApp();
  const { screen, calls } = fakeScreen(app);
  screen.adoptBundled({ systems: "not a list" });
  screen.adoptBundled(null);
  assert.deepEqual(calls, []);
  const description = systemsDescription();
  screen.adoptBundled(description);
  assert.equal(app.systems, description.systems);
  assert.deepEqual(calls, ["picker", "forms", "history", "play", "mode"]);
  calls.length = 0;
  screen.adoptBundled(systemsDescription());
  assert.equal(app.systems, description.systems);
  assert.deepEqual(calls, []);
});

test("a new language redraws the screen; the boot panel only once the engine is ready", () => {
  const app = createRollApp();
  const { screen, calls } = fakeScreen(app);
  screen.languageChanged();
  assert.deepEqual(calls, ["history", "clear", "button", "odds", "refresh"]);
  calls.length = 0;
  Object.assign(app, { systems: systemsDescription().systems, engineReady: true, current: {} });
  screen.languageChanged();
  assert.deepEqual(calls, ["picker", "forms", "redraw", "history", "play", "button", "boot:ready", "odds", "refresh"]);
});
