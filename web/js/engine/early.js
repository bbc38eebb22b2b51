// The engine worker's early start: a classic script, the first of index.html's head (before
// the stylesheet and the page's modules), so that it runs while the page is being parsed,
// before the first paint and before main.js and its imports are evaluated. Some engines
// (WebKit, the iPad's) only evaluate a module script once the first paint is done, and run
// a worker's downloads through the page's main thread: a worker started from a module waited
// there, its downloads behind the page's own work.
//
// It starts js/engine/worker.js and keeps what the worker says until the page's Engine
// (engine.js) adopts it: self.pyrulesEarly = {worker, queue, url}. Nothing else: no import,
// no storage, nothing that can throw past the try.
(function () {
  if (typeof Worker === "undefined") return;
  try {
    var url = new URL("worker.js", document.currentScript.src).href;
    var worker = new Worker(url, { type: "module" });
    var queue = [];
    worker.onmessage = function (event) {
      queue.push({ kind: "message", data: event.data });
    };
    worker.onerror = function (event) {
      event.preventDefault();
      queue.push({ kind: "error", message: event.message || "worker error" });
    };
    worker.onmessageerror = function () {
      queue.push({ kind: "error", message: "message error" });
    };
    self.pyrulesEarly = { worker: worker, queue: queue, url: url };
  } catch (error) {
    self.pyrulesEarly = null; // Engine.start() tries again and reports the failure
  }
})();
