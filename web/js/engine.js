// Page side of the engine worker: starts it, relays boot progress, matches answers to
// requests, and restarts it on demand (Retry after a boot failure).

const STALL_MS = 90000; // no word from a booting worker for this long counts as a failure

export class Engine extends EventTarget {
  constructor(workerURL) {
    super();
    this.workerURL = workerURL;
    this.worker = null;
    this.state = "idle"; // idle | booting | ready | error
    this.info = null;
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
    let worker;
    try {
      worker = new Worker(this.workerURL, { type: "module" });
    } catch (error) {
      this.fail("worker", error);
      return;
    }
    this.worker = worker;
    worker.onmessage = (event) => this.onMessage(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.fail("worker", event.message || "worker error");
    };
    worker.onmessageerror = () => this.fail("worker", "message error");
    this.armStallTimer();
    // Requests made before a restart are sent again to the new worker.
    for (const [id, entry] of this.pending) {
      worker.postMessage({ id, request: entry.request });
    }
  }

  stop() {
    clearTimeout(this.stallTimer);
    if (this.worker) {
      this.worker.onmessage = null;
      this.worker.onerror = null;
      this.worker.terminate();
      this.worker = null;
    }
  }

  retry() {
    this.start();
  }

  armStallTimer() {
    clearTimeout(this.stallTimer);
    if (this.state === "booting") {
      this.stallTimer = setTimeout(() => this.fail(this.lastStep || "worker", "timeout"), STALL_MS);
    }
  }

  fail(step, error) {
    if (this.state === "error") {
      return;
    }
    this.stop();
    this.state = "error";
    const message = error && error.message ? error.message : String(error);
    this.emit("error", { step, message });
  }

  onMessage(data) {
    if (!data) {
      return;
    }
    if (data.id !== undefined) {
      const entry = this.pending.get(data.id);
      if (entry) {
        this.pending.delete(data.id);
        try {
          entry.resolve(JSON.parse(data.answer));
        } catch (error) {
          entry.reject(error);
        }
      }
      return;
    }
    if (data.type === "progress") {
      this.lastStep = data.step;
      this.armStallTimer();
      this.emit("progress", data);
    } else if (data.type === "ready") {
      clearTimeout(this.stallTimer);
      this.state = "ready";
      this.info = { version: data.version, build: data.build };
      this.emit("ready", this.info);
      this.resolveReady(this.info);
    } else if (data.type === "error") {
      this.fail(data.step, data.message);
    }
  }

  /** Send one request (object or JSON text); resolves with the parsed answer. */
  call(request) {
    const text = typeof request === "string" ? request : JSON.stringify(request);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { request: text, resolve, reject });
      if (this.worker) {
        this.worker.postMessage({ id, request: text });
      }
    });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
