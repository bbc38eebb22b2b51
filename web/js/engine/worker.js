// pyrules engine worker (module worker).
//
// Boots Pyodide from this site's own copy (../pyodide/) with the pyrules wheel named by
// ../version.json installed and pyrules.api imported, then answers {id, request} messages
// with {id, answer}, where answer is the JSON text returned by pyrules.api.handle(request).
// Started by early.js, its first message is {type: "hint", kept}: the build whose raw
// snapshot this device keeps, or null (lib/kept-snapshot.js).
//
// Two ways to boot:
//   snapshot  the memory snapshot made at build time (build.py, tools/snapshot.mjs; named by
//             version.json "snapshot", which the build bakes into this file) is restored:
//             Python, the wheels and the imported engine come back as they were when the
//             site was built, in a fraction of the time of a plain start. Every random
//             generator is then reseeded from the OS. The snapshot is the raw copy this
//             worker stored in Cache Storage on an earlier start of this build
//             (./snapshot.js), else the site's gzipped file, fetched while the runtime loads
//             and decompressed natively (DecompressionStream), then stored raw after ready.
//             Both hold the heap packed, without its runs of zeros (half the bytes to
//             decompress or read back); unpacked into a zero-filled heap (./snapshot.js).
//   fresh     plain loadPyodide(), micropip loaded by URL (the PyPI wheel we ship is not the
//             one pyodide-lock.json describes), the wheels of version.json "wheels" (fetched
//             from this site while Python starts) installed by micropip and imported, with
//             the same code the build uses (./install.js). Taken when the snapshot is
//             missing, corrupt, refused by Pyodide (another runtime build), or its restore
//             fails: the only cost is a slower start. A stored raw copy that fails is
//             deleted, and the site's file fetched again after ready to take its place.
//
// No Python source is ever received from the page: the only Python this worker runs is
// below (install, import, reseed) and calls of pyrules.api.handle().
//
// Messages sent to the page:
//   {type: "progress", step, loaded, total}   step: version | runtime | python | micropip |
//                                             pyrules
//   {type: "boot", path, ms, fallback, source, cachedProblem, timings, origin}
//                                             path: snapshot | fresh; fallback: why a stored
//                                             snapshot was not used (null if none was tried);
//                                             source: cache | network (snapshot path);
//                                             cachedProblem: why a stored raw copy was refused;
//                                             timings: ms since the worker was created, per step;
//                                             origin: the worker's performance.timeOrigin
//   {type: "ready", version, build, path, digest}   digest: of the engine's description
//                                       (its `version` answer), or null
//   {type: "snapshot", stored, reason, began} after ready and the page's first answers: the
//                                             raw snapshot kept or why not; began: when
//                                             storing began (ms, as timings)
//   {type: "error", step, message}
//   {id, answer}

import { later, watchDownloads } from "./downloads.js";
import { requestTracker } from "./idle.js";
import { cachedSnapshot, fetchSnapshot, forgetRawSnapshot, storeRawSnapshot } from "./snapshot.js";

const STARTED = performance.now();
const SITE = new URL("../../", import.meta.url);
const PYODIDE_DIR = new URL("pyodide/", SITE);
const VERSION_URL = new URL("version.json", SITE);
// version.json's content, written here by build.py (buildtools/site.py, finish_site): the
// boot needs no request before the runtime and the snapshot. Left as the placeholder string
// (a worker served straight from web/), version.json is fetched instead.
const BUILD_INFO = "__BUILD_INFO__";

let handle = null;
let booting = null;
const requests = requestTracker(150); // the page's first questions come a few ms apart
let latePlaced = null; // after a restore, until the standard library and lazy wheels are in
// Ms since the worker was created, per boot step, for the "boot" message ("script": this ran).
const timings = { script: Math.round(STARTED) };

function lap(name) {
  timings[name] = Math.round(performance.now());
}

function post(message) {
  self.postMessage(message);
}

function progress(step, loaded = 0, total = 0) {
  post({ type: "progress", step, loaded, total });
}

// A promise whose failure is reported where it is awaited, never as "unhandled".
function quiet(promise) {
  promise.catch(() => {});
  return promise;
}

class BootError extends Error {
  constructor(step, cause) {
    super(cause && cause.message ? cause.message : String(cause));
    this.step = step;
  }
}

async function step(name, action) {
  try {
    return await action();
  } catch (error) {
    throw new BootError(name, error);
  }
}

function message(error) {
  return error && error.message ? error.message : String(error);
}

async function fetchOK(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) {
    throw new Error(`HTTP ${response.status} ${new URL(url).pathname}`);
  }
  return response;
}

