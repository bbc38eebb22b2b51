// What installing the engine costs after loadPyodide(), in real Pyodide under Node:
// micropip (as the page does on a first visit) against unpacking the wheel with zipfile.
//
//   node bench/install.mjs --pyodide DIR --micropip MICROPIP.whl --wheel PYRULES.whl [--rounds N]
//
// Run through `python bench/install.py`, which builds dist/ first. Each round starts two
// fresh Pyodide instances, one per way, alternating which goes first. Prints one JSON object:
// {"rounds": [{"way", "loadPyodide", steps...}, ...]}, milliseconds.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    pyodide: { type: "string" },
    micropip: { type: "string" },
    wheel: { type: "string" },
    rounds: { type: "string", default: "5" },
  },
});
const indexURL = path.resolve(args.pyodide) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const wheelBytes = readFileSync(args.wheel);
const wheelName = path.basename(args.wheel);

// The same import of every pyrules module as web/js/engine/worker.js, after either install.
const IMPORT_ALL = `
import importlib, importlib.metadata
for _path in sorted(str(f) for f in importlib.metadata.files("pyrules")):
    if _path.startswith("pyrules/") and _path.endswith(".py"):
        _module = _path[:-3].replace("/", ".").removesuffix(".__init__")
        if _module.rpartition(".")[2] not in ("__main__", "cli"):
            importlib.import_module(_module)
`;

async function timed(row, name, action) {
  const start = performance.now();
  await action();
  row[name] = performance.now() - start;
}

async function once(way) {
  const row = { way };
  let pyodide;
  await timed(row, "loadPyodide", async () => {
    pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: () => {} });
  });
  pyodide.FS.writeFile(`/tmp/${wheelName}`, wheelBytes);
  if (way === "micropip") {
    await timed(row, "loadPackage micropip", () =>
      pyodide.loadPackage(path.resolve(args.micropip), { messageCallback: () => {} }),
    );
    await timed(row, "import micropip", () => pyodide.runPython("import micropip"));
    await timed(row, "micropip.install", () =>
      pyodide.runPythonAsync(`await micropip.install("emfs:/tmp/${wheelName}", deps=False)`),
    );
  } else {
    await timed(row, "zipfile unpack", () =>
      pyodide.runPython(`
import sys, zipfile, importlib
site = next(p for p in sys.path if p.endswith("site-packages"))
zipfile.ZipFile("/tmp/${wheelName}").extractall(site)
importlib.invalidate_caches()
`),
    );
  }
  await timed(row, "import pyrules", () => pyodide.runPython(IMPORT_ALL));
  return row;
}

const rounds = [];
for (let i = 0; i < Number(args.rounds); i++) {
  const order = i % 2 ? ["zipfile", "micropip"] : ["micropip", "zipfile"];
  for (const way of order) {
    rounds.push(await once(way));
  }
}
process.stdout.write(JSON.stringify({ rounds }) + "\n");
