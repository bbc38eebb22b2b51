// The page's entry, index.html's one module script: the app (main.js), then the offline copy
// (pwa.js, which waits for the app's window.pyrules.ready, so after it).
//
// main.js is imported once early.js says the page may be drawn (self.pyrulesEarly.held): at
// once, except on a later visit in WebKit, where the page waits until the engine's worker has
// its files (1.5 s at most): WebKit relays a worker's downloads and Cache Storage reads
// through the page's main thread, and the page's first style, layout and paint, then
// main.js, delayed them (docs/performance.md). Chromium and Firefox do not wait: there the
// wait only put the app's own start after the engine's downloads. main.js and its chunks are
// asked for by index.html's modulepreloads while its head is parsed, either way.
const held = self.pyrulesEarly?.held ?? Promise.resolve();

held
  .then(() => import("./main.js"))
  .catch((error) => console.error("[pyrules] the page's script could not start:", error))
  .finally(() => import("../pwa/pwa.js").catch((error) => console.error("[pyrules] offline copy:", error)));