// ---------------------------------------------------------------------------- start-up
// Everything that does not depend on something else starts now, in parallel, in this first
// task: the Pyodide loader and its 1.2 MB companion module (the import() inside loadPyodide()
// then finds it loaded), the wasm (downloads.prefetch), the install
// code of the fallback (./install.js, imported here rather than statically, so that its
// download holds nothing back), then the snapshot (version.json is baked in; unbaked, it is
// fetched first). loadPyodide() itself asks for the lock file.

const downloads = watchDownloads({ pyodideDir: PYODIDE_DIR, progress, lap });
const BAKED_INFO = typeof BUILD_INFO === "object" && BUILD_INFO !== null ? BUILD_INFO : null;
const infoPromise = quiet(
  BAKED_INFO ? Promise.resolve(BAKED_INFO) : fetchOK(VERSION_URL, { cache: "no-cache" }).then((r) => r.json()),
);
const pyodideModulePromise = quiet(import(new URL("pyodide.mjs", PYODIDE_DIR).href));
quiet(import(new URL("pyodide.asm.mjs", PYODIDE_DIR).href));
downloads.prefetch();
const installPromise = quiet(import("./install.js"));
// The snapshot is asked for at once, alongside the runtime: the raw copy this worker stored
// on an earlier start, else the site's gzipped file; with version.json baked in, in this very
// task. Last: in WebKit, opening Cache Storage from a worker holds the worker's thread until
// the page's main thread is free (0.3–0.4 s while the page starts), and the requests above
// are then already out.
// Started by early.js ("#hint" in this worker's URL), the page's first message says which
// build's raw copy this device keeps (lib/kept-snapshot.js): none for this build, the site's
// file is asked for at once, with no look into Cache Storage (in WebKit that look holds this
// thread until the page's main thread is free: about 0.1 s of a first visit). Started by
// the page itself (engine.js, a restart), no hint: it looks.
let tellKept = null;
const keptPromise = self.location.hash === "#hint" ? new Promise((resolve) => (tellKept = resolve)) : Promise.resolve(undefined);
let snapshotSource = "network"; // "cache" when the raw copy was used
let cachedProblem = null; // why a stored raw copy was not used (it is then deleted)
const snapshotPromise = quiet(BAKED_INFO ? readSnapshot(BAKED_INFO) : infoPromise.then((info) => readSnapshot(info)));

/** The snapshot, {packed, heap} (./snapshot.js): the stored raw copy, else the site's file. */
async function readSnapshot(info) {
  const kept = await keptPromise;
  const look = kept === undefined || kept === String(info.build);
  const cached = look ? await rawCopy(info) : null;
  if (cached) return fromCache(cached);
  try {
    const snapshot = await fetchSnapshot(info, fetchOK);
    lap("snapshotRead");
    return snapshot;
  } catch (error) {
    // Told none is kept, and the site's file could not be had (offline: it is not in the
    // offline copy): a copy may be there all the same (the hint lost, Cache Storage not).
    const copy = look ? null : await rawCopy(info);
    if (!copy) throw error;
    return fromCache(copy);
  }
}

/** The raw copy stored for this build, or null (why one was refused: cachedProblem). */
function rawCopy(info) {
  return cachedSnapshot(info).catch((error) => {
    cachedProblem = message(error);
    return null;
  });
}

function fromCache(copy) {
  snapshotSource = "cache";
  downloads.snapshotStored();
  lap("snapshotRead");
  return copy;
}

/** The heap for loadPyodide(), handed over once: this worker keeps no second copy of it. */
function heapOf(snapshot) {
  const { heap } = snapshot;
  snapshot.heap = null;
  return heap;
}


function pyodideOptions(extra) {
  return {
    indexURL: PYODIDE_DIR.href,
    stdout: () => {},
    stderr: (text) => console.warn("[pyodide]", text),
    ...extra,
  };
}

// After a restore: the state of every generator was frozen in the snapshot. The engine
// draws unseeded rolls from secrets (the OS, crypto.getRandomValues), which holds no state;
// random's shared instance is reseeded from the OS anyway, in case anything uses it.
const RESEED = `
import random as _random
_random.seed()
del _random
`;

function getHandle(pyodide) {
  return pyodide.pyimport("pyrules.api").handle;
}

/** The engine's `version` answer (throws as the engine or its reply does). */
function versionAnswer(fn) {
  return JSON.parse(fn(JSON.stringify({ op: "version" })));
}

/** The digest of the engine's description in the `version` answer `get()` gives, or null
 * (then the page asks for the description): the page skips its `systems` call when it was
 * drawn from a description of the same digest (app/boot.js). */
function digestOf(get) {
  try {
    const answer = get();
    return answer?.ok && typeof answer.result.digest === "string" ? answer.result.digest : null;
  } catch {
    return null;
  }
}

