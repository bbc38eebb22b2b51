// pyrules engine worker (module worker).
//
// Boots Pyodide from this site's own copy (../pyodide/) with the pyrules wheel named by
// ../version.json installed and pyrules.api imported, then answers {id, request} messages
// with {id, answer}, where answer is the JSON text returned by pyrules.api.handle(request).
//
// Two ways to boot:
//   snapshot  a Pyodide memory snapshot kept on this device (snapshot.js) is restored:
//             Python, the wheel and the imported engine come back as they were, in a
//             fraction of the time. Every random generator is then reseeded from the OS.
//   fresh     plain loadPyodide(), micropip loaded by URL (the PyPI wheel we ship is not the
//             one pyodide-lock.json describes), the pyrules wheel (fetched from this site
//             while Python starts) installed by micropip.install(deps=False), every module
//             of pyrules imported; a snapshot of that state is taken before the first
//             request is answered, and stored once the worker is idle, for the next visit.
//             Any problem with a snapshot (missing, corrupt, of another version, restore
//             failing) ends here too: the only cost is a slower start.
//
// Pyodide 314 can only snapshot a heap whose JS references it knows how to rebuild: it
// cannot yet snapshot "package load state". So, once the engine is installed, micropip's
// modules are dropped (they hold Pyodide's own install functions, which cannot be put in a
// snapshot) and the table of loaded packages is emptied while the snapshot is copied (and
// filled again right after). Nothing of micropip is needed after a restore: the engine is
// already installed and imported in the restored heap.
//
// No Python source is ever received from the page: the only Python this worker runs is
// below (install, import, reseed) and calls of pyrules.api.handle().
//
// Messages sent to the page:
//   {type: "progress", step, loaded, total}   step: version | runtime | python | micropip |
//                                             pyrules
//   {type: "boot", path, ms, fallback, timings, origin}
//                                             path: snapshot | fresh; fallback: why a stored
//                                             snapshot was not used (null if none was tried);
//                                             timings: ms since the worker was created, per step;
//                                             origin: the worker's performance.timeOrigin
//   {type: "ready", version, build, path}
//   {type: "snapshot", state, ...}            state: stored | failed | skipped, after ready
//   {type: "error", step, message}
//   {id, answer}

const STARTED = performance.now();
const SITE = new URL("../", import.meta.url);
const PYODIDE_DIR = new URL("pyodide/", SITE);
const VERSION_URL = new URL("version.json", SITE);
// Quiet time before the snapshot is written (≈ 31 MB), so the page's first requests and
// the service worker's own caching go first; never later than STORE_MAX_WAIT_MS.
const STORE_IDLE_MS = 300;
const STORE_MAX_WAIT_MS = 5000;

let handle = null;
let booting = null;
let lastBusy = 0;
// Milliseconds since the worker was created (its performance.timeOrigin) at each step of the
// boot, told in the "boot" message; "script" is when this module started running.
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

// Count the bytes of the runtime files while Pyodide downloads them, so the page can show
// a real progress bar. Pyodide gets the response untouched; a clone of it is read alongside
// to count the bytes. (A wrapped Response would have no URL, and Chromium only keeps the
// compiled wasm in its code cache for responses that have one: later visits would compile
// the 9.6 MB module again.) Only the two big files are counted (≈ 12 MB together); the rest
// of the runtime is small. Once both are in, what remains of loadPyodide() is starting Python.
const RUNTIME_FILES = ["pyodide.asm.wasm", "python_stdlib.zip"];
const runtimeBytes = { loaded: 0, total: 0, seen: new Set(), done: new Set(), lastPost: 0 };

function watchRuntimeDownloads() {
  const originalFetch = self.fetch.bind(self);
  self.fetch = async (input, init) => {
    const response = await originalFetch(input, init);
    const url = String(input instanceof Request ? input.url : input);
    const name = RUNTIME_FILES.find((file) => url.endsWith("/pyodide/" + file));
    if (!name || !response.body || runtimeBytes.seen.has(name)) {
      return response;
    }
    runtimeBytes.seen.add(name);
    runtimeBytes.total += Number(response.headers.get("Content-Length")) || 0;
    quiet(countBytes(name, response.clone()));
    return response;
  };
}

