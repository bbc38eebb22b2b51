// The engine worker's early start: a classic script, the first of index.html's head (before
// the stylesheet and the page's modules), so that it runs while the page is being parsed,
// before the first paint and before main.js and its imports are evaluated. Some engines
// (WebKit, the iPad's) only evaluate a module script once the first paint is done, and run
// a worker's downloads through the page's main thread: a worker started from a module waited
// there, its downloads behind the page's own work.
//
// It starts js/engine/worker.js and keeps what the worker says until the page's Engine
// (engine.js) adopts it: self.pyrulesEarly = {worker, queue, url, held}, held a promise
// resolved when the page may draw itself (js/app/start.js imports main.js then). At once,
// except on a later visit in WebKit (Safari, every browser of an iPad, WebKitGTK; told by
// its user agent; the offline copy in control): there it waits until the worker has its
// files (its first "python" step: the runtime's wasm and the snapshot are in, downloads.js;
// else once Python is restored, or the engine is ready or failed), HOLD_MS at most, and
// meanwhile <html data-hold> keeps the body undisplayed (base.css): the page is not styled,
// laid out and painted while the worker's files come in through the page's thread, but
// while the worker compiles the wasm and restores the heap, which need none of it
// (docs/performance.md, issue 40).
// It tells the worker which build's raw snapshot this device keeps, if any (its first
// message; lib/kept-snapshot.js). Then it sets <html lang> to the language the page will
// start in (lib/lang-choice.js, the rule i18n.js follows): the first style is then the
// page's last, where a change of it once main.js ran had the browser style the whole page
// again (90-190 ms of WebKitGTK's main thread, which relays the worker's downloads).
// Nothing else, and nothing that can throw past a try. The build makes it a classic script
// with its two imports inlined (buildtools/bundle.py).
import { KEPT_KEY, keptBuild } from "../lib/kept-snapshot.js";
import { LANG_KEY, startLang } from "../lib/lang-choice.js";

var HOLD_MS = 1500;

/** Whether this is a later visit in WebKit (see above): the page is then held. */
function holding() {
  var agent = String(navigator.userAgent || "");
  var webkit = /AppleWebKit\//.test(agent) && !/(Chrome|Chromium|Edg)\//.test(agent);
  return webkit && Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
}

/** The promise `held` (see above); <html data-hold> set until it resolves. */
function hold(filesIn) {
  try {
    if (!holding()) return Promise.resolve();
    var root = document.documentElement;
    root.setAttribute("data-hold", "");
    return Promise.race([filesIn, new Promise(function (resolve) { setTimeout(resolve, HOLD_MS); })]).then(function () {
      root.removeAttribute("data-hold");
    });
  } catch (error) {
    return Promise.resolve(); // the page is drawn at once
  }
}

(function () {
  if (typeof Worker === "undefined") return;
  try {
    var url = new URL("worker.js", document.currentScript.src).href;
    // "#hint": this worker waits for the message below before it looks for a raw snapshot.
    var worker = new Worker(url + "#hint", { type: "module" });
    var queue = [];
    var settle;
    var filesIn = new Promise(function (resolve) { settle = resolve; });
    worker.onmessage = function (event) {
      var data = event.data || {};
      queue.push({ kind: "message", data: event.data });
      // The worker has its files ("python"), or the engine is done either way.
      if ((data.type === "progress" && data.step === "python") || data.type === "ready" || data.type === "error") settle();
    };
    worker.onerror = function (event) {
      event.preventDefault();
      queue.push({ kind: "error", message: event.message || "worker error" });
      settle();
    };
    worker.onmessageerror = function () {
      queue.push({ kind: "error", message: "message error" });
      settle();
    };
    // Which build's raw snapshot this device keeps (lib/kept-snapshot.js): read after the
    // worker is made (a page's first read of localStorage can take tens of ms), told at once.
    var kept = null;
    try {
      kept = keptBuild(localStorage.getItem(KEPT_KEY));
    } catch (error) {
      kept = null; // storage switched off: none kept that this page could name
    }
    worker.postMessage({ type: "hint", kept: kept });
    self.pyrulesEarly = { worker: worker, queue: queue, url: url, held: hold(filesIn) };
  } catch (error) {
    self.pyrulesEarly = null; // Engine.start() tries again and reports the failure
  }
})();

// After the worker (a page's first read of localStorage can take tens of ms).
(function () {
  try {
    var stored = null;
    try {
      stored = JSON.parse(localStorage.getItem(LANG_KEY));
    } catch (error) {
      stored = null; // storage switched off, or not JSON: i18n.js reads it as none too
    }
    document.documentElement.lang = startLang(stored, navigator.languages || [navigator.language]);
  } catch (error) {
    // the page's language stays the HTML's until i18n.js sets it
  }
})();
