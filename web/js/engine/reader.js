// The snapshot's reader: a worker of its own, started by the engine's worker (./worker.js),
// so that reading the snapshot (the raw copy stored for this build, else the site's gzipped
// file fetched and decompressed: ./snapshot.js readPacked) takes a thread of its own. The
// engine's thread meanwhile sets the runtime up (Pyodide's glue evaluated, the wasm
// compiled and instantiated), which on a first visit took the same thread for as long as the
// gunzip. The packed bytes are handed over, not copied (transferred); the engine's thread
// unpacks them into the heap it gave Pyodide.
//
// Messages: from the engine {type: "read", info} (version.json's content), once; to it
// {type: "bytes", total, loaded} while the site's file comes in (at most 5 a second, and its
// first and last), then {type: "read", packed, source, cachedProblem} or
// {type: "failed", message, cachedProblem}. It then closes.
import { readPacked } from "./snapshot.js";

self.onmessage = async (event) => {
  const { type, info } = event.data || {};
  if (type !== "read") return;
  self.onmessage = null;
  let lastPost = 0;
  const onBytes = (total, loaded) => {
    const now = Date.now();
    if (loaded === 0 || loaded >= total || now - lastPost > 200) {
      lastPost = now;
      self.postMessage({ type: "bytes", total, loaded });
    }
  };
  try {
    const { packed, source, cachedProblem } = await readPacked(info, onBytes);
    self.postMessage({ type: "read", packed, source, cachedProblem }, [packed.buffer]);
  } catch (error) {
    const cachedProblem = (error && error.cachedProblem) || null;
    self.postMessage({ type: "failed", message: String((error && error.message) || error), cachedProblem });
  }
  self.close();
};
