// The engine's memory snapshot, for the worker (./worker.js; the build bundles both into one
// file): the site's gzipped copy (version.json "snapshot"), fetched and decompressed
// natively (DecompressionStream), and the raw copy the worker keeps in Cache Storage for
// the next starts.
//
// Both hold the heap packed (buildtools/snapshot.py pack_heap): without its long runs of
// zero bytes, about half its size, so half the bytes to decompress or to read back. Little-
// endian u32s: magic "PYRH", the heap's size, the number of pieces, per piece its offset and
// length, then the pieces' bytes; unpackHeap() writes them into a zero-filled heap.

const SITE = new URL("../../", import.meta.url);
const VERSION_URL = new URL("version.json", SITE);
// The raw (decompressed) snapshot, kept by this worker in Cache Storage after a start that
// used the network's gzipped copy: later starts read it as it is, with no gunzip. One cache
// per build of this deployment ("pyrules-engine:<site path>:<build>"), so a new build never
// restores an old snapshot; the others are deleted once the new one is stored.
const RAW_CACHE_PREFIX = "pyrules-engine:" + SITE.pathname + ":";
const RAW_KEY = new URL("engine/snapshot.raw", SITE).href;
const RAW_HEADER = "X-Pyrules-Snapshot"; // the gzipped file's integrity: which snapshot it is

function rawCacheName(info) {
  return RAW_CACHE_PREFIX + String(info.build);
}

const MAGIC = 0x48525950; // "PYRH", little-endian

/**
 * The pieces of a packed snapshot, [[offset in the heap, offset in `packed`, length]], or an
 * Error saying why `packed` is not the packing of a heap of `size` bytes (its magic, a piece
 * out of bounds or out of order, bytes left over, or a heap that does not begin as
 * Pyodide's snapshots do).
 */
export function packedPieces(packed, size) {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  if (packed.byteLength < 12 || view.getUint32(0, true) !== MAGIC) throw new Error("not a packed snapshot (magic)");
  if (view.getUint32(4, true) !== size) throw new Error(`packed heap of ${view.getUint32(4, true)} bytes, expected ${size}`);
  const count = view.getUint32(8, true);
  const pieces = [];
  let at = 12 + 8 * count;
  if (at > packed.byteLength) throw new Error("packed snapshot cut short");
  for (let i = 0, end = 0; i < count; i++) {
    const offset = view.getUint32(12 + 8 * i, true);
    const length = view.getUint32(16 + 8 * i, true);
    if (offset + length > size || at + length > packed.byteLength) throw new Error("a piece lies outside the snapshot");
    if (offset < end) throw new Error("pieces out of order");
    pieces.push([offset, at, length]);
    at += length;
    end = offset + length;
  }
  if (at !== packed.byteLength) throw new Error("bytes left after the last piece");
  // Pyodide's magic, "\0snp", begins the heap: the first piece, at offset 0.
  const first = pieces.length && pieces[0][0] === 0 && pieces[0][2] >= 4 ? pieces[0][1] : -1;
  if (first < 0 || !(packed[first] === 0 && packed[first + 1] === 0x73 && packed[first + 2] === 0x6e && packed[first + 3] === 0x70)) {
    throw new Error("not a snapshot (magic)");
  }
  return pieces;
}

/**
 * The heap of a packed snapshot, written into `heap` (a zero-filled Uint8Array of `size`
 * bytes, new if not given) and returned, or packedPieces()'s Error. Everything is checked
 * before the first byte is written: a refused packing leaves `heap` as it was.
 */
export function unpackHeap(packed, size, heap = null) {
  const pieces = packedPieces(packed, size);
  if (heap && heap.byteLength !== size) throw new Error(`a heap of ${heap.byteLength} bytes for ${size}`);
  const out = heap || new Uint8Array(size);
  for (const [offset, from, length] of pieces) out.set(packed.subarray(from, from + length), offset);
  return out;
}

/**
 * The snapshot of version.json as packed bytes, checked (packedPieces) but not unpacked:
 * {packed, source, cachedProblem}. source "cache": the raw copy stored for this very build;
 * else "network", the site's gzipped file (fetchSnapshot), and cachedProblem says why a
 * stored copy was refused (it is then deleted), or is null. Rejects if the site's file
 * cannot be read (the error's cachedProblem set). Runs in the engine's worker or in a thread of
 * its own (./reader.js).
 * `onBytes(total, loaded)` follows the site's file as it comes in.
 */
export async function readPacked(info, onBytes = () => {}) {
  let cachedProblem = null;
  const cached = await cachedSnapshot(info).catch((error) => {
    cachedProblem = String((error && error.message) || error);
    return null;
  });
  if (cached) return { packed: cached, source: "cache", cachedProblem };
  try {
    return { packed: await fetchSnapshot(info, onBytes), source: "network", cachedProblem };
  } catch (error) {
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { cachedProblem });
  }
}

/**
 * readPacked(info) in a thread of its own (./reader.js, a worker this worker starts), with
 * `readBy: "reader"`; here (`readBy: "worker"`) where a worker cannot start one, or the reader
 * could not start. `onBytes(total, loaded)` as for readPacked, from the reader's messages.
 */