async function countBytes(name, copy) {
  // Byte counts are only told once both sizes are known, so the bar never goes back.
  const counting = () => runtimeBytes.seen.size === RUNTIME_FILES.length;
  if (counting()) progress("runtime", runtimeBytes.loaded, runtimeBytes.total);
  const reader = copy.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    runtimeBytes.loaded += value.byteLength;
    const now = Date.now();
    if (counting() && now - runtimeBytes.lastPost > 200) {
      // At most 5 messages a second: the bar eases between them (CSS transition), and
      // each message costs the page's main thread a style and layout pass.
      runtimeBytes.lastPost = now;
      progress("runtime", Math.min(runtimeBytes.loaded, runtimeBytes.total), runtimeBytes.total);
    }
  }
  runtimeBytes.done.add(name);
  if (runtimeBytes.done.size === RUNTIME_FILES.length) {
    progress("python");
  }
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
// Everything that does not depend on something else starts now, in parallel: version.json,
// the Pyodide loader and its 1.2 MB companion module (the import() inside loadPyodide() then
// finds it loaded), and the look-up of a stored snapshot (./snapshot.js is imported here
// rather than statically, so that its download does not hold all of this back).
// loadPyodide() itself starts the wasm, the standard library and the lock file as soon as it
// is called.

watchRuntimeDownloads();
const infoPromise = quiet(fetchOK(VERSION_URL, { cache: "no-cache" }).then((r) => r.json()));
const pyodideModulePromise = quiet(import(new URL("pyodide.mjs", PYODIDE_DIR).href));
quiet(import(new URL("pyodide.asm.mjs", PYODIDE_DIR).href));
let SnapshotStore = null; // the class from ./snapshot.js, once loaded
let store = null; // null: no snapshot this time (no Cache Storage, or it failed)
const storedPromise = import("./snapshot.js")
  .then(async (module) => {
    SnapshotStore = module.SnapshotStore;
    store = SnapshotStore.open(SITE);
    return store ? await store.lookup() : { entry: null, failures: null };
  })
  .catch((error) => {
    console.warn("[pyrules] snapshot store unavailable:", message(error));
    store = null;
    return { entry: null, failures: null };
  });

function pyodideOptions(extra) {
  return {
    indexURL: PYODIDE_DIR.href,
    stdout: () => {},
    stderr: (text) => console.warn("[pyodide]", text),
    ...extra,
  };
}

// Install the engine's dependency wheels (lark, icepool, segno: version.json "deps", in
// wheels/; imported only at their first use, see putDepsOnPath) then the pyrules wheel with
// micropip (deps=False: no package index is ever asked)
// and import every module of pyrules except the command
// line, so that nothing of pyrules is ever imported lazily after a snapshot restore: the
// installed files live in the JS-side file system, which a memory snapshot does not hold.
// (The standard library stays importable: Pyodide writes its zip again at every start.)
// Then micropip is dropped, with every JS object its modules hold, and the garbage is
// collected: a snapshot must be taken with no live JS proxy.
//
// The wheel's bytes are fetched by this worker while Python starts, then given to micropip
// as an emfs: file. (Given the wheel's http URL, micropip would download it only once Python
// is up, and the JS Response it fetches stays referenced: no snapshot could be taken.)
const INSTALL = `
async def _pyrules_install(path, deps):
    import gc, importlib, importlib.metadata, os, sys
    import micropip
    for dep in deps:
        await micropip.install("emfs:" + dep, deps=False)
        os.remove(dep)
    await micropip.install("emfs:" + path, deps=False)
    os.remove(path)
    del micropip
    for name in [n for n in sys.modules if n == "micropip" or n.startswith("micropip.")]:
        del sys.modules[name]
    importlib.invalidate_caches()
    for file in sorted(str(f) for f in importlib.metadata.files("pyrules")):
        if file.startswith("pyrules/") and file.endswith(".py"):
            module = file[:-3].replace("/", ".").removesuffix(".__init__")
            if module.rpartition(".")[2] not in ("__main__", "cli"):
                importlib.import_module(module)
    gc.collect()
`;

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

function checkHandle(fn, info) {
  const answer = JSON.parse(fn(JSON.stringify({ op: "version" })));
  if (!answer.ok || answer.result.version !== info.version) {
    throw new Error(`engine answers version ${JSON.stringify(answer.result)}, want ${info.version}`);
  }
}

