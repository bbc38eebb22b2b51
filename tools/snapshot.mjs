// Make the Pyodide memory snapshot that the site restores at every start (build.py runs it).
//
//   node tools/snapshot.mjs --pyodide DIR --micropip MICROPIP.whl --wheels WHEELS.json --out FILE
//
// WHEELS.json: [{path, imports}] in install order. Boots the pinned Pyodide (DIR) under Node
// with _makeSnapshot, loads micropip, installs and imports the wheels with the very code the
// page's fallback uses (web/js/engine/install.js), then makes the snapshot with no live JS proxy
// (micropip dropped and the garbage collected there; pyodide.loadedPackages emptied while
// the heap is copied). Writes the raw snapshot to FILE; prints one JSON line of figures.
//
// Two things keep the snapshot small and the same on every machine:
// - the memory malloc has free (garbage of micropip's install) is zeroed first, which
//   compresses to nothing: about 1 MB less once gzipped;
// - the program name Emscripten reads from process.argv (os.environ["_"]) is the one a
//   browser gets, not a path of the build machine.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    pyodide: { type: "string" },
    micropip: { type: "string" },
    wheels: { type: "string" },
    out: { type: "string" },
  },
});
for (const name of ["pyodide", "micropip", "wheels", "out"]) {
  if (!args[name]) {
    console.error(`snapshot.mjs: --${name} is required`);
    process.exit(2);
  }
}
const started = performance.now();
globalThis.fetch = async (url) => {
  throw new Error(`snapshot.mjs: network access refused (${url})`);
};
process.argv[1] = "./this.program";

// web/js/engine/install.js is an ES module in a folder Node reads as CommonJS: import its text.
const here = path.dirname(fileURLToPath(import.meta.url));
const installSource = readFileSync(path.join(here, "..", "web", "js", "engine", "install.js"), "utf8");
const { installWheels, loadMicropip, withoutPackageTable } = await import(
  "data:text/javascript;base64," + Buffer.from(installSource).toString("base64")
);

const indexURL = path.resolve(args.pyodide) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL,
  _makeSnapshot: true,
  stdout: () => {},
  stderr: (text) => process.stderr.write(text + "\n"),
});
const startHeap = pyodide._module.HEAP8.length;
await loadMicropip(pyodide, path.resolve(args.micropip));
const wheels = JSON.parse(readFileSync(args.wheels, "utf8")).map((wheel) => ({
  name: path.basename(wheel.path),
  bytes: readFileSync(wheel.path),
  imports: wheel.imports,
}));
await installWheels(pyodide, wheels);
// The digest of the engine's description, which its `version` answer gives at every start,
// is computed now, once: the restored heap holds it (pyrules.registry.digest).
pyodide.runPython("__import__('pyrules.api').api.handle('{\"op\": \"version\"}')");
const modules = pyodide.runPython("import sys as _s; _n = len(_s.modules); del _s; _n");
pyodide.runPython("del _n");

// Zero what malloc holds free: allocate every free byte (the footprint limit stops malloc
// from growing the heap instead), zero it, free it all again.
const m = pyodide._module;
const zeroed = (() => {
  m._malloc_set_footprint_limit(m._malloc_footprint());
  const blocks = [];
  let total = 0;
  for (let size = 1 << 24; size >= 16; ) {
    const pointer = m._malloc(size);
    if (pointer) {
      m.HEAPU8.fill(0, pointer, pointer + size);
      blocks.push(pointer);
      total += size;
    } else {
      size >>= 1;
    }
  }
  for (const pointer of blocks) m._free(pointer);
  m._malloc_set_footprint_limit(0xffffffff); // no limit
  return total;
})();
const heap = m.HEAP8.length;
if (heap !== startHeap) {
  throw new Error(`the heap grew from ${startHeap} to ${heap} bytes`);
}
const snapshot = withoutPackageTable(pyodide, () => pyodide.makeMemorySnapshot());
writeFileSync(args.out, snapshot);
console.log(
  JSON.stringify({
    bytes: snapshot.byteLength,
    heap,
    modules,
    zeroed,
    ms: Math.round(performance.now() - started),
  }),
);