/** The restored engine is the one version.json names; returns its `version` answer. */
function checkHandle(fn, info) {
  const answer = versionAnswer(fn);
  if (!answer.ok || answer.result.version !== info.version) {
    throw new Error(`engine answers version ${JSON.stringify(answer.result)}, want ${info.version}`);
  }
  return answer;
}


// Wheels installed but not imported at build time (version.json "wheels" with no imports:
// the engine's libraries, imported at their first use so that the snapshot fits the start
// heap): a restored heap has an empty file system, so they go back in it, on sys.path
// (pure-Python wheels import as zip files).
const LAZY_DIR = "/lib/pyrules-lazy";

function lazyWheels(info) {
  return engineWheels(info).filter((wheel) => wheel.imports.length === 0);
}

function putWheelsOnPath(pyodide, wheels, datas) {
  if (!wheels.length) return;
  pyodide.FS.mkdirTree(LAZY_DIR);
  const paths = wheels.map((wheel, i) => {
    const path = `${LAZY_DIR}/${wheel.url.slice(wheel.url.lastIndexOf("/") + 1)}`;
    pyodide.FS.writeFile(path, new Uint8Array(datas[i]));
    return path;
  });
  pyodide.runPython(`import sys\nsys.path[0:0] = ${JSON.stringify(paths)}\ndel sys\n`);
}

/** After a restore: the standard library's zip where Pyodide left an empty file, the lazy
 * wheels on sys.path, and the import system told (a failed import may have been cached). */
function placeLateFiles(pyodide, stdlib, wheels, datas) {
  const path = pyodide.runPython("import sys\nf'/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip'");
  pyodide.FS.writeFile(path, new Uint8Array(stdlib));
  putWheelsOnPath(pyodide, wheels, datas);
  pyodide.runPython("import importlib\nimportlib.invalidate_caches()\ndel importlib\n");
}

/** The engine restored from the snapshot: {fn, the handle; version, its `version` answer}. */
async function restore(pyodideModule, info) {
  const lazy = lazyWheels(info);
  // The restored heap holds every module the engine imported at build time: the standard
  // library's zip (2 MB) is not needed before ready. Pyodide waits for the file it is given,
  // so it gets an empty one now and the real one comes after (placeLateFiles).
  const stdLibURL = later(new URL("python_stdlib.zip", PYODIDE_DIR).href);
  const loading = pyodideModule.loadPyodide(pyodideOptions({ stdLibURL, _loadSnapshot: quiet(snapshotPromise.then(heapOf)) }));
  // The files needed only after ready are asked for then: on a slow link they would share
  // it with the runtime, and on a busy device the engine's thread with the restore.
  const bytesOf = (url) => fetchOK(url).then((r) => r.arrayBuffer());
  const stdlib = () => bytesOf(new URL("python_stdlib.zip", PYODIDE_DIR).href).then((bytes) => (lap("stdlibLoaded"), bytes));
  const fetchLate = () => Promise.all([stdlib(), Promise.all(lazy.map((w) => bytesOf(w.url)))]);
  const pyodide = await loading;
  lap("loadPyodide");
  // Pyodide's config keeps what _loadSnapshot was given, the promise of the heap (31 MB),
  // now copied into the runtime's memory: let it go (a private field, left alone if another
  // Pyodide has none).
  if (pyodide._api && pyodide._api.config && "_loadSnapshot" in pyodide._api.config) {
    pyodide._api.config._loadSnapshot = null;
  }
  progress("python");
  pyodide.runPython(RESEED);
  const fn = getHandle(pyodide);
  const version = checkHandle(fn, info);
  // Ready without them: the engine imports from them only at its first use of free dice or
  // QR codes, most often long after they came in; a request refused before is asked again
  // once they are placed (self.onmessage). Asked for now, after ready.
  latePlaced = fetchLate()
    .then(([stdlib, datas]) => placeLateFiles(pyodide, stdlib, lazy, datas))
    .catch((error) => console.warn("[pyrules] the standard library or a wheel is missing:", message(error)))
    .then(() => {
      latePlaced = null;
    });
  return { fn, version };
}

/** The engine's wheels of version.json, in install order: [{url, imports}]. */
function engineWheels(info) {
  if (Array.isArray(info.wheels) && info.wheels.length) {
    return info.wheels.map((w) => ({ url: new URL(String(w.url), VERSION_URL).href, imports: w.imports.map(String) }));
  }
  return [{ url: new URL(info.wheel, VERSION_URL).href, imports: ["pyrules.*"] }];
}