// The engine imports its libraries (lark, icepool, segno) at their first use, so that the
// snapshot fits the heap Pyodide starts with; a restored heap has an empty file system, so
// their wheels go back in it, on sys.path (pure-Python wheels import as zip files).
const DEPS_DIR = "/lib/pyrules-deps";

function depURLs(info) {
  return (info.deps || []).map((path) => new URL(path, VERSION_URL).href);
}

function putDepsOnPath(pyodide, urls, datas) {
  pyodide.FS.mkdirTree(DEPS_DIR);
  const paths = urls.map((url, i) => {
    const path = `${DEPS_DIR}/${url.slice(url.lastIndexOf("/") + 1)}`;
    pyodide.FS.writeFile(path, new Uint8Array(datas[i]));
    return path;
  });
  pyodide.runPython(`import sys\nsys.path[0:0] = ${JSON.stringify(paths)}\ndel sys\n`);
}

async function restore(pyodideModule, info, entry) {
  const bytes = quiet(SnapshotStore.bytes(entry).then((data) => (lap("snapshotRead"), data)));
  const urls = depURLs(info);
  const deps = quiet(Promise.all(urls.map((url) => fetchOK(url).then((r) => r.arrayBuffer()))));
  const pyodide = await pyodideModule.loadPyodide(pyodideOptions({ _loadSnapshot: bytes }));
  lap("loadPyodide");
  progress("python");
  pyodide.runPython(RESEED);
  putDepsOnPath(pyodide, urls, await deps);
  const fn = getHandle(pyodide);
  checkHandle(fn, info);
  return fn;
}

async function fresh(pyodideModule, info, makeSnapshot) {
  const micropipURL = new URL(info.micropip, VERSION_URL).href;
  const wheelURL = new URL(info.wheel, VERSION_URL).href;
  const wheel = quiet(fetchOK(wheelURL).then((r) => r.arrayBuffer()));
  // The engine's dependency wheels (version.json "deps", from build.py's ENGINE_WHEELS).
  const deps = depURLs(info);
  const depData = deps.map((url) => quiet(fetchOK(url).then((r) => r.arrayBuffer())));
  const pyodide = await step("runtime", () =>
    pyodideModule.loadPyodide(pyodideOptions(makeSnapshot ? { _makeSnapshot: true } : {})),
  );
  lap("loadPyodide");
  // Pyodide 314 restores into a heap of the size it starts with (it does not grow the heap
  // for a bigger snapshot), so a snapshot is only kept if the heap has not grown.
  const startHeap = pyodide._module && pyodide._module.HEAP8 ? pyodide._module.HEAP8.length : 0;
  progress("python");

  progress("micropip");
  await step("micropip", async () => {
    // loadPackage reports failures through errorCallback instead of rejecting.
    const problems = [];
    await pyodide.loadPackage(micropipURL, {
      messageCallback: () => {},
      errorCallback: (text) => problems.push(text),
    });
    if (problems.length) {
      throw new Error(problems.join(" "));
    }
  });
  lap("micropip");

  progress("pyrules");
  const data = await step("pyrules", () => wheel);
  await step("pyrules", async () => {
    // micropip reads the wheel's name for its version: keep the file name of the URL.
    const path = "/tmp/" + wheelURL.slice(wheelURL.lastIndexOf("/") + 1);
    pyodide.FS.writeFile(path, new Uint8Array(data));
    const depPaths = [];
    for (const [i, url] of deps.entries()) {
      const depPath = "/tmp/" + url.slice(url.lastIndexOf("/") + 1);
      pyodide.FS.writeFile(depPath, new Uint8Array(await depData[i]));
      depPaths.push(depPath);
    }
    await pyodide.runPythonAsync(
      `${INSTALL}\nawait _pyrules_install(${JSON.stringify(path)}, ${JSON.stringify(depPaths)})\ndel _pyrules_install\n`,
    );
  });
  lap("installed");

  // The snapshot is taken here, before any request: no request-specific state in it, no
  // live proxy, and the heap as small as it will ever be. It is a copy of the heap (~20 ms);
  // writing it to storage (the slow part) waits until the worker is idle after "ready".
  let snapshot = null;
  let skipped = makeSnapshot ? null : "disabled";
  if (makeSnapshot) {
    const heap = pyodide._module && pyodide._module.HEAP8 ? pyodide._module.HEAP8.length : 0;
    if (startHeap && heap !== startHeap) {
      skipped = `heap grew from ${startHeap} to ${heap} bytes`;
    } else {
      try {
        snapshot = withoutPackageTable(pyodide, () => pyodide.makeMemorySnapshot());
      } catch (error) {
        skipped = message(error);
      }
    }
  }
  lap("snapshot");
  const fn = await step("pyrules", () => getHandle(pyodide));
  return { fn, snapshot, skipped };
}

