// engine/snapshot.js unpackHeap: the packed snapshot the build ships (buildtools/snapshot.py
// pack_heap) read back into the heap, and every way a packing can be wrong refused.
import assert from "node:assert/strict";
import { test } from "node:test";

import { gzipSync } from "node:zlib";

import { fetchSnapshot, unpackHeap } from "../../web/js/engine/snapshot.js";

/** A packing of `size` bytes from [offset, bytes] pieces (the format of pack_heap). */
function pack(size, pieces, { magic = 0x48525950 } = {}) {
  const body = pieces.reduce((n, [, bytes]) => n + bytes.length, 0);
  const out = new Uint8Array(12 + 8 * pieces.length + body);
  const view = new DataView(out.buffer);
  view.setUint32(0, magic, true);
  view.setUint32(4, size, true);
  view.setUint32(8, pieces.length, true);
  let at = 12 + 8 * pieces.length;
  pieces.forEach(([offset, bytes], i) => {
    view.setUint32(12 + 8 * i, offset, true);
    view.setUint32(16 + 8 * i, bytes.length, true);
    out.set(bytes, at);
    at += bytes.length;
  });
  return out;
}

const HEAD = Uint8Array.of(0, 0x73, 0x6e, 0x70, 7, 7); // "\0snp": Pyodide's snapshot magic

test("the pieces land at their offsets and the holes are zeros", () => {
  const heap = unpackHeap(pack(5000, [[0, HEAD], [4000, Uint8Array.of(9, 8)]]), 5000);
  assert.equal(heap.length, 5000);
  assert.deepEqual([...heap.subarray(0, 6)], [...HEAD]);
  assert.deepEqual([...heap.subarray(4000, 4002)], [9, 8]);
  assert.equal(heap.subarray(6, 4000).some((b) => b !== 0), false);
  assert.equal(heap.subarray(4002).some((b) => b !== 0), false);
});

test("a packing that is not exactly one is refused, saying why", () => {
  const good = pack(100, [[0, HEAD]]);
  const cases = [
    [pack(100, [[0, HEAD]], { magic: 1 }), 100, /magic/],
    [good, 101, /packed heap of 100 bytes, expected 101/],
    [pack(100, [[0, HEAD], [98, Uint8Array.of(1, 2, 3)]]), 100, /outside/],
    [good.subarray(0, good.length - 1), 100, /outside/],
    [Uint8Array.of(...good, 0), 100, /left after/],
    [pack(100, [[0, Uint8Array.of(1, 2, 3, 4)]]), 100, /not a snapshot \(magic\)/],
    [good.subarray(0, 8), 100, /magic/],
  ];
  for (const [packed, size, why] of cases) assert.throws(() => unpackHeap(packed, size), why);
});

// fetchSnapshot: the site's file as the worker reads it, every way a served file can be wrong
// refused with its reason (the worker then boots without it: tests/browser/test_snapshot.py
// boots the page through two of them, a missing file and another Pyodide's snapshot).
const SIZE = 9000;
const NOISE = new Uint8Array(3000).map((_, i) => (i * 7919) % 251);
const PACKED = pack(SIZE, [[0, HEAD], [1000, NOISE], [8000, Uint8Array.of(9, 8)]]);
const INFO = { snapshot: { url: "engine/snapshot.bin.gz", bytes: SIZE, packed: PACKED.byteLength } };

/** fetchOK as the worker's: the response, or the rejection of an HTTP error; in chunks. */
function serving(body, { status = 200, chunk = 700 } = {}) {
  return async () => {
    if (status !== 200) throw new Error(`HTTP ${status} /engine/snapshot.bin.gz`);
    const chunks = [];
    for (let at = 0; at < body.byteLength; at += chunk) chunks.push(body.subarray(at, at + chunk));
    return new Response(new ReadableStream({ pull(c) { chunks.length ? c.enqueue(chunks.shift()) : c.close(); } }));
  };
}

test("the served snapshot is read gzipped or plain, in any chunks", async () => {
  for (const body of [gzipSync(PACKED), PACKED]) {
    for (const chunk of [1, 7, 4096]) {
      const { packed, heap } = await fetchSnapshot(INFO, serving(new Uint8Array(body), { chunk }));
      assert.deepEqual(packed, PACKED);
      assert.deepEqual([...heap.subarray(8000, 8002)], [9, 8]);
      assert.deepEqual(heap.subarray(1000, 4000), NOISE);
    }
  }
});

test("a served snapshot that is missing, cut, foreign or of another size is refused, saying why", async () => {
  const gz = new Uint8Array(gzipSync(PACKED));
  const junk = new Uint8Array(PACKED.byteLength).map((_, i) => 1 + (i % 250));
  const foreign = PACKED.slice();
  foreign[0] ^= 0xff; // a packing of the right size with another magic
  const cases = [
    [serving(gz, { status: 404 }), /HTTP 404/],
    [serving(gz.subarray(0, gz.byteLength >> 1)), /./], // the gzip stream ends too soon
    [serving(new Uint8Array(gzipSync(junk))), /magic/],
    [serving(new Uint8Array(1000)), /1000 bytes, expected/],
    [serving(new Uint8Array(gzipSync(foreign))), /magic/],
  ];
  for (const [fetchOK, reason] of cases) await assert.rejects(fetchSnapshot(INFO, fetchOK), reason);
  await assert.rejects(fetchSnapshot({}, serving(gz)), /no snapshot in version\.json/);
});