async function fresh(pyodideModule, info) {
  const micropipURL = new URL(info.micropip, VERSION_URL).href;
  const wheels = engineWheels(info).map((wheel) => ({
    name: wheel.url.slice(wheel.url.lastIndexOf("/") + 1),
    imports: wheel.imports,
    bytes: quiet(fetchOK(wheel.url).then((r) => r.arrayBuffer())),
  }));
  const install = await step("pyrules", () => installPromise);
  const pyodide = await step("runtime", () => pyodideModule.loadPyodide(pyodideOptions({})));
  lap("loadPyodide");
  progress("python");

  progress("micropip");
  await step("micropip", () => install.loadMicropip(pyodide, micropipURL));
  lap("micropip");

  progress("pyrules");
  await step("pyrules", async () => {
    const loaded = [];
    for (const wheel of wheels) {
      loaded.push({ ...wheel, bytes: new Uint8Array(await wheel.bytes) });
    }
    await install.installWheels(pyodide, loaded);
  });
  lap("installed");
  return step("pyrules", () => getHandle(pyodide));
}

async function boot() {
  progress("version");
  const info = await step("version", () => infoPromise);
  lap("version");
  const pyodideModule = await step("runtime", () => pyodideModulePromise);
  lap("pyodideModule");
  progress("runtime");

  // loadPyodide() starts fetching the runtime at once, and waits for the snapshot (fetched
  // since version.json came in) before it instantiates the heap.
  let fallback = null;
  try {
    const restored = await restore(pyodideModule, info);
    handle = restored.fn;
    bootDone("snapshot", null);
    post({ type: "ready", version: info.version, build: info.build, path: "snapshot", digest: digestOf(() => restored.version) });
    if (snapshotSource === "network") keepRawSnapshot(info, () => snapshotPromise); // not awaited
    else snapshotPromise.then((snapshot) => (snapshot.packed = null)); // nothing kept
    return;
  } catch (error) {
    // A snapshot that could not be read says why; otherwise the restore itself failed.
    fallback = await snapshotPromise.then(() => message(error), (reason) => message(reason));
  }
  if (snapshotSource === "cache") {
    // The stored raw copy would not restore: it goes, and the site's file is fetched again
    // (after ready) to be stored in its place.
    fallback = `stored copy: ${fallback}`;
    await forgetRawSnapshot(info);
  }
  console.warn("[pyrules] snapshot not used, booting normally:", fallback);
  handle = await fresh(pyodideModule, info);
  bootDone("fresh", fallback);
  post({ type: "ready", version: info.version, build: info.build, path: "fresh", digest: digestOf(() => versionAnswer(handle)) });
  if (snapshotSource === "cache") keepRawSnapshot(info, () => fetchSnapshot(info, fetchOK)); // refetched
}

/** Store the raw (packed) snapshot for the next start, then let it go; tells the page how it
 * went. Not awaited by boot(), and begun once the page has had its answers (./idle.js: it
 * holds this thread). `read()` gives the snapshot (the site's file is fetched again only
 * then, after a stored copy failed). */
async function keepRawSnapshot(info, read) {
  let outcome;
  let began = null;
  try {
    await requests.whenIdle();
    began = Math.round(performance.now());
    const snapshot = await read();
    const { packed } = snapshot;
    snapshot.packed = null;
    outcome = await storeRawSnapshot(info, packed);
  } catch (error) {
    outcome = { stored: false, reason: message(error) };
  }
  post({ type: "snapshot", ...outcome, began });
}

function bootDone(path, fallback) {
  lap("ready");
  downloads.over();
  const source = path === "snapshot" ? snapshotSource : null;
  post({ type: "boot", path, ms: timings.ready, fallback, source, cachedProblem, timings, origin: performance.timeOrigin });
}

function answer(request) {
  try {
    return handle(typeof request === "string" ? request : JSON.stringify(request));
  } catch (error) {
    // handle() never raises by contract; report an engine crash in the same shape.
    return JSON.stringify({
      ok: false,
      error: { code: "engine_error", field: null, message: message(error) },
    });
  }
}

self.onmessage = async (event) => {
  const { id, request, type, kept } = event.data || {};
  if (type === "hint" && tellKept) {
    tellKept(typeof kept === "string" ? kept : null); // anything else names no build
    tellKept = null;
    return;
  }
  if (id === undefined) {
    return;
  }
  requests.begin();
  try {
    const booted = await booting.then(() => true, () => false);
    if (!booted) return; // the page was told about the failure and restarts the worker
    let text = answer(request);
    // A refusal while the standard library or the lazy wheels are still on their way may be
    // an import from them: the same request again once they are in. handle() is pure, and
    // the first answer was not sent.
    if (latePlaced && !JSON.parse(text).ok) {
      await latePlaced;
      text = answer(request);
    }
    post({ id, answer: text });
  } finally {
    requests.end();
  }
};

booting = boot();
booting.catch((error) => {
  post({
    type: "error",
    step: error instanceof BootError ? error.step : "runtime",
    message: message(error),
  });
});
