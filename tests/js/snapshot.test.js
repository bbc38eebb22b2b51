// engine/snapshot.js unpackHeap: the packed snapshot the build ships (buildtools/snapshot.py
// pack_heap) read back into the heap, and every way a packing can be wrong refused.
import assert from "node:assert/strict";
import { test } from "node:test";

import { unpackHeap } from "../../web/js/engine/snapshot.js";

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