// Run make() with pyodide.loadedPackages emptied (the snapshot expects it as a fresh start
// leaves it), then put its entries back, whatever make() did.
function withoutPackageTable(pyodide, make) {
  const table = pyodide.loadedPackages;
  const entries = Object.entries(table);
  for (const [name] of entries) {
    delete table[name];
  }
  try {
    return make();
  } finally {
    Object.assign(table, Object.fromEntries(entries));
  }
}

async function boot() {
  progress("version");
  const info = await step("version", () => infoPromise);
  lap("version");
  const pyodideModule = await step("runtime", () => pyodideModulePromise);
  lap("pyodideModule");
  const stored = await storedPromise;
  lap("lookup");
  progress("runtime");

  let fallback = null;
  if (stored.entry) {
    if (SnapshotStore.matches(stored.entry, info)) {
      try {
        handle = await restore(pyodideModule, info, stored.entry);
        bootDone("snapshot", null);
        post({ type: "ready", version: info.version, build: info.build, path: "snapshot" });
        return;
      } catch (error) {
        fallback = message(error);
        console.warn("[pyrules] snapshot restore failed, booting normally:", fallback);
        stored.failures = SnapshotStore.nextFailures(stored.failures, info, fallback);
        quiet(store.recordFailure(stored.failures));
      }
    } else {
      // Left by another build or another Pyodide: of no use any more.
      fallback = "snapshot of another version";
      quiet(store.discard());
    }
  }

  const makeSnapshot = store !== null && SnapshotStore.worthMaking(stored.failures, info);
  const { fn, snapshot, skipped } = await fresh(pyodideModule, info, makeSnapshot);
  handle = fn;
  bootDone("fresh", fallback);
  post({ type: "ready", version: info.version, build: info.build, path: "fresh" });
  if (snapshot) {
    keepSnapshot(snapshot, info);
  } else {
    post({ type: "snapshot", state: "skipped", reason: skipped || "unavailable" });
  }
}

function bootDone(path, fallback) {
  lap("ready");
  post({ type: "boot", path, ms: timings.ready, fallback, timings, origin: performance.timeOrigin });
}

function idle() {
  const start = performance.now();
  return new Promise((resolve) => {
    const check = () => {
      const now = performance.now();
      const quietFor = now - lastBusy;
      if (quietFor >= STORE_IDLE_MS || now - start >= STORE_MAX_WAIT_MS) {
        resolve();
      } else {
        setTimeout(check, STORE_IDLE_MS - quietFor);
      }
    };
    setTimeout(check, STORE_IDLE_MS);
  });
}

async function keepSnapshot(snapshot, info) {
  lastBusy = performance.now();
  await idle();
  const started = performance.now();
  try {
    await store.save(snapshot, info);
    post({
      type: "snapshot",
      state: "stored",
      bytes: snapshot.byteLength,
      ms: Math.round(performance.now() - started),
      cache: store.name,
      key: store.key,
    });
  } catch (error) {
    console.warn("[pyrules] could not store the snapshot:", message(error));
    post({ type: "snapshot", state: "failed", reason: message(error) });
  }
}

function answer(id, request) {
  let text;
  try {
    text = handle(typeof request === "string" ? request : JSON.stringify(request));
  } catch (error) {
    // handle() never raises by contract; report an engine crash in the same shape.
    text = JSON.stringify({
      ok: false,
      error: { code: "engine_error", field: null, message: message(error) },
    });
  }
  lastBusy = performance.now();
  post({ id, answer: text });
}

self.onmessage = async (event) => {
  const { id, request } = event.data || {};
  if (id === undefined) {
    return;
  }
  try {
    await booting;
  } catch {
    return; // the page was told about the failure and restarts the worker
  }
  answer(id, request);
};

booting = boot();
booting.catch((error) => {
  post({
    type: "error",
    step: error instanceof BootError ? error.step : "runtime",
    message: message(error),
  });
});
