// The engine's memory snapshot, for the worker (./worker.js; the build bundles both into one
// file): the site's gzipped copy (version.json "snapshot"), fetched and decompressed
// natively (DecompressionStream), and the raw copy the worker keeps in Cache Storage for
// the next starts.

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

/** The raw snapshot stored for this very build, or null; a copy that is not exactly it
 * (another snapshot, a wrong size, not a snapshot) is deleted and refused. */
export async function cachedSnapshot(info) {
  const meta = info && info.snapshot;
  if (typeof caches === "undefined" || !meta || !info.build) return null;
  const cache = await caches.open(rawCacheName(info));
  const response = await cache.match(RAW_KEY);
  if (!response) return null;
  const bytes = new Uint8Array(await response.arrayBuffer());
  const problem =
    response.headers.get(RAW_HEADER) !== String(meta.integrity)
      ? "stored for another snapshot"
      : bytes.byteLength !== Number(meta.bytes)
        ? `stored copy has ${bytes.byteLength} bytes, expected ${meta.bytes}`
        : !(bytes[0] === 0 && bytes[1] === 0x73 && bytes[2] === 0x6e && bytes[3] === 0x70)
          ? "stored copy is not a snapshot (magic)"
          : null;
  if (problem) {
    await forgetRawSnapshot(info);
    throw new Error(problem);
  }
  return bytes;
}

export async function forgetRawSnapshot(info) {
  if (typeof caches === "undefined") return;
  await caches.delete(rawCacheName(info)).catch(() => false);
}

/** Keep the raw snapshot for the next start (after ready: it never slows this one), and drop
 * the copies of other builds. Resolves with {stored, reason}. */
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

// The snapshot of version.json, decompressed: a Uint8Array of exactly info.snapshot.bytes
// bytes, or a rejection saying why not. Gzip is recognised by its magic number, so a server
// that sends the file with Content-Encoding: gzip (the browser then decodes it) works too.
export async function fetchSnapshot(info, fetchOK) {
  const meta = info && info.snapshot;
  if (!meta || typeof meta.url !== "string" || !(Number(meta.bytes) > 0)) {
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
  const bytes = new Uint8Array(Number(meta.bytes));
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
  return bytes;
}

function concat(a, b) {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
