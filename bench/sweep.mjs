// The `sweep` op in real Pyodide under Node: how long the largest sweeps take.
//
//   node bench/sweep.mjs --pyodide DIR --micropip MICROPIP.whl --wheel PYRULES.whl [--rounds N] < cases.json
//
// Run through `python bench/sweep.py`, which builds dist/ first. stdin: a JSON object
// {name: request}. Each round answers every request cold (the pool module's caches cleared
// first, as for a new set of inputs) then warm (the same request again). Prints one JSON
// object {"rounds": [{"case", "cold", "warm"}, ...]}, milliseconds.
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
const cases = JSON.parse(readFileSync(0, "utf8"));
const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: () => {} });
await pyodide.loadPackage(path.resolve(args.micropip), { messageCallback: () => {} });
const wheelName = path.basename(args.wheel);
pyodide.FS.writeFile(`/tmp/${wheelName}`, readFileSync(args.wheel));
await pyodide.runPythonAsync(`
import micropip
await micropip.install("emfs:/tmp/${wheelName}", deps=False)
import json
from pyrules.api import handle
from pyrules.systems import pool

def clear():
    for fn in (pool._flame_dist, pool._plain_poly, pool._normal_successes):
        fn.cache_clear()

def answer(text):
    out = json.loads(handle(text))
    assert out["ok"], out
`);
const clear = pyodide.globals.get("clear");
const answer = pyodide.globals.get("answer");

function timed(text) {
  const start = performance.now();
  answer(text);
  return performance.now() - start;
}

const rounds = [];
for (let i = 0; i < Number(args.rounds); i++) {
  for (const [name, request] of Object.entries(cases)) {
    const text = JSON.stringify(request);
    clear();
    const cold = timed(text);
    const warm = timed(text);
    rounds.push({ case: name, cold, warm });
  }
}
process.stdout.write(JSON.stringify({ rounds }) + "\n");
