// Pyodide memory snapshots kept on this device, worker side (see worker.js).
//
// A snapshot is the whole WebAssembly memory of a Pyodide that has the pyrules wheel
// installed and pyrules.api imported (≈ 31 MB). Restoring it skips starting Python,
// installing the wheel and importing the engine: a later visit starts in a fraction of
// the time of a plain boot.
//
// Where: Cache Storage, in a cache named "pyrules-snapshot:<site path>" holding one entry.
// The service worker only ever deletes caches named "pyrules:<site path>:<build>" (see
// sw.js, cleanup()) and never sees Cache Storage calls, so it neither deletes nor serves
// this one. The site path keeps two deployments on one origin (user.github.io/a/ and /b/)
// apart.
//
// Keyed by: the build hash and the Pyodide version of version.json, written as headers of
// the stored response, with the snapshot's byte length. A snapshot of another build or
// Pyodide is deleted as soon as it is seen (Pyodide itself also refuses a snapshot of
// another runtime build: it checks a build id and a magic number).
//
// Failures: a snapshot that cannot be restored is deleted and the worker boots normally,
// then stores a new one. If restoring the snapshots of one build fails MAX_FAILURES times,
// no more snapshots are made for that build (a small JSON record in the same cache), so a
// device where restoring cannot work does not pay for it at every visit.

const MAX_FAILURES = 2;

function headerValue(response, name) {
  return response.headers.get(name) || "";
}

export class SnapshotStore {
  /** A store for the site at `site` (a URL ending with "/"), or null without Cache Storage. */
  static open(site) {
    if (typeof caches === "undefined" || !caches) {
      return null;
    }
    return new SnapshotStore(site);
  }

  constructor(site) {
    const base = new URL(site);
    this.name = `pyrules-snapshot:${base.pathname}`;
    this.key = new URL("pyrules-snapshot.bin", base).href;
    this.failuresKey = new URL("pyrules-snapshot-failures.json", base).href;
  }

  /** {entry, failures}: the stored response (body unread) or null, and the failure record. */
  async lookup() {
    if (!(await caches.has(this.name))) {
      return { entry: null, failures: null }; // (caches.open would create it)
    }
    const cache = await caches.open(this.name);
    const [entry, failures] = await Promise.all([
      cache.match(this.key),
      cache.match(this.failuresKey).then((r) => (r ? r.json() : null)).catch(() => null),
    ]);
    return { entry: entry || null, failures };
  }

  /** Whether a stored response was made by this build of the site on this Pyodide. */
  static matches(entry, info) {
    return (
      headerValue(entry, "X-Pyrules-Build") === String(info.build) &&
      headerValue(entry, "X-Pyodide-Version") === String(info.pyodide) &&
      Number(headerValue(entry, "X-Snapshot-Bytes")) > 0
    );
  }

  /** The snapshot bytes of a stored response; rejects when they are not all there. */
  static async bytes(entry) {
    const expected = Number(headerValue(entry, "X-Snapshot-Bytes"));
    const buffer = await entry.arrayBuffer();
    if (buffer.byteLength !== expected) {
      throw new Error(`snapshot has ${buffer.byteLength} bytes, expected ${expected}`);
    }
    return new Uint8Array(buffer);
  }

  /** How many restores of this build's snapshots failed (from lookup()'s record). */
  static failureCount(failures, info) {
    if (!failures || failures.build !== String(info.build) || failures.pyodide !== String(info.pyodide)) {
      return 0;
    }
    return Number(failures.count) || 0;
  }

  static worthMaking(failures, info) {
    return SnapshotStore.failureCount(failures, info) < MAX_FAILURES;
  }

  async save(bytes, info) {
    const cache = await caches.open(this.name);
    const response = new Response(bytes, {
      headers: {
        "Content-Type": "application/octet-stream",
        "X-Pyrules-Build": String(info.build),
        "X-Pyrules-Version": String(info.version),
        "X-Pyodide-Version": String(info.pyodide),
        "X-Snapshot-Bytes": String(bytes.byteLength),
      },
    });
    await cache.put(this.key, response);
  }

  async discard() {
    const cache = await caches.open(this.name);
    await cache.delete(this.key);
  }

  /** The failure record after one more failed restore of this build's snapshot. */
  static nextFailures(failures, info, reason) {
    return {
      build: String(info.build),
      pyodide: String(info.pyodide),
      count: SnapshotStore.failureCount(failures, info) + 1,
      reason: String(reason).slice(0, 500),
    };
  }

  /** Delete the snapshot that failed and keep the failure record (from nextFailures()). */
  async recordFailure(record) {
    const cache = await caches.open(this.name);
    const body = JSON.stringify(record);
    await Promise.all([
      cache.delete(this.key),
      cache.put(this.failuresKey, new Response(body, { headers: { "Content-Type": "application/json" } })),
    ]);
  }
}
