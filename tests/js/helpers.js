// Shared helpers of the node tests (node --test tests/js/): the engine's own description
// of the systems (asked from the Python package, never copied), and a fake localStorage.

import { execFileSync, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let description = null;

/** The engine's answer to {"op": "systems"}, from pyrules itself. */
export function systemsDescription() {
  if (!description) {
    const code = "import json; from pyrules.registry import describe; print(json.dumps(describe()))";
    const python = process.env.PYTHON || "python3";
    description = JSON.parse(execFileSync(python, ["-c", code], { cwd: ROOT, encoding: "utf-8" }));
  }
  return structuredClone(description);
}

/** engine.call as the page has it, answered by pyrules.api.handle itself (one python per call). */
export async function engineCall(request) {
  return sharedEngine().call(request);
}

let shared = null;

/**
 * One python answering engineCall for the whole test file (issue 42: a python started per
 * call cost more than the calls). It holds the event loop only while a call waits, so the
 * test file ends when its tests do; the python then reads the end of its input and stops.
 */
function sharedEngine() {
  if (shared) return shared;
  const code = "import sys\nfrom pyrules.api import handle\nfor line in sys.stdin:\n    print(handle(line), flush=True)\n";
  const python = process.env.PYTHON || "python3";
  const child = spawn(python, ["-c", code], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const waiting = [];
  const hold = (on) => [child, child.stdin, child.stdout].forEach((handle) => (on ? handle.ref() : handle.unref()));
  createInterface({ input: child.stdout }).on("line", (line) => {
    waiting.shift()?.(JSON.parse(line));
    if (!waiting.length) hold(false);
  });
  hold(false);
  shared = {
    call: (request) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        hold(true);
        child.stdin.write(`${JSON.stringify(request)}\n`);
      }),
  };
  return shared;
}

/** Several answers of pyrules.api.handle from one python (each request answered on its own). */
export function engineAnswers(requests) {
  const code = "import json, sys; from pyrules.api import handle; print(json.dumps([json.loads(handle(json.dumps(r))) for r in json.load(sys.stdin)]))";
  const python = process.env.PYTHON || "python3";
  return JSON.parse(execFileSync(python, ["-c", code], { cwd: ROOT, input: JSON.stringify(requests), encoding: "utf-8" }));
}

export function system(id) {
  return systemsDescription().systems.find((s) => s.id === id);
}

/** A Storage-like object; `full` makes setItem throw QuotaExceededError. */
export class FakeStorage {
  constructor() {
    this.data = new Map();
    this.full = false;
  }
  get length() {
    return this.data.size;
  }
  key(i) {
    return [...this.data.keys()][i] ?? null;
  }
  getItem(key) {
    return this.data.has(key) ? this.data.get(key) : null;
  }
  setItem(key, value) {
    if (this.full) throw Object.assign(new Error("full"), { name: "QuotaExceededError" });
    this.data.set(key, String(value));
  }
  removeItem(key) {
    this.data.delete(key);
  }
}

/** Install a fake `window` (localStorage + storage events) before the modules are imported. */
export function fakeWindow() {
  const listeners = [];
  const storage = new FakeStorage();
  globalThis.window = {
    localStorage: storage,
    addEventListener: (type, fn) => listeners.push({ type, fn }),
    removeEventListener: () => {},
  };
  return { storage, fire: (key) => listeners.filter((l) => l.type === "storage").forEach((l) => l.fn({ key })) };
}

/**
 * engine.call as the page has it, answered by ONE python running pyrules.api.handle for the
 * whole test file (a line of JSON in, a line out, in order). `engine.close()` ends it; `asked`
 * counts the requests it answered, by op.
 */
export function engineProcess() {
  const code = "import sys\nfrom pyrules.api import handle\nfor line in sys.stdin:\n    print(handle(line), flush=True)\n";
  const python = process.env.PYTHON || "python3";
  const child = spawn(python, ["-c", code], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const waiting = [];
  const asked = {};
  createInterface({ input: child.stdout }).on("line", (line) => waiting.shift()?.(JSON.parse(line)));
  const call = (request) =>
    new Promise((resolve) => {
      asked[request.op] = (asked[request.op] ?? 0) + 1;
      waiting.push(resolve);
      child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  return { call, asked, close: () => child.stdin.end() };
}
