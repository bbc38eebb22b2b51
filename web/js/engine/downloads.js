// The engine worker's view of the runtime's downloads (worker.js only): the wasm and the
// standard library asked for early, the bytes of the three big files counted for a real
// progress bar, the moment the last byte of each came in (for bench/engines.py's table), and
// when the runtime's two big requests are out (the lazy wheels wait for it).
//
// Pyodide gets the responses untouched, a clone is read alongside (a wrapped Response would
// have no URL, and Chromium keeps the compiled wasm in its code cache only for responses that
// have one). Only the three big files are counted (the snapshot leaves the list when its
// stored raw copy is used; nothing is counted after the boot). Once all are in, what remains
// is restoring (or starting) Python.

const SNAPSHOT = "engine/snapshot.bin.gz";
// The timings of the runtime's downloads (their last byte in), for bench/engines.py's table.
const DOWNLOADED = { "pyodide/pyodide.asm.wasm": "wasmLoaded", "pyodide/python_stdlib.zip": "stdlibLoaded" };

function quiet(promise) {
  promise.catch(() => {});
  return promise;
}

/**
 * Wrap self.fetch. progress(step, loaded, total) tells the page; lap(name) times a step.
 * Returns {prefetch(), snapshotStored(), over(), asked}:
 *   prefetch()        ask for the wasm and the standard library now, instead of once the
 *                     loader has arrived and loadPyodide() runs; Pyodide's own fetch of the
 *                     same URL gets that response (once each). In WebKit and Firefox a
 *                     worker's downloads go through the page's main thread, busy with the
 *                     page's own start (parsing, the first paint, main.js): asked early, they
 *                     come in meanwhile instead of after it
 *   snapshotStored()  the snapshot is the raw copy kept in the cache: not downloaded
 *   over()            the boot is done: nothing more is counted
 *   asked             resolved once the answers for the wasm and the snapshot have begun
 */
export function watchDownloads({ pyodideDir, progress, lap }) {
  let files = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", SNAPSHOT];
  const bytes = { loaded: 0, total: 0, seen: new Set(), done: new Set(), lastPost: 0, over: false };
  const early = new Map();
  const askedFiles = new Set();
  let askedResolve;
  const asked = new Promise((resolve) => (askedResolve = resolve));
  const noteAsked = (url) => {
    for (const file of ["pyodide/pyodide.asm.wasm", SNAPSHOT]) if (url.endsWith("/" + file)) askedFiles.add(file);
    if (askedFiles.size === 2) askedResolve();
  };
  const counting = () => files.every((file) => bytes.seen.has(file));

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
    if (!bytes.over && files.every((file) => bytes.done.has(file))) progress("python");
  }

  const originalFetch = self.fetch.bind(self);
  self.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const started = early.get(url);
    early.delete(url);
    const response = await (started || originalFetch(input, init));
    noteAsked(url); // its answer has begun: the request is out
    const name = files.find((file) => url.endsWith("/" + file));
    if (!name || !response.body || bytes.seen.has(name) || bytes.over) return response;
    bytes.seen.add(name);
    bytes.total += Number(response.headers.get("Content-Length")) || 0;
    quiet(countBytes(name, response.clone()));
    return response;
  };

  return {
    asked,
    prefetch() {
      for (const file of ["pyodide.asm.wasm", "python_stdlib.zip"]) {
        const url = new URL(file, pyodideDir).href;
        early.set(url, quiet(originalFetch(url, { credentials: "same-origin" })));
      }
    },
    snapshotStored() {
      noteAsked("/" + SNAPSHOT);
      files = files.filter((file) => file !== SNAPSHOT);
    },
    over() {
      bytes.over = true;
    },
  };
}
