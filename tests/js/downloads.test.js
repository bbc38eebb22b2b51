// The engine worker's downloads (web/js/engine/downloads.js): the "python" step, the moment
// the runtime's files are in, comes once both are in, in whichever order the wasm's last
// byte and the stored snapshot's read come (js/engine/early.js holds a later visit's page
// in WebKit until then).
import assert from "node:assert/strict";
import test from "node:test";

const WASM = "https://x/pyodide/pyodide.asm.wasm";
const SNAPSHOT = "https://x/engine/snapshot.bin.gz";

/** watchDownloads over a fake fetch answering 1000 bytes for any URL; the steps told. */
async function watched() {
  globalThis.self ??= globalThis;
  self.fetch = async () => new Response(new Uint8Array(1000), { headers: { "Content-Length": "1000" } });
  const { watchDownloads } = await import(`../../web/js/engine/downloads.js?${Math.random()}`);
  const steps = [];
  const downloads = watchDownloads({ pyodideDir: "https://x/pyodide/", progress: (step) => steps.push(step), lap: () => {} });
  return { downloads, steps };
}

/** Pyodide's fetch of `url`, its body read to the end as Pyodide would, and the count's turn. */
async function fetched(url) {
  const response = await self.fetch(url);
  await response.arrayBuffer();
  await new Promise((resolve) => setTimeout(resolve, 0)); // the counting clone's reads
}

test("a first visit is told 'python' once the wasm and the snapshot are both in", async () => {
  const { steps } = await watched();
  await fetched(WASM);
  assert.ok(!steps.includes("python"));
  await fetched(SNAPSHOT);
  assert.equal(steps.filter((s) => s === "python").length, 1);
});

test("a stored snapshot read before the wasm's last byte: 'python' with the wasm", async () => {
  const { downloads, steps } = await watched();
  downloads.snapshotStored();
  assert.ok(!steps.includes("python"));
  await fetched(WASM);
  assert.equal(steps.filter((s) => s === "python").length, 1);
});

test("a stored snapshot read after the wasm's last byte: 'python' with the read", async () => {
  const { downloads, steps } = await watched();
  await fetched(WASM);
  assert.ok(!steps.includes("python"));
  downloads.snapshotStored();
  assert.equal(steps.filter((s) => s === "python").length, 1);
});

test("nothing is told once the boot is over", async () => {
  const { downloads, steps } = await watched();
  await fetched(WASM);
  downloads.over();
  downloads.snapshotStored();
  assert.ok(!steps.includes("python"));
});
