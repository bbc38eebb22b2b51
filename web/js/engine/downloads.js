// The engine worker's view of the runtime's downloads (worker.js only): the wasm asked for
// early, the bytes of the two big files (the wasm and the snapshot) counted for a real
// progress bar, and the moment the wasm's last byte came in (for bench/engines.py's table).
//
// Pyodide gets the responses untouched, a clone is read alongside (a wrapped Response would
// have no URL, and Chromium keeps the compiled wasm in its code cache only for responses that
// have one). Only the big files are counted (the snapshot leaves the list when its
// stored raw copy is used; nothing is counted after the boot). Once all are in, what remains
// is restoring (or starting) Python.
//
// The wasm is also compiled from its first byte (WebAssembly.compileStreaming of a clone),
// not once loadPyodide() gets to it: loadPyodide() only instantiates after it has the
// snapshot, so its own compile would follow the snapshot's read instead of running beside
// it. Pyodide's instantiateStreaming() of that very response is then answered with the
// module compiled here.

const SNAPSHOT = "engine/snapshot.bin.gz";
// The timings of the runtime's downloads (their last byte in), for bench/engines.py's table.
const DOWNLOADED = { "pyodide/pyodide.asm.wasm": "wasmLoaded" };
/** A URL ending so is answered at once with an empty file, never asked for (see later()). */
const LATER = "#after-ready";

/** The URL to hand Pyodide for a file it would wait for but the restored heap does not need
 * yet (the standard library's zip): Pyodide writes an empty file in its place, and the
 * worker writes the real one after ready. */
export function later(url) {
  return url + LATER;
}

function quiet(promise) {
  promise.catch(() => {});
  return promise;
}

/**
 * Wrap self.fetch. progress(step, loaded, total) tells the page; lap(name) times a step.
 * Returns {prefetch(), snapshotStored(), over()}:
 *   prefetch()        ask for the wasm now, instead of once the loader has arrived and
 *                     loadPyodide() runs; Pyodide's own fetch of the same URL gets that
 *                     response (once). In WebKit and Firefox a
 *                     worker's downloads go through the page's main thread, busy with the
 *                     page's own start (parsing, the first paint, main.js): asked early, they
 *                     come in meanwhile instead of after it; the wasm is compiled as
 *                     it comes in (laps "wasmCompiled", then "wasmInstantiated" once
 *                     Pyodide's instantiation got that module)
 *   snapshotStored()  the snapshot is the raw copy kept in the cache: not downloaded
 *   over()            the boot is done: nothing more is counted
 */
export function watchDownloads({ pyodideDir, progress, lap }) {
  let files = ["pyodide/pyodide.asm.wasm", SNAPSHOT];
  const bytes = { loaded: 0, total: 0, seen: new Set(), done: new Set(), lastPost: 0, over: false };
  const early = new Map();
  const counting = () => files.every((file) => bytes.seen.has(file));
  // The runtime's files are all in (the last byte of each counted one): what remains is
  // restoring (or starting) Python. Told once the last comes, whichever it is.
  const tellIfAllIn = () => {
    if (!bytes.over && files.every((file) => bytes.done.has(file))) progress("python");
  };

  async function countBytes(name, copy) {
    // Byte counts are only told once both sizes are known, so the bar never goes back.
    if (counting()) progress("runtime", bytes.loaded, bytes.total);
    const reader = copy.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes.loaded += value.byteLength;
      const now = Date.now();
      if (counting() && now - bytes.lastPost > 200) {
        // At most 5 messages a second: the bar eases between them (CSS transition), and
        // each message costs the page's main thread a style and layout pass.
        bytes.lastPost = now;
        progress("runtime", Math.min(bytes.loaded, bytes.total), bytes.total);
      }
    }
    bytes.done.add(name);
    if (DOWNLOADED[name]) lap(DOWNLOADED[name]);
    tellIfAllIn();
  }

  const originalFetch = self.fetch.bind(self);
  self.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.endsWith(LATER)) return new Response(new Uint8Array(0)); // an empty file for now
    const started = early.get(url);
    early.delete(url);
    const response = await (started || originalFetch(input, init));
    const name = files.find((file) => url.endsWith("/" + file));
    if (!name || !response.body || bytes.seen.has(name) || bytes.over) return response;
    bytes.seen.add(name);
    bytes.total += Number(response.headers.get("Content-Length")) || 0;
    quiet(countBytes(name, response.clone()));
    return response;
  };

  return {
    prefetch() {
      const url = new URL("pyodide.asm.wasm", pyodideDir).href;
      early.set(url, quiet(originalFetch(url, { credentials: "same-origin" })));
      compileEarly(early.get(url), lap);
    },
    snapshotStored() {
      files = files.filter((file) => file !== SNAPSHOT);
      tellIfAllIn(); // the wasm may be in already: it waited for the snapshot's download
    },
    over() {
      bytes.over = true;
    },
  };
}

/**
 * Compile the runtime's wasm from `responsePromise` as it streams in, and answer Pyodide's
 * WebAssembly.instantiateStreaming() of that same Response with the compiled module. Any
 * other source goes to the browser's own function; a compile that failed (a wrong MIME type,
 * say) instantiates from the bytes instead, as Pyodide would not.
 */
function compileEarly(responsePromise, lap) {
  const compiled = quiet(
    responsePromise.then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const module = await WebAssembly.compileStreaming(response.clone());
      lap("wasmCompiled");
      return module;
    }),
  );
  const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const response = await source;
    if (response !== (await responsePromise.catch(() => null))) return instantiateStreaming(response, imports);
    WebAssembly.instantiateStreaming = instantiateStreaming; // once: it was the runtime's
    let module;
    try {
      module = await compiled;
    } catch {
      return WebAssembly.instantiate(await response.arrayBuffer(), imports);
    }
    quiet(response.body ? response.body.cancel() : Promise.resolve());
    const instance = await WebAssembly.instantiate(module, imports);
    lap("wasmInstantiated"); // from the module compiled here
    return { module, instance };
  };
}
