// Load the built pyrules wheel into real Pyodide under Node and answer API requests.
//
//   node run_api.mjs --pyodide DIR --micropip MICROPIP.whl [--dep DEP.whl ...] --wheel PYRULES.whl
//                    < requests.json
// (--dep: the engine's dependency wheels, version.json "wheels" but the last)
//
// stdin: a JSON list of request strings (each passed as is to pyrules.api.handle).
// stdout: one JSON object {"python", "pyodide", "pyrules", "answers": [answer strings],
//         "ms": [milliseconds each answer took, for bench/notation.py]}.
// Everything Pyodide prints goes to stderr. Nothing here touches the network: fetch is
// disabled, the runtime and both wheels are read from local files.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    pyodide: { type: "string" },
    micropip: { type: "string" },
    wheel: { type: "string" },
    dep: { type: "string", multiple: true },
  },
});
for (const name of ["pyodide", "micropip", "wheel"]) {
  if (!args[name]) {
    console.error(`run_api.mjs: --${name} is required`);
    process.exit(2);
  }
}

globalThis.fetch = async (url) => {
  throw new Error(`run_api.mjs: network access refused (${url})`);
};

const indexURL = path.resolve(args.pyodide) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const requests = JSON.parse(readFileSync(0, "utf8"));

const pyodide = await loadPyodide({
  indexURL,
  stdout: (line) => console.error(line),
  stderr: (line) => console.error(line),
});
// micropip by path: its PyPI wheel's hash differs from the one in pyodide-lock.json.
await pyodide.loadPackage(path.resolve(args.micropip), {
  messageCallback: (msg) => console.error(msg),
  errorCallback: (msg) => console.error(msg),
});
const micropip = pyodide.pyimport("micropip");
for (const dep of args.dep || []) {
  const depName = path.basename(dep);
  pyodide.FS.writeFile(`/tmp/${depName}`, readFileSync(dep));
  await micropip.install(`emfs:/tmp/${depName}`, { deps: false });
}
const wheelName = path.basename(args.wheel);
pyodide.FS.writeFile(`/tmp/${wheelName}`, readFileSync(args.wheel));
await micropip.install(`emfs:/tmp/${wheelName}`, { deps: false });

pyodide.globals.set("requests_json", JSON.stringify(requests));
const out = pyodide.runPython(`
import json, sys, time
import pyrules, pyrules.api
_answers, _ms = [], []
for _r in json.loads(requests_json):
    _t = time.perf_counter()
    _answers.append(pyrules.api.handle(_r))
    _ms.append((time.perf_counter() - _t) * 1000)
json.dumps({
    "python": sys.version,
    "pyrules": pyrules.__version__,
    "answers": _answers,
    "ms": _ms,
})
`);
const result = JSON.parse(out);
result.pyodide = pyodide.version;
process.stdout.write(JSON.stringify(result) + "\n");
