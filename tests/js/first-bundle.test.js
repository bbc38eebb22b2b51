import assert from "node:assert/strict";
import path from "node:path";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

// main.js and its static chunks are what the page parses at start; the play screens
// (app/play.js) come in a chunk of their own, later (issue 40). Each module registers its own
// strings when it is imported: a text the first bundle shows must not be one whose strings
// only the later chunk brings, or the page would show the key itself until then.

const WEB = fileURLToPath(new URL("../../web/", import.meta.url));

/** The web/ modules in main.js's first bundle: main.js and what it imports statically. */
async function firstBundle() {
  const result = await esbuild.build({
    absWorkingDir: WEB,
    entryPoints: { main: "js/app/main.js" },
    outdir: "/nonexistent", // (nothing is written)
    bundle: true,
    splitting: true,
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
    define: { BUILT_SYSTEMS: "null" },
    plugins: [{ name: "vendor", setup: (build) => build.onResolve({ filter: /vendor\// }, (args) => ({ path: args.path, external: true })) }],
  });
  const outputs = result.metafile.outputs;
  const key = (file) => Object.keys(outputs).find((name) => name.endsWith(file));
  const main = outputs[key("/main.js")];
  const chunks = main.imports.filter((i) => i.kind === "import-statement").map((i) => outputs[key(path.basename(i.path))]);
  const later = main.imports.filter((i) => i.kind === "dynamic-import").map((i) => i.path);
  return { modules: [main, ...chunks].flatMap((output) => Object.keys(output.inputs)), later };
}

test("the play screens are not in the first bundle", async () => {
  const { modules, later } = await firstBundle();
  for (const screen of ["js/app/play.js", "js/characters/view.js", "js/combat/combat.js", "js/gm/stats.js", "js/sharing/table.js"]) {
    assert.ok(!modules.includes(screen), `${screen} is in the first bundle`);
  }
  assert.ok(later.some((file) => file.includes("play")), `no later chunk for the play screens: ${later}`);
});

test("every text the first bundle and index.html name is in the strings it brings", async () => {
  const { modules } = await firstBundle();
  const sources = Object.fromEntries(modules.map((file) => [file, readFileSync(path.join(WEB, file), "utf8")]));
  for (const [file, source] of Object.entries(sources)) {
    if (/\baddStrings\(/.test(source)) await import(pathToFileURL(path.join(WEB, file)).href);
  }
  const i18n = await import(pathToFileURL(path.join(WEB, "js/lib/i18n.js")).href);
  const known = new Set(i18n.catalogues().flatMap((table) => Object.keys(table.fr ?? {})));
  const missing = [];
  let named = 0;
  for (const [file, source] of Object.entries(sources)) {
    for (const [, name] of source.matchAll(/\bt\(\s*"([\w.-]+)"/g)) {
      named += 1;
      if (!known.has(name)) missing.push(`${file}: ${name}`);
    }
  }
  assert.ok(named > 100, `only ${named} texts found: the pattern no longer matches the code`);
  // index.html's own texts (data-i18n, data-i18n-title, ...): written again by applyStatic at
  // start, in the page's language, from the same catalogues.
  const html = readFileSync(path.join(WEB, "index.html"), "utf8");
  const statics = [...html.matchAll(/ data-i18n(?:-[\w-]+)?="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(statics.length > 30, `only ${statics.length} static texts found in index.html`);
  for (const name of statics) if (!known.has(name)) missing.push(`index.html: ${name}`);
  assert.deepEqual(missing, []);
});
