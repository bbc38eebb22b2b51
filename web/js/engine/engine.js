// Page side of the engine worker: starts it, relays boot progress, matches answers to
// requests, and restarts it on demand (Retry after a boot failure).
//
// The worker (./worker.js) is started by early.js, the first script of index.html's head,
// while the page is still being parsed. Engine.start() adopts that worker (and what it
// already said) instead of starting another one; without it (a page that has no early.js),
// it starts its own.
//
// How the worker booted is told with performance marks (and the "boot" event), for the tests and bench/boot.py:
//   pyrules:boot:snapshot | pyrules:boot:fresh    restored from the snapshot made at build
//                                                 time, or a plain boot; detail {ms,
//                                                 fallback (why the snapshot was not used,
//                                                 or null), source, cachedProblem, timings,
//                                                 origin}
//   pyrules:snapshot:stored | :not-stored         after ready: the raw snapshot was kept in
//                                                 Cache Storage for the next start, or not
//                                                 (detail {reason, began})
// engine.bootPath is "snapshot" or "fresh" once booted.
//
// A call never hangs (see docs/reliability.md): call() always resolves, with the engine's
// answer or with {ok: false, error: {code: "engine_unavailable", field: null, message}}.
//   crash     the worker fails after it was ready (an uncaught error, or debug.kill())
//   watchdog  calls are pending and the worker has answered nothing for CALL_MS (or the
//             longest timeoutMs of the pending calls): it is taken as hung
// Either way the worker is terminated and started again ("restart" event {reason, ms,
// retried, failed}), and every pending call is sent once more to the new worker, as it
// was (the page puts a seed in every roll, so a retried roll gives the same dice). A call
// caught in a second crash is answered engine_unavailable. More than MAX_RESTARTS restarts
// within RESTART_WINDOW_MS count as a boot failure (the boot panel and its Retry button).
//
// Test hooks, engine.debug (window.pyrules.debug):
//   kill()               terminate the worker as a crash would (the page notices at once)
//   stall()              terminate it without telling the page: only the watchdog notices
//   timeouts({call, boot}) change the watchdog (ms without an answer) and the boot stall limit
//   delay(ms)            hold every answer that long (a slow engine, for the odds "calcul…")
//   trace(on)            record every request sent to a worker in debug.sent (JSON texts)
//   info()               {state, restarts, pending, callMs}

import { prepare } from "./guard.js";
import { KEPT_KEY } from "../lib/kept-snapshot.js";
import { writeHint } from "../lib/storage.js";

const STALL_MS = 90000; // no word from a booting worker for this long counts as a failure
const CALL_MS = 20000; // no answer for this long while calls are pending: the worker is hung
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60000;

/** The worker early.js started, if it runs `url` (it can be adopted once), else null. */
function takeEarly(url) {
  const taken = globalThis.pyrulesEarly || null;
  globalThis.pyrulesEarly = null;
  if (taken && new URL(String(url), location.href).href !== taken.url) {
    taken.worker.terminate();
    return null;
  }
  return taken;
}

export class Engine extends EventTarget {
  /**
   * @param {URL|string} workerURL
   * @param {object} [options]
   * @param {Function} [options.unavailable]  the (translated) message of an engine_unavailable answer
   * @param {Function} [options.text]  (key, args) => translated message of an invalid request (guard.js)
   */
  constructor(workerURL, { unavailable, text } = {}) {
    super();
    this.workerURL = workerURL;
    this.unavailableText = unavailable || (() => "engine unavailable");
    this.messageText = text; // (key, args) => translated text of guard.js's messages
    this.callMs = CALL_MS;
    this.stallMs = STALL_MS;
    this.watchdog = null;
    this.restarts = []; // times of the recent restarts
    this.delayMs = 0;
    this.debug = this.makeDebug();
    this.worker = null;
    this.state = "idle"; // idle | booting | ready | restarting | error
    this.info = null;
    this.bootPath = null;
    this.nextId = 1;
    this.pending = new Map();
    this.stallTimer = null;
    let resolveReady;
    this.ready = new Promise((resolve) => {
      resolveReady = resolve;
    });
    this.resolveReady = resolveReady;
  }

