// pyrules engine worker (module worker).
//
// Boots Pyodide from this site's own copy (../pyodide/), installs micropip and the
// pyrules wheel named by ../version.json, then answers {id, request} messages with
// {id, answer}, where answer is the JSON text returned by pyrules.api.handle(request).
//
// No Python source is ever received from the page: the only Python this worker runs is
// the import of pyrules.api and calls of its handle() function.
//
// Messages sent to the page:
//   {type: "progress", step, loaded, total}   step: version | runtime | python | micropip | pyrules
//   {type: "ready", version, build}
//   {type: "error", step, message}
//   {id, answer}

const SITE = new URL("../", import.meta.url);
const PYODIDE_DIR = new URL("pyodide/", SITE);

let handle = null;
let booting = null;

function post(message) {
  self.postMessage(message);
}

function progress(step, loaded = 0, total = 0) {
  post({ type: "progress", step, loaded, total });
}

// Count the bytes of the runtime files while Pyodide downloads them, so the page can show
// a real progress bar. Only responses from our pyodide/ folder are wrapped; the wrapped
// response keeps status and headers (application/wasm streaming compilation still works).
// The two big files (≈ 12 MB together); the rest of the runtime is small. Once both are
// downloaded, what remains of loadPyodide() is starting Python.
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
    const length = Number(response.headers.get("Content-Length")) || 0;
    runtimeBytes.total += length;
    // Byte counts are only told once both sizes are known, so the bar never goes back.
    const counting = () => runtimeBytes.seen.size === RUNTIME_FILES.length;
    if (counting()) progress("runtime", runtimeBytes.loaded, runtimeBytes.total);
    const reader = response.body.getReader();
    const stream = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          runtimeBytes.done.add(name);
          if (runtimeBytes.done.size === RUNTIME_FILES.length) {
            progress("python");
          }
          return;
        }
        runtimeBytes.loaded += value.byteLength;
        const now = Date.now();
        if (counting() && now - runtimeBytes.lastPost > 50) {
          // At most ~20 messages a second: enough for a smooth bar.
          runtimeBytes.lastPost = now;
          progress("runtime", Math.min(runtimeBytes.loaded, runtimeBytes.total), runtimeBytes.total);
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(stream, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
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

async function boot() {
  progress("version");
  const versionURL = new URL("version.json", SITE);
  const info = await step("version", async () => {
    const response = await fetch(versionURL, { cache: "no-cache" });
    if (!response.ok) {
      throw new Error(`HTTP ${response.status} ${versionURL.pathname}`);
    }
    return response.json();
  });

  progress("runtime");
  watchRuntimeDownloads();
  const pyodideModule = await step("runtime", () => import(new URL("pyodide.mjs", PYODIDE_DIR).href));
  const pyodide = await step("runtime", () =>
    pyodideModule.loadPyodide({
      indexURL: PYODIDE_DIR.href,
      fullStdLib: false,
      stdout: () => {},
      stderr: (text) => console.warn("[pyodide]", text),
    }),
  );
  progress("python");

  progress("micropip");
  const micropipURL = new URL(info.micropip, versionURL).href;
  await step("micropip", async () => {
    // By URL, not by name: the wheel we ship is not the one pyodide-lock.json describes.
    // loadPackage reports failures through errorCallback instead of rejecting.
    const problems = [];
    await pyodide.loadPackage(micropipURL, { messageCallback: () => {}, errorCallback: (m) => problems.push(m) });
    if (problems.length) {
      throw new Error(problems.join(" "));
    }
    pyodide.pyimport("micropip").destroy();
  });

  progress("pyrules");
  const wheelURL = new URL(info.wheel, versionURL).href;
  handle = await step("pyrules", async () => {
    const micropip = pyodide.pyimport("micropip");
    try {
      await micropip.install.callKwargs(wheelURL, { deps: false });
    } finally {
      micropip.destroy();
    }
    return pyodide.pyimport("pyrules.api").handle;
  });

  post({ type: "ready", version: info.version, build: info.build });
}

function answer(id, request) {
  let text;
  try {
    text = handle(typeof request === "string" ? request : JSON.stringify(request));
  } catch (error) {
    // handle() never raises by contract; report an engine crash in the same shape.
    text = JSON.stringify({
      ok: false,
      error: { code: "engine_error", field: null, message: String(error && error.message ? error.message : error) },
    });
  }
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
    message: error && error.message ? error.message : String(error),
  });
});
