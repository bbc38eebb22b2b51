// Installing the engine into a Pyodide: the one piece of code shared by the build-time
// snapshot (tools/snapshot.mjs, under Node) and the worker's fallback start (worker.js),
// so that both leave Python in the same state.
//
// wheels: [{name, bytes, imports}] in install order (version.json "wheels", from build.py's
// list): each wheel is written to /tmp/<name> and installed by micropip (deps=False: no
// package index is ever asked), then its modules are imported ("pkg.*": every module of
// pkg but __main__ and cli). Everything must be imported now: a memory snapshot does not
// hold the installed files, so nothing may be imported lazily after a restore (the standard
// library stays importable: Pyodide mounts its zip again at every start).
// Then micropip is dropped, with every JS object its modules hold and every module it
// imported, and the garbage is collected: a snapshot can only be taken with no live JS
// proxy, and it is smaller without what only the install needed.
//
// The wheels' bytes are given to micropip as emfs: files. (Given an http URL, micropip would
// download it only once Python is up, and the JS Response it fetches stays referenced.)

const INSTALL = `
async def _pyrules_install(wheels):
    import gc, importlib, importlib.util, os, sys
    before = set(sys.modules)
    import micropip
    for wheel in wheels:
        await micropip.install("emfs:" + wheel["path"], deps=False)
        os.remove(wheel["path"])
    del micropip
    # Every module micropip brought in goes (about 130, its own and the standard library's
    # it needs): what the engine needs is imported again below, the rest is garbage.
    for name in [n for n in sys.modules if n not in before]:
        del sys.modules[name]
    importlib.invalidate_caches()
    for wheel in wheels:
        for spec in wheel["imports"]:
            if not spec.endswith(".*"):
                importlib.import_module(spec)
                continue
            package = spec[:-2]
            root = os.path.dirname(importlib.util.find_spec(package).origin)
            for folder, dirs, files in os.walk(root):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                prefix = package if folder == root else package + "." + os.path.relpath(folder, root).replace(os.sep, ".")
                for file in sorted(f for f in files if f.endswith(".py")):
                    name = file[:-3]
                    if name in ("__main__", "cli"):
                        continue
                    importlib.import_module(prefix if name == "__init__" else prefix + "." + name)
    gc.collect()
`;

/** Install `wheels` ({name, bytes, imports}) into `pyodide`, micropip already loaded. */
export async function installWheels(pyodide, wheels) {
  const plan = wheels.map((wheel) => {
    // micropip reads the wheel's file name for its name and version.
    const path = "/tmp/" + wheel.name;
    pyodide.FS.writeFile(path, wheel.bytes);
    return { path, imports: wheel.imports };
  });
  // The plan reaches Python as a JSON text inside a Python string literal (JSON string
  // syntax is valid Python), never as a JS object: no proxy is left behind.
  const literal = JSON.stringify(JSON.stringify(plan));
  await pyodide.runPythonAsync(
    `${INSTALL}\nimport json as _json\nawait _pyrules_install(_json.loads(${literal}))\ndel _pyrules_install, _json\n`,
  );
}

/** Load micropip from its wheel's URL (or path, under Node); rejects on failure. */
export async function loadMicropip(pyodide, url) {
  // loadPackage reports failures through errorCallback instead of rejecting.
  const problems = [];
  await pyodide.loadPackage(url, {
    messageCallback: () => {},
    errorCallback: (text) => problems.push(text),
  });
  if (problems.length) {
    throw new Error(problems.join(" "));
  }
}

/** Run make() with pyodide.loadedPackages emptied (a snapshot expects it as a fresh start
 * leaves it), then put its entries back, whatever make() did. */
export function withoutPackageTable(pyodide, make) {
  const table = pyodide.loadedPackages;
  const entries = Object.entries(table);
  for (const [name] of entries) {
    delete table[name];
  }
  try {
    return make();
  } finally {
    Object.assign(table, Object.fromEntries(entries));
  }
}