  start() {
    this.stop();
    this.state = "booting";
    this.emit("progress", { step: "worker", loaded: 0, total: 0 });
    const adopted = takeEarly(this.workerURL);
    let worker;
    try {
      worker = adopted ? adopted.worker : new Worker(this.workerURL, { type: "module" });
    } catch (error) {
      this.fail("worker", error);
      return;
    }
    this.worker = worker;
    worker.onmessage = (event) => this.onMessage(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.workerError(event.message || "worker error");
    };
    worker.onmessageerror = () => this.workerError("message error");
    this.armStallTimer();
    // Requests made before a restart are sent again to the new worker.
    for (const [id, entry] of this.pending) {
      this.post(worker, id, entry.request);
    }
    if (adopted && adopted.queue.length) {
      this.replay(worker, adopted.queue);
    }
  }

  /** What the early worker said before it was adopted, in order, one microtask apart (so
   * that the page goes through each state, as if the messages had just arrived). */
  async replay(worker, queue) {
    for (const item of queue) {
      await null;
      if (this.worker !== worker) {
        return; // it failed meanwhile
      }
      if (item.kind === "message") {
        this.onMessage(item.data);
      } else {
        this.workerError(item.message);
      }
    }
  }

  stop() {
    clearTimeout(this.stallTimer);
    clearTimeout(this.watchdog);
    this.watchdog = null;
    if (this.worker) {
      this.worker.onmessage = null;
      this.worker.onerror = null;
      this.worker.terminate();
      this.worker = null;
    }
  }

  retry() {
    this.restarts = [];
    this.start();
  }

  armStallTimer() {
    clearTimeout(this.stallTimer);
    if (this.state === "booting") {
      this.stallTimer = setTimeout(() => this.fail(this.lastStep || "worker", "timeout"), this.stallMs);
    }
  }

  fail(step, error) {
    if (this.state === "error") {
      return;
    }
    this.stop();
    this.state = "error";
    const message = error && error.message ? error.message : String(error);
    // Nothing waits forever on a worker that could not start.
    for (const id of [...this.pending.keys()]) {
      this.settle(id, this.unavailable());
    }
    this.emit("error", { step, message });
  }

  /** The worker reported an error: a boot failure while booting, a crash once ready. */
  workerError(message) {
    if (this.state === "ready") {
      this.restart("crashed", message);
    } else {
      this.fail("worker", message);
    }
  }

  /** Terminate the worker and start a new one; pending calls get one more try. */
  restart(reason, message = "") {
    const now = performance.now();
    this.restarts = this.restarts.filter((time) => now - time < RESTART_WINDOW_MS);
    const silentFor = Math.round(now - (this.lastActivity || now));
    this.stop();
    let retried = 0;
    let failed = 0;
    for (const [id, entry] of [...this.pending]) {
      entry.attempts += 1;
      if (entry.attempts > 1) {
        failed += 1;
        this.settle(id, this.unavailable());
      } else {
        retried += 1;
      }
    }
    console.warn(`[pyrules] engine worker ${reason}${message ? `: ${message}` : ""}; restarting (${retried} call(s) retried, ${failed} failed)`);
    if (this.restarts.length >= MAX_RESTARTS) {
      this.state = "booting"; // so that fail() reports it
      this.fail("worker", `${reason}: restarted ${MAX_RESTARTS} times in a minute`);
      return;
    }
    this.restarts.push(now);
    this.state = "restarting";
    this.emit("restart", { reason, ms: silentFor, retried, failed, message });
    this.start();
  }

  unavailable() {
    return { ok: false, error: { code: "engine_unavailable", field: null, message: this.unavailableText() } };
  }

  /** Resolve a pending call (at most once). */
  settle(id, answer) {
    const entry = this.pending.get(id);
    if (!entry) {
      return;
    }
    this.pending.delete(id);
    entry.resolve(answer);
  }

