// The page's entry, index.html's one module script: the app (main.js), then the offline copy
// (pwa.js, which waits for the app's window.pyrules.ready, so after it).
//
// On a later visit (the offline copy in control, every file of the site at hand at once) in
// WebKit, the app waits until the engine's worker has restored Python from the snapshot (its
// "python" step, sent once the runtime's wasm and the snapshot are in and the heap restored:
// early.js, restored), HOLD_MS at most. WebKit (Safari, every browser of an iPad,
// WebKitGTK) relays a worker's downloads and Cache Storage reads through the page's main
// thread: evaluating and drawing the app while they came in delayed the engine's start
// (docs/performance.md). The page shows its HTML, French text written in by the build,
// meanwhile; nothing can be rolled before the engine is ready anyway. Chromium and Firefox
// do not wait: there the wait only put the app's own start after the engine's downloads
// (their later visits came 0.02-0.03x of a bare start later). A first visit (the files come
// from the network) does not wait either. main.js and its chunks are asked for by
// index.html's modulepreloads while its head is parsed, either way.
const HOLD_MS = 1500;

const early = self.pyrulesEarly;
const later = Boolean(globalThis.navigator?.serviceWorker?.controller);
const agent = String(globalThis.navigator?.userAgent ?? "");
const webkit = /AppleWebKit\//.test(agent) && !/(Chrome|Chromium|Edg)\//.test(agent);
const held =
  later && webkit && early?.restored
    ? Promise.race([early.restored, new Promise((resolve) => setTimeout(resolve, HOLD_MS))])
    : Promise.resolve();

held
  .then(() => import("./main.js"))
  .catch((error) => console.error("[pyrules] the page's script could not start:", error))
  .finally(() => import("../pwa/pwa.js").catch((error) => console.error("[pyrules] offline copy:", error)));
