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
 * The heap of a packed snapshot: a Uint8Array of `size` bytes, or an Error saying why
 * `packed` is not the packing of such a heap (its magic, a piece out of bounds, bytes left
 * over, or a heap that does not begin as Pyodide's snapshots do).
 */
export function unpackHeap(packed, size) {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  if (packed.byteLength < 12 || view.getUint32(0, true) !== MAGIC) throw new Error("not a packed snapshot (magic)");
  if (view.getUint32(4, true) !== size) throw new Error(`packed heap of ${view.getUint32(4, true)} bytes, expected ${size}`);
  const count = view.getUint32(8, true);
  const heap = new Uint8Array(size);
  let at = 12 + 8 * count;
  if (at > packed.byteLength) throw new Error("packed snapshot cut short");
  for (let i = 0; i < count; i++) {
    const offset = view.getUint32(12 + 8 * i, true);
    const length = view.getUint32(16 + 8 * i, true);
    if (offset + length > size || at + length > packed.byteLength) throw new Error("a piece lies outside the snapshot");
    heap.set(packed.subarray(at, at + length), offset);
    at += length;
  }
  if (at !== packed.byteLength) throw new Error("bytes left after the last piece");
  if (!(heap[0] === 0 && heap[1] === 0x73 && heap[2] === 0x6e && heap[3] === 0x70)) throw new Error("not a snapshot (magic)");
  return heap;
}

/** The raw snapshot stored for this very build ({packed, heap}), or null; a copy that is not
 * exactly it (another snapshot, a wrong size, not a snapshot) is deleted and refused. */
export async function cachedSnapshot(info) {
  const meta = info && info.snapshot;
  if (typeof caches === "undefined" || !meta || !info.build) return null;
  const cache = await caches.open(rawCacheName(info));
  const response = await cache.match(RAW_KEY);
  if (!response) return null;
  const packed = new Uint8Array(await response.arrayBuffer());
  let heap = null;
  let problem =
    response.headers.get(RAW_HEADER) !== String(meta.integrity)
      ? "stored for another snapshot"
      : packed.byteLength !== Number(meta.packed)
        ? `stored copy has ${packed.byteLength} bytes, expected ${meta.packed}`
        : null;
  if (!problem) {
    try {
      heap = unpackHeap(packed, Number(meta.bytes));
    } catch (error) {
      problem = `stored copy: ${error.message}`;
    }
  }
  if (problem) {
    await forgetRawSnapshot(info);
    throw new Error(problem);
  }
  return { packed, heap };
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

// The snapshot of version.json, decompressed: {packed, heap}, the file's content (exactly
// info.snapshot.packed bytes) and the heap it packs (info.snapshot.bytes), or a rejection
// saying why not. Gzip is recognised by its magic number, so a server that sends the file
// with Content-Encoding: gzip (the browser then decodes it) works too.
export async function fetchSnapshot(info, fetchOK) {
  const meta = info && info.snapshot;
  if (!meta || typeof meta.url !== "string" || !(Number(meta.bytes) > 0) || !(Number(meta.packed) > 0)) {
    throw new Error("no snapshot in version.json");
  }
  const response = await fetchOK(new URL(meta.url, VERSION_URL).href);
  const reader = response.body.getReader();
  let first = await reader.read();
  while (!first.done && first.value.byteLength < 2) {
    const more = await reader.read(); // (a first chunk of 1 byte: join it to the next)
    if (more.done) break;
    first = { done: false, value: concat(first.value, more.value) };
  }
  const head = first.done ? new Uint8Array(0) : first.value;
  const body = new ReadableStream({
    start(controller) {
      if (head.byteLength) controller.enqueue(head);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
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
  return { packed: bytes, heap: unpackHeap(bytes, Number(meta.bytes)) };
}

function concat(a, b) {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