  /** Arm the watchdog if calls are pending on a ready worker (an answer re-arms it). */
  armWatchdog(again = false) {
    if (again || this.pending.size === 0 || this.state !== "ready") {
      clearTimeout(this.watchdog);
      this.watchdog = null;
    }
    if (this.watchdog || this.pending.size === 0 || this.state !== "ready") {
      return;
    }
    let limit = this.callMs;
    for (const entry of this.pending.values()) {
      limit = Math.max(limit, entry.timeoutMs || 0);
    }
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      if (this.pending.size && this.state === "ready") {
        this.restart("timeout");
      }
    }, limit);
  }

  post(worker, id, request) {
    if (this.trace) {
      this.trace.push(request);
    }
    worker.postMessage({ id, request });
  }

  makeDebug() {
    const engine = this;
    return {
      sent: [],
      kill() {
        if (engine.worker) {
          engine.worker.terminate();
        }
        engine.workerError("killed by window.pyrules.debug.kill()");
      },
      stall() {
        if (engine.worker) {
          engine.worker.terminate(); // no event: it simply never answers again
        }
      },
      timeouts({ call, boot } = {}) {
        if (Number.isFinite(call) && call > 0) engine.callMs = call;
        if (Number.isFinite(boot) && boot > 0) engine.stallMs = boot;
        engine.armWatchdog(true);
      },
      delay(ms) {
        engine.delayMs = Math.max(0, Number(ms) || 0);
      },
      trace(on = true) {
        this.sent = [];
        engine.trace = on ? this.sent : null;
      },
      info() {
        return { state: engine.state, restarts: engine.restarts.length, pending: engine.pending.size, callMs: engine.callMs };
      },
    };
  }

  onMessage(data) {
    if (!data) {
      return;
    }
    if (data.id !== undefined) {
      this.lastActivity = performance.now();
      let answer;
      try {
        answer = JSON.parse(data.answer);
      } catch (error) {
        answer = { ok: false, error: { code: "engine_error", field: null, message: String(error && error.message) } };
      }
      const id = data.id;
      if (this.delayMs) {
        setTimeout(() => this.settle(id, answer), this.delayMs);
      } else {
        this.settle(id, answer);
      }
      this.armWatchdog(true);
      return;
    }
    if (data.type === "progress") {
      this.lastStep = data.step;
      this.armStallTimer();
      this.emit("progress", data);
    } else if (data.type === "ready") {
      clearTimeout(this.stallTimer);
      this.state = "ready";
      this.lastActivity = performance.now();
      this.armWatchdog(true);
      this.info = { version: data.version, build: data.build, path: data.path, digest: typeof data.digest === "string" ? data.digest : null };
      this.emit("ready", this.info);
      this.resolveReady(this.info);
    } else if (data.type === "boot") {
      this.bootPath = data.path;
      // timings: ms since the worker was created, per step; origin: its performance.timeOrigin.
      // source: "cache" (the raw copy stored by an earlier start) or "network" on a snapshot
      // boot; cachedProblem: why a stored raw copy was refused (it was deleted), else null.
      const { ms, timings, origin } = data;
      const detail = { ms, fallback: data.fallback || null, source: data.source || null, cachedProblem: data.cachedProblem || null, timings, origin };
      performance.mark(`pyrules:boot:${data.path}`, { detail });
      this.emit("boot", { path: data.path, ...detail });
    } else if (data.type === "snapshot") {
      // The raw snapshot was stored for the next start (or could not be: reason); began: when
      // the worker began storing (its clock, as the boot mark's timings).
      performance.mark(`pyrules:snapshot:${data.stored ? "stored" : "not-stored"}`, { detail: { reason: data.reason || null, began: data.began ?? null } });
      // The next start's hint (early.js): which build's raw copy this device keeps.
      writeHint(KEPT_KEY, data.stored && typeof this.info?.build === "string" ? this.info.build : null);
    } else if (data.type === "error") {
      this.fail(data.step, data.message);
    }
  }

  /**
   * Send one request (object or JSON text); resolves with the parsed answer, or with an
   * engine_unavailable error answer (never rejects, never hangs). timeoutMs: a longer
   * watchdog while this call is pending (a long computation).
   */
  call(request, { timeoutMs = 0 } = {}) {
    let prepared;
    try {
      prepared = prepare(request, this.messageText);
    } catch {
      prepared = prepare(request); // a translation failed: English
    }
    if (prepared.answer) return Promise.resolve(prepared.answer);
    const text = prepared.text;
    const id = this.nextId++;
    return new Promise((resolve) => {
      if (this.state === "error") {
        resolve(this.unavailable());
        return;
      }
      this.pending.set(id, { request: text, resolve, attempts: 0, timeoutMs });
      if (this.worker) {
        this.post(this.worker, id, text);
      }
      if (!this.pending.has(id)) {
        return;
      }
      if (this.pending.size === 1) {
        this.lastActivity = performance.now(); // the silence counts from the first call
      }
      this.armWatchdog();
    });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