export function readPackedAside(info, onBytes) {
  const here = () => readPacked(info).then((read) => ({ ...read, readBy: "worker" }));
  if (typeof Worker === "undefined") return here();
  return new Promise((resolve, reject) => {
    let reader;
    try {
      reader = new Worker(new URL("./reader.js", import.meta.url), { type: "module" });
    } catch {
      resolve(here());
      return;
    }
    reader.onmessage = ({ data }) => {
      if (data.type === "bytes") {
        onBytes(data.total, data.loaded);
      } else if (data.type === "read") {
        resolve({ ...data, readBy: "reader" });
      } else if (data.type === "failed") {
        reject(Object.assign(new Error(data.message), { cachedProblem: data.cachedProblem }));
      }
    };
    reader.onerror = (event) => {
      event.preventDefault();
      reader.terminate();
      resolve(here()); // it could not start (or run): read here instead
    };
    reader.postMessage({ type: "read", info });
  });
}

/** fetch(), refusing an answer that is not 2xx ("HTTP <status> <path>"). */
export async function fetchOK(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) {
    throw new Error(`HTTP ${response.status} ${new URL(url).pathname}`);
  }
  return response;
}

/** The raw snapshot stored for this very build (its packed bytes), or null; a copy that is
 * not exactly it (another snapshot, a wrong size, not a snapshot) is deleted and refused. */
async function cachedSnapshot(info) {
  const meta = info && info.snapshot;
  if (typeof caches === "undefined" || !meta || !info.build) return null;
  const cache = await caches.open(rawCacheName(info));
  const response = await cache.match(RAW_KEY);
  if (!response) return null;
  const packed = new Uint8Array(await response.arrayBuffer());
  let problem =
    response.headers.get(RAW_HEADER) !== String(meta.integrity)
      ? "stored for another snapshot"
      : packed.byteLength !== Number(meta.packed)
        ? `stored copy has ${packed.byteLength} bytes, expected ${meta.packed}`
        : null;
  if (!problem) {
    try {
      packedPieces(packed, Number(meta.bytes));
    } catch (error) {
      problem = `stored copy: ${error.message}`;
    }
  }
  if (problem) {
    await forgetRawSnapshot(info);
    throw new Error(problem);
  }
  return packed;
}

export async function forgetRawSnapshot(info) {
  if (typeof caches === "undefined") return;
  await caches.delete(rawCacheName(info)).catch(() => false);
}

/** Keep the raw (packed) snapshot for the next start (after ready: it never slows this
 * one), and drop the copies of other builds. Resolves with {stored, reason}. */
export async function storeRawSnapshot(info, bytes) {
  let stored = false;
  let reason = null;
  try {
    if (typeof caches === "undefined") throw new Error("no Cache Storage");
    const name = rawCacheName(info);
    const cache = await caches.open(name);
    const headers = { "Content-Type": "application/octet-stream", [RAW_HEADER]: String(info.snapshot.integrity) };
    await cache.put(RAW_KEY, new Response(bytes, { headers }));
    for (const other of await caches.keys()) {
      if (other.startsWith(RAW_CACHE_PREFIX) && other !== name) await caches.delete(other);
    }
    stored = true;
  } catch (error) {
    reason = String((error && error.message) || error); // no room (quota), private mode...: the next start gunzips again
  }
  return { stored, reason };
}

// The snapshot of version.json, decompressed: the file's content (exactly
// info.snapshot.packed bytes, the packing of a heap of info.snapshot.bytes), or a rejection
// saying why not. Gzip is recognised by its magic number, so a server that sends the file
// with Content-Encoding: gzip (the browser then decodes it) works too.
export async function fetchSnapshot(info, onBytes = () => {}) {
  const meta = info && info.snapshot;
  if (!meta || typeof meta.url !== "string" || !(Number(meta.bytes) > 0) || !(Number(meta.packed) > 0)) {
    throw new Error("no snapshot in version.json");
  }
  const response = await fetchOK(new URL(meta.url, VERSION_URL).href);
  const total = Number(response.headers.get("Content-Length")) || 0;
  let loaded = 0;
  onBytes(total, loaded);
  const reader = response.body.getReader();
  let first = await reader.read();
  while (!first.done && first.value.byteLength < 2) {
    const more = await reader.read(); // (a first chunk of 1 byte: join it to the next)
    if (more.done) break;
    first = { done: false, value: concat(first.value, more.value) };
  }
  const head = first.done ? new Uint8Array(0) : first.value;
  loaded = head.byteLength;
  const body = new ReadableStream({
    start(controller) {
      if (head.byteLength) controller.enqueue(head);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else {
        loaded += value.byteLength;
        onBytes(total, loaded);
        controller.enqueue(value);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const gzipped = head[0] === 0x1f && head[1] === 0x8b;
  if (gzipped && typeof DecompressionStream === "undefined") {
    throw new Error("no DecompressionStream in this browser");
  }
  const stream = gzipped ? body.pipeThrough(new DecompressionStream("gzip")) : body;
  const bytes = new Uint8Array(Number(meta.packed));
  let offset = 0;
  const decoded = stream.getReader();
  for (;;) {
    const { done, value } = await decoded.read();
    if (done) break;
    if (offset + value.byteLength > bytes.byteLength) {
      throw new Error(`snapshot larger than the ${bytes.byteLength} bytes announced`);
    }
    bytes.set(value, offset);
    offset += value.byteLength;
  }
  if (offset !== bytes.byteLength) {
    throw new Error(`snapshot has ${offset} bytes, expected ${bytes.byteLength}`);
  }
  packedPieces(bytes, Number(meta.bytes));
  onBytes(total, total);
  return bytes;
}

function concat(a, b) {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
