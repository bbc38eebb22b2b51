// engine/idle.js requestTracker: the worker's own work after ready waits until none of the
// page's requests has been in flight for the pause given (timers mocked: no real waiting).
import assert from "node:assert/strict";
import { test } from "node:test";

import { requestTracker } from "../../web/js/engine/idle.js";

const PAUSE = 150;

/** A flag that turns true once `promise` resolves (read after the microtasks ran). */
function watch(promise) {
  const state = { done: false };
  promise.then(() => (state.done = true));
  return state;
}

/** Move the mocked clock on by `ms`, then let the promises it resolved run. */
async function after(t, ms) {
  t.mock.timers.tick(ms);
  await new Promise((resolve) => setImmediate(resolve));
}

/** The work waiting on `state` goes exactly when the pause is over: not a tick before. */
async function goesAfterThePause(t, state) {
  await after(t, PAUSE - 1);
  assert.equal(state.done, false);
  await after(t, 1);
  assert.equal(state.done, true);
}

test("with no request, the work waits for the pause, then goes", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const requests = requestTracker(PAUSE);
  const idle = watch(requests.whenIdle());
  await goesAfterThePause(t, idle);
});

test("a request in flight holds the work however long it takes, and the pause starts again at its answer", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const requests = requestTracker(PAUSE);
  const idle = watch(requests.whenIdle());
  await after(t, PAUSE - 10);
  requests.begin(); // the page's first question, just before the pause was over
  await after(t, 10 * PAUSE);
  assert.equal(idle.done, false);
  requests.end();
  await goesAfterThePause(t, idle);
});

test("every request counts: the work goes once the last one is answered", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const requests = requestTracker(PAUSE);
  requests.begin();
  requests.begin();
  const idle = watch(requests.whenIdle());
  requests.end();
  await after(t, 2 * PAUSE);
  assert.equal(idle.done, false, "one request is still in flight");
  requests.end();
  await after(t, PAUSE);
  assert.equal(idle.done, true);
});

test("several waiting are let go together, and a later wait has its own pause", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const requests = requestTracker(PAUSE);
  const first = watch(requests.whenIdle());
  const second = watch(requests.whenIdle());
  await after(t, PAUSE);
  assert.deepEqual([first.done, second.done], [true, true]);
  const third = watch(requests.whenIdle());
  await goesAfterThePause(t, third);
});
