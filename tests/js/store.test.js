// lib/store.js (the one store of the page's state) and roll/state.js built on it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { bindKeys, createStore } from "../../web/js/lib/store.js";
import { createRollApp, LIVE_KEYS, STORED_KEYS } from "../../web/js/roll/state.js";
import { systemsDescription } from "./helpers.js";

test("a store reads what was set, and tells the listeners of the keys that changed", () => {
  const store = createStore({ mode: "single", ready: false });
  const heard = [];
  store.subscribe(["mode"], (changed) => heard.push(["mode", changed]));
  store.subscribe(null, (changed) => heard.push(["any", changed]));
  assert.equal(store.get("mode"), "single");
  assert.deepEqual(store.set({ ready: true }), ["ready"]);
  assert.deepEqual(heard, [["any", ["ready"]]]);
  heard.length = 0;
  assert.deepEqual(store.set({ mode: "oppose", ready: true }), ["mode"]); // ready did not change
  assert.deepEqual(heard, [["mode", ["mode"]], ["any", ["mode"]]]);
  heard.length = 0;
  assert.deepEqual(store.set({ mode: "oppose" }), []); // the same value: nobody is called
  assert.deepEqual(heard, []);
  assert.deepEqual(store.snapshot(), { mode: "oppose", ready: true });
});

test("unsubscribing stops the calls, even from inside another listener; a failing listener does not stop the others", () => {
  const store = createStore({ n: 0 });
  const calls = [];
  let second = null;
  store.subscribe(["n"], () => {
    calls.push("first");
    second();
  });
  second = store.subscribe(["n"], () => calls.push("second"));
  store.subscribe(["n"], () => {
    throw new Error("boom");
  });
  store.subscribe(["n"], () => calls.push("last"));
  const error = console.error;
  console.error = () => {};
  try {
    store.set({ n: 1 });
  } finally {
    console.error = error;
  }
  assert.deepEqual(calls, ["first", "last"]);
});

test("a listener that sets the store sees its own change notified after the current one", () => {
  const store = createStore({ a: 0, b: 0 });
  const seen = [];
  store.subscribe(["a"], () => store.set({ b: store.get("a") * 10 }));
  store.subscribe(["b"], () => seen.push(store.get("b")));
  store.set({ a: 2 });
  assert.deepEqual(seen, [20]);
  assert.equal(store.get("b"), 20);
});

test("bound keys read and write the store: assigning a property notifies", () => {
  const store = createStore({ current: null });
  const target = bindKeys({}, store, ["current"]);
  const heard = [];
  store.subscribe(["current"], () => heard.push(target.current));
  target.current = { id: 1 };
  assert.deepEqual(heard, [{ id: 1 }]);
  assert.deepEqual(store.get("current"), { id: 1 });
  assert.deepEqual(Object.keys(target), ["current"]);
});

test("the roll screen's state is one store: app.key and app.state.key writes reach its subscribers", () => {
  const app = createRollApp({ system: "d100", mode: "oppose" });
  const heard = [];
  app.subscribe(["engineReady", "rolling"], (changed) => heard.push(...changed));
  app.subscribe(["mode", "system"], (changed) => heard.push(...changed));
  app.engineReady = true; // as app/boot.js writes it
  app.rolling = "roll";
  Object.assign(app.state, { mode: "single", physical: true }); // as the safe start writes it
  app.state.system = "pool";
  assert.deepEqual(heard, ["engineReady", "rolling", "mode", "system"]);
  assert.equal(app.store.get("physical"), true);
  // What is stored is the state's keys only, as JSON.
  assert.deepEqual(Object.keys(JSON.parse(JSON.stringify(app.state))), STORED_KEYS);
  for (const key of LIVE_KEYS) assert.ok(app.store.has(key), key);
});

test("the chosen system and the values typed per side come from the store", () => {
  const app = createRollApp({ system: "steps" });
  app.systems = systemsDescription().systems;
  assert.equal(app.currentSystem().id, "steps");
  app.sideValues("actor").x = "1";
  assert.deepEqual(app.store.get("values"), { steps: { actor: { x: "1" } } });
  app.store.set({ system: "unknown" });
  assert.equal(app.currentSystem().id, app.systems[0].id);
});
